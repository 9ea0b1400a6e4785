/**
 * Headers on every response the mock builds: no MIME sniffing, and no caching of mock data (the
 * state changes between two identical GETs). Framing and referrer headers are left out: the mock
 * serves JSON, never a page, and every byte per response costs throughput (measured). They are put in each
 * response as it is built, not added afterwards by a middleware: touching a finished response's
 * headers forces @hono/node-server off its fast path (measured: a third of the throughput).
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
