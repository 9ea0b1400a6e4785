/**
 * A table of hostile requests, each a test. For every row: a status below 500, an Error body whose
 * status equals the HTTP status, no stack trace or file path in it, nosniff, the state unchanged
 * unless the row says the request is valid, and the app still serving afterwards.
 */
import { describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { AUTH, CORPUS, petstore } from '../test-support/petstore.js';

type Mock = Awaited<ReturnType<typeof petstore>>;

interface Row {
  name: string;
  send: (mock: Mock) => Response | Promise<Response>;
  status: number;
  code?: string;
  /** The request is valid: the state may change. */
  valid?: boolean;
  then?: (mock: Mock, body: any) => Promise<void> | void;
}

const json = { ...AUTH, 'Content-Type': 'application/json' };
const post = (body: RequestInit['body'], headers: Record<string, string> = json, path = '/pets') => (m: Mock) => m.app.request(path, { method: 'POST', body, headers });
const get = (path: string) => (m: Mock) => m.app.request(path, { headers: AUTH });
const snapshot = (m: Mock) => JSON.stringify(m.collections.map(({ name }) => [name, [...m.store.collection(name).all()]]));
/** An otherwise valid pet whose unknown field `nested` holds arrays `depth` levels deep. */
const nested = (depth: number) => `{"name":"x","categoryId":1,"nested":${'['.repeat(depth)}${']'.repeat(depth)}}`;

const rows: Row[] = [
  { name: 'truncated JSON', send: post('{"name": "Re'), status: 400, code: 'INVALID_JSON' },
  { name: 'malformed JSON (single quotes, bare keys)', send: post("{name: 'Rex'}"), status: 400, code: 'INVALID_JSON' },
  { name: 'an empty body where one is required', send: post(''), status: 400, code: 'MISSING_BODY' },
  { name: 'JSON null as the body', send: post('null'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a body over the 64 KiB limit', send: post(JSON.stringify({ name: 'x', categoryId: 1, note: 'y'.repeat(70_000) })), status: 413, code: 'PAYLOAD_TOO_LARGE' },
  { name: 'a 1 MB string', send: post(JSON.stringify({ name: 'x'.repeat(1_000_000) })), status: 413, code: 'PAYLOAD_TOO_LARGE' },
  { name: 'JSON nested 100,000 levels deep (over the size limit)', send: post(nested(100_000)), status: 413, code: 'PAYLOAD_TOO_LARGE' },
  { name: 'JSON nested 65 levels deep (within the size limit)', send: post(nested(65)), status: 400, code: 'INVALID_JSON' },
  {
    name: '__proto__, constructor and prototype keys in a body',
    send: post('{"name":"Proto","categoryId":1,"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}'),
    status: 201,
    valid: true,
    then: async (m, body) => {
      expect(Object.keys(body).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
      expect(Object.getPrototypeOf(m.store.collection('pets').get(body.id))).toBe(Object.prototype);
      expect((await m.call('GET', `/pets?id=${body.id}`)).body).toEqual([{ id: body.id, name: 'Proto', categoryId: 1, status: 'available' }]);
    },
  },
  { name: '__proto__ and constructor in a query string', send: get('/pets?__proto__[polluted]=1&constructor[prototype][polluted]=1&prototype=1'), status: 200, valid: true },
  { name: 'an id beyond 2^53', send: get('/pets/9007199254740993'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'an id of 2^64', send: get('/pets/18446744073709551616'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a body integer beyond 2^53', send: post('{"name":"Big","categoryId":9007199254740993}'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a negative id', send: get('/pets/-1'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a zero id', send: get('/pets/0'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a fractional id', send: get('/pets/1.5'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a non-numeric id', send: get('/pets/rex'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'an id in exponent form', send: get('/pets/1e3'), status: 400, code: 'VALIDATION_FAILED' },
  {
    name: 'a string with a NUL character',
    send: post('{"name":"a\\u0000b","categoryId":1}'),
    status: 201,
    valid: true,
    then: (m, body) => expect(m.store.collection('pets').get(body.id)?.name).toBe('a\u0000b'),
  },
  {
    name: 'a lone surrogate in a string (\\ud800, legal JSON, not Unicode text)',
    send: post('{"name":"\\ud800","categoryId":1}'),
    status: 400,
    code: 'VALIDATION_FAILED',
    then: (_, body) => expect(body.details).toEqual([{ path: 'body.name', rule: 'unicode', message: expect.stringContaining('lone surrogate (\\ud800)') }]),
  },
  { name: 'a lone surrogate as a property name', send: post('{"name":"x","categoryId":1,"\\udc00":1}'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'invalid UTF-8 bytes', send: post(new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])), status: 400, code: 'INVALID_JSON' },
  { name: 'a name of 100 emoji (100 characters, 400 bytes)', send: post(JSON.stringify({ name: '🐶'.repeat(100), categoryId: 1 })), status: 201, valid: true },
  { name: 'a name of 101 emoji', send: post(JSON.stringify({ name: '🐶'.repeat(101), categoryId: 1 })), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a repeated scalar query parameter', send: get('/pets?limit=1&limit=2'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'Content-Type missing', send: post(new TextEncoder().encode('{"name":"Rex","categoryId":1}'), AUTH), status: 400, code: 'INVALID_CONTENT_TYPE' },
  { name: 'Content-Type text/plain', send: post('{"name":"Rex","categoryId":1}', { ...AUTH, 'Content-Type': 'text/plain' }), status: 400, code: 'INVALID_CONTENT_TYPE' },
  { name: 'a form-encoded body', send: post('name=Rex', { ...AUTH, 'Content-Type': 'application/x-www-form-urlencoded' }), status: 400, code: 'INVALID_CONTENT_TYPE' },
  { name: 'application/json; charset=latin1', send: post('{"name":"Rex","categoryId":1}', { ...AUTH, 'Content-Type': 'application/json; charset=latin1' }), status: 400, code: 'INVALID_CONTENT_TYPE' },
  { name: 'a multipart body', send: post('--x\r\n\r\n--x--', { ...AUTH, 'Content-Type': 'multipart/form-data; boundary=x' }), status: 400, code: 'INVALID_CONTENT_TYPE' },
  { name: 'a percent-encoded slash in an id', send: get('/pets/1%2F2'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'percent-encoded .. segments in an id', send: get('/pets/..%2F..%2Fetc%2Fpasswd'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a percent-encoded NUL in an id', send: get('/pets/%00'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a malformed percent escape in an id', send: get('/pets/%E0%A4%A'), status: 400, code: 'VALIDATION_FAILED' },
  {
    name: 'a malformed percent escape in a query',
    send: get('/pets?status=%E0%A4%A'),
    status: 400,
    code: 'VALIDATION_FAILED',
    // refused for its encoding, not for a value outside the status enum
    then: (_, body) => expect(body.details).toEqual([{ path: 'query.status', rule: 'encoding', message: expect.any(String) }]),
  },
  { name: 'an unknown path', send: get('/admin/../../etc/passwd'), status: 404, code: 'ROUTE_NOT_FOUND' },
  { name: 'an unknown method on a known path', send: (m) => m.app.request('/pets', { method: 'PURGE', headers: AUTH }), status: 405, code: 'METHOD_NOT_ALLOWED' },
  { name: 'a JSON array where an object is expected', send: post('[{"name":"Rex","categoryId":1}]'), status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a huge number', send: post('{"name":"x","categoryId":1e400}'), status: 400, code: 'VALIDATION_FAILED' },
];

describe('hostile requests', () => {
  for (const row of rows) {
    it(`${row.name}: ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
      const mock = await petstore();
      const before = snapshot(mock);
      const response = await row.send(mock);
      const text = await response.text();
      expect(response.status, text.slice(0, 200)).toBe(row.status);
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(text).not.toMatch(/\n\s+at |\/(work|home|usr|tmp|root)\/|node_modules/);
      const body = text ? JSON.parse(text) : undefined;
      if (row.status >= 400) {
        expect(body).toMatchObject({ code: row.code, status: row.status });
        expect(body.message.length).toBeGreaterThan(10);
        expect(snapshot(mock)).toBe(before);
      }
      expect(Object.prototype).not.toHaveProperty('polluted');
      await row.then?.(mock, body);
      expect((await mock.call('GET', '/pets?limit=1')).status).toBe(200);
    });
  }

  it('JSON nested 100,000 levels deep, under a document with a 1 MiB limit: 400, never a crash', async () => {
    const { app } = buildMock(await loadDocument(`${CORPUS}/oai-petstore-expanded.yaml`));
    const deep = `{"name":"x","tag":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const response = await app.request('/api/pets', { method: 'POST', body: deep, headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/nested deeper than 64 levels/);
  });

  it('HEAD and OPTIONS on every path of the document', async () => {
    const mock = await petstore();
    for (const path of new Set(mock.operations.map((op) => op.path.replace(/\{[^}]+\}/g, '1')))) {
      const head = await mock.app.request(path, { method: 'HEAD', headers: AUTH });
      expect(head.status, `HEAD ${path}`).toBeLessThan(500);
      expect(await head.text(), `HEAD ${path}`).toBe('');
      const options = await mock.app.request(path, { method: 'OPTIONS' });
      expect(options.status, `OPTIONS ${path}`).toBe(204);
      expect(options.headers.get('Allow'), `OPTIONS ${path}`).toMatch(/OPTIONS$/);
    }
  });
});
