/**
 * Headers on every response: no MIME sniffing, no framing, no referrer, and no caching of mock
 * data by browsers or proxies (the state changes between two identical GETs).
 */
import type { MiddlewareHandler } from 'hono';

export const securityHeaders: MiddlewareHandler = async function securityHeaders(c, next) {
  await next();
  c.res.headers.set('X-Content-Type-Options', 'nosniff');
  c.res.headers.set('X-Frame-Options', 'DENY');
  c.res.headers.set('Referrer-Policy', 'no-referrer');
  if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
};
