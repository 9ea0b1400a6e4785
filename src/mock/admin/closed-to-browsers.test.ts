/**
 * The admin API is closed to web pages: no CORS grant, no state change from a form or a
 * `text/plain` fetch, none from another origin, none through a proxy without the token; and it
 * can be turned off. A page on any site must not be able to reset or replace a developer's mock.
 */
import { describe, expect, it } from 'vitest';
import { AUTH, petstore } from '../../test-support/petstore.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const preflight = (origin: string, method = 'POST') => ({ method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type' } });
const corsHeaders = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

/** A mock with one pet added to the seeded state, and a way to tell whether it is still there. */
async function changedMock(options: Parameters<typeof petstore>[0] = {}) {
  const mock = await petstore(options);
  const created = await mock.call('POST', '/pets', { name: 'Added by the developer', categoryId: 1 });
  expect(created.status).toBe(201);
  const stillChanged = async () => (await mock.call('GET', `/pets?id=${created.body.id}`)).body.length === 1;
  return { ...mock, stillChanged };
}

describe('CORS never covers /__admin', () => {
  it('refuses every preflight for an admin path with a 403 Error and no CORS headers, while the API keeps its CORS', async () => {
    const { app } = await petstore();
    for (const [path, method] of [['/__admin/reset', 'POST'], ['/__admin/state', 'PUT'], ['/__admin/seed', 'POST'], ['/__admin/state', 'GET'], ['/__admin', 'GET'], ['/__admin/', 'POST'], ['/%5F%5Fadmin/reset', 'POST']]) {
      const response = await app.request(path, preflight('http://localhost:5173', method));
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(corsHeaders(response), `${method} ${path}`).toEqual([]);
      expect(await response.json()).toMatchObject({ code: 'CORS_REFUSED', status: 403 });
    }
    const api = await app.request('/pets', preflight('http://localhost:5173'));
    expect([api.status, api.headers.get('Access-Control-Allow-Origin')]).toEqual([204, '*']);
  });

  it('sends no CORS headers on any admin answer, known path or not, even to an origin --cors-origin allows', async () => {
    for (const options of [{}, { corsOrigins: ['http://localhost:5173'] }]) {
      const { app } = await petstore(options);
      const origin = { Origin: 'http://localhost:5173' };
      for (const [method, path] of [['GET', '/__admin/state'], ['GET', '/__admin/requests'], ['GET', '/__admin/nothing'], ['GET', '/__admin'], ['POST', '/__admin/reset'], ['OPTIONS', '/__admin/reset']]) {
        const response = await app.request(path, { method, headers: { ...origin, ...JSON_TYPE } });
        expect(corsHeaders(response), `${method} ${path}`).toEqual([]);
      }
      // The mock API itself still answers that origin with CORS.
      expect((await app.request('/pets', { headers: { ...AUTH, ...origin } })).headers.get('Access-Control-Allow-Origin')).not.toBeNull();
    }
  });
});

describe('state-changing admin calls with a body need JSON', () => {
  it('refuses a reset, a seed and an import whose body is text/plain, a form, or has no Content-Type: 415, state unchanged', async () => {
    const { app, stillChanged, store } = await changedMock();
    const before = JSON.stringify(store.export());
    const sends: Array<[string, string, Record<string, string>, string]> = [
      ['POST', '/__admin/reset', { 'Content-Type': 'text/plain' }, '{}'],
      ['POST', '/__admin/seed', { 'Content-Type': 'text/plain' }, '{"seed":7}'],
      ['POST', '/__admin/seed', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'seed=7'],
      ['POST', '/__admin/seed', { 'Content-Type': 'multipart/form-data; boundary=x' }, '--x--'],
      ['PUT', '/__admin/state', { 'Content-Type': 'text/plain' }, '{"format":"petstore-mock-kit/state@1","collections":{}}'],
      ['PUT', '/__admin/state', {}, '{"format":"petstore-mock-kit/state@1","collections":{}}'],
      ['PATCH', '/__admin/state', { 'Content-Type': 'application/jsonx' }, '{}'],
    ];
    for (const [method, path, headers, body] of sends) {
      const response = await app.request(path, { method, headers, body });
      expect(response.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(415);
      expect(await response.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
    }
    expect(await stillChanged()).toBe(true);
    expect(JSON.stringify(store.export())).toBe(before);
  });

  it('accepts a body-less reset that says application/json, with or without a charset', async () => {
    for (const type of ['application/json', 'Application/JSON; charset=utf-8']) {
      const { app, stillChanged } = await changedMock();
      const response = await app.request('/__admin/reset', { method: 'POST', headers: { 'Content-Type': type } });
      expect(response.status).toBe(200);
      expect(await stillChanged()).toBe(false);
    }
  });

  it("accepts a script's body-less POST (no Origin, no Sec-Fetch-Site), whatever its Content-Type, with or without the token", async () => {
    for (const [options, auth] of [[{}, {}], [{ adminToken: 'admin-secret' }, { Authorization: 'Bearer admin-secret' }]] as const) {
      for (const headers of [{}, { 'Content-Type': 'text/plain' }, { 'Content-Type': 'application/x-www-form-urlencoded' }] as Array<Record<string, string>>) {
        const { app, stillChanged } = await changedMock(options);
        const response = await app.request('/__admin/reset', { method: 'POST', headers: { ...auth, ...headers } });
        expect(response.status, JSON.stringify(headers)).toBe(200);
        expect(await stillChanged()).toBe(false);
      }
    }
  });

  it('leaves reads alone: GET needs no Content-Type', async () => {
    const { app } = await petstore();
    expect((await app.request('/__admin/state')).status).toBe(200);
    expect((await app.request('/__admin/operations')).status).toBe(200);
  });
});

describe('state-changing admin calls from another origin', () => {
  it('refuses JSON calls whose Origin names another origin (another port, another host, null): 403, state unchanged', async () => {
    const { app, stillChanged } = await changedMock();
    for (const origin of ['http://localhost:5173', 'http://evil.example', 'https://localhost.evil.example', 'null', 'garbage']) {
      for (const [method, path, body] of [['POST', '/__admin/reset', undefined], ['POST', '/__admin/seed', '{"seed":3}'], ['PUT', '/__admin/state', '{}']] as const) {
        const response = await app.request(path, { method, headers: { ...JSON_TYPE, Origin: origin }, body });
        expect(response.status, `${origin} ${method} ${path}`).toBe(403);
        expect(await response.json()).toMatchObject({ code: 'ADMIN_CROSS_ORIGIN', status: 403 });
      }
    }
    expect(await stillChanged()).toBe(true);
  });

  it('refuses them when Sec-Fetch-Site says cross-site or same-site, even with the admin token', async () => {
    const { app, stillChanged } = await changedMock({ adminToken: 'admin-secret' });
    for (const site of ['cross-site', 'same-site']) {
      const response = await app.request('/__admin/reset', { method: 'POST', headers: { ...JSON_TYPE, Authorization: 'Bearer admin-secret', 'Sec-Fetch-Site': site } });
      expect(response.status, site).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'ADMIN_CROSS_ORIGIN', status: 403 });
    }
    expect(await stillChanged()).toBe(true);
  });

  it('refuses what a page can send without a preflight: a form from a sandboxed page (Origin: null), a body-less cross-site POST, a no-cors fetch from another origin', async () => {
    const { app, stillChanged } = await changedMock({ adminToken: 'admin-secret' });
    const token = { Authorization: 'Bearer admin-secret' };
    const sends: Array<[string, Record<string, string>, string | undefined]> = [
      ['/__admin/seed', { ...token, Origin: 'null', 'Content-Type': 'application/x-www-form-urlencoded' }, 'seed=7'],
      ['/__admin/reset', { ...token, Origin: 'null', 'Content-Type': 'application/x-www-form-urlencoded' }, undefined],
      ['/__admin/reset', { ...token, 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' }, undefined],
      ['/__admin/reset', { ...token, 'Sec-Fetch-Site': 'cross-site' }, undefined],
      ['/__admin/reset', { ...token, Origin: 'http://evil.example', 'Content-Type': 'text/plain' }, '{}'],
      // A sandboxed page of the mock's own origin (an answer that is not JSON): opaque, so cross-site.
      ['/__admin/seed', { ...token, Origin: 'null', 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Content-Type': 'text/plain' }, '{"seed":7}'],
      ['/__admin/reset', { ...token, Origin: 'null', 'Sec-Fetch-Site': 'same-origin' }, undefined],
    ];
    for (const [path, headers, body] of sends) {
      const response = await app.request(path, { method: 'POST', headers, body });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'ADMIN_CROSS_ORIGIN', status: 403 });
    }
    expect(await stillChanged()).toBe(true);
  });

  it("refuses them from a page of the mock's own origin too (no page of the mock writes here), even with the admin token", async () => {
    for (const [options, auth] of [[{}, {}], [{ adminToken: 'admin-secret' }, { Authorization: 'Bearer admin-secret' }]] as const) {
      const { app, stillChanged } = await changedMock(options);
      for (const headers of [{ Origin: 'http://localhost' }, { Origin: 'https://localhost' }, { Origin: 'http://localhost', 'Sec-Fetch-Site': 'same-origin' }, { 'Sec-Fetch-Site': 'same-origin' }] as Array<Record<string, string>>) {
        for (const [method, path, body] of [['POST', '/__admin/reset', undefined], ['POST', '/__admin/seed', '{"seed":3}'], ['PUT', '/__admin/state', '{}']] as const) {
          const response = await app.request(path, { method, headers: { ...auth, ...JSON_TYPE, ...headers }, body });
          expect(response.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
          expect(await response.json()).toMatchObject({ code: 'ADMIN_FROM_PAGE', status: 403 });
        }
      }
      expect(await stillChanged()).toBe(true);
    }
    const { app } = await petstore();
    const sameOrigin = await app.request('http://127.0.0.1:4010/__admin/reset', { method: 'POST', headers: { ...JSON_TYPE, Origin: 'http://127.0.0.1:4010' } });
    expect([sameOrigin.status, ((await sameOrigin.json()) as { code: string }).code]).toEqual([403, 'ADMIN_FROM_PAGE']);
    const otherPort = await app.request('http://127.0.0.1:4010/__admin/reset', { method: 'POST', headers: { ...JSON_TYPE, Origin: 'http://127.0.0.1:4011' } });
    expect([otherPort.status, ((await otherPort.json()) as { code: string }).code]).toEqual([403, 'ADMIN_CROSS_ORIGIN']);
  });

  it('accepts them without any Origin (a script) and from the address bar (Sec-Fetch-Site: none)', async () => {
    for (const headers of [{}, { 'Sec-Fetch-Site': 'none' }] as Array<Record<string, string>>) {
      const { app, stillChanged } = await changedMock();
      const response = await app.request('/__admin/reset', { method: 'POST', headers: { ...JSON_TYPE, ...headers } });
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(await stillChanged()).toBe(false);
    }
  });
});

describe('the admin API behind a proxy', () => {
  it('without a token refuses a loopback request that a proxy forwarded', async () => {
    const { app } = await petstore();
    for (const [name, value] of [['X-Forwarded-For', '203.0.113.9'], ['Forwarded', 'for=203.0.113.9'], ['X-Real-IP', '203.0.113.9'], ['Via', '1.1 nginx'], ['X-Forwarded-Host', 'demo.example.com']]) {
      const response = await app.request('/__admin/state', { headers: { [name]: value } });
      expect(response.status, name).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'ADMIN_FORBIDDEN', status: 403 });
    }
  });

  it('with trustProxy refuses every caller without a token, loopback included, and answers the token', async () => {
    const open = await petstore({ trustProxy: true });
    const refused = await open.app.request('/__admin/state');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'ADMIN_FORBIDDEN', message: expect.stringContaining('--trust-proxy') });
    const guarded = await petstore({ trustProxy: true, adminToken: 'admin-secret' });
    expect((await guarded.app.request('/__admin/state')).status).toBe(401);
    expect((await guarded.app.request('/__admin/state', { headers: { Authorization: 'Bearer admin-secret', 'X-Forwarded-For': '203.0.113.9' } })).status).toBe(200);
  });
});

describe('admin: false (--no-admin)', () => {
  it('answers 404 with an Error everywhere under /__admin, and no CORS, while the API works', async () => {
    const { app, call } = await petstore({ admin: false });
    for (const [method, path] of [['GET', '/__admin/state'], ['POST', '/__admin/reset'], ['PUT', '/__admin/state'], ['GET', '/__admin'], ['GET', '/__admin/requests']]) {
      const response = await app.request(path, { method, headers: { ...JSON_TYPE, Origin: 'http://localhost:5173' }, body: method === 'GET' ? undefined : '{}' });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(corsHeaders(response)).toEqual([]);
      expect(await response.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', status: 404, message: expect.stringContaining('--no-admin') });
    }
    expect((await call('GET', '/pets?limit=1')).status).toBe(200);
  });
});
