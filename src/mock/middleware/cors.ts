/**
 * CORS for browsers on a frontend dev server: any origin by default, or only the listed ones.
 * A wildcard origin never comes with credentials; listed origins are echoed and may send them.
 * Preflights (OPTIONS with Origin and Access-Control-Request-Method) are answered for every
 * path by a middleware on OPTIONS only; a plain OPTIONS goes on to the route (204 with Allow).
 * Other responses get their CORS headers as they are built (`corsHeaders`), not afterwards, so
 * @hono/node-server keeps its fast path. Closed paths (the admin API) are never granted: their
 * preflights are refused, so no page on another origin can send them JSON or custom headers.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError, errorResponse } from '../../core/api-error.js';
import { respond } from '../../core/security-headers.js';

export interface CorsOptions {
  /** Allowed origins; undefined allows any (`*`). */
  origins?: string[];
  /** Headers a browser may send (Authorization, Content-Type, Prefer, X-Mock-Session). */
  allowHeaders?: string[];
  /** More headers a browser may send, besides `allowHeaders` (the app passes the document's: `requestHeaderNames`). */
  moreAllowHeaders?: readonly string[];
  /** Headers a browser may read (pagination, deprecation, Location). */
  exposeHeaders?: string[];
  /** Path prefixes no origin is ever granted (`/__admin`): their preflights get 403. */
  closedPaths?: string[];
}

const METHODS = 'GET, HEAD, PUT, POST, DELETE, PATCH, OPTIONS';

export interface Cors {
  /** The CORS headers of a response to a request from `origin` (none for a refused origin). */
  headers: (origin: string | null | undefined) => Record<string, string> | undefined;
  /** Answers preflights; register it for OPTIONS before the routes. */
  preflight: MiddlewareHandler;
}

/** @example const c = cors({ origins: ['http://localhost:5173'] }); app.on('OPTIONS', '*', c.preflight) */
export function cors({
  origins,
  allowHeaders = ['Authorization', 'Content-Type', 'Prefer', 'X-Mock-Session'],
  moreAllowHeaders = [],
  exposeHeaders = ['X-Total-Count', 'Link', 'Location', 'Deprecation', 'Sunset', 'WWW-Authenticate'],
  closedPaths = [],
}: CorsOptions = {}): Cors {
  const closed = (path: string) => closedPaths.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  const allowed = origins && new Set(origins.map((o) => o.replace(/\/+$/, '')));
  const allowOrigin = (origin: string) => (!allowed ? '*' : allowed.has(origin) ? origin : undefined);
  const expose = exposeHeaders.join(', ');
  const allow = withoutRepeats([...allowHeaders, ...moreAllowHeaders]).join(', ');
  const wildcard = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': expose, Vary: 'Origin' };
  return {
    headers(origin) {
      if (!origin) return undefined;
      const granted = allowOrigin(origin);
      if (!granted) return undefined;
      return granted === '*' ? wildcard : { 'Access-Control-Allow-Origin': granted, 'Access-Control-Allow-Credentials': 'true', 'Access-Control-Expose-Headers': expose, Vary: 'Origin' };
    },
    preflight: async function corsPreflight(c, next) {
      const origin = c.req.header('origin');
      if (origin === undefined || !c.req.header('access-control-request-method')) return next();
      // c.req.path is decoded as the router decodes it: /%5F%5Fadmin/reset is refused too.
      if (closed(c.req.path)) return errorResponse(new ApiError(403, 'CORS_REFUSED', `No page on another origin may call ${c.req.path.slice(0, 200)}: its CORS preflight is refused.`));
      const granted = allowOrigin(origin);
      const headers: Record<string, string> = { Vary: 'Origin', 'Access-Control-Allow-Methods': METHODS, 'Access-Control-Allow-Headers': allow, 'Access-Control-Max-Age': '600' };
      if (granted) headers['Access-Control-Allow-Origin'] = granted;
      if (granted && granted !== '*') headers['Access-Control-Allow-Credentials'] = 'true';
      return respond(null, 204, headers);
    },
  };
}

/** Each header name once, compared without case (HTTP field names have none), the first spelling kept. */
function withoutRepeats(names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const name of names) if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  return [...seen.values()];
}
