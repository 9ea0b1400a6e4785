/**
 * The real CLI (dist/cli.js: `npm run build` first) refusing to start with the admin API open to
 * other machines or to a proxy's callers without a token, and serving with --no-admin, --host
 * 0.0.0.0 or --trust-proxy. The parsing of those flags: admin-exposure.test.ts.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../test-support/processes.js';

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
