/**
 * The mock, assembled: document -> operations -> collections -> routes. Each route runs
 * authenticate -> validate -> act on state -> respond. Nothing here reads `process`: everything
 * comes in through `BuildMockOptions`, so a test builds a mock in one line and calls `app.request()`.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { Action } from './pipeline/exchange.js';
import { compileCrudAction } from './actions/crud.js';
import { ADMIN_PATH, adminApi, adminOff, isLocalCaller } from './admin/admin-api.js';
import { RequestLog, type RequestEntry } from './admin/request-log.js';
import { DOCS_PATH, docsResponder, docsUnavailable, type DocsAssets } from './docs/docs-endpoint.js';
import { tryItValues } from './docs/try-it-values.js';
import type { LoadedDocument } from './document/document.js';
import type { OpenAPIDocument } from './document/openapi.js';
import type { SchemaObject } from './document/schema.js';
import { createFaker } from './generate/create-faker.js';
import { createGenerator } from './generate/from-schema.js';
import { handleOperation, headerReader, problemsOf, scenarioOf, type HeaderReader } from './handle-operation.js';
import { cors } from './middleware/cors.js';
import { guardHosts, type AllowedHosts } from './middleware/host-guard.js';
import { createState } from './mock/state.js';
import { buildOperations } from './operations/build-operations.js';
import { inferCollections, unmappedReason, type Collection, type CrudBinding } from './operations/infer-collections.js';
import type { MockOptions } from './mock-options.js';
import type { Operation } from './operations/operation.js';
import type { MockPlugin, MockParts } from './registries/extension.js';
import { RuleRegistry } from './registries/rules.js';
import { errorResponse, errors, type ApiError } from './core/api-error.js';
import { respondJson, SECURITY_HEADERS } from './core/security-headers.js';
import { bodyEncoders } from './respond/body-encoders.js';
import { compileErrorResponder } from './respond/error-response.js';
import { staticResponse } from './respond/static-response.js';
import { mountRoutes } from './routing/mount-routes.js';
import { serverBasePath } from './routing/server-base-path.js';
import { createChaos } from './scenarios/chaos.js';
import { compileScenarioResponder } from './scenarios/force-response.js';
import { preferDirectives } from './scenarios/read-scenario.js';
import { compileAuthenticator, securitySchemeChecks } from './security/authenticate.js';
import { SPEC_PATH, specResponder, type SpecFormat } from './spec-endpoint.js';
import { SESSION_HEADER, SESSION_RESTARTED_HEADER, type Sessions } from './state/sessions.js';
import type { StateBudget } from './state/budget.js';
import { NO_PERSISTENCE } from './state/persistence.js';
import type { PersistenceHealth } from './state/journal.js';
import { exportSnapshot, type StateSnapshot } from './state/snapshot.js';
import type { StateStore, StoredRecord } from './state/state-store.js';
import { createAjv } from './validation/ajv-instance.js';
import { bodyDecoders } from './validation/body-decoders.js';
import { schemaCompiler } from './validation/compile-schema.js';
import { SchemaConverter } from './validation/to-json-schema.js';
import { describeUnenforced, unenforcedPatterns } from './validation/unenforced-patterns.js';
import { compileRequestValidator } from './validation/validate-request.js';

/** The key `npm start` accepts unless `--api-key` replaces it. */
export const DEMO_API_KEY = 'petstore-demo-key';
export const DEFAULT_SEED = 1;
export const DEFAULT_COUNT = 20;
/** Request bodies are refused above this size unless the document sets `x-max-body-bytes`. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * What `buildMock` takes: the library's options on Node (`MockOptions`, src/mock-options.ts),
 * for a document already loaded, with the parts only the CLI sets.
 */
export interface BuildMockOptions extends Omit<MockOptions, 'spec' | 'fixtures' | 'plugins' | 'docs'> {
  /** A fixtures directory, or records by collection name (default none). */
  fixtures?: string | Record<string, StoredRecord[]>;
  /** Plugins (default none): the library and the CLI pass the Petstore's (`DEFAULT_PLUGINS`). */
  plugins?: readonly MockPlugin[];
  /**
   * Host names answered besides localhost, 127.0.0.1 and [::1] (any port), or 'any'. Any other
   * Host gets 421 (and `onRequest` is told), so a page that rebinds its name to this machine is
   * refused. Default: no check, as in-process callers name any host (the contract suite's
   * --dry-run); the CLI always sets it.
   */
  allowedHosts?: AllowedHosts;
  /**
   * Consulted before an operation other than GET or HEAD acts on the shared state: an error
   * refuses it (the state file: 503 while changes cannot be saved). Default: always writable.
   */
  writable?: () => ApiError | undefined;
  /** What GET /__health reports about persistence (the state file); default: none. */
  persistence?: () => PersistenceHealth;
  /**
   * The docs page's assets (src/docs/docs-assets.ts on Node): with them, GET /__docs serves an
   * interactive reference of the document, and GET / leads there when no operation is at `/`.
   * Without them (the default, and in a browser) /__docs answers 404.
   */
  docs?: DocsAssets;
}

export interface Mock {
  app: Hono;
  /** The shared state (requests without X-Mock-Session). */
  store: StateStore;
  sessions: Sessions;
  operations: Operation[];
  collections: Collection[];
  /** Put the seeded state back (same seed, same data). */
  reset: () => void;
  /** A new seed and/or counts, then a reset of everything; a sentence instead when the counts would pass the bound on records (nothing changed). */
  reseed: (change: { seed?: number; counts?: Record<string, number> }) => { seed: number; counts: Record<string, number> } | string;
  /** The last requests answered (GET /__admin/requests). */
  requests: RequestLog;
  /** Checks a snapshot for this document: the snapshot, or a sentence saying what is wrong. */
  checkState: (data: unknown) => StateSnapshot | string;
  /** Applies a checked snapshot to a store when it fits the bounds; a sentence (records or bytes against a limit) when not, nothing changed. */
  importState: (target: StateStore, snapshot: StateSnapshot) => string | undefined;
  warnings: string[];
  /** How each operation is answered: from a collection's state, or (not stateful) from its examples or generated data, with the reason. */
  answers: OperationAnswer[];
  /** The records all stores hold together, against their bound. */
  budget: StateBudget;
  /** The names of the plugins that serve the document (their mock part applies). */
  plugins: string[];
}

export interface OperationAnswer {
  operationId: string;
  /** `GET /pets/{petId}` */
  operation: string;
  /** `state` (a collection and what the operation does to it), or `static`. */
  from: 'state' | 'static';
  collection?: string;
  action?: string;
  /** Why an operation is not stateful. */
  reason?: string;
}

/**
 * The pipeline, assembled: the document's operations and collections, the parts (built-ins, then
 * each plugin's), the compiled schemas, the state, then one handler per operation on its route.
 *
 * @example
 * const { app } = buildMock(await loadDocument('spec/openapi.yaml'));
 * const res = await app.request('/pets', { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } });
 */
export function buildMock(document: LoadedDocument, options: BuildMockOptions = {}): Mock {
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    options.onWarning?.(message);
  };
  const { api } = document;
  const now = options.now ? () => options.now!().getTime() : Date.now;
  const random = options.random ?? Math.random;

  // Stages 1-2: the document's operations, and the collections they act on.
  const operations = buildOperations(api);
  const { collections, bindings } = inferCollections(operations);
  const answers = describeAnswers(operations, bindings, collections);

  // The parts: the built-ins, then what each plugin that serves this document registers.
  const parts = builtInParts();
  const shape = { api: api as OpenAPIDocument, operations, operationIds: new Set(operations.map((op) => op.id)), collections };
  const plugins = (options.plugins ?? []).filter((plugin) => plugin.mock?.(parts, shape) === true).map((plugin) => plugin.name);

  const ajv = createAjv(document.dialect);
  const converter = new SchemaConverter(api, ajv, document.dialect);
  const responseValidator = schemaCompiler(ajv, converter, 'response', warn);
  const maxBodyBytes = Number(api['x-max-body-bytes'] ?? DEFAULT_MAX_BODY_BYTES);
  const compileCtx = { ajv, converter, warn, maxBodyBytes, decoders: parts.bodyDecoders };

  const state = createState({
    collections,
    seed: options.seed ?? DEFAULT_SEED,
    counts: { default: DEFAULT_COUNT, ...options.counts },
    fixtures: options.fixtures,
    seedHooks: parts.seedHooks,
    makeStore: options.store,
    limits: options.limits,
    maxSessions: options.maxSessions,
    now,
    responseValidator,
    warn,
  });
  const { store, sessions, storeFor, generate } = state;
  const requests = new RequestLog(500, queryKeyNames(api));
  const changed = options.onChange ?? (() => undefined);

  const app = new Hono();
  const { onRequest } = options;
  /** Tells `onRequest` of an answer of the mock's own (admin, health, the document, a preflight, a failure); these are not in the request log. */
  const observe = onRequest && ((c: Context, status: number, started: number) => {
    onRequest({ time: now(), method: c.req.method, path: requests.redact(pathOf(c.req.url)), status, ms: elapsed(started), session: headerReader(c)(SESSION_HEADER) ?? undefined, scenario: 'none' });
  });
  guardHosts(app, options.allowedHosts, onRequest && ((request, status) => {
    onRequest({ time: now(), method: request.method, path: requests.redact(pathOf(request.url)), status, ms: 0, session: request.headers.get(SESSION_HEADER) ?? undefined, scenario: 'none' });
  }));
  // The admin API is never granted to another origin: its preflights get 403, its answers no CORS headers.
  const corsPolicy = cors({ origins: options.corsOrigins, closedPaths: [ADMIN_PATH] });
  app.on('OPTIONS', '*', observe ? observed(corsPolicy.preflight, observe) : corsPolicy.preflight);
  /** Every answer of the document's paths goes to the request log (and `onRequest`); a successful write tells `changed`. */
  const record = (c: Context, status: number, started: number, header: HeaderReader) => {
    const session = header(SESSION_HEADER) ?? undefined;
    const method = c.req.method;
    const path = pathOf(c.req.url);
    const entry: RequestEntry = { time: now(), method, path: onRequest ? requests.redact(path) : path, status, ms: elapsed(started), session, scenario: scenarioOf.get(c) ?? 'none', problems: problemsOf.get(c) };
    requests.add(entry);
    onRequest?.(entry);
    if (status < 400 && session === undefined && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') changed();
  };
  /** An answer of the mock's own, told to `onRequest`. */
  const answered = (c: Context, started: number, response: Response) => {
    observe?.(c, response.status, started);
    return response;
  };
  /** For answers built outside the operations (404, 405): CORS headers, and the request log. */
  const finish = (c: Context, response: Response, started: number) => {
    const header = headerReader(c);
    const allowed = corsPolicy.headers(header('origin'));
    if (allowed) for (const [name, value] of Object.entries(allowed)) response.headers.set(name, value);
    record(c, response.status, started, header);
    return response;
  };
  // Answers under /__admin (refusals by its guard included) are told to `onRequest` here; a failure there too, not by onError.
  const adminRequests = new WeakSet<Context>();
  if (observe) {
    app.use(`${ADMIN_PATH}/*`, async function observeAdmin(c, next) {
      const started = performance.now();
      adminRequests.add(c);
      await next();
      observe(c, c.res.status, started);
    });
  }
  app.route(
    ADMIN_PATH,
    options.admin === false
      ? adminOff()
      : adminApi(
          {
            storeFor,
            reset: (session) => (session === null ? state.reset() : sessions.drop(session)),
            reseed: state.reseed,
            exportState: exportSnapshot,
            importState: (target, data) => {
              const checked = state.checkState(data);
              if (typeof checked === 'string') return checked;
              const full = state.importState(target, checked);
              return full === undefined ? undefined : { full };
            },
            requests,
            changed,
            answers,
            sessions: () => ({ max: sessions.max, active: sessions.names(), evicted: sessions.evictedNames() }),
          },
          { token: options.adminToken, trustProxy: options.trustProxy },
        ),
  );
  // Beside the admin API, open to probes: 503 while the state cannot be saved.
  app.get('/__health', (c) => {
    const started = performance.now();
    const persistence = options.persistence?.() ?? NO_PERSISTENCE;
    return answered(c, started, respondJson({ status: persistence.ok ? 'ok' : 'degraded', persistence }, persistence.ok ? 200 : 503));
  });
  // The document as served, open like /__health and with the API's CORS headers (docs UIs and client generators read it from a browser).
  const spec = specResponder(document.raw);
  const specRoutes: Array<[string, SpecFormat | undefined]> = [[SPEC_PATH, undefined], [`${SPEC_PATH}.json`, 'json'], [`${SPEC_PATH}.yaml`, 'yaml']];
  for (const [path, format] of specRoutes) {
    app.get(path, (c) => {
      const started = performance.now();
      const header = headerReader(c);
      return answered(c, started, spec({ format, accept: header('accept'), ifNoneMatch: header('if-none-match'), cors: corsPolicy.headers(header('origin')) }));
    });
  }

  // Stages 4-8 of each operation: authenticate, validate, act on state (or answer from the document), respond.
  const basePath = serverBasePath(api);
  const auth = { apiKeys: options.apiKeys ?? [DEMO_API_KEY], realm: String(api.info?.title ?? 'mock'), schemes: parts.securitySchemes };

  // The docs page, open like /__spec; GET / leads there unless the document has an operation at `/` (a 405 then says which methods it takes).
  if (options.docs) {
    const docs = docsResponder(options.docs, {
      title: auth.realm,
      basePath,
      operations,
      // The demo key is in the document anyway; a key of one's own is shown only to a caller on this machine.
      keyFor: ({ local }) => (auth.apiKeys.includes(DEMO_API_KEY) ? DEMO_API_KEY : local && !options.trustProxy ? auth.apiKeys[0] : undefined),
      // The try-it panel starts from the shared state's records (not a session's: the page sends none).
      values: () => tryItValues(operations, collections, store),
    });
    const answerDocs = (c: Context, asset?: string) => {
      const started = performance.now();
      const header = headerReader(c);
      return answered(c, started, docs({ asset, acceptEncoding: header('accept-encoding'), ifNoneMatch: header('if-none-match'), local: isLocalCaller(c) }));
    };
    const toDocs = (c: Context) => answered(c, performance.now(), new Response(null, { status: 302, headers: { ...SECURITY_HEADERS, Location: DOCS_PATH } }));
    app.get(DOCS_PATH, (c) => answerDocs(c));
    app.get(`${DOCS_PATH}/`, toDocs);
    app.get(`${DOCS_PATH}/:asset`, (c) => answerDocs(c, c.req.param('asset')));
    if (!operations.some((op) => `${basePath}${op.path}` === '/')) app.get('/', toDocs);
  } else {
    app.get(DOCS_PATH, (c) => answered(c, performance.now(), docsUnavailable()));
  }
  const chaos = createChaos({ delay: options.delay, errorRate: options.errorRate, seed: options.seed ?? DEFAULT_SEED });
  const scenarioFaker = createFaker();
  const generateScenario = createGenerator(scenarioFaker);
  const forceContext = {
    generateSeeded: (schema: SchemaObject, n: number, hints?: { propertyName?: string }) => {
      scenarioFaker.seed(n);
      return generateScenario(schema, hints);
    },
    responseValidator,
    realm: auth.realm,
    freshSeed: () => Math.floor(random() * 2 ** 31),
  };
  const actionFor = (operation: Operation): Action => {
    const binding = bindings.get(operation.id);
    if (binding) return compileCrudAction(operation, binding, { basePath, rule: parts.rules.for(operation.id), now, generate, ...state.records });
    state.reseedGenerator(); // a static answer does not depend on the order operations are compiled in
    const result = staticResponse(operation, { generate, responseValidator, warn, encoders: parts.bodyEncoders });
    return () => result;
  };
  mountRoutes(
    app,
    operations,
    basePath,
    (operation, route) =>
      handleOperation({
        operation,
        readParams: route.params,
        storeFor,
        authenticate: compileAuthenticator(operation, auth),
        preferDirectives: parts.preferDirectives,
        // Compiled on first use: a large document starts without compiling 1,800 validators (GitHub's: about 1.5 s).
        validate: onFirstUse(() => compileRequestValidator(operation, compileCtx)),
        action: actionFor(operation),
        respondError: compileErrorResponder(operation, { generate, responseValidator }),
        force: compileScenarioResponder(operation, forceContext),
        chaos,
        cors: corsPolicy.headers,
        record,
        sessionNotice: (target) => (sessions.takeRestart(target) ? { [SESSION_RESTARTED_HEADER]: 'evicted' } : undefined),
        writable: options.writable,
        now,
        // Credentials are checked before the size: an anonymous oversized request gets 401.
        maxBodyBytes,
      }),
    finish,
  );
  app.onError((error, c) => {
    warn(`Unexpected failure while answering a request: ${(error as Error).message}`);
    const response = errorResponse(errors.internal());
    // The started time is gone with the handler that threw: the failure is reported at 0 ms.
    if (!adminRequests.has(c)) observe?.(c, response.status, performance.now());
    return response;
  });
  for (const message of hiddenOperations(operations, basePath, Boolean(options.docs))) warn(message);
  for (const pattern of unenforcedPatterns(api)) warn(describeUnenforced(pattern));
  return { app, store, sessions, operations, collections, reset: state.reset, reseed: state.reseed, requests, checkState: state.checkState, importState: state.importState, warnings, answers, plugins, budget: state.budget };
}

/** The path and query of a URL (`http://host/pets?limit=2` gives `/pets?limit=2`), without parsing it. */
function pathOf(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

/** Milliseconds since `started` (a `performance.now()`), to 0.1 ms. */
function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/** A middleware that reports the answers it gives itself (a preflight's), and leaves those of the handlers after it to them. */
function observed(middleware: MiddlewareHandler, observe: (c: Context, status: number, started: number) => void): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const answer = await middleware(c, next);
    if (answer instanceof Response) observe(c, answer.status, started);
    return answer;
  };
}

/** Warnings for operations the mock's own endpoints hide: under /__admin, GET /__health, /__spec and /__docs, and with the docs page on, GET under /__docs/ (under the document's base path). */
function hiddenOperations(operations: readonly Operation[], basePath: string, docs: boolean): string[] {
  const own: Record<string, string> = {
    '/__health': "the mock's health check",
    [SPEC_PATH]: "the mock's copy of the document (/__spec)",
    [DOCS_PATH]: "the mock's docs page (/__docs)",
    [`${SPEC_PATH}.json`]: "the mock's copy of the document (/__spec)",
    [`${SPEC_PATH}.yaml`]: "the mock's copy of the document (/__spec)",
  };
  const messages: string[] = [];
  for (const op of operations) {
    const served = `${basePath}${op.path}`;
    if (served === ADMIN_PATH || served.startsWith(`${ADMIN_PATH}/`)) messages.push(`${op.id}: ${served} is hidden by the mock's admin API (${ADMIN_PATH}).`);
    else if (docs && served.startsWith(`${DOCS_PATH}/`) && (op.method === 'get' || op.method === 'head')) messages.push(`${op.id}: ${op.method.toUpperCase()} ${served} is hidden by the mock's docs page (${DOCS_PATH}).`);
    else if (own[served] && (op.method === 'get' || op.method === 'head')) messages.push(`${op.id}: ${op.method.toUpperCase()} ${served} is hidden by ${own[served]}.`);
  }
  return messages;
}

/** A function made when it is first called, then kept. */
function onFirstUse<A extends unknown[], R>(make: () => (...args: A) => R): (...args: A) => R {
  let made: ((...args: A) => R) | undefined;
  return (...args) => (made ??= make())(...args);
}

/** The built-in parts, before any plugin adds to them. */
function builtInParts(): MockParts {
  return {
    securitySchemes: securitySchemeChecks(),
    preferDirectives: preferDirectives(),
    bodyDecoders: bodyDecoders(),
    bodyEncoders: bodyEncoders(),
    rules: new RuleRegistry(),
    seedHooks: [],
  };
}

/** How each operation is answered: from a collection's state, or from the document (and why). */
function describeAnswers(operations: Operation[], bindings: Map<string, CrudBinding>, collections: Collection[]): OperationAnswer[] {
  return operations.map((op) => {
    const binding = bindings.get(op.id);
    const operation = `${op.method.toUpperCase()} ${op.path}`;
    return binding
      ? { operationId: op.id, operation, from: 'state', collection: binding.collection.name, action: binding.action }
      : { operationId: op.id, operation, from: 'static', reason: unmappedReason(op, collections) };
  });
}

/** Names of query parameters that carry API keys: redacted in the request log. */
function queryKeyNames(api: SchemaObject): string[] {
  return Object.values<SchemaObject>(api.components?.securitySchemes ?? {})
    .filter((scheme) => scheme.type === 'apiKey' && scheme.in === 'query')
    .map((scheme) => String(scheme.name));
}
