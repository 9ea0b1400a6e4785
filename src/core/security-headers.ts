/**
 * Headers on every response the mock builds: no MIME sniffing, and no caching of mock data (the
 * state changes between two identical GETs). Framing and referrer headers are left out: the mock
 * serves JSON, never a page, and bytes per response cost throughput on a shared machine (a 707-byte
 * answer measured about 10% slower than a 336-byte one). They are put in each response as it is
 * built, not added afterwards by a middleware: reading a finished response's headers makes
 * @hono/node-server drop its cached fast path (with reading from IncomingMessage, this took
 * GET /pets/1 from 10k to about 24k req/s).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
});

/** A response with the security headers, then the given ones. */
export function respond(body: string | null, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...SECURITY_HEADERS, ...headers } });
}

/** A JSON response with the security headers. */
export function respondJson(value: unknown, status: number, headers: Record<string, string> = {}): Response {
  return respond(JSON.stringify(value), status, { 'Content-Type': 'application/json', ...headers });
}
