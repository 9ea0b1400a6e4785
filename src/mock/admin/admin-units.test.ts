/**
 * The admin API built alone: `adminApi` mounted on a bare Hono app with hand-made controls (no
 * document, no mock around it), its guard (token, loopback, proxies, other origins, non-JSON
 * bodies), `isLocalCaller`, `adminOff`; and the request log (a bounded ring, API keys redacted).
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/api-error.js';
import { WEB_REQUESTS, type RequestReader } from '../pipeline/request-reader.js';
import { SNAPSHOT_FORMAT } from '../../state/snapshot.js';
import { MemoryStore } from '../../state/memory-store.js';
import { ADMIN_PATH, adminApi, adminOff, isLocalCaller, type AdminControls, type AdminOptions } from './admin-api.js';
import { RequestLog, type LoggedRequest } from './request-log.js';

/** A reader that says the request came over a socket from another machine. */
const REMOTE: RequestReader = { ...WEB_REQUESTS, remoteAddress: () => '203.0.113.9' };
const JSON_TYPE = { 'Content-Type': 'application/json' };
type HeaderSet = Record<string, string>;
const entry = (path: string, time = 0): LoggedRequest => ({ time, method: 'GET', path, status: 200, ms: 1, scenario: 'none' });

/** The admin API on `/__admin` of a bare app, with controls that record what they were asked to do. */
function admin(options: AdminOptions = {}) {
  const calls: string[] = [];
  const requests = new RequestLog(10);
  requests.add(entry('/first', 1_000));
  requests.add(entry('/second', 2_000));
  const controls: AdminControls = {
    storeFor: (session) => (session === 'gone' ? new ApiError(404, 'SESSION_NOT_FOUND', 'No session gone.') : new MemoryStore([])),
    reset: (session) => void calls.push(`reset ${session ?? 'shared'}`),
    reseed: (change) => (calls.push(`reseed ${JSON.stringify(change)}`), change.seed === 13 ? 'too many records' : { seed: change.seed ?? 1, counts: change.counts ?? {} }),
    exportState: () => ({ format: SNAPSHOT_FORMAT, collections: {} }),
    importState: (_store, data) => (calls.push(`import ${JSON.stringify(data)}`), undefined),
    requests,
    changed: () => void calls.push('changed'),
    answers: [{ operationId: 'listThings' }],
    sessions: () => ({ max: 3, active: [], evicted: [] }),
  };
  const app = new Hono().route(ADMIN_PATH, adminApi(controls, options));
  return { app, calls, send: (path: string, init: RequestInit = {}) => app.request(`${ADMIN_PATH}${path}`, init) };
}

const codeOf = async (response: Response) => ((await response.json()) as { code: string }).code;

describe('adminApi: the guard', () => {
  it('with a token, refuses a missing or wrong one with 401 and a challenge, and answers the right one, from anywhere', async () => {
    const { send } = admin({ token: 'sesame', reader: REMOTE });
    for (const headers of [{}, { Authorization: 'Bearer sesam' }, { Authorization: 'Bearer sesame2' }, { Authorization: 'Basic sesame' }] as HeaderSet[]) {
      const refused = await send('/requests', { headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('WWW-Authenticate')).toBe('Bearer realm="mock-admin"');
      expect(await codeOf(refused)).toBe('ADMIN_UNAUTHORIZED');
    }
    // The token opens it even for a remote caller: the handler answers with the log, newest first.
    const answered = await send('/requests', { headers: { Authorization: 'bearer sesame' } });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ requests: [expect.objectContaining({ path: '/second' }), expect.objectContaining({ path: '/first' })] });
  });

  it('without a token, answers in-process and loopback callers, and refuses remote ones, proxied ones and --trust-proxy with 403', async () => {
    expect((await admin().send('/requests')).status).toBe(200);
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect((await admin({ reader: { ...WEB_REQUESTS, remoteAddress: () => address } }).send('/requests')).status, address).toBe(200);
    }
    const remote = await admin({ reader: REMOTE }).send('/requests');
    expect([remote.status, await codeOf(remote)]).toEqual([403, 'ADMIN_FORBIDDEN']);
    for (const header of ['X-Forwarded-For', 'Forwarded', 'X-Real-IP', 'Via']) {
      const proxied = await admin().send('/requests', { headers: { [header]: '198.51.100.1' } });
      expect([proxied.status, await codeOf(proxied)], header).toEqual([403, 'ADMIN_FORBIDDEN']);
    }
    expect((await admin({ trustProxy: true }).send('/requests')).status).toBe(403);
  });

  it('refuses a write a browser says a page sent, of another site or origin, a sandboxed one, or its own; lets scripts, the address bar and reads through', async () => {
    const { send, calls } = admin();
    const crossOrigin = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'http://evil.example' },
      { Origin: 'null' },
      // A sandboxed page (every answer of the mock that is not JSON): an opaque origin.
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'null' },
      // Either header naming another origin is enough.
      { 'Sec-Fetch-Site': 'same-origin', Origin: 'null' },
      { 'Sec-Fetch-Site': 'same-origin', Origin: 'http://evil.example' },
      { 'Sec-Fetch-Site': 'none', Origin: 'null' },
    ] as HeaderSet[];
    for (const headers of crossOrigin) {
      const refused = await send('/reset', { method: 'POST', headers: { ...JSON_TYPE, ...headers } });
      expect([refused.status, await codeOf(refused)], JSON.stringify(headers)).toEqual([403, 'ADMIN_CROSS_ORIGIN']);
    }
    // A page of the mock's own origin: none of the mock's pages writes here, so a script that should not run there.
    for (const headers of [{ 'Sec-Fetch-Site': 'same-origin' }, { 'Sec-Fetch-Site': 'same-origin', Origin: 'http://localhost' }, { Origin: 'http://localhost' }, { Origin: 'https://localhost' }] as HeaderSet[]) {
      const refused = await send('/reset', { method: 'POST', headers: { ...JSON_TYPE, ...headers } });
      expect([refused.status, await codeOf(refused)], JSON.stringify(headers)).toEqual([403, 'ADMIN_FROM_PAGE']);
    }
    expect(calls).toEqual([]); // nothing was reset
    // No page: a script (neither header) and the browser's own address bar.
    for (const headers of [{}, { 'Sec-Fetch-Site': 'none' }] as HeaderSet[]) {
      expect((await send('/reset', { method: 'POST', headers: { ...JSON_TYPE, ...headers } })).status, JSON.stringify(headers)).toBe(200);
    }
    // Reads are left to CORS (none is granted): the docs page's request-log drawer reads from the mock's origin.
    for (const site of ['cross-site', 'same-origin']) expect((await send('/state', { headers: { 'Sec-Fetch-Site': site } })).status, site).toBe(200);
    expect((await send('/requests', { headers: { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty', Referer: 'http://localhost/__docs' } })).status).toBe(200);
  });

  it('refuses a body that is not JSON with 415, and accepts a bodyless POST whatever its Content-Type', async () => {
    const { send, calls } = admin();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const refused = await send('/seed', { method: 'POST', headers: { 'Content-Type': type }, body: '{"seed":5}' });
      expect([refused.status, await codeOf(refused)], type).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    expect(calls).toEqual([]);
    const bodyless = await send('/reset', { method: 'POST', headers: { 'Content-Type': 'text/plain' } });
    expect(await bodyless.json()).toEqual({ reset: 'shared', counts: {} });
    // The JSON body the guard let through is the one the handler reads.
    expect(await (await send('/seed', { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: '{"seed":5}' })).json()).toEqual({ seed: 5, counts: {} });
    expect(calls).toEqual(['reset shared', 'changed', 'reseed {"seed":5}', 'changed']);
  });
});

describe('adminApi: the handlers', () => {
  it('acts on the session named, says so, and tells the state file only of shared changes', async () => {
    const { send, calls } = admin();
    expect(await (await send('/reset', { method: 'POST', headers: { 'X-Mock-Session': 'alice' } })).json()).toEqual({ reset: 'alice', counts: {} });
    expect(calls).toEqual(['reset alice']);
    const gone = await send('/reset', { method: 'POST', headers: { 'X-Mock-Session': 'gone' } });
    expect([gone.status, await codeOf(gone)]).toEqual([404, 'SESSION_NOT_FOUND']);
    expect(calls).toEqual(['reset alice']);
  });

  it('checks its inputs: seed and counts, JSON syntax, the limit of /requests; a refused reseed is 507', async () => {
    const { send, calls } = admin();
    const post = (body: string) => send('/seed', { method: 'POST', headers: JSON_TYPE, body });
    expect((await post('{"seed":-1}')).status).toBe(400);
    expect((await post('{"counts":{"pets":1000001}}')).status).toBe(400);
    expect(await codeOf(await post('{"seed":'))).toBe('INVALID_JSON');
    expect((await post('{"seed":13}')).status).toBe(507);
    expect(calls).toEqual(['reseed {"seed":13}']); // refused: the state file is not told
    for (const limit of ['0', '501', '1.5', 'x']) expect((await send(`/requests?limit=${limit}`)).status, limit).toBe(400);
    expect(((await (await send('/requests?limit=1')).json()) as { requests: unknown[] }).requests).toHaveLength(1);
  });

  it('lists its endpoints at /__admin and /__admin/, and answers 404 for anything else', async () => {
    const { send } = admin();
    const listing = (await (await send('/')).json()) as { endpoints: Array<{ method: string; path: string }> };
    expect(listing.endpoints.map(({ method, path }) => `${method} ${path}`)).toEqual(
      ['GET /__admin', 'POST /__admin/reset', 'POST /__admin/seed', 'GET /__admin/state', 'PUT /__admin/state', 'GET /__admin/requests', 'GET /__admin/operations', 'GET /__admin/sessions'],
    );
    expect(await (await send('')).json()).toEqual(listing);
    expect(await (await send('/operations')).json()).toEqual({ operations: [{ operationId: 'listThings' }] });
    const unknown = await send('/nothing');
    expect([unknown.status, await codeOf(unknown)]).toEqual([404, 'ROUTE_NOT_FOUND']);
  });
});

describe('isLocalCaller and adminOff', () => {
  it('is true only for a loopback peer that named a loopback host and came through no proxy', async () => {
    const probe = (reader: RequestReader) => new Hono().get('*', (c) => c.json(isLocalCaller(c, reader)));
    const local = async (url: string, headers: Record<string, string> = {}, reader = WEB_REQUESTS) => (await probe(reader).request(url, { headers })).json();
    expect(await local('http://localhost/docs')).toBe(true);
    expect(await local('http://127.0.0.1:4010/docs')).toBe(true);
    expect(await local('http://[::1]:4010/docs')).toBe(true);
    expect(await local('http://rebind.evil.example/docs')).toBe(false); // DNS rebinding: a loopback peer, a foreign Host
    expect(await local('http://localhost/docs', { 'X-Forwarded-For': '198.51.100.1' })).toBe(false);
    expect(await local('http://localhost/docs', {}, REMOTE)).toBe(false);
  });

  it('adminOff answers every method and path with a 404 that says the admin API is off', async () => {
    const app = new Hono().route(ADMIN_PATH, adminOff());
    for (const [method, path] of [['GET', '/__admin/state'], ['POST', '/__admin/reset'], ['GET', '/__admin']]) {
      const response = await app.request(path, { method });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', message: expect.stringContaining('--no-admin') });
    }
  });
});

describe('RequestLog', () => {
  it('keeps only the last `size` requests, newest first, however often the ring wraps; limit cuts the list', () => {
    const log = new RequestLog(3);
    for (let i = 1; i <= 7; i++) log.add(entry(`/r${i}`, i * 1_000));
    expect(log.latest(10).map((e) => e.path)).toEqual(['/r7', '/r6', '/r5']);
    expect(log.latest(2).map((e) => e.path)).toEqual(['/r7', '/r6']);
    expect(log.latest(1)[0].time).toBe('1970-01-01T00:00:07.000Z'); // shown as an ISO date
  });

  it('redacts the values of the query parameters it was given, by decoded name, and only those', () => {
    const log = new RequestLog(5, ['api_key']);
    log.add(entry('/pets?api_key=secret&limit=2'));
    log.add(entry('/pets?api%5Fkey=secret'));
    log.add(entry('/pets?key=kept'));
    expect(log.latest(5).map((e) => e.path)).toEqual(['/pets?key=kept', '/pets?api%5Fkey=REDACTED', '/pets?api_key=REDACTED&limit=2']);
    expect(new RequestLog(5).redact('/pets?api_key=secret')).toBe('/pets?api_key=secret'); // no names given: nothing redacted
  });

  it('leaves out a scenario of `none`, and keeps one that did something', () => {
    const log = new RequestLog(5);
    log.add(entry('/plain'));
    log.add({ ...entry('/forced'), scenario: { asked: { code: 404 }, outcome: 'forced' } });
    const [forced, plain] = log.latest(5);
    expect(forced.scenario).toEqual({ asked: { code: 404 }, outcome: 'forced' });
    expect('scenario' in plain).toBe(false);
  });
});
