/**
 * CORS for browsers on a frontend dev server: any origin by default, or only the listed ones.
 * A wildcard origin never comes with credentials; listed origins are echoed and may send them.
 * Preflights (OPTIONS with Origin and Access-Control-Request-Method) are answered for every
 * path; a plain OPTIONS goes on to the route (204 with Allow).
 */
import { respond } from '../respond/security-headers.js';
import type { MiddlewareHandler } from 'hono';

export interface CorsOptions {
  /** Allowed origins; undefined allows any (`*`). */
  origins?: string[];
  /** Headers a browser may send (Authorization, Content-Type, Prefer, X-Mock-Session). */
  allowHeaders?: string[];
  /** Headers a browser may read (pagination, deprecation, Location). */
  exposeHeaders?: string[];
}

const METHODS = 'GET, HEAD, PUT, POST, DELETE, PATCH, OPTIONS';

/** @example app.use('*', cors({ origins: ['http://localhost:5173'] })) */
export function cors({
  origins,
  allowHeaders = ['Authorization', 'Content-Type', 'Prefer', 'X-Mock-Session'],
  exposeHeaders = ['X-Total-Count', 'Link', 'Location', 'Deprecation', 'Sunset', 'WWW-Authenticate'],
}: CorsOptions = {}): MiddlewareHandler {
  const allowed = origins && new Set(origins.map((o) => o.replace(/\/+$/, '')));
  const allowOrigin = (origin: string | undefined) => (!allowed ? '*' : origin && allowed.has(origin) ? origin : undefined);
  return async function corsHeaders(c, next) {
    const origin = c.req.header('origin');
    const granted = origin === undefined ? undefined : allowOrigin(origin);
    if (c.req.method === 'OPTIONS' && origin !== undefined && c.req.header('access-control-request-method')) {
      const headers: Record<string, string> = { Vary: 'Origin', 'Access-Control-Allow-Methods': METHODS, 'Access-Control-Allow-Headers': allowHeaders.join(', '), 'Access-Control-Max-Age': '600' };
      if (granted) headers['Access-Control-Allow-Origin'] = granted;
      if (granted && granted !== '*') headers['Access-Control-Allow-Credentials'] = 'true';
      return respond(null, 204, headers);
    }
    await next();
    if (!granted) return;
    c.res.headers.set('Access-Control-Allow-Origin', granted);
    c.res.headers.append('Vary', 'Origin');
    c.res.headers.set('Access-Control-Expose-Headers', exposeHeaders.join(', '));
    if (granted !== '*') c.res.headers.set('Access-Control-Allow-Credentials', 'true');
  };
}
