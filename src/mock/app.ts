/**
 * The mock, assembled: document -> operations -> collections -> routes. Each route runs
 * authenticate -> validate -> act on state -> respond. Nothing here reads `process`: everything
 * comes in through `BuildMockOptions`, so a test builds a mock in one line and calls `app.request()`.
 */
import { Hono } from 'hono';
import { ADMIN_PATH, type AdminControls, type AdminEndpoint } from './admin/admin-api.js';
import { RequestLog } from './admin/request-log.js';
import { operationPipelines } from './assembly/operation-pipelines.js';
import { hiddenOperations, mountOwnEndpoints } from './assembly/own-endpoints.js';
import { createReporting } from './assembly/reporting.js';
import { errorResponse, errors, ApiError } from '../core/api-error.js';
import { OAUTH2_REDIRECT_PATH, type DocsAssets } from './docs/docs-endpoint.js';
import type { LoadedDocument } from '../openapi/document/document.js';
import type { OpenAPIDocument } from '../openapi/document/openapi.js';
import type { DocumentObject } from '../openapi/document/objects.js';
import { cors } from './middleware/cors.js';
import { guardHosts, type AllowedHosts } from './middleware/host-guard.js';
import { requestHeaderNames } from './middleware/request-header-names.js';
import type { BrowserMockOptions, MockOptions } from './mock-options.js';
import { createState, type MockState } from './assembly/create-state.js';
import type { Collection, CrudBinding } from '../openapi/operations/collection.js';
import { unmappedReason } from '../openapi/operations/unmapped-reason.js';
import type { Operation } from '../openapi/operations/operation.js';
import type { MockParts, MockPlugin } from './registries/extension.js';
import { RuleRegistry } from './registries/rules.js';
import { bodyEncoders } from './respond/body-encoders.js';
import { createSelfCheck, type SelfCheckCounts } from './respond/self-check.js';
import { WEB_REQUESTS, type RequestReader } from './pipeline/request-reader.js';
import { mountRoutes } from './routing/mount-routes.js';
import { undeclaredPathParameters } from './routing/undeclared-path-parameters.js';
import { serverBasePath } from '../openapi/operations/server-base-path.js';
import { preferDirectives } from './scenarios/read-scenario.js';
import { bearerCheck, securitySchemeChecks } from './security/authenticate.js';
import { hasWebCrypto } from './oauth/crypto.js';
import { oauthDeclaration } from './oauth/oauth-document.js';
import { NAVIGATION_ENDPOINTS } from './oauth/oauth-paths.js';
import { createOAuthServer, type OAuthServer } from './oauth/oauth-server.js';
import type { StateBudget } from '../state/budget.js';
import type { PersistenceHealth } from '../state/persistence-health.js';
import type { Sessions } from '../state/sessions.js';
import { exportSnapshot, type StateSnapshot } from '../state/snapshot.js';
import type { StateStore, StoredRecord } from '../state/state-store.js';
import { bodyDecoders } from '../openapi/validation/body-decoders.js';
import { compileDocument, type CompiledDocument } from '../openapi/validation/compiled-document.js';
import { describeUnenforced, unenforcedPatterns } from '../openapi/validation/unenforced-patterns.js';

/** The key `npm start` accepts unless `--api-key` replaces it. */
export const DEMO_API_KEY = 'petstore-demo-key';
export const DEFAULT_SEED = 1;
export const DEFAULT_COUNT = 20;
/** Request bodies are refused above this size unless the document sets `x-max-body-bytes`. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The largest request body the document's requests may carry: its `x-max-body-bytes`, else the default. */
export function maxBodyBytesOf(api: DocumentObject): number {
  return Number(api['x-max-body-bytes'] ?? DEFAULT_MAX_BODY_BYTES);
}

/**
 * What `buildMock` takes: the library's options on Node (`MockOptions`, src/mock/mock-options.ts),
 * for a document already loaded, with the parts only the CLI sets.
 */
export interface BuildMockOptions extends Omit<MockOptions, 'spec' | 'fixtures' | 'plugins' | 'docs' | 'store' | 'storeNamespace'> {
  /** Makes an empty store for the document's collections (default: in memory); see `BrowserMockOptions.store`. */
  store?: BrowserMockOptions['store'];
  /** A fixtures directory, or records by collection name (default none). */
  fixtures?: string | Record<string, StoredRecord[]>;
  /** Plugins (default none): the library and the CLI pass the Petstore's (`DEFAULT_PLUGINS`). */
  plugins?: readonly MockPlugin[];
  /** How requests are read (default: as WHATWG requests); the Node server's reads Node's own objects (`NODE_REQUESTS`, src/server/node-requests.ts). */
  requestReader?: RequestReader;
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
   * The docs page's assets (src/mock/docs/docs-assets.ts on Node): with them, GET /__docs serves an
   * interactive reference of the document, and GET / leads there when no operation is at `/`.
   * Without them (the default, and in a browser) /__docs answers 404.
   */
  docs?: DocsAssets;
  /** More endpoints under /__admin, behind its guard and listed by GET /__admin (the proxy adds /violations). */
  adminEndpoints?: readonly AdminEndpoint[];
  /**
   * The document compiled once (src/openapi/validation/compiled-document.ts), shared with the suite or the
   * proxy that runs in the same process; default: one compiled here for this mock.
   */
  compiled?: CompiledDocument;
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
  /** Records by collection, without seeding any (a collection seeded on first use counts what its seed will make). */
  counts: () => Record<string, number>;
  /** The names of the plugins that serve the document (their mock part applies). */
  plugins: string[];
  /** The authorization server under /__oauth, for a document with oauth2 or openIdConnect schemes (none with `oauth: false`, or without Web Crypto). */
  oauth?: OAuthServer;
  /** With `selfCheck: true`, what the self-check has seen so far (a live object); undefined without it. */
  selfCheck?: Readonly<SelfCheckCounts>;
  /** The compiled document the mock validates with (given in `compiled`, or its own). */
  compiled: CompiledDocument;
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
  const seed = options.seed ?? DEFAULT_SEED;

  // The document compiled (given, or built here): its operations, the collections they act on, and how each is answered.
  const compiled = options.compiled ?? compileDocument(document);
  compiled.listen(warn);
  const { operations, collections, bindings } = compiled;
  const answers = describeAnswers(operations, bindings, collections);

  // The authorization server of a document with oauth2 or openIdConnect schemes: their bearer check also takes its tokens.
  const apiKeys = options.apiKeys ?? [DEMO_API_KEY];
  const realm = String(api.info?.title ?? 'mock');
  const oauth = authorizationServer(document, operations, options, { apiKeys, realm, now, warn });

  // The parts: the built-ins, then what each plugin that serves this document registers.
  const parts = builtInParts(oauth);
  const shape = { api: api as OpenAPIDocument, operations, operationIds: new Set(operations.map((op) => op.id)), collections };
  const plugins = (options.plugins ?? []).filter((plugin) => plugin.mock?.(parts, shape) === true).map((plugin) => plugin.name);

  // The document's validators, and the state they check.
  const { ajv, converter, responseValidator } = compiled;
  const selfCheck = options.selfCheck ? createSelfCheck({ ajv, converter, responseValidator, warn }) : undefined;
  const state = createState({ collections, seed, counts: { default: DEFAULT_COUNT, ...options.counts }, fixtures: options.fixtures, seedHooks: parts.seedHooks, makeStore: options.store, limits: options.limits, maxSessions: options.maxSessions, now, responseValidator, warn, document: api });
  const { store, sessions } = state;

  // Who hears of each answer; the Host check and CORS in front of everything.
  const app = new Hono();
  const requests = new RequestLog(500, queryKeyNames(api));
  const changed = options.onChange ?? (() => undefined);
  // The admin API and the authorization endpoint are never granted to another origin: their preflights get 403, their answers no CORS headers.
  // Preflights also allow the headers the document's operations read (API-key headers, header parameters).
  // So are the document's own authorization URLs the authorization server answers at.
  const navigation = [...NAVIGATION_ENDPOINTS, ...(oauth?.declaration.documentPaths ?? []).filter((p) => NAVIGATION_ENDPOINTS.includes(p.endpoint)).map((p) => p.path)];
  const corsPolicy = cors({ origins: options.corsOrigins, moreAllowHeaders: requestHeaderNames(operations), closedPaths: [ADMIN_PATH, ...navigation] });
  const reader = options.requestReader ?? WEB_REQUESTS;
  const reporting = createReporting({ now, requests, onRequest: options.onRequest, changed, cors: corsPolicy, reader });
  guardHosts(app, options.allowedHosts, reporting.refusedHost);
  app.on('OPTIONS', '*', reporting.preflight);

  // The mock's own endpoints, then one pipeline per operation of the document on its route.
  const basePath = serverBasePath(api);
  const maxBodyBytes = maxBodyBytesOf(api);
  // Each operation's request validator, compiled on its first use, by its requests or by the docs page's try-it, which confirms its requests with it.
  const compileCtx = { ajv, converter, warn, maxBodyBytes, decoders: parts.bodyDecoders };
  const requestValidator = compiled.requestValidators(compileCtx);
  const tryIt = { document: api, judge: compiled.requestJudge(compileCtx), binding: (op: Operation) => bindings.get(op.id) };
  const admin = options.admin === false ? undefined : adminControls(state, { requests, changed, answers, more: options.adminEndpoints });
  mountOwnEndpoints(app, { raw: document.raw, operations, collections, basePath, store, tryIt, admin, adminToken: options.adminToken, trustProxy: options.trustProxy, maxAdminBodyBytes: options.maxAdminBodyBytes, docs: options.docs, title: realm, apiKeys, demoKey: DEMO_API_KEY, persistence: options.persistence, oauth, selfCheck: selfCheck?.counts, cors: corsPolicy, reporting, reader });
  const pipelines = operationPipelines({ parts, state, bindings, basePath, auth: { apiKeys, realm }, ajv, converter, responseValidator, maxBodyBytes, seed, delay: options.delay, errorRate: options.errorRate, now, random: options.random ?? Math.random, cors: corsPolicy, record: reporting.record, reader, writable: options.writable, warn, selfCheck, document: api, trustProxy: options.trustProxy, requestValidator });
  mountRoutes(app, operations, basePath, pipelines, reporting.finish);
  app.onError((error, c) => {
    // A refusal thrown on purpose (the state's store cannot be used: 503) is answered as it is.
    if (error instanceof ApiError) {
      const response = errorResponse(error);
      reporting.failed(c, response);
      return response;
    }
    warn(`Unexpected failure while answering a request: ${(error as Error).message}`);
    const response = errorResponse(errors.internal());
    reporting.failed(c, response);
    return response;
  });

  for (const message of hiddenOperations(operations, basePath, Boolean(options.docs), oauth !== undefined)) warn(message);
  for (const pattern of unenforcedPatterns(api)) warn(describeUnenforced(pattern));
  for (const message of undeclaredPathParameters(operations)) warn(message);
  return { app, store, sessions, operations, collections, reset: state.reset, reseed: state.reseed, requests, checkState: state.checkState, importState: state.importState, warnings, answers, plugins, budget: state.budget, counts: state.counts, oauth, selfCheck: selfCheck?.counts, compiled };
}

const WRITES = { writes: true };
const READS = { writes: false };

/** What the admin API controls: the state (shared or a session's), the request log, the answers. */
function adminControls(state: MockState, { requests, changed, answers, more }: Pick<AdminControls, 'requests' | 'changed' | 'answers' | 'more'>): AdminControls {
  const { sessions } = state;
  return {
    // What changes or reads the state runs in the store's transaction, as a request's work does: a
    // store shared between processes sees the others' changes first and tells them its own.
    storeFor: state.storeFor,
    reset: (session) => (session === null ? state.store.transact(() => state.reset(), WRITES) : void sessions.drop(session)),
    reseed: (change) => state.store.transact(() => state.reseed(change), WRITES),
    exportState: (store) => store.transact(() => exportSnapshot(store), READS),
    importState: (target, data) => {
      const checked = state.checkState(data);
      if (typeof checked === 'string') return checked;
      return target.transact(() => {
        const full = state.importState(target, checked);
        return full === undefined ? undefined : { full };
      }, WRITES);
    },
    requests,
    changed,
    answers,
    sessions: () => ({ max: sessions.max, active: sessions.names(), evicted: sessions.evictedNames() }),
    more,
  };
}

/**
 * The authorization server, for a document that declares oauth2 or openIdConnect schemes. It signs
 * in at once a caller who could read a key anyway: the demo key is accepted (the document prints
 * it), or the caller is on this machine (never behind a proxy); the rule of the docs page's key.
 */
function authorizationServer(document: LoadedDocument, operations: Operation[], options: BuildMockOptions, context: { apiKeys: string[]; realm: string; now: () => number; warn: (message: string) => void }): OAuthServer | undefined {
  if (options.oauth === false) return undefined;
  const declaration = oauthDeclaration(document.api, operations);
  if (!declaration) return undefined;
  if (!hasWebCrypto()) {
    context.warn('The document declares oauth2 or openIdConnect schemes, but this runtime has no Web Crypto (a page that is not a secure context): no authorization server under /__oauth; the API keys still open those operations.');
    return undefined;
  }
  for (const message of declaration.warnings) context.warn(message);
  const { apiKeys, realm, now } = context;
  const open = apiKeys.includes(DEMO_API_KEY);
  // A code goes to the mock itself only at the docs page's callback, a page that grants no origin, and only while the docs page is served.
  const ownCallbacks = options.docs ? [OAUTH2_REDIRECT_PATH] : [];
  return createOAuthServer({ ...options.oauth, declaration, apiKeys, realm, now, trustProxy: options.trustProxy, ownCallbacks, keyless: (local) => open || (local && !options.trustProxy) });
}

/** The built-in parts, before any plugin adds to them. */
function builtInParts(oauth: OAuthServer | undefined): MockParts {
  const securitySchemes = securitySchemeChecks();
  if (oauth) securitySchemes.register('oauth2', bearerCheck(oauth.verify)).register('openIdConnect', bearerCheck(oauth.verify));
  return {
    securitySchemes,
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
      : { operationId: op.id, operation, from: 'static', reason: unmappedReason(op, collections, { operations, bindings }) };
  });
}

/** Names of query parameters that carry API keys: redacted in the request log. */
export function queryKeyNames(api: DocumentObject): string[] {
  return Object.values(api.components?.securitySchemes ?? {})
    .filter((scheme) => scheme.type === 'apiKey' && scheme.in === 'query')
    .map((scheme) => String(scheme.name));
}
