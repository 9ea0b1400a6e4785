/**
 * The mock's own endpoints, in one place, outside the document: the admin API (`/__admin`, or a
 * 404 with `admin: false`), the health check (`/__health`), the document as served (`/__spec`,
 * `.json`, `.yaml`), the docs page (`/__docs`, and `/` leading there unless the document has an
 * operation at `/`) and, for a document with oauth2 or openIdConnect schemes, the authorization
 * server (`/__oauth`). Also the warnings for the document's operations they hide.
 */
import type { Context, Hono, Next } from 'hono';
import { ADMIN_PATH, adminApi, adminOff, isLocalCaller, type AdminControls } from '../admin/admin-api.js';
import { SECURITY_HEADERS, respondJson } from '../../core/security-headers.js';
import { DOCS_PATH, docsResponder, docsUnavailable, type DocsAssets } from '../docs/docs-endpoint.js';
import { tryItValues } from '../docs/try-it-values.js';
import { tryItRequester, type TryItContext } from '../docs/try-it-requests.js';
import type { RequestReader } from '../pipeline/request-reader.js';
import type { Cors } from '../middleware/cors.js';
import type { JsonObject } from '../../core/json-object.js';
import type { Collection } from '../../openapi/operations/collection.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { OAuthServer } from '../oauth/oauth-server.js';
import { NAVIGATION_ENDPOINTS, OAUTH_PATH } from '../oauth/oauth-paths.js';
import { SPEC_PATH, specResponder, type SpecFormat } from '../spec-endpoint.js';
import { NO_PERSISTENCE } from '../../state/persistence.js';
import type { PersistenceHealth } from '../../state/persistence-health.js';
import type { StateStore } from '../../state/state-store.js';
import type { Reporting } from './reporting.js';
import type { SelfCheckCounts } from '../respond/self-check.js';

export const HEALTH_PATH = '/__health';

export interface OwnEndpoints {
  /** The document as written (for /__spec). */
  raw: JsonObject;
  operations: readonly Operation[];
  collections: readonly Collection[];
  basePath: string;
  /** The shared state: the docs page's try-it panel starts from its records. */
  store: StateStore;
  /** What the try-it panel's requests are made with and confirmed by (the mock's request validator): none, no requests made. */
  tryIt?: Omit<TryItContext, 'store'>;
  /** The admin API's controls; undefined with `admin: false` (404 under /__admin). */
  admin?: AdminControls;
  adminToken?: string;
  trustProxy?: boolean;
  /** The largest body the admin API reads (default 64 MiB). */
  maxAdminBodyBytes?: number;
  /** The docs page's assets; without them /__docs answers 404. */
  docs?: DocsAssets;
  /** The page's title, and the keys it may offer. */
  title: string;
  apiKeys: readonly string[];
  demoKey: string;
  persistence?: () => PersistenceHealth;
  /** The authorization server of a document with oauth2 or openIdConnect schemes (src/mock/oauth); none otherwise. */
  oauth?: OAuthServer;
  /** With the self-check on, its counts, reported by GET /__health. */
  selfCheck?: Readonly<SelfCheckCounts>;
  cors: Cors;
  reporting: Reporting;
  reader: RequestReader;
}

export function mountOwnEndpoints(app: Hono, endpoints: OwnEndpoints): void {
  const { reporting, cors, reader } = endpoints;
  reporting.observeAdmin(app);
  app.route(ADMIN_PATH, endpoints.admin ? adminApi(endpoints.admin, { token: endpoints.adminToken, trustProxy: endpoints.trustProxy, reader, maxBodyBytes: endpoints.maxAdminBodyBytes }) : adminOff());

  // Beside the admin API, open to probes: 503 while the state cannot be saved.
  app.get(HEALTH_PATH, (c) => {
    const started = performance.now();
    const persistence = endpoints.persistence?.() ?? NO_PERSISTENCE;
    const selfCheck = endpoints.selfCheck && { ...endpoints.selfCheck };
    return reporting.answered(c, started, respondJson({ status: persistence.ok ? 'ok' : 'degraded', persistence, selfCheck }, persistence.ok ? 200 : 503));
  });

  // The document as served, open like /__health and with the API's CORS headers (docs UIs and client generators read it from a browser).
  const spec = specResponder(endpoints.raw);
  const specRoutes: Array<[string, SpecFormat | undefined]> = [[SPEC_PATH, undefined], [`${SPEC_PATH}.json`, 'json'], [`${SPEC_PATH}.yaml`, 'yaml']];
  for (const [path, format] of specRoutes) {
    app.get(path, (c) => {
      const started = performance.now();
      const header = reader.headers(c);
      return reporting.answered(c, started, spec({ format, accept: header('accept'), ifNoneMatch: header('if-none-match'), cors: cors.headers(header('origin')) }));
    });
  }

  // The authorization server: open like /__spec, with the API's CORS headers (a front end calls its token endpoint from the page),
  // except on the authorization endpoint, a page to navigate to: a page that could read its redirect would read the code.
  // It also answers at the document's own token and authorization URLs on the API's origin, for the methods no operation takes there;
  // a request that reaches such a path by another origin goes on to the API.
  const oauth = endpoints.oauth;
  if (oauth) {
    const answerOAuth = async (c: Context, next: Next) => {
      const started = performance.now();
      const header = reader.headers(c);
      const url = new URL(c.req.url);
      const endpoint = oauth.endpointFor({ url, header });
      if (endpoint === undefined) {
        await next();
        return c.res;
      }
      const response = await oauth.handle({ method: c.req.method, url, header, body: (maxBytes) => reader.body(c, maxBytes), local: isLocalCaller(c, reader) });
      const allowed = NAVIGATION_ENDPOINTS.includes(endpoint) ? undefined : cors.headers(header('origin'));
      if (allowed) for (const [name, value] of Object.entries(allowed)) response.headers.set(name, value);
      return reporting.answered(c, started, response);
    };
    app.all(`${OAUTH_PATH}/*`, answerOAuth);
    for (const { path, methods } of oauth.declaration.documentPaths) app.on(methods, path, answerOAuth);
  }

  // The docs page, open like /__spec; GET / leads there unless the document has an operation at `/` (a 405 then says which methods it takes).
  if (!endpoints.docs) {
    app.get(DOCS_PATH, (c) => reporting.answered(c, performance.now(), docsUnavailable()));
    return;
  }
  const { apiKeys, demoKey, store, operations, collections, basePath } = endpoints;
  const requests = endpoints.tryIt && tryItRequester({ ...endpoints.tryIt, store });
  const docs = docsResponder(endpoints.docs, {
    title: endpoints.title,
    basePath,
    operations,
    // The demo key is in the document anyway; a key of one's own is shown only to a caller on this machine.
    keyFor: ({ local }) => (apiKeys.includes(demoKey) ? demoKey : local && !endpoints.trustProxy ? apiKeys[0] : undefined),
    // The try-it panel starts from the shared state's records (not a session's: the page sends none).
    values: () => {
      const values = tryItValues(operations, collections, store);
      return requests ? requests(operations, values) : values;
    },
    oauth: endpoints.oauth !== undefined,
  });
  const answerDocs = async (c: Context, asset?: string) => {
    const started = performance.now();
    const header = reader.headers(c);
    return reporting.answered(c, started, await docs({ asset, acceptEncoding: header('accept-encoding'), ifNoneMatch: header('if-none-match'), local: isLocalCaller(c, reader) }));
  };
  const toDocs = (c: Context) => reporting.answered(c, performance.now(), new Response(null, { status: 302, headers: { ...SECURITY_HEADERS, Location: DOCS_PATH } }));
  app.get(DOCS_PATH, (c) => answerDocs(c));
  app.get(`${DOCS_PATH}/`, toDocs);
  app.get(`${DOCS_PATH}/:asset`, (c) => answerDocs(c, c.req.param('asset')));
  if (!operations.some((op) => `${basePath}${op.path}` === '/')) app.get('/', toDocs);
}

/** Warnings for operations the mock's own endpoints hide: under /__admin, GET /__health, /__spec and /__docs, with the docs page on, GET under /__docs/, and with the authorization server, anything under /__oauth/ (under the document's base path). */
export function hiddenOperations(operations: readonly Operation[], basePath: string, docs: boolean, oauth = false): string[] {
  const own: Record<string, string> = {
    [HEALTH_PATH]: "the mock's health check",
    [SPEC_PATH]: "the mock's copy of the document (/__spec)",
    [DOCS_PATH]: "the mock's docs page (/__docs)",
    [`${SPEC_PATH}.json`]: "the mock's copy of the document (/__spec)",
    [`${SPEC_PATH}.yaml`]: "the mock's copy of the document (/__spec)",
  };
  const messages: string[] = [];
  for (const op of operations) {
    const served = `${basePath}${op.path}`;
    if (served === ADMIN_PATH || served.startsWith(`${ADMIN_PATH}/`)) messages.push(`${op.id}: ${served} is hidden by the mock's admin API (${ADMIN_PATH}).`);
    else if (oauth && served.startsWith(`${OAUTH_PATH}/`)) messages.push(`${op.id}: ${served} is hidden by the mock's authorization server (${OAUTH_PATH}).`);
    else if (docs && served.startsWith(`${DOCS_PATH}/`) && (op.method === 'get' || op.method === 'head')) messages.push(`${op.id}: ${op.method.toUpperCase()} ${served} is hidden by the mock's docs page (${DOCS_PATH}).`);
    else if (own[served] && (op.method === 'get' || op.method === 'head')) messages.push(`${op.id}: ${op.method.toUpperCase()} ${served} is hidden by ${own[served]}.`);
  }
  return messages;
}
