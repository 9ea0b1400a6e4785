/**
 * GET /__admin: the admin API lists its endpoints, from the table its routes are registered from,
 * behind the same guard as the rest of it.
 */
import { describe, expect, it } from 'vitest';
import { petstore } from '../../test-support/petstore.js';
import { NODE_REQUESTS } from '../../server/node-requests.js';

interface Listed {
  method: string;
  path: string;
  description: string;
}

const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('GET /__admin', () => {
  it('lists the admin endpoints, with /__admin/ the same', async () => {
    const { app } = await petstore();
    const response = await app.request('/__admin');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    const { endpoints } = (await response.json()) as { endpoints: Listed[] };
    expect(endpoints.map((e) => `${e.method} ${e.path}`)).toEqual([
      'GET /__admin',
      'POST /__admin/reset',
      'POST /__admin/seed',
      'GET /__admin/state',
      'PUT /__admin/state',
      'GET /__admin/requests',
      'GET /__admin/operations',
      'GET /__admin/sessions',
    ]);
    for (const endpoint of endpoints) expect(endpoint.description, endpoint.path).toMatch(/^\S.{10,200}$/);
    expect(await (await app.request('/__admin/')).json()).toEqual({ endpoints });
    expect((await app.request('/__admin', { method: 'HEAD' })).status).toBe(200);
  });

  it('lists every route the admin API registers, and each endpoint listed answers (no 404 or 405)', async () => {
    const mock = await petstore();
    const { endpoints } = (await (await mock.app.request('/__admin')).json()) as { endpoints: Listed[] };
    const registered = mock.app.routes.filter((route) => route.path.startsWith('/__admin') && route.method !== 'ALL').map((route) => `${route.method} ${route.path}`);
    expect(new Set(registered)).toEqual(new Set(endpoints.map((e) => `${e.method} ${e.path}`)));
    const state = await (await mock.app.request('/__admin/state')).text();
    for (const { method, path } of endpoints) {
      const body = method === 'GET' ? undefined : path.endsWith('/state') ? state : '{}';
      const response = await mock.app.request(path, { method, headers: JSON_TYPE, body });
      expect([404, 405], `${method} ${path}: ${response.status}`).not.toContain(response.status);
      expect(response.status, `${method} ${path}`).toBeLessThan(400);
    }
  });

  it('is guarded like the rest of the admin API: the token, or loopback only', async () => {
    const guarded = await petstore({ adminToken: 'admin-secret' });
    expect((await guarded.app.request('/__admin')).status).toBe(401);
    expect((await guarded.app.request('/__admin/')).status).toBe(401);
    expect((await guarded.app.request('/__admin', { headers: { Authorization: 'Bearer admin-secret' } })).status).toBe(200);
    const open = await petstore({ requestReader: NODE_REQUESTS });
    const remote = await open.app.request('/__admin', {}, { incoming: { socket: { remoteAddress: '203.0.113.9' }, headers: {} } });
    expect(remote.status).toBe(403);
    expect((await (await petstore({ admin: false })).app.request('/__admin')).status).toBe(404);
  });

  it('points a caller of an unknown admin path at the index', async () => {
    const { app } = await petstore();
    const response = await app.request('/__admin/nothing');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', message: 'The admin API has no GET /__admin/nothing; GET /__admin lists its endpoints.' });
  });
});
