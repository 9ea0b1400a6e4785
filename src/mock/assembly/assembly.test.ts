/**
 * The assembly's parts, put together by hand as buildMock does over the Petstore: the mock's own
 * endpoints (mounted or not by their options), who hears of each answer (createReporting), and one
 * pipeline per operation (operationPipelines) answering from the state it is given.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AdminControls } from '../admin/admin-api.js';
import { RequestLog, type RequestEntry } from '../admin/request-log.js';
import { ApiError } from '../../core/api-error.js';
import { cors, type Cors } from '../middleware/cors.js';
import { createState } from './create-state.js';
import { buildOperations } from '../../openapi/operations/build-operations.js';
import { inferCollections } from '../../openapi/operations/infer-collections.js';
import { RuleRegistry } from '../registries/rules.js';
import { bodyEncoders } from '../respond/body-encoders.js';
import { WEB_REQUESTS, type RequestReader } from '../pipeline/request-reader.js';
import { mountRoutes, type OperationHandler } from '../routing/mount-routes.js';
import { preferDirectives } from '../scenarios/read-scenario.js';
import { securitySchemeChecks } from '../security/authenticate.js';
import { exportSnapshot } from '../../state/snapshot.js';
import { petstoreDocument } from '../../test-support/petstore.js';
import { createAjv } from '../../openapi/validation/ajv-instance.js';
import { bodyDecoders } from '../../openapi/validation/body-decoders.js';
import { schemaCompiler } from '../../openapi/validation/compile-schema.js';
import { SchemaConverter } from '../../openapi/validation/to-json-schema.js';
import { operationPipelines, type PipelineOptions } from './operation-pipelines.js';
import { HEALTH_PATH, hiddenOperations, mountOwnEndpoints, type OwnEndpoints } from './own-endpoints.js';
import { createReporting } from './reporting.js';

const NOW = Date.UTC(2025, 0, 1);
const KEY = 'a-key';
const AUTH = { Authorization: `Bearer ${KEY}` };

/** Reporting into a log and a list of what onRequest heard, with a count of `changed` calls. */
function reportingFor(corsPolicy: Cors = cors(), secretParams: string[] = [], reader: RequestReader = WEB_REQUESTS) {
  const requests = new RequestLog(50, secretParams);
  const told: RequestEntry[] = [];
  const changed: number[] = [];
  const reporting = createReporting({ now: () => NOW, requests, onRequest: (entry) => void told.push({ ...entry }), changed: () => void changed.push(told.length), cors: corsPolicy, reader });
  return { reporting, requests, told, changed };
}

/** The Petstore, its own endpoints (`own` overrides) then one pipeline per operation (`pipeline` overrides). */
async function assemble(own: Partial<OwnEndpoints> = {}, pipeline: Partial<PipelineOptions> = {}) {
  const document = await petstoreDocument();
  const operations = buildOperations(document.api);
  const { collections, bindings } = inferCollections(operations);
  const ajv = createAjv(document.dialect);
  const converter = new SchemaConverter(document.api, ajv, document.dialect);
  const warn = () => undefined;
  const responseValidator = schemaCompiler(ajv, converter, 'response', warn);
  const state = createState({ collections, seed: 1, counts: { default: 3 }, seedHooks: [], maxSessions: 1, now: () => NOW, responseValidator, warn });
  const corsPolicy = cors();
  const { reporting, requests, told, changed } = reportingFor(corsPolicy);
  const app = new Hono();
  mountOwnEndpoints(app, { raw: document.raw, operations, collections, basePath: '', store: state.store, title: 'Petstore', apiKeys: [KEY], demoKey: KEY, cors: corsPolicy, reporting, reader: WEB_REQUESTS, ...own });
  const parts = { securitySchemes: securitySchemeChecks(), preferDirectives: preferDirectives(), bodyDecoders: bodyDecoders(), bodyEncoders: bodyEncoders(), rules: new RuleRegistry(), seedHooks: [] };
  const pipelines = operationPipelines({ parts, state, bindings, basePath: '', auth: { apiKeys: [KEY], realm: 'Petstore' }, ajv, converter, responseValidator, maxBodyBytes: 1 << 20, seed: 1, now: () => NOW, random: () => 0.5, cors: corsPolicy, record: reporting.record, reader: WEB_REQUESTS, warn, ...pipeline });
  const compiled = new Map<string, OperationHandler>(); // by operationId, the handler made for it
  mountRoutes(app, operations, '', (operation, route) => compiled.set(operation.id, pipelines(operation, route)).get(operation.id)!, reporting.finish);
  return { app, document, operations, state, requests, told, changed, compiled };
}

describe('mountOwnEndpoints', () => {
  it('without admin controls or docs assets: health and the document answer, /__admin and /__docs are 404, / leads nowhere', async () => {
    const { app, document, requests, told } = await assemble();
    const health = await app.request(HEALTH_PATH);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok', persistence: { enabled: false, ok: true, lastWrite: null, error: null } }]);
    expect(await (await app.request('/__spec.json')).json()).toEqual(document.raw);
    expect((await app.request('/__spec.yaml')).headers.get('content-type')).toMatch(/yaml/);
    expect((await app.request('/__admin/state')).status).toBe(404);
    expect((await app.request('/__docs')).status).toBe(404);
    expect((await app.request('/')).status).toBe(404);
    // Every answer is told to onRequest; the request log holds only the 404 of the routes (/ is no own endpoint here).
    expect(told.map(({ path, status }) => `${path} ${status}`)).toEqual(['/__health 200', '/__spec.json 200', '/__spec.yaml 200', '/__admin/state 404', '/__docs 404', '/ 404']);
    expect(requests.latest(10).map(({ path, status }) => `${path} ${status}`)).toEqual(['/ 404']);
    // Health is degraded (503) while the state cannot be saved.
    const persistence = { enabled: true, ok: false, lastWrite: null, error: 'disk full' };
    const degraded = await (await assemble({ persistence: () => persistence })).app.request(HEALTH_PATH);
    expect([degraded.status, await degraded.json()]).toEqual([503, { status: 'degraded', persistence }]);
  });

  it('with admin controls, a token and docs assets: the admin API behind its token, the docs page, and / leading there', async () => {
    const { state, requests } = await assemble();
    const admin: AdminControls = { storeFor: state.storeFor, reset: () => state.reset(), reseed: state.reseed, exportState: exportSnapshot, importState: () => undefined, requests, changed: () => undefined, answers: [], sessions: () => ({ max: 1, active: [], evicted: [] }) };
    const css = new TextEncoder().encode('main { margin: 0 }');
    const docs = { get: (name: string) => (name === 'docs-ui.css' ? { body: css } : undefined) };
    const { app, told } = await assemble({ admin, adminToken: 'admin-secret', docs });
    expect((await app.request('/__admin')).status).toBe(401);
    const exported = await app.request('/__admin/state', { headers: { Authorization: 'Bearer admin-secret' } });
    expect(((await exported.json()) as { collections: unknown }).collections).toEqual(state.store.export());
    expect(told.map(({ path, status }) => `${path} ${status}`)).toEqual(['/__admin 401', '/__admin/state 200']); // the guard's refusal too
    const page = await app.request('/__docs');
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(await (await app.request('/__docs/docs-ui.css')).text()).toBe('main { margin: 0 }');
    const root = await app.request('/');
    expect([root.status, root.headers.get('location')]).toEqual([302, '/__docs']);
  });
});

describe('hiddenOperations', () => {
  const op = (method: string) => ({ [method]: { operationId: `${method}It`, responses: { '200': { description: 'ok' } } } });
  const operations = buildOperations({
    openapi: '3.0.3',
    info: { title: 'Clashes', version: '1' },
    paths: { '/__health': { ...op('get'), ...op('post') }, '/__admin/stats': op('put'), '/__docs/guide': op('head'), '/__spec.yaml': op('get'), '/things': op('get') },
  });

  it('names the operations the own endpoints hide (writes beside the health check and the document stay served)', () => {
    expect(hiddenOperations(operations, '', true)).toEqual([
      "getIt: GET /__health is hidden by the mock's health check.",
      "putIt: /__admin/stats is hidden by the mock's admin API (/__admin).",
      "headIt: HEAD /__docs/guide is hidden by the mock's docs page (/__docs).",
      "getIt: GET /__spec.yaml is hidden by the mock's copy of the document (/__spec).",
    ]);
    expect(hiddenOperations(operations, '', false)).not.toContainEqual(expect.stringContaining('/__docs/guide')); // no docs page, nothing below it hidden
    expect(hiddenOperations(operations, '/v1', true)).toEqual([]); // under a base path nothing clashes
  });
});

describe('createReporting', () => {
  /** An app whose route records the status the request asks for (`x-status`). */
  function recording(corsPolicy?: Cors) {
    const reported = reportingFor(corsPolicy, ['api_key']);
    const app = new Hono();
    app.all('/pets', (c) => (reported.reporting.record(c, Number(c.req.header('x-status')), performance.now(), WEB_REQUESTS.headers(c)), c.body(null)));
    app.get('/own', (c) => reported.reporting.answered(c, performance.now(), new Response('mine', { status: 203 })));
    app.get('/missing', (c) => reported.reporting.finish(c, new Response(null, { status: 404 }), performance.now()));
    return { app, ...reported };
  }

  it('logs an answer of the document\'s paths and tells onRequest, keys redacted; `changed` only after a successful write to the shared state', async () => {
    const { app, requests, told, changed } = recording();
    const send = (method: string, status: number, headers: Record<string, string> = {}) => app.request('/pets?api_key=secret&limit=2', { method, headers: { 'x-status': String(status), ...headers } });
    await send('POST', 201);
    await send('GET', 200);
    await send('PUT', 422);
    await send('DELETE', 204, { 'X-Mock-Session': 'ci-1' });
    await send('PATCH', 200);
    expect(told.map(({ time, method, path, status, session, scenario }) => ({ time, method, path, status, session, scenario }))).toEqual(
      [['POST', 201], ['GET', 200], ['PUT', 422], ['DELETE', 204], ['PATCH', 200]].map(([method, status]) => ({ time: NOW, method, path: '/pets?api_key=REDACTED&limit=2', status, session: method === 'DELETE' ? 'ci-1' : undefined, scenario: 'none' })),
    );
    expect(requests.latest(10).map(({ method, status }) => `${method} ${status}`)).toEqual(['PATCH 200', 'DELETE 204', 'PUT 422', 'GET 200', 'POST 201']);
    expect(changed).toEqual([1, 5]); // after the POST and the PATCH: not a read, a refusal, nor a session's write
  });

  it('finishes an answer built outside the operations with the CORS headers of its Origin, and logs it; tells onRequest alone of its own answers', async () => {
    const { app, requests, told } = recording(cors({ origins: ['http://app.test'] }));
    const granted = await app.request('/missing', { headers: { Origin: 'http://app.test' } });
    expect(granted.headers.get('access-control-allow-origin')).toBe('http://app.test');
    expect((await app.request('/missing', { headers: { Origin: 'http://elsewhere.test' } })).headers.get('access-control-allow-origin')).toBeNull();
    expect(requests.latest(10).map(({ path, status }) => `${path} ${status}`)).toEqual(['/missing 404', '/missing 404']);
    const own = await app.request('/own');
    expect([own.status, await own.text()]).toEqual([203, 'mine']); // passed on as it was
    expect(told.map(({ path, status }) => `${path} ${status}`)).toEqual(['/missing 404', '/missing 404', '/own 203']);
    expect(requests.latest(10)).toHaveLength(2); // /own is not in the log
  });

  it('tells onRequest of a failure once: the admin API\'s by its observer, any other\'s by `failed`', async () => {
    const { reporting, told } = reportingFor();
    const app = new Hono();
    reporting.observeAdmin(app);
    app.get('/__admin/boom', () => Promise.reject(new Error('admin broke')));
    app.get('/pets', () => Promise.reject(new Error('pets broke')));
    app.onError((_error, c) => {
      const response = new Response(null, { status: 500 });
      reporting.failed(c, response);
      return response;
    });
    await app.request('/__admin/boom');
    await app.request('/pets');
    expect(told.map(({ path, status }) => `${path} ${status}`)).toEqual(['/__admin/boom 500', '/pets 500']);
  });

  it('wraps nothing when nobody listens; with a listener, tells it of preflights and refused Hosts, reading headers through its reader', async () => {
    const corsPolicy = cors();
    const silent = createReporting({ now: () => NOW, requests: new RequestLog(), changed: () => undefined, cors: corsPolicy, reader: WEB_REQUESTS });
    expect(silent.refusedHost).toBeUndefined();
    expect(silent.preflight).toBe(corsPolicy.preflight);
    const reader: RequestReader = { ...WEB_REQUESTS, headers: () => (name) => (name === 'x-mock-session' ? 'from-reader' : null) };
    const { reporting, told } = reportingFor(corsPolicy, [], reader);
    const app = new Hono().on('OPTIONS', '*', reporting.preflight);
    await app.request('/pets', { method: 'OPTIONS', headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'POST' } });
    reporting.refusedHost!(new Request('http://evil.test/pets', { headers: { 'X-Mock-Session': 's' } }), 421);
    expect(told.map(({ method, path, status, session }) => ({ method, path, status, session }))).toEqual([
      { method: 'OPTIONS', path: '/pets', status: 204, session: 'from-reader' },
      { method: 'GET', path: '/pets', status: 421, session: 's' }, // a refusal has a Request, no context: its own headers
    ]);
    expect(told[1].ms).toBe(0);
  });
});

describe('operationPipelines', () => {
  it('compiles one pipeline per operation, each answering its own operation from the state it is given', async () => {
    const { app, operations, state, compiled, requests, changed } = await assemble();
    expect([...compiled.keys()].sort()).toEqual(operations.map((op) => op.id).sort());
    expect(new Set(compiled.values()).size).toBe(operations.length); // a handler of its own each
    const list = (await (await app.request('/pets', { headers: AUTH })).json()) as Array<{ id: number }>;
    expect(list.map((pet) => pet.id)).toEqual([...state.store.collection('pets').all()].map((pet) => pet.id));
    expect(await (await app.request('/pets/2', { headers: AUTH })).json()).toEqual(state.store.collection('pets').get(2));
    const created = await app.request('/categories', { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Ferrets' }) });
    expect(created.status).toBe(201);
    expect(state.store.collection('categories').get(((await created.json()) as { id: number }).id)).toMatchObject({ name: 'Ferrets' });
    expect(requests.latest(10).map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual(['POST /categories 201', 'GET /pets/2 200', 'GET /pets 200']);
    expect(changed).toHaveLength(1);
  });

  it('checks the keys it is given, refuses writes while not writable, and tells a session it restarted once', async () => {
    const { app } = await assemble({}, { writable: () => new ApiError(503, 'STATE_NOT_SAVED', 'The state file cannot be written.') });
    expect((await app.request('/pets')).status).toBe(401);
    expect((await app.request('/pets', { headers: { Authorization: 'Bearer petstore-demo-key' } })).status).toBe(401); // only the keys given
    expect((await app.request('/categories', { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: '{"name":"Ferrets"}' })).status).toBe(503);
    // maxSessions 1: b evicts a, whose next answer says so, once.
    const restarted = async (session: string) => (await app.request('/pets', { headers: { ...AUTH, 'X-Mock-Session': session } })).headers.get('x-mock-session-restarted');
    expect([await restarted('a'), await restarted('b'), await restarted('a'), await restarted('a')]).toEqual([null, null, 'evicted', null]);
  });
});
