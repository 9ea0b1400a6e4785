/**
 * The pipeline as a list of stages: the list one operation gets (`stagesOf`: a stage that cannot
 * act for it is left out), each stage factory doing its one job on a request under way, and the
 * loop that runs them (stops at the first answer, waits only for a stage that returns a promise).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { ApiError, errors } from '../../../core/api-error.js';
import { QueryString } from '../../../core/query-string.js';
import { Registry } from '../../../core/registry.js';
import { handleOperation, stagesOf, type OperationParts } from '../../handle-operation.js';
import { buildOperations } from '../../../openapi/operations/build-operations.js';
import type { Operation } from '../../../openapi/operations/operation.js';
import { bodyEncoders } from '../../respond/body-encoders.js';
import { createChaos } from '../../scenarios/chaos.js';
import type { PreferDirective } from '../../scenarios/read-scenario.js';
import { compileAuthenticator } from '../../security/authenticate.js';
import type { StateStore, TransactIntent } from '../../../state/state-store.js';
import type { ValidRequest } from '../../../openapi/validation/validate-request.js';
import { ClientBase } from '../client-base.js';
import type { ActionInput } from '../exchange.js';
import { WEB_REQUESTS } from '../request-reader.js';
import { ROOT } from '../../../test-support/petstore.js';
import { act } from './act.js';
import { authenticate } from './authenticate.js';
import { cors } from './cors.js';
import { deprecation } from './deprecation.js';
import type { Fail } from './fail.js';
import { fault } from './fault.js';
import { force } from './force.js';
import { negotiate } from './negotiate.js';
import type { Respond } from './respond.js';
import { scenario } from './scenario.js';
import { session } from './session.js';
import { runStages, type Ongoing, type Stage } from './stage.js';
import { sunset } from './sunset.js';
import { validate } from './validate.js';

const json = { 'application/json': { schema: { type: 'object' } } };
const [readThing, createThing, oldThing, pingThing] = buildOperations({
  openapi: '3.0.3',
  info: { title: 'things', version: '1' },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  paths: {
    '/things/{id}': {
      get: { operationId: 'readThing', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok', content: json } } },
    },
    '/things': {
      post: { operationId: 'createThing', security: [{ bearer: [] }], requestBody: { content: json }, responses: { '201': { description: 'made', content: json } } },
    },
    '/old': {
      get: {
        operationId: 'oldThing',
        security: [{ bearer: [] }],
        deprecated: true,
        'x-sunset': '2030-01-01',
        externalDocs: { url: '/docs/old' },
        responses: { '200': { description: 'ok', content: { 'application/vnd.old+json': {} } }, '406': { description: 'not acceptable' } },
      },
    },
    '/ping': { head: { operationId: 'pingThing', responses: { '204': { description: 'up' } } } },
  },
} as never);

/** The parts buildMock would hand `handleOperation` for `operation` (its real authenticator), with `overrides`. */
function partsFor(operation: Operation, overrides: Partial<OperationParts> = {}): OperationParts {
  return {
    operation,
    readParams: () => ({}),
    storeFor: () => ({}) as StateStore,
    authenticate: compileAuthenticator(operation, { apiKeys: ['key'], realm: 'things' }),
    preferDirectives: new Registry<PreferDirective>('Prefer directive'),
    validate: () => ({ params: {}, body: undefined }) as unknown as ValidRequest,
    action: () => ({ status: 200 }),
    respondError: (error) => new Response(null, { status: error.status }),
    now: () => 0,
    maxBodyBytes: 1_000,
    encoders: bodyEncoders(),
    reader: WEB_REQUESTS,
    force: () => undefined,
    chaos: createChaos({ seed: 1 }),
    cors: () => undefined,
    record: () => undefined,
    ...overrides,
  };
}

describe('stagesOf', () => {
  it('lists an open read: headers, the scenario stages, validate, negotiate, session, act', () => {
    expect(stagesOf(partsFor(readThing))).toEqual(['cors', 'scenario', 'fault', 'force', 'validate', 'negotiate', 'session', 'act']);
  });

  it('puts authenticate first for a create the document secures', () => {
    expect(stagesOf(partsFor(createThing))).toEqual(['cors', 'authenticate', 'scenario', 'fault', 'force', 'validate', 'negotiate', 'session', 'act']);
  });

  it('adds the docs link and the sunset for a deprecated operation with both', () => {
    expect(stagesOf(partsFor(oldThing))).toEqual(['cors', 'deprecation', 'authenticate', 'sunset', 'scenario', 'fault', 'force', 'validate', 'negotiate', 'session', 'act']);
  });

  it('are the stages docs/architecture.md names, in its order', () => {
    const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const paragraph = /\*\*The pipeline is a list of stages\.\*\*([^]*?)\n\n/.exec(page)?.[1] ?? '';
    const named = [...new Set([...paragraph.matchAll(/`([a-z]+)`/g)].map((match) => match[1]))];
    expect(named).toEqual(stagesOf(partsFor(oldThing)));
  });

  it('leaves negotiate out where Accept cannot change the answer (no content, no 406)', () => {
    expect(stagesOf(partsFor(pingThing))).not.toContain('negotiate');
  });
});

/** A request under way, as `handleOperation` starts one, with `overrides`. */
function ongoing(overrides: Partial<Ongoing> & { headers?: Record<string, string> } = {}): Ongoing {
  const { headers = {}, ...rest } = overrides;
  return {
    c: { req: { param: () => 'p-1' } } as unknown as Context,
    trace: {},
    url: 'http://mock.test/things/p-1?x=1',
    pathStart: 'http://mock.test'.length,
    query: QueryString.EMPTY,
    header: (name) => headers[name],
    accept: headers.accept,
    scenario: {},
    client: () => ClientBase.SAME as ClientBase,
    extra: {},
    ...rest,
  };
}

/** A refusal that answers the error's status, with the request's headers. */
const fail: Fail = (request, error) => new Response(error.code, { status: error.status, headers: request.extra });
const respond: Respond = (result) => new Response(JSON.stringify(result.body ?? null), { status: result.status });

describe('each stage', () => {
  it('cors adds the headers of an allowed Origin, and nothing for another', () => {
    const stage = cors((origin) => (origin === 'http://app.test' ? { 'Access-Control-Allow-Origin': origin } : undefined));
    const allowed = ongoing({ headers: { origin: 'http://app.test' }, extra: { Deprecation: '@0' } });
    expect(stage.run(allowed)).toBeUndefined();
    expect(allowed.extra).toEqual({ Deprecation: '@0', 'Access-Control-Allow-Origin': 'http://app.test' });
    const other = ongoing({ headers: { origin: 'http://evil.test' } });
    stage.run(other);
    expect(other.extra).toEqual({});
  });

  it('deprecation links the docs where the client reached the mock', () => {
    const request = ongoing({ client: () => ({ path: (path: string) => `/api${path}` }) as ClientBase });
    deprecation('/docs/old', new Date('2030-01-01')).run(request);
    expect(request.extra.Link).toBe('</api/docs/old>; rel="deprecation sunset"; type="text/html"');
  });

  it('authenticate refuses what the check denies and lets the rest through', () => {
    const stage = authenticate(({ header }) => (header('authorization') === 'Bearer ok' ? undefined : new ApiError(401, 'UNAUTHORIZED', 'No key.')), fail);
    expect((stage.run(ongoing()) as Response).status).toBe(401);
    expect(stage.run(ongoing({ headers: { authorization: 'Bearer ok' } }))).toBeUndefined();
  });

  it('sunset answers 410 from the sunset on, and nothing before', () => {
    let now = Date.parse('2029-12-31');
    const stage = sunset(new Date('2030-01-01'), new ApiError(410, 'SUNSET', 'gone'), () => now, fail);
    expect(stage.run(ongoing())).toBeUndefined();
    now = Date.parse('2030-01-01');
    expect((stage.run(ongoing()) as Response).status).toBe(410);
  });

  it('scenario refuses a Prefer that could not be read, and says why in the trace', () => {
    const request = ongoing({ scenario: new ApiError(400, 'INVALID_SCENARIO', 'code=abc is no status.') });
    expect((scenario(fail).run(request) as Response).status).toBe(400);
    expect(request.trace.scenario).toEqual({ invalid: 'code=abc is no status.' });
    expect(scenario(fail).run(ongoing({ scenario: { code: 404 } }))).toBeUndefined();
  });

  it('fault answers the fault the chaos settings draw, and nothing without them', () => {
    const request = ongoing();
    expect((fault(readThing, createChaos({ seed: 1, errorRate: 1 }), fail).run(request) as Response).status).toBe(500);
    expect(request.trace.scenario).toEqual({ fault: 500 });
    expect(fault(readThing, createChaos({ seed: 1 }), fail).run(ongoing())).toBeUndefined();
  });

  it('force answers the forced result or refuses an undeclared one, and lets a request without one through', () => {
    const forced = ongoing({ scenario: { code: 201 } });
    const stage = force((asked) => (asked.code === 201 ? { status: 201, body: { forced: true } } : asked.code ? errors.validation([]) : undefined), respond, fail);
    expect((stage.run(forced) as Response).status).toBe(201);
    expect(forced.trace.scenario).toEqual({ outcome: 'forced' });
    expect((stage.run(ongoing({ scenario: { code: 499 } })) as Response).status).toBe(400);
    expect(stage.run(ongoing())).toBeUndefined();
  });

  it('validate keeps the valid request, refuses an invalid one with its problems, and waits for a body', async () => {
    const valid = { params: { path: { id: 'p-1' } }, body: undefined } as unknown as ValidRequest;
    const problem = { location: 'path', name: 'id', message: 'must not be p-1' } as never;
    const parts = { readParams: (param: (name: string) => string | undefined) => ({ id: param('id')! }), reader: WEB_REQUESTS, maxBodyBytes: 10 };
    const request = ongoing();
    expect(validate({ ...parts, validate: () => valid }, fail).run(request)).toBeUndefined();
    expect(request.request).toBe(valid);
    const refused = ongoing();
    expect((validate({ ...parts, validate: ({ path }) => errors.validation([{ ...(problem as object), message: `${path.id}` } as never]) }, fail).run(refused) as Response).status).toBe(400);
    expect(refused.trace.problems).toHaveLength(1);
    const later = ongoing();
    const waited = validate({ ...parts, validate: async () => valid }, fail).run(later);
    expect(waited).toBeInstanceOf(Promise);
    expect(await waited).toBeUndefined();
    expect(later.request).toBe(valid);
  });

  it('negotiate refuses with 406 where declared, else notes the media type Accept chose', () => {
    const stage = negotiate(oldThing, bodyEncoders(), fail)!;
    expect((stage.run(ongoing({ headers: { accept: 'text/csv' } })) as Response).status).toBe(406);
    const request = ongoing({ headers: { accept: 'application/vnd.old+json' } });
    expect(stage.run(request)).toBeUndefined();
    expect(request.respondAs).toBe('application/vnd.old+json');
    const undeclared = ongoing({ headers: { accept: 'text/csv' } });
    expect(negotiate(readThing, bodyEncoders(), fail)!.run(undeclared)).toBeUndefined();
    expect(undeclared.trace.fitted?.[0]).toMatch(/declares no 406/);
    expect(negotiate(pingThing, bodyEncoders(), fail)).toBeUndefined();
  });

  it("session finds the request's store, refuses a bad session or an unsavable shared write, and notes a new session", () => {
    const shared = { name: 'shared' } as unknown as StateStore;
    const own = { name: 'own' } as unknown as StateStore;
    const storeFor = (name: string | null) => (name === null ? shared : name === 'bad!' ? new ApiError(400, 'INVALID_SESSION', 'bad') : own);
    const stage = session({ storeFor, sessionNotice: (store) => (store === own ? { 'X-Mock-Session-Created': 'true' } : undefined) }, fail);
    const request = ongoing({ headers: { 'x-mock-session': 's1' } });
    expect(stage.run(request)).toBeUndefined();
    expect(request.store).toBe(own);
    expect(request.extra).toEqual({ 'X-Mock-Session-Created': 'true' });
    expect((stage.run(ongoing({ headers: { 'x-mock-session': 'bad!' } })) as Response).status).toBe(400);
    const gated = session({ storeFor, writable: () => new ApiError(503, 'STATE_NOT_SAVED', 'disk full') }, fail);
    expect((gated.run(ongoing()) as Response).status).toBe(503);
    expect(gated.run(ongoing({ headers: { 'x-mock-session': 's1' } }))).toBeUndefined();
  });

  it("act runs the action on the request's store in a transaction of the operation's intent, and answers its result", async () => {
    const intents: Array<TransactIntent | undefined> = [];
    const inputs: ActionInput[] = [];
    const store = { transact: <T>(run: () => T, intent?: TransactIntent) => (intents.push(intent), run()) } as unknown as StateStore;
    const request = ongoing({ store, request: { params: { path: { id: 'p-1' } }, body: { n: 1 } } as unknown as ValidRequest, respondAs: 'application/json' });
    const answered = act((input) => (inputs.push(input), { status: 201, body: input.body }), true, respond, fail).run(request) as Response;
    expect(answered.status).toBe(201);
    expect(await answered.json()).toEqual({ n: 1 });
    expect(intents).toEqual([{ writes: true }]);
    expect(inputs[0]).toMatchObject({ store, url: '/things/p-1?x=1', body: { n: 1 }, respondAs: 'application/json' });
    expect((act(() => new ApiError(404, 'NOT_FOUND', 'none'), false, respond, fail).run(request) as Response).status).toBe(404);
  });
});

describe('runStages', () => {
  const named = (name: string, run: Stage['run'], seen: string[]): Stage => ({ name, run: (request) => (seen.push(name), run(request)) });

  it('runs the stages in order until one answers, synchronously', () => {
    const seen: string[] = [];
    const answered = runStages([named('a', () => undefined, seen), named('b', () => new Response(null, { status: 204 }), seen), named('c', () => undefined, seen)], ongoing());
    expect(answered).toBeInstanceOf(Response);
    expect((answered as Response).status).toBe(204);
    expect(seen).toEqual(['a', 'b']);
  });

  it('goes on after a stage that waited and answered nothing', async () => {
    const seen: string[] = [];
    const answered = runStages([named('a', async () => undefined, seen), named('b', () => new Response(null, { status: 201 }), seen)], ongoing());
    expect(answered).toBeInstanceOf(Promise);
    expect((await answered).status).toBe(201);
    expect(seen).toEqual(['a', 'b']);
  });
});

describe('the fast path', () => {
  /** A Hono context as the handler reads it, for `url`. */
  const contextFor = (url: string, init?: RequestInit) => ({ req: { url, raw: new Request(url, init), param: () => 't-1' } }) as unknown as Context;
  const store = { transact: <T>(run: () => T) => run() } as unknown as StateStore;

  it('answers a GET without a promise when nothing waits, and a request that reads a body with one', async () => {
    const read = handleOperation(partsFor(readThing, { storeFor: () => store, action: () => ({ status: 200, body: { id: 't-1' } }) }));
    const answered = read(contextFor('http://mock.test/things/t-1'));
    expect(answered).toBeInstanceOf(Response);
    expect(await (answered as Response).json()).toEqual({ id: 't-1' });
    const create = handleOperation(
      partsFor(createThing, { storeFor: () => store, authenticate: undefined, validate: async ({ body }) => ({ params: {}, body: JSON.parse(new TextDecoder().decode(await body())) }) as unknown as ValidRequest, action: ({ body }) => ({ status: 201, body }) }),
    );
    const created = create(contextFor('http://mock.test/things', { method: 'POST', body: '{"n":1}' }));
    expect(created).toBeInstanceOf(Promise);
    expect(await (await created).json()).toEqual({ n: 1 });
  });
});
