/**
 * The CLI never starts with the admin API open to other machines or to a proxy's callers without a
 * token: --host beyond loopback and --trust-proxy need --admin-token or --no-admin. Also the
 * parsing of --allowed-host, --trust-proxy and --no-admin. The real CLI refusing or serving:
 * admin-exposure.process.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseCommand, refuseToStart, type ServeArgs } from './parse-args.js';

const serveArgs = (argv: string[], env: Record<string, string> = {}) => {
  const parsed = parseCommand(argv, env);
  if (parsed.command !== 'serve') throw new Error(`not serve: ${JSON.stringify(parsed)}`);
  return parsed as ServeArgs;
};

describe('parsing the new flags', () => {
  it('reads --allowed-host (repeatable, lower-cased), --trust-proxy and --no-admin', () => {
    expect(serveArgs(['--allowed-host', 'Demo.Example.com', '--allowed-host', '.preview.example.net', '--trust-proxy', '--admin-token', 'admin-token-1'])).toMatchObject({
      allowedHosts: ['demo.example.com', '.preview.example.net'],
      trustProxy: true,
      adminToken: 'admin-token-1',
    });
    expect(serveArgs(['--no-admin'])).toMatchObject({ noAdmin: true, adminToken: undefined });
    expect(serveArgs([])).toMatchObject({ noAdmin: undefined, trustProxy: undefined, allowedHosts: undefined });
  });

  it('refuses a bad --allowed-host and --no-admin with --admin-token', () => {
    expect(parseCommand(['--allowed-host', 'http://demo.example.com'], {})).toEqual({
      command: 'error',
      message: '--allowed-host must be a host name or address like demo.example.com, demo.example.com:8443, .example.com or [::1], not "http://demo.example.com".',
    });
    expect(parseCommand(['--no-admin', '--admin-token', 'admin-token-1'], {})).toMatchObject({ command: 'error', message: expect.stringContaining('--no-admin') });
  });

  it('lets --no-admin win over a MOCK_ADMIN_TOKEN set for every run', () => {
    expect(serveArgs(['--no-admin'], { MOCK_ADMIN_TOKEN: 'from-the-env' })).toMatchObject({ noAdmin: true, adminToken: undefined });
  });
});

describe('refuseToStart', () => {
  it('refuses a bind beyond loopback, or --trust-proxy, without a token, in one sentence', () => {
    expect(refuseToStart(serveArgs(['--host', '0.0.0.0']))).toBe(
      'Refusing to start: --host 0.0.0.0 lets other machines reach the admin API, so it needs --admin-token (or MOCK_ADMIN_TOKEN), or --no-admin to turn it off.',
    );
    for (const host of ['::', '192.168.1.5', 'demo.example.com']) expect(refuseToStart(serveArgs(['--host', host])), host).toMatch(/^Refusing to start: --host .* needs --admin-token/);
    expect(refuseToStart(serveArgs(['--trust-proxy']))).toMatch(/^Refusing to start: behind a proxy \(--trust-proxy\) every caller looks local/);
  });

  it('starts on loopback without a token, and anywhere with a token (flag or environment) or --no-admin', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) expect(refuseToStart(serveArgs(['--host', host])), host).toBeUndefined();
    expect(refuseToStart(serveArgs(['--host', '0.0.0.0', '--admin-token', 'admin-token-1']))).toBeUndefined();
    expect(refuseToStart(serveArgs(['--host', '0.0.0.0'], { MOCK_ADMIN_TOKEN: 'admin-token-1' }))).toBeUndefined();
    expect(refuseToStart(serveArgs(['--host', '0.0.0.0', '--no-admin']))).toBeUndefined();
    expect(refuseToStart(serveArgs(['--trust-proxy', '--no-admin']))).toBeUndefined();
  });
});
