/**
 * Security: keys never logged or echoed, no stack traces or file paths in errors, security
 * headers on every kind of response, CORS never combining a wildcard origin with credentials,
 * and no mock-control route answering without protection. The CLI's log: security.process.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { AUTH, petstore } from '../test-support/petstore.js';
import type { MockPlugin } from '../mock/registries/extension.js';
import { NODE_REQUESTS } from '../server/node-requests.js';

const stop: Array<() => void> = [];
afterAll(() => stop.forEach((s) => s()));

describe('security', () => {
  it('never echoes the credentials sent, in the body or the challenge', async () => {
    const { app } = await petstore();
    const response = await app.request('/pets', { headers: { Authorization: 'Bearer <marker-4711>' } });
    const text = await response.text();
    expect(response.status).toBe(401);
    expect(`${text} ${response.headers.get('WWW-Authenticate')}`).not.toContain('marker-4711');
  });

  it('answers an internal failure with a 500 Error that holds no stack trace, file path or message of the failure', async () => {
    // A rule that throws: the failure happens inside the pipeline, after authentication and validation.
    const boom: MockPlugin = {
      name: 'boom',
      mock(parts) {
        parts.rules.register('getPet', {
          before: () => {
            throw new Error('boom at /work/main/src/state/store.ts:42:7 with petstore-demo-key');
          },
        });
        return true;
      },
    };
    const mock = await petstore({ plugins: [boom] });
    const response = await mock.app.request('/pets/1', { headers: AUTH });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ code: 'INTERNAL_ERROR', message: 'The mock failed to answer this request; it is still running.', status: 500 });
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(mock.warnings.at(-1)).toMatch(/boom/); // reported to the operator, not to the client
  });

  it('sets nosniff and no-store on every kind of response', async () => {
    const { app } = await petstore();
    const json = { ...AUTH, 'Content-Type': 'application/json' };
    const responses = await Promise.all([
      app.request('/pets', { headers: AUTH }),
      app.request('/pets', { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' }),
      app.request('/store/orders/1', { method: 'DELETE', headers: AUTH }),
      app.request('/pets', { method: 'POST', headers: json, body: '{' }),
      app.request('/pets'),
      app.request('/nowhere', { headers: AUTH }),
      app.request('/pets', { method: 'PURGE', headers: AUTH }),
      app.request('/pets', { method: 'POST', headers: json, body: 'x'.repeat(70_000) }),
      app.request('/pets', { method: 'OPTIONS' }),
      app.request('/pets', { method: 'HEAD', headers: AUTH }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 201, 204, 400, 401, 404, 405, 413, 204, 200]);
    for (const r of responses) {
      expect(r.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(r.headers.get('Cache-Control')).toBe('no-store');
    }
  });

  it('never combines a wildcard CORS origin with credentials', async () => {
    const { app } = await petstore();
    const origin = { Origin: 'https://evil.example' };
    const responses = await Promise.all([
      app.request('/pets', { headers: { ...AUTH, ...origin } }),
      app.request('/pets', { method: 'OPTIONS', headers: { ...origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' } }),
      app.request('/pets', { headers: origin }),
    ]);
    for (const r of responses) {
      const wildcard = r.headers.get('Access-Control-Allow-Origin') === '*';
      expect(wildcard && r.headers.get('Access-Control-Allow-Credentials') === 'true').toBe(false);
    }
  });

  it('admin routes refuse requests without the admin token, including ones with a petstore key', async () => {
    const { app } = await petstore({ adminToken: 'admin-token-9' });
    for (const [method, path] of [['GET', '/__admin/state'], ['POST', '/__admin/reset'], ['PUT', '/__admin/state'], ['POST', '/__admin/seed'], ['GET', '/__admin/requests']]) {
      for (const headers of [{}, AUTH]) {
        const response = await app.request(path, { method, headers });
        expect(response.status, `${method} ${path}`).toBe(401);
      }
    }
    // Without a token configured, a caller from elsewhere is refused.
    const open = await petstore({ requestReader: NODE_REQUESTS });
    const remote = await open.app.request('/__admin/state', {}, { incoming: { socket: { remoteAddress: '198.51.100.7', remotePort: 1, remoteFamily: 'IPv4' } } });
    expect(remote.status).toBe(403);
  });

});
