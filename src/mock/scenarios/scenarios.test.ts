import { describe, expect, it } from 'vitest';
import { AUTH, petstore } from '../../test-support/petstore.js';
import { readScenario } from './read-scenario.js';
import { QueryString } from '../../core/query-string.js';

describe('readScenario', () => {
  it('reads Prefer and the query fallbacks, the query winning', () => {
    expect(readScenario('code=404, example=empty, dynamic=true, seed=7, delay=100-800', new QueryString(''))).toEqual({ code: 404, example: 'empty', dynamic: true, seed: 7, delay: [100, 800] });
    expect(readScenario(null, new QueryString('limit=2&__code=500&__delay=50'))).toEqual({ code: 500, delay: [50, 50] });
    expect(readScenario('code=404', new QueryString('__code=409'))).toEqual({ code: 409 });
    expect(readScenario('respond-async, wait=10', new QueryString(''))).toEqual({});
  });

  it('refuses a malformed preference with 400 INVALID_SCENARIO', () => {
    for (const prefer of ['code=abc', 'code=99', 'dynamic=yes', 'seed=-1', 'delay=fast', 'delay=900-100', 'delay=30001', 'example=']) {
      expect(readScenario(prefer, new QueryString('')), prefer).toMatchObject({ status: 400, code: 'INVALID_SCENARIO' });
    }
  });
});

describe('scenarios per request', () => {
  it('forces a declared error status with an Error body, changing nothing', async () => {
    const { call, store } = await petstore();
    const response = await call('POST', '/pets', { name: 'Rex', categoryId: 1 }, { Prefer: 'code=422' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'UNPROCESSABLE_ENTITY', message: "Forced by the request's scenario (code=422) on POST /pets.", status: 422 });
    expect(store.collection('pets').size).toBe(20);
  });

  it('forces a 401 with its WWW-Authenticate challenge, and a 404 through the query fallback', async () => {
    const { app } = await petstore();
    const unauthorized = await app.request('/pets', { headers: { ...AUTH, Prefer: 'code=401' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('WWW-Authenticate')).toBe('Bearer realm="Petstore"');
    const notFound = await app.request('/pets/1?__code=404', { headers: AUTH });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('Deprecation')).toBe('@1788220800'); // still the deprecated operation
  });

  it('refuses an undeclared status with 400 listing the declared ones', async () => {
    const { call } = await petstore();
    const { status, body } = await call('GET', '/pets', undefined, { Prefer: 'code=418' });
    expect(status).toBe(400);
    expect(body).toEqual({ code: 'SCENARIO_NOT_DECLARED', message: 'Prefer code=418: GET /pets declares 200, 400, 401.', status: 400 });
  });

  it('answers a named example of the document, with a matching total', async () => {
    const { app } = await petstore();
    const empty = await app.request('/pets', { headers: { ...AUTH, Prefer: 'example=empty' } });
    expect([empty.status, await empty.json(), empty.headers.get('X-Total-Count')]).toEqual([200, [], '0']);
    const puppies = await app.request('/pets?__example=puppies', { headers: AUTH });
    expect(((await puppies.json()) as any[]).map((p) => p.name)).toEqual(['Rex', 'Bella']);
    const rex = await app.request('/pets/1', { headers: { ...AUTH, Prefer: 'example=rex' } });
    expect(await rex.json()).toEqual({ id: 1, name: 'Rex', status: 'available', categoryId: 1 });
  });

  it('refuses an unknown example with 400 naming the known ones', async () => {
    const { call } = await petstore();
    const { status, body } = await call('GET', '/pets', undefined, { Prefer: 'example=kittens' });
    expect(status).toBe(400);
    expect(body.message).toBe('Prefer example=kittens: GET /pets has no such example; its examples are empty, puppies.');
  });

  it('looks example names up among the document\'s own: what every object inherits is no example (400, not an empty 200)', async () => {
    const { call } = await petstore();
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      for (const path of ['/pets', '/pets/1']) {
        const { status, body } = await call('GET', path, undefined, { Prefer: `example=${name}` });
        expect(status, `${path} example=${name}`).toBe(400);
        expect(body).toMatchObject({ code: 'SCENARIO_NOT_DECLARED', status: 400 });
      }
    }
  });

  it('generates a body from a seed (the same seed, the same body) or freshly with dynamic=true', async () => {
    const { call } = await petstore();
    const a = await call('GET', '/pets/1', undefined, { Prefer: 'seed=7' });
    const b = await call('GET', '/pets/1', undefined, { Prefer: 'seed=7' });
    const c = await call('GET', '/pets/1', undefined, { Prefer: 'seed=8' });
    expect(a.body).toEqual(b.body);
    expect(a.body).not.toEqual(c.body);
    const dynamic = await Promise.all([1, 2, 3].map(() => call('GET', '/pets', undefined, { Prefer: 'dynamic=true' })));
    expect(new Set(dynamic.map((d) => JSON.stringify(d.body))).size).toBeGreaterThan(1);
  });

  it('is never sticky: the next request without a scenario behaves as if none had been sent', async () => {
    const { call } = await petstore();
    const before = await call('GET', '/pets?limit=3');
    await call('GET', '/pets?limit=3', undefined, { Prefer: 'code=400, delay=10' });
    await call('GET', '/pets?limit=3&__example=empty');
    expect(await call('GET', '/pets?limit=3')).toEqual(before);
  });

  it('lets code=<normal success> go through the normal, stateful flow', async () => {
    const { call, store } = await petstore();
    const { status } = await call('POST', '/pets', { name: 'Rex', categoryId: 1 }, { Prefer: 'code=201' });
    expect(status).toBe(201);
    expect(store.collection('pets').size).toBe(21);
  });

  it('delays one response by the requested time, or a time in the requested range', async () => {
    const { call } = await petstore();
    let started = performance.now();
    await call('GET', '/pets?limit=1', undefined, { Prefer: 'delay=150' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    started = performance.now();
    await call('GET', '/pets?limit=1&__delay=50-80');
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(45);
    started = performance.now();
    await call('GET', '/pets?limit=1');
    expect(performance.now() - started).toBeLessThan(45);
  });

  it('still requires credentials: a scenario never opens the API', async () => {
    const { app } = await petstore();
    const response = await app.request('/pets', { headers: { Prefer: 'code=200, example=puppies' } });
    expect(response.status).toBe(401);
  });
});

describe('latency and faults for the whole server', () => {
  it('answers a share of requests with 500 INJECTED_FAULT, the same ones for the same seed', async () => {
    const run = async (seed: number) => {
      const { call } = await petstore({ seed, errorRate: 0.3 });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await call('GET', '/pets?limit=1')).status);
      return statuses;
    };
    const first = await run(3);
    expect(first.filter((s) => s === 500).length).toBeGreaterThan(4);
    expect(first.filter((s) => s === 500).length).toBeLessThan(25);
    expect(await run(3)).toEqual(first);
    expect(await run(4)).not.toEqual(first);
    const { call } = await petstore({ errorRate: 1 });
    expect((await call('GET', '/pets')).body).toMatchObject({ code: 'INJECTED_FAULT', status: 500 });
  });

  it('adds the server delay to every answer', async () => {
    const { call } = await petstore({ delay: [60, 80] });
    const started = performance.now();
    await call('GET', '/pets?limit=1');
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });
});

describe('CORS', () => {
  const preflight = (origin: string) => ({ method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' } });

  it('answers preflights for every route, any origin by default, without credentials', async () => {
    const { app, operations } = await petstore();
    for (const path of new Set(operations.map((op) => op.path.replace(/\{[^}]+\}/g, '1')))) {
      const response = await app.request(path, preflight('http://localhost:5173'));
      expect(response.status, path).toBe(204);
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
      expect(response.headers.get('Access-Control-Allow-Headers')).toMatch(/Authorization.*Content-Type/);
      expect(response.headers.get('Access-Control-Allow-Credentials')).toBeNull();
    }
  });

  it('exposes the pagination, deprecation and Location headers to browsers', async () => {
    const { app } = await petstore();
    const response = await app.request('/pets', { headers: { ...AUTH, Origin: 'http://localhost:5173' } });
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(response.headers.get('Access-Control-Expose-Headers')).toBe('X-Total-Count, Link, Location, Deprecation, Sunset, WWW-Authenticate');
  });

  it('with --cors-origin, echoes only the listed origins, with credentials, and refuses the others', async () => {
    const { app } = await petstore({ corsOrigins: ['http://localhost:5173'] });
    const allowed = await app.request('/pets', preflight('http://localhost:5173'));
    expect(allowed.headers.get('Access-Control-Allow-Origin')).toBe('http://localhost:5173');
    expect(allowed.headers.get('Access-Control-Allow-Credentials')).toBe('true');
    const other = await app.request('/pets', { headers: { ...AUTH, Origin: 'https://evil.example' } });
    expect(other.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  it('leaves a plain OPTIONS (no preflight) to the route: 204 with Allow', async () => {
    const { app } = await petstore();
    const response = await app.request('/pets', { method: 'OPTIONS' });
    expect(response.headers.get('Allow')).toBe('GET, POST, HEAD, OPTIONS');
  });
});
