/**
 * The proxy in process, in front of upstreams that are themselves in process (a `fetch` that
 * calls a Hono app): the mock as a conforming upstream, the contract suite's fault servers as
 * broken ones, and a partial one for the fallback.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../mock/app.js';
import { loadContractParts } from '../contract/plugin.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { FAULTS } from '../test-support/contract-servers/faults.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { AUTH, FIXTURES, petstoreDocument } from '../test-support/petstore.js';
import type { UpstreamFetch } from './forward.js';
import { buildProxy, VIOLATIONS_HEADER, type ProxyExchange, type ProxyOptions } from './proxy.js';
import { ViolationLog } from './violations.js';

const UPSTREAM = 'http://upstream.test';
const PROXY = 'http://127.0.0.1:4010';

/** A fetch that hands the request to an in-process handler. */
const inProcess = (handle: (request: Request) => Response | Promise<Response>): UpstreamFetch => async (input, init) => handle(new Request(input, init));

async function upstreamMock() {
  return buildMock(await petstoreDocument(), { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS, seed: 3 });
}

async function proxyTo(handle: (request: Request) => Response | Promise<Response>, options: Partial<ProxyOptions> = {}) {
  const exchanges: ProxyExchange[] = [];
  const contractPlugins = await loadContractParts(DEFAULT_PLUGINS);
  const proxy = buildProxy(await petstoreDocument(), { upstream: UPSTREAM, fetch: inProcess(handle), onExchange: (e) => exchanges.push(e), contractPlugins, ...options, mock: { plugins: DEFAULT_PLUGINS, fixtures: FIXTURES, ...options.mock } });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = AUTH) => {
    const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) } };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const response = await proxy.fetch(new Request(`${PROXY}${path}`, init));
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
  };
  return { proxy, call, exchanges };
}

/** A session a front end might run: lists, reads, a create, its read back, an update, a delete, an order. */
async function session(call: Awaited<ReturnType<typeof proxyTo>>['call']) {
  expect((await call('GET', '/pets?limit=5')).status).toBe(200);
  expect((await call('GET', '/pets/1')).status).toBe(200);
  const created = await call('POST', '/pets', { name: 'Rex', categoryId: 1 });
  expect(created.status).toBe(201);
  expect((await call('GET', `/pets/${created.json.id}`)).status).toBe(200);
  expect((await call('PATCH', `/pets/${created.json.id}`, { status: 'pending' })).status).toBe(200);
  expect((await call('GET', '/categories')).status).toBe(200);
  expect((await call('DELETE', `/pets/${created.json.id}`)).status).toBe(204);
  expect((await call('GET', `/pets/${created.json.id}`)).status).toBe(404);
  expect((await call('GET', '/pets/1', undefined, {})).status).toBe(401);
}

describe('the proxy', () => {
  it('passes a conforming upstream\'s answers through unchanged and finds nothing over a session', async () => {
    const upstream = await upstreamMock();
    const { proxy, call, exchanges } = await proxyTo((request) => upstream.app.fetch(request));
    await session(call);
    expect(proxy.violations.counts().total).toBe(0);
    expect(exchanges.map((e) => e.answeredBy)).toEqual(Array(9).fill('upstream'));
    // The record created through the proxy is in the upstream's state, not the mock's.
    const direct = await upstream.app.request('/pets/1', { headers: AUTH });
    expect((await call('GET', '/pets/1')).text).toBe(await direct.text());
  });

  const RESPONSE_FAULTS = FAULTS.filter((fault) => ['status_code_conformance', 'response_schema_conformance', 'error_shape', 'response_headers_conformance', 'content_type_conformance'].includes(fault.caughtBy));

  it.each(RESPONSE_FAULTS.map((fault) => [fault.name, fault] as const))('reports the upstream that breaks it (%s) under the check that catches it, once per exchange', async (_, fault) => {
    const upstream = await upstreamMock();
    const { proxy, call, exchanges } = await proxyTo(fault.wrap(upstream));
    await session(call).catch(() => undefined); // a broken upstream may break the session's own expectations
    await call('GET', '/pets/999999');
    await call('POST', '/pets', { name: 7 });
    const counts = proxy.violations.counts();
    expect(counts.byCheck[fault.caughtBy], `${fault.breaks}: ${JSON.stringify(counts)}`).toBeGreaterThan(0);
    for (const exchange of exchanges) {
      // One violation per check and place in an exchange, never the same one twice.
      const keys = exchange.violations.map((v) => `${v.check} ${v.path} ${v.rule}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
    const violation = proxy.violations.latest(1000).find((v) => v.check === fault.caughtBy)!;
    expect(violation).toMatchObject({ answeredBy: 'upstream', kind: 'failure' });
    expect(violation.repro).toMatch(/^curl -sS -i -X [A-Z]+ 'http:\/\/upstream\.test\/(pets|orders|categories)/);
  });

  it('reports a request that breaks the document and forwards it; with errors, answers it with the document\'s error instead', async () => {
    const upstream = await upstreamMock();
    const seen: string[] = [];
    const handle = (request: Request) => {
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      return upstream.app.fetch(request);
    };
    const relaxed = await proxyTo(handle);
    expect((await relaxed.call('POST', '/pets', { name: 7, categoryId: 1 })).status).toBe(400);
    expect(seen).toEqual(['POST /pets']);
    expect(relaxed.proxy.violations.latest(10).map((v) => [v.check, v.path, v.answeredBy])).toEqual([['request_conformance', 'body.name', 'upstream']]);

    const strict = await proxyTo(handle, { errors: true });
    const refused = await strict.call('POST', '/pets', { name: 7, categoryId: 1 });
    expect(seen).toEqual(['POST /pets']); // not forwarded
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, details: [{ path: 'body.name' }] });
    expect(refused.headers.get(VIOLATIONS_HEADER)).toBe('request_conformance body.name');
    expect(strict.exchanges.at(-1)).toMatchObject({ answeredBy: 'proxy', status: 400 });
  });

  it('with errors, names what an answer breaks in X-Proxy-Violations; without, leaves the answer as the upstream sent it', async () => {
    const upstream = await upstreamMock();
    const fault = FAULTS.find((f) => f.name === 'pet-without-name')!;
    const quiet = await proxyTo(fault.wrap(upstream));
    expect((await quiet.call('GET', '/pets/1')).headers.get(VIOLATIONS_HEADER)).toBeNull();
    const loud = await proxyTo(fault.wrap(upstream), { errors: true });
    const answer = await loud.call('GET', '/pets/1');
    expect(answer.status).toBe(200);
    expect(answer.headers.get(VIOLATIONS_HEADER)).toBe('response_schema_conformance body.name');
  });

  it('reports a request no operation describes, and forwards it', async () => {
    const { proxy, call } = await proxyTo(() => new Response('{"ok":true}', { headers: { 'Content-Type': 'application/json' } }));
    expect((await call('GET', '/not-in-the-document')).json).toEqual({ ok: true });
    expect((await call('PUT', '/categories')).status).toBe(200);
    expect(proxy.violations.latest(10).map((v) => [v.check, v.documented])).toEqual([
      ['documented_operation', '/categories declares GET, POST, not PUT'],
      ['documented_operation', 'no path of the document matches /not-in-the-document'],
    ]);
  });

  it('fills in with the mock for what the upstream does not implement, and says which answered', async () => {
    const upstream = await upstreamMock();
    // Serves pets only: anything else is the framework's own 404 page.
    const partial = new Hono();
    partial.all('/pets/*', (c) => upstream.app.fetch(c.req.raw));
    partial.all('/pets', (c) => upstream.app.fetch(c.req.raw));
    partial.notFound(() => new Response('<h1>Cannot GET</h1>', { status: 404, headers: { 'Content-Type': 'text/html' } }));
    const { proxy, call, exchanges } = await proxyTo((request) => partial.fetch(request), { fallback: 'mock', mockOperations: ['listInventory'] });

    expect((await call('GET', '/categories')).status).toBe(200);
    expect((await call('GET', '/pets/1')).status).toBe(200);
    expect((await call('GET', '/pets/424242')).status).toBe(404); // the upstream's own 404, as the operation declares it
    expect((await call('GET', '/store/inventory')).status).toBe(200);
    expect(exchanges.map((e) => [e.path, e.answeredBy])).toEqual([
      ['/categories', 'mock'],
      ['/pets/1', 'upstream'],
      ['/pets/424242', 'upstream'],
      ['/store/inventory', 'mock'],
    ]);
    expect(exchanges[0].note).toMatch(/the upstream answered 404, not the operation's own answer/);
    expect(exchanges[3].note).toBe('--mock');
    expect(proxy.violations.counts().total).toBe(0);

    // The mock takes the upstream's credentials (it cannot judge them), and still refuses none at all.
    expect((await call('GET', '/store/orders', undefined, { Authorization: 'Bearer the-upstream-s-own-token' })).status).toBe(200);
    expect((await call('GET', '/store/orders', undefined, {})).status).toBe(401);
  });

  it('answers 502 with the document\'s error shape when the upstream cannot be reached, and falls back when asked', async () => {
    const down: UpstreamFetch = async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    };
    const bare = buildProxy(await petstoreDocument(), { upstream: UPSTREAM, fetch: down });
    const answer = await bare.fetch(new Request(`${PROXY}/pets/1`, { headers: AUTH }));
    expect(answer.status).toBe(502);
    expect(await answer.json()).toEqual({ code: 'BAD_GATEWAY', status: 502, message: 'The proxy got no answer: the upstream could not be reached (ECONNREFUSED).' });

    const filled = buildProxy(await petstoreDocument(), { upstream: UPSTREAM, fetch: down, fallback: 'mock', mock: { plugins: DEFAULT_PLUGINS, fixtures: FIXTURES } });
    expect((await filled.fetch(new Request(`${PROXY}/pets/1`, { headers: AUTH }))).status).toBe(200);
  });

  it('keeps the mock\'s own endpoints its own: the violations under the admin API\'s guard, never forwarded', async () => {
    const forwarded: string[] = [];
    const { call } = await proxyTo((request) => {
      forwarded.push(new URL(request.url).pathname);
      return new Response(JSON.stringify({ id: 'x' }), { headers: { 'Content-Type': 'application/json' } });
    }, { mock: { adminToken: 'admin-secret' } });
    await call('GET', '/pets/1');
    expect((await call('GET', '/__admin/violations', undefined, {})).status).toBe(401);
    const listed = await call('GET', '/__admin/violations?limit=5', undefined, { Authorization: 'Bearer admin-secret' });
    expect(listed.status).toBe(200);
    expect(listed.json.counts.total).toBe(listed.json.counts.failures);
    expect(listed.json.counts.byCheck.response_schema_conformance).toBeGreaterThan(0);
    expect(listed.json.violations.length).toBe(Math.min(5, listed.json.counts.total));
    expect(listed.json.violations[0]).toMatchObject({ id: listed.json.counts.total, operation: 'GET /pets/{petId}', request: 'GET /pets/1', answeredBy: 'upstream' });
    expect((await call('GET', '/__admin', undefined, { Authorization: 'Bearer admin-secret' })).json.endpoints).toContainEqual(expect.objectContaining({ path: '/__admin/violations' }));
    expect((await call('GET', '/__health')).status).toBe(200);
    expect((await call('GET', '/__spec.json')).json.info.title).toBe((await petstoreDocument()).api.info.title);
    expect(forwarded).toEqual(['/pets/1']);
  });

  it('masks the client\'s credentials and the cookies the upstream sets in every violation', async () => {
    const { proxy, call } = await proxyTo(
      () => new Response(JSON.stringify({ echo: `Bearer ${'s3cret-token-value'}`, session: 'cookie-value-123' }), { status: 418, headers: { 'Content-Type': 'application/json', 'Set-Cookie': 'sid=cookie-value-123; HttpOnly' } }),
    );
    await call('GET', '/pets/1', undefined, { Authorization: 'Bearer s3cret-token-value', Cookie: 'theme=dark-mode-long' });
    const text = JSON.stringify(proxy.violations.latest(10));
    expect(proxy.violations.counts().total).toBeGreaterThan(0);
    expect(text).not.toContain('s3cret-token-value');
    expect(text).not.toContain('cookie-value-123');
    expect(text).not.toContain('dark-mode-long');
    expect(text).toContain('***');
    expect(DEMO_API_KEY).not.toBe('s3cret-token-value');
  });

  it('keeps an API key sent in the query out of the log line and the violations', async () => {
    const api = structuredClone((await petstoreDocument()).raw) as { components: { securitySchemes: object } };
    api.components.securitySchemes = { ...api.components.securitySchemes, queryKey: { type: 'apiKey', in: 'query', name: 'api_key' } };
    const exchanges: ProxyExchange[] = [];
    const proxy = buildProxy(await loadDocument(api), { upstream: UPSTREAM, fetch: inProcess(() => new Response('{}', { status: 418, headers: { 'Content-Type': 'application/json' } })), onExchange: (e) => exchanges.push(e) });
    await proxy.fetch(new Request(`${PROXY}/pets/1?api_key=very-secret-key&x=1`));
    expect(exchanges[0].path).toBe('/pets/1?api_key=***&x=1');
    const text = JSON.stringify(proxy.violations.latest(10));
    expect(proxy.violations.counts().total).toBeGreaterThan(0);
    expect(text).not.toContain('very-secret-key');
  });

  it('with errors, names a violation whose path holds characters a header cannot carry (CR, LF, beyond Latin-1) in a header made safe, never a bare 500', async () => {
    const thing = { type: 'object', additionalProperties: false, properties: { name: { type: 'string' } } };
    const error = { description: 'Bad input.', content: { 'application/json': { schema: { type: 'object', required: ['code', 'message', 'status'], properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } } } } };
    const document = await loadDocument({
      openapi: '3.1.0',
      info: { title: 'Things', version: '1.0.0' },
      paths: {
        '/things': {
          post: { operationId: 'createThing', requestBody: { required: true, content: { 'application/json': { schema: thing } } }, responses: { '201': { description: 'Created.', content: { 'application/json': { schema: thing } } }, '400': error } },
          get: { operationId: 'listThings', responses: { '200': { description: 'A thing.', content: { 'application/json': { schema: thing } } } } },
        },
      },
    });
    const odd = 'a\r\nX-Injected: 1\u2028é';
    const proxy = buildProxy(document, { upstream: UPSTREAM, errors: true, fetch: inProcess(() => new Response(JSON.stringify({ name: 'x', [odd]: 1 }), { headers: { 'Content-Type': 'application/json' } })) });
    const refused = await proxy.fetch(new Request(`${PROXY}/things`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'x', [odd]: 1 }) }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    const answered = await proxy.fetch(new Request(`${PROXY}/things`));
    expect(answered.status).toBe(200);
    for (const response of [refused, answered]) {
      const named = response.headers.get(VIOLATIONS_HEADER)!;
      expect(named).toMatch(/^(request|response_schema)_conformance body/);
      expect(named).toMatch(/^[\x20-\x7e]+$/);
      expect(response.headers.get('X-Injected')).toBeNull();
    }
  });

  it('gives the client its answer when what listens for answers fails, and answers a failure of its own in the error shape', async () => {
    const warnings: string[] = [];
    const upstream = () => new Response(JSON.stringify({ id: 1, name: 'Rex', categoryId: 1 }), { headers: { 'Content-Type': 'application/json' } });
    const recording = buildProxy(await petstoreDocument(), {
      upstream: UPSTREAM,
      fetch: inProcess(upstream),
      mock: { onWarning: (message) => warnings.push(message) },
      onAnswer: () => {
        throw new Error('the disk is full');
      },
    });
    const answer = await recording.fetch(new Request(`${PROXY}/pets/1`, { headers: AUTH }));
    expect(answer.status).toBe(200);
    expect(warnings).toEqual(['The answer to GET /pets/{petId} could not be handed on to be recorded: the disk is full']);

    const logging = buildProxy(await petstoreDocument(), {
      upstream: UPSTREAM,
      fetch: inProcess(upstream),
      onExchange: () => {
        throw new Error('the log is gone');
      },
    });
    const failed = await logging.fetch(new Request(`${PROXY}/pets/1`, { headers: AUTH }));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ code: 'INTERNAL_ERROR', status: 500, message: 'The proxy failed to answer this request; it is still running.' });
  });

  it('keeps the latest violations up to its capacity, and counts them all', () => {
    const log = new ViolationLog(3);
    for (let i = 0; i < 10; i++) log.add({ check: i % 2 ? 'error_shape' : 'status_code_conformance', kind: 'failure', operation: 'GET /pets', received: `r${i}`, documented: 'd', request: 'GET /pets', answeredBy: 'upstream', repro: 'curl' }, new Date(0));
    expect(log.latest(10).map((v) => v.id)).toEqual([10, 9, 8]);
    expect(log.latest(10, 'error_shape').map((v) => v.id)).toEqual([10, 8]); // the even ids, within the last three
    expect(log.counts()).toEqual({ total: 10, failures: 10, gaps: 0, byCheck: { status_code_conformance: 5, error_shape: 5 } });
  });

  it('refuses an operation to answer with the mock that the document does not have', async () => {
    await expect(proxyTo(() => new Response(), { mockOperations: ['noSuchOperation'] })).rejects.toThrow(/--mock noSuchOperation: the document has no such operation/);
  });

  it('writes a JUnit file: a case per operation, failed, passed or skipped for want of traffic', async () => {
    const upstream = await upstreamMock();
    const { proxy, call } = await proxyTo(FAULTS.find((f) => f.name === 'pet-without-name')!.wrap(upstream));
    await call('GET', '/pets/1');
    await call('GET', '/categories');
    const xml = proxy.violations.junit(proxy.operations, proxy.checks);
    expect(xml).toMatch(/<testcase classname="response_schema_conformance" name="GET \/pets\/\{petId\} \(getPet\)">\s*<failure message="received 200 without body.name/);
    expect(xml).toContain('<testcase classname="response_schema_conformance" name="GET /categories (listCategories)"/>');
    expect(xml).toMatch(/<testcase classname="response_schema_conformance" name="DELETE \/pets\/\{petId\} \(deletePet\)">\s*<skipped message="no request for this operation went through the proxy"/);
  });
});
