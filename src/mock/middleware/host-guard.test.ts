/**
 * The Host allow-list: loopback names with any port, the names listed, the bound name; any other
 * Host (a DNS-rebinding page's own name) gets 421 with an Error, on the API and the admin API alike.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../server/serve.js';
import { AUTH, petstore } from '../../test-support/petstore.js';
import { allowedHostsFor, hostCheck, isHostPattern, isLoopbackAddress } from './host-guard.js';

describe('hostCheck', () => {
  it('passes loopback names with any port, and nothing else by default', () => {
    const check = hostCheck()!;
    for (const url of ['http://localhost/pets', 'http://localhost:4010/pets', 'http://127.0.0.1:1/', 'http://[::1]:4010/__admin/state', 'http://[::1]/']) expect(check(url), url).toBeUndefined();
    for (const url of ['http://rebind.evil.example/pets', 'http://rebind.evil.example:4010/', 'http://localhost.evil.example/', 'http://127.0.0.2:4010/', 'http://192.168.1.5:4010/', 'http://evil@127.0.0.1/']) {
      expect(check(url), url).toMatchObject({ status: 421, code: 'MISDIRECTED_REQUEST' });
    }
  });

  it('passes a listed name with any port, a name:port with that port only, and a .domain with its subdomains', () => {
    const check = hostCheck(['demo.example.com', 'api.example.org:8443', '.preview.example.net', '[fd00::5]'])!;
    for (const url of ['http://demo.example.com/', 'http://demo.example.com:4010/x', 'http://api.example.org:8443/', 'http://pr-12.preview.example.net/', 'http://preview.example.net:80/', 'http://[fd00::5]:4010/']) expect(check(url), url).toBeUndefined();
    for (const url of ['http://api.example.org/', 'http://api.example.org:8444/', 'http://xpreview.example.net/', 'http://demo.example.com.evil.example/', 'http://[fd00::6]/']) expect(check(url), url).toBeDefined();
  });

  it('says which names it answers to, and which flag adds one', () => {
    expect(hostCheck(['demo.example.com'])!('http://rebind.evil.example:4010/pets')?.message).toBe(
      'This server does not answer to Host rebind.evil.example:4010; it answers to localhost, 127.0.0.1, [::1], demo.example.com. Start it with --allowed-host rebind.evil.example to serve that name.',
    );
  });

  it('is absent for any', () => {
    expect(hostCheck('any')).toBeUndefined();
  });
});

describe('allowedHostsFor (what the CLI passes)', () => {
  it('answers the bound name, the names listed, and any Host on 0.0.0.0 or :: when none is listed', () => {
    expect(allowedHostsFor('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(allowedHostsFor('192.168.1.5', ['demo.example.com'])).toEqual(['demo.example.com', '192.168.1.5']);
    expect(allowedHostsFor('fd00::5')).toEqual(['[fd00::5]']);
    expect(allowedHostsFor('0.0.0.0')).toBe('any');
    expect(allowedHostsFor('::')).toBe('any');
    expect(allowedHostsFor('0.0.0.0', ['demo.example.com'])).toEqual(['demo.example.com']);
  });

  it('tells loopback addresses and valid --allowed-host values', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackAddress(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'example.com', 'localhost.evil.example']) expect(isLoopbackAddress(host), host).toBe(false);
    for (const name of ['demo.example.com', 'demo.example.com:8443', '.example.com', '[fd00::5]', '[::1]:4010', '10.0.0.7', 'Demo.Example.COM']) expect(isHostPattern(name), name).toBe(true);
    for (const name of ['', 'http://demo.example.com', 'demo.example.com/x', 'fd00::5', '*', 'a b', 'demo..example.com', '-demo.example.com', 'demo.example.com:']) expect(isHostPattern(name), name).toBe(false);
  });
});

describe('the Host allow-list of a mock (app.request)', () => {
  it('refuses a rebinding Host with 421 and an Error, on the API and on the admin API, and changes nothing', async () => {
    const { app, call } = await petstore({ allowedHosts: allowedHostsFor('127.0.0.1') });
    for (const [method, path] of [['GET', '/pets'], ['GET', '/__admin/state'], ['POST', '/__admin/reset'], ['POST', '/pets'], ['OPTIONS', '/pets']]) {
      const response = await app.request(`http://rebind.evil.example:4010${path}`, { method, headers: { ...AUTH, 'Content-Type': 'application/json' }, body: method === 'POST' ? '{"name":"Rebound","categoryId":1}' : undefined });
      expect(response.status, `${method} ${path}`).toBe(421);
      expect(await response.json()).toMatchObject({ code: 'MISDIRECTED_REQUEST', status: 421 });
    }
    expect((await call('GET', '/pets?limit=1')).headers.get('X-Total-Count')).toBe('20');
  });

  it('answers loopback names, the names given, and any Host with any', async () => {
    const loopback = await petstore({ allowedHosts: [] });
    for (const url of ['http://localhost/pets', 'http://127.0.0.1:4010/pets', 'http://[::1]:4010/pets']) expect((await loopback.app.request(url, { headers: AUTH })).status, url).toBe(200);
    const listed = await petstore({ allowedHosts: ['demo.example.com'] });
    expect((await listed.app.request('http://demo.example.com/pets', { headers: AUTH })).status).toBe(200);
    expect((await listed.app.request('http://other.example.com/pets', { headers: AUTH })).status).toBe(421);
    const any = await petstore({ allowedHosts: 'any' });
    expect((await any.app.request('http://other.example.com/pets', { headers: AUTH })).status).toBe(200);
  });

  it('checks nothing unless allowedHosts is given: in-process callers name any host (the contract suite\'s --dry-run)', async () => {
    const { app } = await petstore();
    expect((await app.request('http://staging.example.com/pets', { headers: AUTH })).status).toBe(200);
  });
});

describe('the Host allow-list over a real socket', () => {
  it('refuses a rebinding Host header with 421, and answers the server\'s own address', async () => {
    const mock = await petstore({ allowedHosts: allowedHostsFor('127.0.0.1') });
    const server = await startServer(mock.app, { port: 0, host: '127.0.0.1' });
    try {
      const send = (host: string) => raw(server.port, `GET /__admin/state HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      const rebound = await send(`rebind.evil.example:${server.port}`);
      expect(rebound.status).toBe(421);
      expect(JSON.parse(rebound.body)).toMatchObject({ code: 'MISDIRECTED_REQUEST', status: 421 });
      expect((await send(`127.0.0.1:${server.port}`)).status).toBe(200);
      expect((await send(`localhost:${server.port}`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

/** Sends raw bytes and resolves with the status and body once the server closes. */
function raw(port: number, request: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) }));
  });
}
