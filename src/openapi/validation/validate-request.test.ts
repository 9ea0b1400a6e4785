import { describe, expect, it } from 'vitest';
import { AUTH, petstore } from '../../test-support/petstore.js';

const { app, call, store } = await petstore();
const post = (body: RequestInit['body'], headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
  app.request('/pets', { method: 'POST', body, headers: { ...AUTH, ...headers } });

async function expectError(response: Response, status: number, code: string, message?: RegExp) {
  const body = (await response.json()) as any;
  expect({ status: response.status, code: body.code, bodyStatus: body.status }).toEqual({ status, code, bodyStatus: status });
  expect(response.headers.get('Content-Type')).toBe('application/json');
  if (message) expect(body.message).toMatch(message);
  return body;
}

describe('request validation', () => {
  it('refuses a body that is not JSON with INVALID_JSON', async () => {
    await expectError(await post('{"name": '), 400, 'INVALID_JSON', /not valid JSON/);
  });

  it('refuses a body without Content-Type with INVALID_CONTENT_TYPE', async () => {
    // Bytes, not a string: fetch would add text/plain to a string body.
    await expectError(await post(new TextEncoder().encode('{"name":"Rex","categoryId":1}'), {}), 400, 'INVALID_CONTENT_TYPE', /needs a Content-Type header; send application\/json/);
  });

  it('refuses text/plain and form bodies where JSON is declared', async () => {
    await expectError(await post('{"name":"Rex","categoryId":1}', { 'Content-Type': 'text/plain' }), 400, 'INVALID_CONTENT_TYPE', /text\/plain is not accepted/);
    await expectError(await post('name=Rex', { 'Content-Type': 'application/x-www-form-urlencoded' }), 400, 'INVALID_CONTENT_TYPE');
  });

  it('refuses a charset other than UTF-8 and accepts charset=utf-8', async () => {
    await expectError(await post('{"name":"Rex","categoryId":1}', { 'Content-Type': 'application/json; charset=latin1' }), 400, 'INVALID_CONTENT_TYPE', /UTF-8/);
    expect((await post('{"name":"Rex","categoryId":1}', { 'Content-Type': 'application/json; charset=UTF-8' })).status).toBe(201);
  });

  it('refuses bytes that are not UTF-8', async () => {
    await expectError(await post(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])), 400, 'INVALID_JSON', /UTF-8/);
  });

  it('refuses an empty body where one is required with MISSING_BODY', async () => {
    await expectError(await post(''), 400, 'MISSING_BODY');
  });

  it('names the missing required field', async () => {
    const body = await expectError(await post('{"categoryId":1}'), 400, 'VALIDATION_FAILED', /^body\.name: is required$/);
    expect(body.details).toEqual([{ path: 'body.name', rule: 'required', message: 'is required' }]);
    const noCategory = await expectError(await post('{"name":"Rex"}'), 400, 'VALIDATION_FAILED', /^body\.categoryId: is required$/);
    expect(noCategory.details).toEqual([{ path: 'body.categoryId', rule: 'required', message: 'is required' }]);
  });

  it('names a wrong type, an enum violation and a bound, all at once', async () => {
    const body = await expectError(await post(JSON.stringify({ name: 7, status: 'lost', categoryId: 0 })), 400, 'VALIDATION_FAILED', /^3 problems/);
    expect(body.details).toEqual([
      { path: 'body.name', rule: 'type', message: 'must be string' },
      { path: 'body.categoryId', rule: 'minimum', message: 'must be >= 1' },
      { path: 'body.status', rule: 'enum', message: 'must be one of available, pending, sold' },
    ]);
  });

  it('accepts strings at their maximum length and refuses one character more', async () => {
    expect((await post(JSON.stringify({ name: 'x'.repeat(100), categoryId: 1 }))).status).toBe(201);
    await expectError(await post(JSON.stringify({ name: 'x'.repeat(101), categoryId: 1 })), 400, 'VALIDATION_FAILED', /body\.name: must NOT have more than 100 characters/);
  });

  it('refuses an integer beyond 2^53 instead of rounding it', async () => {
    await expectError(await post('{"name":"Rex","categoryId":9007199254740993}'), 400, 'VALIDATION_FAILED', /body\.categoryId/);
    await expectError(await call('GET', '/pets/9007199254740993').then((r) => new Response(JSON.stringify(r.body), { status: r.status, headers: { 'Content-Type': 'application/json' } })), 400, 'VALIDATION_FAILED', /path\.petId/);
  });

  it('coerces and checks query parameters: type, bounds, enum and repetition', async () => {
    expect((await call('GET', '/pets?limit=100')).status).toBe(200);
    const cases: Array<[string, RegExp]> = [
      ['/pets?limit=0', /query\.limit: must be >= 1/],
      ['/pets?limit=101', /query\.limit: must be <= 100/],
      ['/pets?limit=ten', /query\.limit: must be integer/],
      ['/pets?limit=1&limit=2', /query\.limit: must be given at most once/],
      ['/pets?status=lost', /query\.status\.0: must be one of available, pending, sold/],
      ['/pets?offset=-1', /query\.offset: must be >= 0/],
    ];
    for (const [path, message] of cases) {
      const { status, body } = await call('GET', path);
      expect({ path, status, code: body.code }).toEqual({ path, status: 400, code: 'VALIDATION_FAILED' });
      expect(body.message, path).toMatch(message);
    }
  });

  it('checks path parameters: non-numeric, zero, negative and fractional ids are 400', async () => {
    for (const id of ['abc', '0', '-1', '1.5']) {
      const { status, body } = await call('GET', `/pets/${id}`);
      expect({ id, status }).toEqual({ id, status: 400 });
      expect(body.message).toMatch(/^path\.petId: /);
    }
  });

  it('refuses a body over the documented 64 KiB with 413 and an Error body', async () => {
    await expectError(await post(JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 })), 413, 'PAYLOAD_TOO_LARGE', /65536 bytes/);
  });

  it('leaves the state unchanged when a request is refused', async () => {
    const before = store.collection('pets').size;
    await post('{"name": 5, "categoryId": 1}');
    await post('{');
    expect(store.collection('pets').size).toBe(before);
  });

  it('answers an unknown path 404 and a known path with another method 405 with Allow', async () => {
    await expectError(await app.request('/nope', { headers: AUTH }), 404, 'ROUTE_NOT_FOUND', /GET \/nope/);
    const response = await app.request('/store/inventory', { method: 'POST', headers: AUTH });
    expect(response.headers.get('Allow')).toBe('GET, HEAD');
    await expectError(response, 405, 'METHOD_NOT_ALLOWED', /\/store\/inventory does not support POST/);
  });

  it('answers OPTIONS with the allowed methods and HEAD like GET without a body', async () => {
    const options = await app.request('/pets/1', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('Allow')).toBe('GET, PUT, DELETE, PATCH, HEAD, OPTIONS');
    const head = await app.request('/pets', { method: 'HEAD', headers: AUTH });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('ignores unknown body fields instead of storing them', async () => {
    const { status, body } = await call('POST', '/pets', { name: 'Rex', categoryId: 1, colour: 'brown', tag: 'dog', id: 999 });
    expect(status).toBe(201);
    expect(body.colour).toBeUndefined();
    expect(body.tag).toBeUndefined(); // no longer a field of the document
    expect(store.collection('pets').get(body.id)).toEqual({ id: body.id, name: 'Rex', categoryId: 1, status: 'available' });
    expect(body.id).not.toBe(999);
  });
});

describe('form bodies (any document)', () => {
  it('types form fields by their schema, and names the ones that break it', async () => {
    const { buildMock } = await import('../../mock/app.js');
    const { loadDocument } = await import('../document/load-document.js');
    const { CORPUS } = await import('../../test-support/petstore.js');
    const { app } = buildMock(await loadDocument(`${CORPUS}/oai-uspto.yaml`));
    const post = (body: string) =>
      app.request('/ds-api/oa_citations/v1/records', { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect((await post('criteria=*:*&start=0&rows=10')).status).toBe(200);
    const refused = await post('criteria=*:*&start=zero');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).message).toBe('body.start: must be integer');
  });
});
