/**
 * The mock, assembled: document -> operations -> collections -> routes. Each route runs
 * authenticate -> validate -> act on state -> respond. Nothing here reads `process`: everything
 * comes in through `MockOptions`, so a test builds a mock in one line and calls `app.request()`.
 */
import { createFaker } from './generate/create-faker.js';
import { Hono, type Context } from 'hono';
import type { Action, OperationRule } from './actions/action.js';
import { compileCrudAction } from './actions/crud.js';
import { petstoreRules, petstoreRulesApply, petstoreSeedFixup } from './actions/petstore-rules.js';
import type { LoadedDocument } from './document/load-document.js';
import type { SchemaObject } from './document/schema.js';
import { createGenerator } from './generate/from-schema.js';
import { buildOperations } from './operations/build-operations.js';
import { inferCollections, isIntegerKey, requiredProperties, unmappedReason, type Collection } from './operations/infer-collections.js';
import type { Operation } from './operations/operation.js';
import { errorResponse, errors } from './respond/api-error.js';
import { compileErrorResponder } from './respond/error-response.js';
import { handleOperation, headerReader, type HeaderReader } from './handle-operation.js';
import { cors } from './middleware/cors.js';
import { respond } from './respond/security-headers.js';
import { createChaos } from './scenarios/chaos.js';
import { compileScenarioResponder } from './scenarios/force-response.js';
import { staticResponse } from './respond/static-response.js';
import { compareTemplates, pathMatcher, toHonoRoute } from './routing/hono-path.js';
import { serverBasePath } from './routing/server-base-path.js';
import { compileAuthenticator } from './security/authenticate.js';
import { loadFixtures } from './state/load-fixtures.js';
import { generateRecord, newKey, seedStore } from './state/seed.js';
import { adminApi } from './admin/admin-api.js';
import { RequestLog } from './admin/request-log.js';
import { problemsOf } from './handle-operation.js';
import { SESSION_HEADER, Sessions } from './state/sessions.js';
import { applySnapshot, checkSnapshot, exportSnapshot, type StateSnapshot } from './state/snapshot.js';
import { Store, type StoredRecord } from './state/store.js';
import { createAjv } from './validation/ajv-instance.js';
import { SchemaConverter } from './validation/to-json-schema.js';
import { schemaCompiler } from './validation/compile-schema.js';
import { compileRequestValidator } from './validation/validate-request.js';
import type { ValidateFunction } from 'ajv';

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
  /** Apply the Petstore business rules when the document is the Petstore (default `auto`). */
  rules?: 'auto' | 'none';
  /** Origins allowed by CORS (default: any). */
  corsOrigins?: string[];
  /** Latency added to every answer, [min, max] milliseconds. */
  delay?: [number, number];
  /** Share of requests (0 to 1) answered with a declared 5xx (or 500), drawn from the seed. */
  errorRate?: number;
  /** Token of the admin API (/__admin); without one it answers only on loopback. */
  adminToken?: string;
  /** Called after a request changed the shared state (to persist it). */
  onChange?: () => void;
  /** The clock, for sunset dates (default: the real time). */
  now?: () => Date;
  /** At most this many sessions (X-Mock-Session) are kept; the least recently used go first (default 100). */
  maxSessions?: number;
  /** Receives problems found at startup (schemas that cannot be compiled...). */
  onWarning?: (message: string) => void;
}

export interface Mock {
  app: Hono;
  /** The shared state (requests without X-Mock-Session). */
  store: Store;
  sessions: Sessions;
  operations: Operation[];
  collections: Collection[];
  /** Put the seeded state back (same seed, same data). */
  reset: () => void;
  /** The last requests answered (GET /__admin/requests). */
  requests: RequestLog;
  /** Checks a snapshot for this document: the snapshot, or a sentence saying what is wrong. */
  checkState: (data: unknown) => StateSnapshot | string;
  warnings: string[];
  /** How each operation is answered: from a collection's state, or (not stateful) from its examples or generated data, with the reason. */
  answers: OperationAnswer[];
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
 * @example
 * const { app } = createMock(await loadDocument('spec/openapi.yaml'));
 * const res = await app.request('/pets', { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } });
 */
export function createMock(document: LoadedDocument, options: MockOptions = {}): Mock {
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    options.onWarning?.(message);
  };
  const { api } = document;
  let seed = options.seed ?? DEFAULT_SEED;
  const operations = buildOperations(api);
  const { collections, bindings } = inferCollections(operations);
  const answers: OperationAnswer[] = operations.map((op) => {
    const binding = bindings.get(op.id);
    const operation = `${op.method.toUpperCase()} ${op.path}`;
    return binding
      ? { operationId: op.id, operation, from: 'state', collection: binding.collection.name, action: binding.action }
      : { operationId: op.id, operation, from: 'static', reason: unmappedReason(op, collections) };
  });
  const ajv = createAjv(document.dialect);
  const converter = new SchemaConverter(api, ajv, document.dialect);
  const maxBodyBytes = Number(api['x-max-body-bytes'] ?? DEFAULT_MAX_BODY_BYTES);
  const compileCtx = { ajv, converter, warn, maxBodyBytes };
  const responseValidator = schemaCompiler(ajv, converter, 'response', warn);
  const validatorFor = (collection: Collection) => responseValidator(collection.schema);

  const faker = createFaker();
  const generate = createGenerator(faker);
  const fixtures =
    typeof options.fixtures === 'string' ? loadFixtures(options.fixtures, collections, validatorFor) : (options.fixtures ?? {});
  const seedOptions = { faker, generate, counts: { default: DEFAULT_COUNT, ...options.counts }, fixtures, validatorFor, warn };
  const operationIds = new Set(operations.map((op) => op.id));
  const petstore = options.rules !== 'none' && petstoreRulesApply(operationIds, collections);
  const rules: Record<string, OperationRule> = petstore ? petstoreRules : {};
  /** Fills a store from the seed: fixtures, then Faker records (the same data every time). */
  const seedInto = (target: Store) => {
    faker.seed(seed);
    seedStore(target, collections, seedOptions);
    if (petstore) petstoreSeedFixup(target);
    return target;
  };
  const checkState = (data: unknown) => checkSnapshot(data, collections, validatorFor);
  const store = seedInto(new Store(collections));
  const sessions = new Sessions(() => seedInto(new Store(collections)), options.maxSessions);
  const reset = () => void seedInto(store);
  const storeFor = (session: string | null) => (session === null ? store : sessions.get(session));
  const requests = new RequestLog(500, queryKeyNames(api));
  const changed = options.onChange ?? (() => undefined);

  const basePath = serverBasePath(api);
  const auth = { apiKeys: options.apiKeys ?? [DEMO_API_KEY], realm: String(api.info?.title ?? 'mock') };

  const app = new Hono();
  const corsPolicy = cors({ origins: options.corsOrigins });
  app.on('OPTIONS', '*', corsPolicy.preflight);
  /** Every answer outside the admin API goes to the request log; a successful write tells `changed`. */
  const record = (c: Context, status: number, started: number, header: HeaderReader) => {
    const session = header(SESSION_HEADER) ?? undefined;
    const method = c.req.method;
    const url = c.req.url;
    requests.add({ time: Date.now(), method, path: url.slice(url.indexOf('/', url.indexOf('//') + 2)), status, ms: Math.round((performance.now() - started) * 10) / 10, session, problems: problemsOf.get(c) });
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
    adminApi(
      {
        storeFor,
        reset: (session) => (session === null ? reset() : sessions.drop(session)),
        reseed: (change) => {
          seed = change.seed ?? seed;
          Object.assign(seedOptions.counts, change.counts);
          reset();
          for (const name of sessions.names()) sessions.drop(name);
          return { seed, counts: store.counts() };
        },
        exportState: exportSnapshot,
        importState: (target, data) => {
          const checked = checkState(data);
          if (typeof checked === 'string') return checked;
          applySnapshot(target, checked);
          return undefined;
        },
        requests,
        changed,
        answers,
      },
      { token: options.adminToken },
    ),
  );

  const chaos = createChaos({ delay: options.delay, errorRate: options.errorRate, seed });
  const scenarioFaker = createFaker();
  const generateScenario = createGenerator(scenarioFaker);
  const forceContext = {
    generateSeeded: (schema: SchemaObject, n: number, hints?: { propertyName?: string }) => {
      scenarioFaker.seed(n);
      return generateScenario(schema, hints);
    },
    responseValidator,
    realm: auth.realm,
    freshSeed: () => Math.floor(Math.random() * 2 ** 31),
  };

  const byTemplate = groupBy(operations, (op) => op.path);
  const knownPaths: Array<{ matches: RegExp; template: string; allow: string[] }> = [];
  const documentMethods = [...new Set(operations.map((op) => op.method.toUpperCase()))].filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
  for (const template of [...byTemplate.keys()].sort(compareTemplates)) {
    const route = toHonoRoute(template, basePath);
    const pathOps = byTemplate.get(template)!;
    for (const operation of pathOps) {
      const binding = bindings.get(operation.id);
      faker.seed(seed); // a static response does not depend on the order operations are compiled in
      const action: Action = binding
        ? compileCrudAction(operation, binding, {
            basePath,
            rule: rules[operation.id],
            now: options.now ? () => options.now!().getTime() : Date.now,
            newKey: (collection, target) => newKey(collection, target.collection(collection.name), { generate }),
            complete: (collection, record, target) => {
              const missing = requiredProperties(collection.schema).filter((name) => record[name] === undefined);
              if (missing.length === 0) return;
              const generated = generateRecord(collection, target.collection(collection.name), target, seedOptions, record[collection.keyProperty]);
              for (const name of missing) if (generated[name] !== undefined) record[name] = generated[name];
            },
            materialise: (collection, key, target) => {
              // A path value is a string; the record's key may be a number, and must fit its schema.
              const typed = isIntegerKey(collection) && /^-?\d+$/.test(String(key)) ? Number(key) : key;
              const fits = responseValidator(collection.keySchema);
              return !fits || fits(typed) ? generateRecord(collection, target.collection(collection.name), target, seedOptions, typed) : undefined;
            },
          })
        : constant(staticResponse(operation, { generate, responseValidator, warn }));
      app.on(
        operation.method.toUpperCase(),
        route.honoPath,
        handleOperation({
          operation,
          readParams: route.params,
          storeFor,
          authenticate: compileAuthenticator(operation, auth),
          validate: compileRequestValidator(operation, compileCtx),
          action,
          respondError: compileErrorResponder(operation, { generate, responseValidator }),
          force: compileScenarioResponder(operation, forceContext),
          chaos,
          cors: corsPolicy.headers,
          record,
          now: options.now ? () => options.now!().getTime() : Date.now,
          // Credentials are checked before the size: an anonymous oversized request gets 401.
          maxBodyBytes,
        }),
      );
    }
    const allow = pathOps.map((op) => op.method.toUpperCase());
    if (allow.includes('GET') && !allow.includes('HEAD')) allow.push('HEAD');
    knownPaths.push({ matches: pathMatcher(route.honoPath), template, allow });
    // Methods the document uses elsewhere get a 405 here, registered in ranked order, so a literal
    // path (`/pets/mine`) is not answered by a template's handler (`DELETE /pets/{petId}`).
    const missing = documentMethods.filter((m) => !allow.includes(m));
    if (missing.length) {
      app.on(missing, route.honoPath, (c) => finish(c, errorResponse(errors.methodNotAllowed(c.req.method, template, allow)), performance.now()));
    }
  }
  // A route has one handler, so Hono skips compose (its single-handler path in #dispatch). A known path
  // with another method is recognised here instead: OPTIONS gets 204 with Allow, others 405.
  app.notFound((c) => {
    const started = performance.now();
    const path = new URL(c.req.url).pathname;
    const known = knownPaths.find((k) => k.matches.test(path));
    if (!known) return finish(c, errorResponse(errors.routeNotFound(c.req.method, path)), started);
    if (c.req.method === 'OPTIONS') return finish(c, respond(null, 204, { Allow: [...known.allow, 'OPTIONS'].join(', ') }), started);
    return finish(c, errorResponse(errors.methodNotAllowed(c.req.method, known.template, known.allow)), started);
  });
  app.onError((error) => {
    warn(`Unexpected failure while answering a request: ${(error as Error).message}`);
    return errorResponse(errors.internal());
  });
  for (const op of operations) if (op.path.startsWith('/__admin')) warn(`${op.id}: ${op.path} is hidden by the mock's admin API (/__admin).`);
  return { app, store, sessions, operations, collections, reset, requests, checkState, warnings, answers };
}

/** Names of query parameters that carry API keys: redacted in the request log. */
function queryKeyNames(api: SchemaObject): string[] {
  return Object.values<SchemaObject>(api.components?.securitySchemes ?? {})
    .filter((scheme) => scheme.type === 'apiKey' && scheme.in === 'query')
    .map((scheme) => String(scheme.name));
}

function constant(result: ReturnType<typeof staticResponse>): Action {
  return () => result;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}
