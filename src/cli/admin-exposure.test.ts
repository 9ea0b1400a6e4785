/**
 * The CLI never starts with the admin API open to other machines or to a proxy's callers without a
 * token: --host beyond loopback and --trust-proxy need --admin-token or --no-admin. Also the
 * parsing of --allowed-host, --trust-proxy and --no-admin, and the real CLI refusing or serving.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CLI, startCli } from '../test-support/processes.js';
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

/** Runs the built CLI to completion (it must refuse before listening). */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { MOCK_ADMIN_TOKEN: _ignored, ...env } = process.env; // a token from the environment would let it start
  const child = spawn(process.execPath, [CLI, ...args], { env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('the CLI (dist/cli.js)', () => {
  it('exits 1 with one sentence, before listening, on 0.0.0.0 or behind a proxy without a token', async () => {
    for (const args of [['serve', '--host', '0.0.0.0', '--port', '0'], ['serve', '--trust-proxy', '--port', '0']]) {
      const { code, stdout, stderr } = await runCli(args);
      expect(code, args.join(' ')).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^Refusing to start: [^\n]+ or --no-admin to turn it off\.\n$/);
    }
  });

  it('lists the new flags in --help', async () => {
    const help = await runCli(['--help']);
    for (const flag of ['--allowed-host', '--trust-proxy', '--no-admin']) expect(help.stdout).toContain(flag);
  });

  it('with --no-admin answers 404 under /__admin and still serves the API; the banner says the admin API is off', async () => {
    const cli = await startCli(['--no-admin']);
    try {
      expect(cli.banner).toContain('  admin     off (--no-admin)');
      for (const [method, path] of [['GET', '/__admin/state'], ['POST', '/__admin/reset']]) {
        const response = await fetch(`${cli.url}${path}`, { method, headers: { 'Content-Type': 'application/json' } });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(await response.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', status: 404 });
      }
      expect((await fetch(`${cli.url}/pets?limit=1`, { headers: { Authorization: 'Bearer petstore-demo-key' } })).status).toBe(200);
    } finally {
      cli.child.kill();
    }
  });

  it('with --host 0.0.0.0 and no --allowed-host: warns at start that any Host is answered, and /__docs fills in the private key only for a loopback Host', async () => {
    const cli = await startCli(['--host', '0.0.0.0', '--admin-token', 'admin-token-1', '--api-key', 'private-key-1']);
    try {
      expect(cli.output()).toContain('--host 0.0.0.0 without --allowed-host answers any Host name');
      const port = new URL(cli.url).port;
      const docs = (host: string) =>
        new Promise<string>((resolve, reject) => {
          request({ host: '127.0.0.1', port, path: '/__docs', headers: { Host: host } }, (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk)).on('end', () => resolve(`${res.statusCode} ${body}`));
          }).on('error', reject).end();
        });
      for (const host of [`evil.example:${port}`, 'evil.example', `192.0.2.7:${port}`]) {
        const page = await docs(host);
        expect(page, host).toMatch(/^200 /);
        expect(page, host).not.toContain('private-key-1');
      }
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) expect(await docs(host), host).toContain('private-key-1');
    } finally {
      cli.child.kill();
    }
    // Naming the hosts: no warning.
    const named = await startCli(['--host', '0.0.0.0', '--admin-token', 'admin-token-1', '--allowed-host', 'demo.example.com']);
    try {
      expect(named.output()).not.toContain('without --allowed-host');
    } finally {
      named.child.kill();
    }
  });

  it('with --trust-proxy and a token, and --allowed-host: answers the listed name, refuses others with 421, and lists the names in the banner', async () => {
    const cli = await startCli(['--trust-proxy', '--admin-token', 'admin-token-1', '--allowed-host', 'demo.example.com']);
    try {
      expect(cli.banner).toContain('  hosts     localhost, 127.0.0.1, [::1], demo.example.com');
      expect(cli.banner).toContain('(token required)');
      const port = new URL(cli.url).port;
      // fetch cannot set Host; node:http can.
      const get = (host: string, path: string, headers: Record<string, string> = {}) =>
        new Promise<number>((resolve, reject) => {
          request({ host: '127.0.0.1', port, path, headers: { Host: host, ...headers } }, (res) => (res.resume(), resolve(res.statusCode!))).on('error', reject).end();
        });
      expect(await get('demo.example.com', '/pets?limit=1', { Authorization: 'Bearer petstore-demo-key' })).toBe(200);
      expect(await get('other.example.com', '/pets?limit=1', { Authorization: 'Bearer petstore-demo-key' })).toBe(421);
      // Behind the proxy every peer is loopback: the token, not the address, opens the admin API.
      expect(await get('demo.example.com', '/__admin/state')).toBe(401);
      expect(await get('demo.example.com', '/__admin/state', { Authorization: 'Bearer admin-token-1' })).toBe(200);
    } finally {
      cli.child.kill();
    }
  });
});
