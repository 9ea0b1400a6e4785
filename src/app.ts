/**
 * The mock, assembled: document -> operations -> collections -> routes. Each route runs
 * authenticate -> validate -> act on state -> respond. Nothing here reads `process`: everything
 * comes in through `MockOptions`, so a test builds a mock in one line and calls `app.request()`.
 */
import { Hono, type Context } from 'hono';
import type { Action } from './actions/action.js';
import { compileCrudAction } from './actions/crud.js';
import { adminApi, adminOff } from './admin/admin-api.js';
import { RequestLog } from './admin/request-log.js';
import type { LoadedDocument } from './document/document.js';
import type { SchemaObject } from './document/schema.js';
import { createFaker } from './generate/create-faker.js';
import { createGenerator } from './generate/from-schema.js';
import { handleOperation, headerReader, problemsOf, type HeaderReader } from './handle-operation.js';
import { cors } from './middleware/cors.js';
import { guardHosts, type AllowedHosts } from './middleware/host-guard.js';
import { createState } from './mock/state.js';
import { buildOperations } from './operations/build-operations.js';
import { inferCollections, unmappedReason, type Collection, type CrudBinding } from './operations/infer-collections.js';
import type { Operation } from './operations/operation.js';
import type { MockExtension, MockParts } from './registries/extension.js';
import { RuleRegistry } from './registries/rules.js';
import { errorResponse, errors, type ApiError } from './respond/api-error.js';
import { respondJson } from './respond/security-headers.js';
import { bodyEncoders } from './respond/body-encoders.js';
import { compileErrorResponder } from './respond/error-response.js';
import { staticResponse } from './respond/static-response.js';
import { mountRoutes } from './routing/mount-routes.js';
import { serverBasePath } from './routing/server-base-path.js';
import { createChaos } from './scenarios/chaos.js';
import { compileScenarioResponder } from './scenarios/force-response.js';
import { preferDirectives } from './scenarios/read-scenario.js';
import { compileAuthenticator, securitySchemeChecks } from './security/authenticate.js';
import { SESSION_HEADER, SESSION_RESTARTED_HEADER, type Sessions } from './state/sessions.js';
import type { StateBudget, StateLimits } from './state/budget.js';
import { NO_PERSISTENCE, type PersistenceHealth } from './state/persistence.js';
import { applySnapshot, exportSnapshot, type StateSnapshot } from './state/snapshot.js';
import type { StateStore, StoredRecord } from './state/state-store.js';
import { createAjv } from './validation/ajv-instance.js';
import { bodyDecoders } from './validation/body-decoders.js';
import { schemaCompiler } from './validation/compile-schema.js';
import { SchemaConverter } from './validation/to-json-schema.js';
import { compileRequestValidator } from './validation/validate-request.js';

/** The key `npm start` accepts unless `--api-key` replaces it. */
export const DEMO_API_KEY = 'petstore-demo-key';
export const DEFAULT_SEED = 1;
export const DEFAULT_COUNT = 20;
/** Request bodies are refused above this size unless the document sets `x-max-body-bytes`. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface MockOptions {
  /** Keys that open the API (default: the demo key). */
  apiKeys?: string[];
  /** Seed for every generated value (default 1): the same seed gives the same data. */
  seed?: number;
  /** Generated records per collection: `{ default: 20, pets: 100 }`. */
  counts?: Record<string, number>;
  /** A fixtures directory, or records by collection name. */
  fixtures?: string | Record<string, StoredRecord[]>;
  /**
   * Extensions: business rules and other parts the document cannot state (default none). Each
   * decides whether it serves the document; the CLI passes the Petstore's (src/extensions).
   */
  extensions?: readonly MockExtension[];
  /** Origins allowed by CORS (default: any). */
  corsOrigins?: string[];
  /** Latency added to every answer, [min, max] milliseconds. */
  delay?: [number, number];
  /** Share of requests (0 to 1) answered with a declared 5xx (or 500), drawn from the seed. */
  errorRate?: number;
  /** Token of the admin API (/__admin); without one it answers only on loopback. */
  adminToken?: string;
  /** Serve the admin API under /__admin (default true); false answers 404 there. */
  admin?: boolean;
  /** Every peer is a reverse proxy: loopback proves nothing, so the admin API needs its token. */
  trustProxy?: boolean;
  /**
   * Host names answered besides localhost, 127.0.0.1 and [::1] (any port), or 'any'. Any other
   * Host gets 421, so a page that rebinds its name to this machine is refused. Default: no check,
   * as in-process callers name any host (the contract suite's --dry-run); the CLI always sets it.
   */
  allowedHosts?: AllowedHosts;
  /** Called after a request changed the shared state (to persist it). */
  onChange?: () => void;
  /**
   * Consulted before an operation other than GET or HEAD acts on the shared state: an error
   * refuses it (the state file: 503 while changes cannot be saved). Default: always writable.
   */
  writable?: () => ApiError | undefined;
  /** What GET /__health reports about persistence (the state file); default: none. */
  persistence?: () => PersistenceHealth;
  /** The clock: sunset dates, the rules (an order's ship date), the request log (default: the real time). */
  now?: () => Date;
  /** Randomness that no seed fixes (a fresh `Prefer: dynamic=true` answer), from 0 to 1 (default Math.random). */
  random?: () => number;
  /** At most this many sessions (X-Mock-Session) are kept; the least recently used go first (default 100). */
  maxSessions?: number;
  /**
   * Makes an empty store for the document's collections: the shared state and each session's
   * (default: in memory). A store whose `transact` returns a promise is waited for.
   */
  store?: (collections: readonly Collection[], budget: StateBudget) => StateStore;
  /** Bounds on the records all stores hold together, and a heap guard (default: 2,000,000 records, 512 MiB of JSON). */
  limits?: StateLimits;
  /** Receives problems found at startup (schemas that cannot be compiled...). */
  onWarning?: (message: string) => void;
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
  warnings: string[];
  /** How each operation is answered: from a collection's state, or (not stateful) from its examples or generated data, with the reason. */
  answers: OperationAnswer[];
  /** The records all stores hold together, against their bound. */
  budget: StateBudget;
  /** The names of the extensions that apply to the document. */
  extensions: string[];
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
 * each extension's), the compiled schemas, the state, then one handler per operation on its route.
 *
 * @example
 * const { app } = buildMock(await loadDocument('spec/openapi.yaml'));
 * const res = await app.request('/pets', { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } });
 */
export function buildMock(document: LoadedDocument, options: MockOptions = {}): Mock {
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

  // The parts: the built-ins, then what each extension that serves this document registers.
  const parts = builtInParts();
  const shape = { api, operations, operationIds: new Set(operations.map((op) => op.id)), collections };
  const extensions = (options.extensions ?? []).filter((extension) => extension.setup(parts, shape)).map((extension) => extension.name);

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
  guardHosts(app, options.allowedHosts);
  // The admin API is never granted to another origin: its preflights get 403, its answers no CORS headers.
  const corsPolicy = cors({ origins: options.corsOrigins, closedPaths: ['/__admin'] });
  app.on('OPTIONS', '*', corsPolicy.preflight);
  /** Every answer outside the admin API goes to the request log; a successful write tells `changed`. */
  const record = (c: Context, status: number, started: number, header: HeaderReader) => {
    const session = header(SESSION_HEADER) ?? undefined;
    const method = c.req.method;
    const url = c.req.url;
    requests.add({ time: now(), method, path: url.slice(url.indexOf('/', url.indexOf('//') + 2)), status, ms: Math.round((performance.now() - started) * 10) / 10, session, problems: problemsOf.get(c) });
    if (status < 400 && session === undefined && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') changed();
  };
  /** For answers built outside the operations (404, 405): CORS headers, and the request log. */
  const finish = (c: Context, response: Response, started: number) => {
    const header = headerReader(c);
    const allowed = corsPolicy.headers(header('origin'));
    if (allowed) for (const [name, value] of Object.entries(allowed)) response.headers.set(name, value);
    record(c, response.status, started, header);
    return response;
  };
  app.route(
    '/__admin',
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
              applySnapshot(target, checked);
              return undefined;
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
  app.get('/__health', () => {
    const persistence = options.persistence?.() ?? NO_PERSISTENCE;
    return respondJson({ status: persistence.ok ? 'ok' : 'degraded', persistence }, persistence.ok ? 200 : 503);
  });

  // Stages 4-8 of each operation: authenticate, validate, act on state (or answer from the document), respond.
  const basePath = serverBasePath(api);
  const auth = { apiKeys: options.apiKeys ?? [DEMO_API_KEY], realm: String(api.info?.title ?? 'mock'), schemes: parts.securitySchemes };
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
  app.onError((error) => {
    warn(`Unexpected failure while answering a request: ${(error as Error).message}`);
    return errorResponse(errors.internal());
  });
  for (const op of operations) if (op.path.startsWith('/__admin')) warn(`${op.id}: ${op.path} is hidden by the mock's admin API (/__admin).`);
  for (const op of operations) if (op.path === '/__health' && op.method === 'get') warn(`${op.id}: GET /__health is hidden by the mock's health check.`);
  return { app, store, sessions, operations, collections, reset: state.reset, reseed: state.reseed, requests, checkState: state.checkState, warnings, answers, extensions, budget: state.budget };
}

/** A function made when it is first called, then kept. */
function onFirstUse<A extends unknown[], R>(make: () => (...args: A) => R): (...args: A) => R {
  let made: ((...args: A) => R) | undefined;
  return (...args) => (made ??= make())(...args);
}

/** The built-in parts, before any extension adds to them. */
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
