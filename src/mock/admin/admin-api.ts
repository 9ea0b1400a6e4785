/**
 * Mock control under `/__admin`, outside the document: reset to the seed, reseed, export and
 * import the state, read the last requests, and say how each operation is answered; `GET /__admin`
 * lists the endpoints (from the table they are registered from). Guarded by `--admin-token` (compared in constant
 * time); with no token configured it answers only on loopback, and never a request a proxy
 * forwarded. A petstore API key never opens it, and the admin token never opens the petstore.
 * `X-Mock-Session` picks the session it acts on.
 *
 * Closed to browsers: a developer's browser is on loopback too, so a page on any site could
 * otherwise reset or replace the state. Calls that change state are refused when a browser says
 * a page sent them (`Sec-Fetch-Site`, `Origin`), whichever page: one of another origin, a
 * sandboxed one (`Origin: null`), and one of the mock's own origin, which no page of the mock
 * has reason to be (the docs page only reads the request log). A client that sends neither is a
 * script, not a page, and is answered, bodyless POST included. A body must be JSON: a form or a
 * `text/plain` fetch, which a page may send without a CORS preflight (the admin API answers
 * none), gets 415.
 */
import { respondJson } from '../../core/security-headers.js';
import { Hono, type Context } from 'hono';
import { ApiError, errorResponse, errors } from '../../core/api-error.js';
import { WEB_REQUESTS, type RequestReader } from '../pipeline/request-reader.js';
import { SESSION_HEADER } from '../../state/sessions.js';
import { isLoopbackAddress } from '../middleware/host-guard.js';
import type { StateSnapshot } from '../../state/snapshot.js';
import type { StateStore } from '../../state/state-store.js';
import type { RequestLog } from './request-log.js';

type MaybePromise<T> = T | Promise<T>;

export interface AdminControls {
  storeFor: (session: string | null) => StateStore | ApiError;
  /**
   * Back to the seed (the shared state, or one session). The calls that read or change the state
   * run in its store's transaction, so they may answer with a promise (a store in a database).
   */
  reset: (session: string | null) => void | Promise<void>;
  /** A new seed and/or counts, then a reset of everything. */
  /** A sentence instead when the counts asked for would pass the bound on records held (nothing changed). */
  reseed: (change: { seed?: number; counts?: Record<string, number> }) => MaybePromise<{ seed: number; counts: Record<string, number> } | string>;
  exportState: (store: StateStore) => MaybePromise<StateSnapshot>;
  /**
   * Checks and applies a snapshot; when it is refused (nothing changed), a sentence saying what is
   * wrong with it (400), or `full` with one saying how many records or bytes against which bound (507).
   */
  importState: (store: StateStore, data: unknown) => MaybePromise<string | { full: string } | undefined>;
  requests: RequestLog;
  /** Called after the shared state changed (for the state file). */
  changed: () => void;
  /** How each operation is answered (GET /__admin/operations): from state, or not, and why. */
  answers: unknown[];
  /** The sessions kept (least recently used first), the cap, and the names evicted since (GET /__admin/sessions). */
  sessions: () => { max: number; active: string[]; evicted: string[] };
  /** More endpoints, behind the same guard and listed by GET /__admin (the proxy's /violations). */
  more?: readonly AdminEndpoint[];
}

/** One endpoint of the admin API: the route it is registered on, and its line in GET /__admin. */
export interface AdminEndpoint {
  method: 'GET' | 'POST' | 'PUT';
  /** Below /__admin: `/reset`; `/` is /__admin itself. */
  path: string;
  /** One line: what it does. */
  description: string;
  handle: (c: Context) => Response | Promise<Response>;
}

/** Where the admin API is mounted. */
export const ADMIN_PATH = '/__admin';

export interface AdminOptions {
  /** The admin token; without one, only loopback callers are answered. */
  token?: string;
  /** Every peer is a reverse proxy: loopback proves nothing, so without a token every caller is refused. */
  trustProxy?: boolean;
  /** How the caller's address is read (default: the WHATWG request's, which has none: local). */
  reader?: RequestReader;
  /** The largest body read, in bytes (default `DEFAULT_ADMIN_BODY_BYTES`); past it, 413 before the rest is held. */
  maxBodyBytes?: number;
}

/** 64 MiB: a state of about 200,000 Petstore records, read whole before it is checked (a string of JSON takes about twice its bytes in memory, then its objects). */
export const DEFAULT_ADMIN_BODY_BYTES = 64 * 1024 * 1024;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
/** Headers proxies add (nginx, Caddy, Traefik, Apache, RFC 7239, RFC 9110). */
const FORWARDED = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'];
/** Methods that change nothing: no Content-Type or origin rule. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** @example app.route(ADMIN_PATH, adminApi(controls, { token: 'secret' })) */
export function adminApi(controls: AdminControls, { token, trustProxy = false, reader = WEB_REQUESTS, maxBodyBytes = DEFAULT_ADMIN_BODY_BYTES }: AdminOptions = {}): Hono {
  const admin = new Hono();
  /** The body as text, read once by whichever asks first (the guard, then the handler), at most `maxBodyBytes`. */
  const bodies = new WeakMap<Request, Promise<string | ApiError>>();
  const bodyText = (c: Context): Promise<string | ApiError> => {
    let text = bodies.get(c.req.raw);
    if (!text) {
      text = reader.body(c, maxBodyBytes).then((bytes) => (bytes === undefined ? errors.payloadTooLarge(maxBodyBytes) : new TextDecoder().decode(bytes)));
      bodies.set(c.req.raw, text);
    }
    return text;
  };
  const expected = token === undefined ? undefined : new TextEncoder().encode(token);

  admin.use('*', async function guard(c, next) {
    if (expected) {
      const given = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
      if (!sameSecret(new TextEncoder().encode(given), expected)) {
        return errorResponse(new ApiError(401, 'ADMIN_UNAUTHORIZED', 'The admin API needs Authorization: Bearer <admin token>.', undefined, { 'WWW-Authenticate': 'Bearer realm="mock-admin"' }));
      }
    } else if (trustProxy) {
      return errorResponse(new ApiError(403, 'ADMIN_FORBIDDEN', 'Behind a proxy (--trust-proxy) every caller looks local, so the admin API needs --admin-token.'));
    } else if (!isLoopback(c, reader)) {
      return errorResponse(new ApiError(403, 'ADMIN_FORBIDDEN', 'Without --admin-token the admin API answers only on loopback.'));
    } else if (FORWARDED.some((name) => c.req.header(name) !== undefined)) {
      // A proxy on this machine makes every caller loopback; one that says so is believed.
      return errorResponse(new ApiError(403, 'ADMIN_FORBIDDEN', 'This request came through a proxy, so loopback proves nothing: without --admin-token the admin API refuses it.'));
    }
    if (!SAFE_METHODS.has(c.req.method)) {
      const refused = fromPage(c) ?? notJsonBody(c, await bodyText(c));
      if (refused) return errorResponse(refused);
    }
    await next();
  });

  const session = (c: Context) => c.req.header(SESSION_HEADER) ?? null;
  const withStore = (c: Context, act: (store: StateStore) => Response | Promise<Response>) => {
    const store = controls.storeFor(session(c));
    return store instanceof ApiError ? errorResponse(store) : act(store);
  };
  const json = (body: unknown, status = 200) => respondJson(body, status);
  const shared = (c: Context) => session(c) === null;

  /** The admin API, one row per endpoint: the routes are registered from it and GET /__admin lists it, so the two cannot drift. */
  const endpoints: AdminEndpoint[] = [
    { method: 'GET', path: '/', description: 'this list of the admin endpoints', handle: () => json({ endpoints: listing }) },
    {
      method: 'POST',
      path: '/reset',
      description: 'back to the seed (same seed, same data): the shared state, or the X-Mock-Session one',
      handle: (c) =>
        withStore(c, async () => {
          await controls.reset(session(c));
          if (shared(c)) controls.changed();
          // Counted in the store the caller has now: a session's is dropped by the reset and made again from the seed.
          return withStore(c, (store) => json({ reset: session(c) ?? 'shared', counts: store.counts() }));
        }),
    },
    {
      method: 'POST',
      path: '/seed',
      description: 'a new seed and/or counts ({"seed": 42, "counts": {"pets": 100}}), kept by later resets; sessions are dropped',
      handle: async (c) => {
        const body = readJson(await bodyText(c));
        if (body instanceof ApiError) return errorResponse(body);
        const { seed, counts } = (body ?? {}) as { seed?: unknown; counts?: unknown };
        if (seed !== undefined && !(Number.isSafeInteger(seed) && (seed as number) >= 0)) return errorResponse(invalid('body.seed must be a non-negative integer'));
        if (counts !== undefined && !(counts && typeof counts === 'object' && Object.values(counts).every((n) => Number.isSafeInteger(n) && n >= 0 && n <= 1_000_000))) {
          return errorResponse(invalid('body.counts must map collection names to integers from 0 to 1000000'));
        }
        const applied = await controls.reseed({ seed: seed as number | undefined, counts: counts as Record<string, number> | undefined });
        if (typeof applied === 'string') return errorResponse(new ApiError(507, 'STORAGE_FULL', applied));
        controls.changed();
        return json(applied);
      },
    },
    { method: 'GET', path: '/state', description: 'the whole state as JSON (petstore-mock-kit/state@1)', handle: (c) => withStore(c, async (store) => json(await controls.exportState(store))) },
    {
      method: 'PUT',
      path: '/state',
      description: 'import a state (as GET /__admin/state gives it), checked whole first: a bad one (400) or one past --max-records or --max-state-mb (507) changes nothing',
      handle: async (c) => {
        const body = readJson(await bodyText(c));
        if (body instanceof ApiError) return errorResponse(body);
        return withStore(c, async (store) => {
          const refused = await controls.importState(store, body);
          if (typeof refused === 'object') return errorResponse(new ApiError(507, 'STORAGE_FULL', `The state was not imported (nothing changed): ${refused.full}.`));
          if (refused) return errorResponse(new ApiError(400, 'INVALID_STATE', `The state was not imported (nothing changed): ${refused}.`));
          if (shared(c)) controls.changed();
          return json({ imported: session(c) ?? 'shared', counts: store.counts() });
        });
      },
    },
    {
      method: 'GET',
      path: '/requests',
      description: 'the last requests answered (?limit=1 to 500, default 50), newest first, API keys redacted',
      handle: (c) => {
        const limit = Number(c.req.query('limit') ?? 50);
        if (!Number.isInteger(limit) || limit < 1 || limit > 500) return errorResponse(invalid('query.limit must be an integer from 1 to 500'));
        return json({ requests: controls.requests.latest(limit) });
      },
    },
    { method: 'GET', path: '/operations', description: 'how each operation is answered: from a collection\'s state, or from examples or generated data, and why', handle: () => json({ operations: controls.answers }) },
    { method: 'GET', path: '/sessions', description: 'the sessions kept (least recently used first), the cap, and the names evicted since', handle: () => json(controls.sessions()) },
    ...(controls.more ?? []),
  ];
  const listing = endpoints.map(({ method, path, description }) => ({ method, path: path === '/' ? ADMIN_PATH : `${ADMIN_PATH}${path}`, description }));
  for (const endpoint of endpoints) admin.on(endpoint.method, endpoint.path, refusalsAnswered(endpoint.handle));
  const index = endpoints[0];

  // Here rather than notFound: a mounted app's notFound is not used, and the mock's own 404 carries CORS headers.
  admin.all('*', (c) => {
    const path = new URL(c.req.url).pathname;
    // `/__admin/` is the index too: a route of a mounted app at `/` answers only `/__admin`.
    if (path === `${ADMIN_PATH}/` && (c.req.method === 'GET' || c.req.method === 'HEAD')) return index.handle(c);
    return errorResponse(new ApiError(404, 'ROUTE_NOT_FOUND', `The admin API has no ${c.req.method} ${path}; GET ${ADMIN_PATH} lists its endpoints.`));
  });
  return admin;
}

/** `--no-admin`: nothing under `/__admin` answers but a 404. */
export function adminOff(): Hono {
  return new Hono().all('*', (c) => errorResponse(new ApiError(404, 'ROUTE_NOT_FOUND', `The admin API is off (--no-admin): nothing answers ${c.req.method} ${new URL(c.req.url).pathname}.`)));
}

/**
 * A call a web page sent, by what browsers send and a page cannot change: from another site or
 * origin (`Sec-Fetch-Site` other than `same-origin` or `none`, or an `Origin` naming another host
 * than the one called, `null` included: a sandboxed page, such as every answer of the mock that
 * is not JSON) it is ADMIN_CROSS_ORIGIN; from the mock's own origin (`Sec-Fetch-Site:
 * same-origin`, or its `Origin`) it is ADMIN_FROM_PAGE, since no page of the mock writes here,
 * so only a script that should not run on this origin would. `Sec-Fetch-Site: none` (the
 * browser's own address bar) and a request with neither header (a script) come from no page.
 * The scheme is not compared: a TLS proxy changes it.
 *
 * `Referer` and `Sec-Fetch-Dest` do not tell a script on this origin from the docs page: a page
 * may name any URL of its own origin as `referrer`, and both send `Sec-Fetch-Dest: empty`.
 */
function fromPage(c: Context): ApiError | undefined {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return new ApiError(403, 'ADMIN_CROSS_ORIGIN', `The admin API refuses calls from pages on other sites (Sec-Fetch-Site: ${site.slice(0, 40)}).`);
  }
  const origin = c.req.header('origin');
  if (origin !== undefined && hostOf(origin) !== new URL(c.req.url).host) {
    return new ApiError(403, 'ADMIN_CROSS_ORIGIN', `The admin API refuses calls from pages on other origins (Origin: ${origin.slice(0, 200)}).`);
  }
  if (site === 'same-origin' || origin !== undefined) {
    return new ApiError(403, 'ADMIN_FROM_PAGE', 'The admin API changes state for scripts, not for web pages, even on the mock\'s own origin: no page of the mock does, so send this call from a terminal or a test (curl, the library).');
  }
  return undefined;
}

/**
 * A body past the limit, or one that is not JSON: a form or a `text/plain` fetch, which a page on
 * any site may send without asking. No body at all (a script's `curl -X POST`) is fine, whatever
 * its Content-Type. The text read here is the one the handler reads.
 */
function notJsonBody(c: Context, text: string | ApiError): ApiError | undefined {
  if (text instanceof ApiError) return text;
  const type = c.req.header('content-type');
  if (type?.split(';')[0].trim().toLowerCase() === 'application/json') return undefined;
  if (text === '') return undefined;
  return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Admin calls that send a body need Content-Type: application/json${type ? `; this one sent ${type.slice(0, 100)}` : ''}.`);
}

/**
 * A store that cannot serve now (its database lost, or refusing what a change holds) throws an
 * ApiError from its transaction: answered in the error shape, as the API's requests are. Hono hands
 * only `Error`s to an error handler, and an ApiError is data, not an `Error`.
 */
function refusalsAnswered(handle: AdminEndpoint['handle']): AdminEndpoint['handle'] {
  const refused = (error: unknown) => {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  };
  return (c) => {
    try {
      const answer = handle(c);
      return answer instanceof Promise ? answer.catch(refused) : answer;
    } catch (error) {
      return refused(error);
    }
  };
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined; // `null` (a sandboxed page, a file) or garbage: another origin
  }
}

function invalid(message: string): ApiError {
  return new ApiError(400, 'VALIDATION_FAILED', message);
}

function readJson(text: string | ApiError): unknown {
  if (text instanceof ApiError || !text) return text || undefined;
  try {
    return JSON.parse(text);
  } catch {
    return new ApiError(400, 'INVALID_JSON', 'The request body is not valid JSON.');
  }
}

/**
 * A caller on this machine that named this machine: a loopback peer, no header saying a proxy
 * forwarded the request, and a loopback `Host` (`localhost`, `127.x`, `[::1]`). A page whose own
 * name points at 127.0.0.1 (DNS rebinding, answered when any Host is: `--host 0.0.0.0` without
 * `--allowed-host`) has a loopback peer too; only its Host tells. (Behind --trust-proxy, no
 * caller is.) The docs page offers a configured API key only to these.
 */
export function isLocalCaller(c: Context, reader: RequestReader): boolean {
  return isLoopback(c, reader) && !FORWARDED.some((name) => c.req.header(name) !== undefined) && isLoopbackAddress(new URL(c.req.url).hostname);
}

/** In-process requests (tests, app.request) have no socket: they are local by definition. */
function isLoopback(c: Context, reader: RequestReader): boolean {
  const address = reader.remoteAddress(c);
  return address === undefined || LOOPBACK.test(address);
}

/**
 * Compares a token given with the expected one in a time that depends only on the expected
 * token's length, never on where they differ (plain JavaScript: the admin API also runs in a
 * browser, without node:crypto).
 */
function sameSecret(given: Uint8Array, expected: Uint8Array): boolean {
  let difference = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) difference |= expected[i] ^ (given[i] ?? 0);
  return difference === 0;
}
