/**
 * The pipeline of one operation, built alone (no document's mock around it) and sent requests
 * through a one-route Hono app: the stages run in order (authenticate, validate, act on state,
 * respond), a stage that refuses stops those after it, and every answer is recorded once.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ApiError, errors } from '../core/api-error.js';
import { Registry } from '../core/registry.js';
import { handleOperation, type OperationParts, type RequestTrace } from './handle-operation.js';
import { buildOperations } from '../openapi/operations/build-operations.js';
import type { ActionInput } from './pipeline/exchange.js';
import { createChaos } from './scenarios/chaos.js';
import type { PreferDirective } from './scenarios/read-scenario.js';
import type { StateStore, TransactIntent } from '../state/state-store.js';
import type { ValidRequest } from '../openapi/validation/validate-request.js';
import { WEB_REQUESTS } from './pipeline/request-reader.js';
import { bodyEncoders } from './respond/body-encoders.js';

const [getThing, putThing, postThing] = buildOperations({
  openapi: '3.0.3',
  info: { title: 'things', version: '1' },
  paths: {
    '/things/{id}': {
      get: { operationId: 'getThing', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } },
      put: { operationId: 'putThing', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } },
      // Answers in JSON or its own JSON type, and declares 406.
      post: {
        operationId: 'postThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': {}, 'application/vnd.thing+json': {} } }, '406': { description: 'Not acceptable.' } },
      },
    },
  },
});

/** One operation's handler on `/things/:id`, with what each stage saw and did. */
function route(overrides: Partial<OperationParts> = {}) {
  const stages: string[] = [];
  const recorded: number[] = [];
  const traces: RequestTrace[] = [];
  const acted: ActionInput[] = [];
  const intents: Array<TransactIntent | undefined> = [];
  const store = { transact: <T>(run: () => T, intent?: TransactIntent) => (stages.push('transact'), intents.push(intent), run()) } as unknown as StateStore;
  const operation = overrides.operation ?? getThing;
  const handler = handleOperation({
    operation,
    readParams: (param) => ({ id: param('id')! }),
    storeFor: () => store,
    authenticate: ({ header }) => (stages.push('authenticate'), header('authorization') === 'Bearer ok' ? undefined : new ApiError(401, 'UNAUTHORIZED', 'No key.')),
    preferDirectives: new Registry<PreferDirective>('Prefer directive'),
    validate: ({ path }) => {
      stages.push('validate');
      if (path.id === 'bad') return errors.validation([{ location: 'path', name: 'id', message: 'must not be bad' } as never]);
      return { params: { path, query: {}, header: {}, cookie: {} }, body: undefined } as unknown as ValidRequest;
    },
    action: (input) => (stages.push('act'), acted.push(input), { status: 200, body: { id: input.params.path.id } }),
    respondError: (error, headers = {}) => new Response(JSON.stringify(error.toBody()), { status: error.status, headers: { ...headers, 'Content-Type': 'application/json' } }),
    now: () => Date.now(),
    maxBodyBytes: 1_000,
    encoders: bodyEncoders(),
    reader: WEB_REQUESTS,
    force: () => undefined,
    chaos: createChaos({ seed: 1 }),
    cors: () => undefined,
    record: (_c, status, _started, _header, trace) => (recorded.push(status), traces.push(trace)),
    ...overrides,
  });
  const app = new Hono();
  app.on(operation.method.toUpperCase(), '/things/:id', handler);
  return { app, stages, recorded, traces, acted, intents };
}

const withKey = { headers: { Authorization: 'Bearer ok' } };

describe('handleOperation', () => {
  it("runs the stages in order and answers with the action's result as JSON, with the security headers", async () => {
    const { app, stages, recorded, acted } = route();
    const response = await app.request('/things/t-1?x=1', withKey);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 't-1' });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(stages).toEqual(['authenticate', 'validate', 'transact', 'act']);
    expect(acted[0].url).toBe('/things/t-1?x=1');
    expect(recorded).toEqual([200]);
  });

  it('stops at a refused credential: nothing validated, nothing acted on, the refusal recorded', async () => {
    const { app, stages, recorded } = route();
    const response = await app.request('/things/t-1');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 'UNAUTHORIZED', message: 'No key.', status: 401 });
    expect(stages).toEqual(['authenticate']);
    expect(recorded).toEqual([401]);
  });

  it('stops at an invalid request, keeping its problems for the request log', async () => {
    const { app, stages, recorded, traces } = route();
    const response = await app.request('/things/bad', withKey);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
    expect(stages).toEqual(['authenticate', 'validate']);
    // What the request log reads: the trace handed over with the answer.
    expect(traces.map((trace) => trace.problems)).toEqual([[{ location: 'path', name: 'id', message: 'must not be bad' }]]);
    expect(recorded).toEqual([400]);
  });

  it('asks `writable` before a write on the shared state, never before a read or a session\'s write', async () => {
    const unavailable = () => new ApiError(503, 'STATE_NOT_SAVED', 'The state file cannot be written.');
    const write = route({ operation: putThing, writable: unavailable });
    expect((await write.app.request('/things/t-1', { method: 'PUT', ...withKey })).status).toBe(503);
    expect(write.stages).toEqual(['authenticate', 'validate']);
    const session = await write.app.request('/things/t-1', { method: 'PUT', headers: { ...withKey.headers, 'X-Mock-Session': 'mine' } });
    expect(session.status).toBe(200);
    const read = route({ writable: unavailable });
    expect((await read.app.request('/things/t-1', withKey)).status).toBe(200);
  });

  it('tells the store whether the request may write: a GET reads, a PUT may write', async () => {
    const read = route();
    expect((await read.app.request('/things/t-1', withKey)).status).toBe(200);
    const write = route({ operation: putThing });
    expect((await write.app.request('/things/t-1', { method: 'PUT', ...withKey })).status).toBe(200);
    expect([read.intents, write.intents]).toEqual([[{ writes: false }], [{ writes: true }]]);
  });

  it("sends the declared media type Accept prefers, and refuses one it cannot meet with 406 before acting (406 declared)", async () => {
    const { app, stages, recorded } = route({ operation: postThing });
    const asked = (accept: string) => app.request('/things/t-1', { method: 'POST', headers: { ...withKey.headers, Accept: accept } });
    const own = await asked('application/vnd.thing+json');
    expect([own.status, own.headers.get('content-type'), await own.json()]).toEqual([200, 'application/vnd.thing+json', { id: 't-1' }]);
    expect((await asked('*/*')).headers.get('content-type')).toBe('application/json');
    stages.length = 0;
    expect((await asked('text/html')).status).toBe(406);
    expect(stages).toEqual(['authenticate', 'validate']);
    expect(recorded).toEqual([200, 200, 406]);
  });

  it('with a self-check, checks each answer before recording it, and keeps what it found for the request log', async () => {
    const checked: number[] = [];
    const problem = { path: 'body', rule: 'empty', message: 'must be empty (no content is declared)' };
    const { app, traces } = route({ verify: async (response) => (checked.push(response.status), [problem]) });
    expect((await app.request('/things/t-1', withKey)).status).toBe(200);
    expect(checked).toEqual([200]);
    expect(traces.map((trace) => trace.selfCheck)).toEqual([[problem]]);
  });

  it('answers with what a scenario forces, after authenticating and before validating or acting', async () => {
    const { app, stages, recorded } = route({ force: () => ({ status: 418, body: { forced: true } }) });
    const response = await app.request('/things/bad', withKey);
    expect(response.status).toBe(418);
    expect(await response.json()).toEqual({ forced: true });
    expect(stages).toEqual(['authenticate']);
    expect(recorded).toEqual([418]);
  });
});
