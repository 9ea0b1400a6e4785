/**
 * Who hears of each answer: the request log (GET /__admin/requests) and `onRequest` (the CLI's log
 * line) for the document's paths, `onRequest` alone for the mock's own answers (admin, health, the
 * document, the docs page, preflights, Host refusals, failures), and `onChange` after a successful
 * write to the shared state (the state file).
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { ADMIN_PATH } from '../admin/admin-api.js';
import type { RequestEntry, RequestLog } from '../admin/request-log.js';
import type { RequestTrace } from '../handle-operation.js';
import type { HeaderReader, RequestReader } from '../pipeline/request-reader.js';
import type { Cors } from '../middleware/cors.js';
import { SESSION_HEADER } from '../../state/sessions.js';

export interface ReportingOptions {
  now: () => number;
  requests: RequestLog;
  onRequest?: (entry: RequestEntry) => void;
  /** After a successful write to the shared state. */
  changed: () => void;
  cors: Cors;
  reader: RequestReader;
}

export interface Reporting {
  /** An answer of the mock's own, told to `onRequest`; passed on. */
  answered: (c: Context, started: number, response: Response) => Response;
  /** An answer of the document's paths: the request log, `onRequest`, and `changed` after a successful write. */
  record: (c: Context, status: number, started: number, header: HeaderReader, trace?: RequestTrace) => void;
  /** An answer built outside the operations (404, 405): CORS headers, then recorded; passed on. */
  finish: (c: Context, response: Response, started: number) => Response;
  /** The CORS preflight handler, its own answers told to `onRequest`. */
  preflight: MiddlewareHandler;
  /** Told of each request refused for its Host (421), when anyone listens. */
  refusedHost?: (request: Request, status: number) => void;
  /** Tells `onRequest` of every answer under /__admin (its guard's refusals and its failures too). */
  observeAdmin: (app: Hono) => void;
  /** Tells `onRequest` of an answer to a failure (500), unless the admin API already tells it. */
  failed: (c: Context, response: Response) => void;
}

export function createReporting({ now, requests, onRequest, changed, cors, reader }: ReportingOptions): Reporting {
  const observe = onRequest && ((c: Context, status: number, started: number) => {
    onRequest({ time: now(), method: c.req.method, path: requests.redact(pathOf(c.req.url)), status, ms: elapsed(started), session: reader.headers(c)(SESSION_HEADER) ?? undefined, scenario: 'none' });
  });
  const record: Reporting['record'] = (c, status, started, header, trace) => {
    const session = header(SESSION_HEADER) ?? undefined;
    const method = c.req.method;
    const path = pathOf(c.req.url);
    const entry: RequestEntry = { time: now(), method, path: onRequest ? requests.redact(path) : path, status, ms: elapsed(started), session, scenario: trace?.scenario ?? 'none', problems: trace?.problems };
    if (trace?.fitted) entry.fitted = trace.fitted;
    if (trace?.selfCheck) entry.selfCheck = trace.selfCheck;
    requests.add(entry);
    onRequest?.(entry);
    if (status < 400 && session === undefined && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') changed();
  };
  const adminRequests = new WeakSet<Context>();
  return {
    answered: (c, started, response) => {
      observe?.(c, response.status, started);
      return response;
    },
    record,
    finish: (c, response, started) => {
      const header = reader.headers(c);
      const allowed = cors.headers(header('origin'));
      if (allowed) for (const [name, value] of Object.entries(allowed)) response.headers.set(name, value);
      record(c, response.status, started, header);
      return response;
    },
    preflight: observe ? observed(cors.preflight, observe) : cors.preflight,
    refusedHost:
      onRequest &&
      ((request, status) => {
        onRequest({ time: now(), method: request.method, path: requests.redact(pathOf(request.url)), status, ms: 0, session: request.headers.get(SESSION_HEADER) ?? undefined, scenario: 'none' });
      }),
    observeAdmin: (app) => {
      if (!observe) return;
      app.use(`${ADMIN_PATH}/*`, async function observeAdmin(c, next) {
        const started = performance.now();
        adminRequests.add(c);
        await next();
        observe(c, c.res.status, started);
      });
    },
    // The started time is gone with the handler that threw: the failure is reported at 0 ms.
    failed: (c, response) => {
      if (!adminRequests.has(c)) observe?.(c, response.status, performance.now());
    },
  };
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
