/**
 * Headers on every response the mock builds: no MIME sniffing, and no caching of mock data (the
 * state changes between two identical GETs). Framing and referrer headers are left out: a JSON
 * answer is never a page, and bytes per response cost throughput on a shared machine (a 707-byte
 * answer measured about 10% slower than a 336-byte one). They are put in each response as it is
 * built, not added afterwards by a middleware: reading a finished response's headers makes
 * @hono/node-server drop its cached fast path (with reading from IncomingMessage, this took
 * GET /pets/1 from 10k to about 24k req/s).
 *
 * An answer that is not JSON (HTML, SVG, XML, text, bytes, a type an extension made up) may be a
 * page: what a client stored in a record comes back in it as it was sent, on the mock's origin.
 * It gets `SANDBOX_POLICY` too (`sandboxed`), so nothing in it runs or reaches that origin.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
});

/**
 * The Content-Security-Policy of every answer that is not JSON: a sandbox without `allow-scripts`
 * or `allow-same-origin` (no script, no form, no popup, and an opaque origin, so whatever the page
 * sends carries `Origin: null`), and nothing loaded (`default-src 'none'`: no image, style, frame
 * or XSLT stylesheet).
 */
export const SANDBOX_POLICY = "sandbox; default-src 'none'";

/**
 * JSON: `application/json` or any `application/…+json`, parameters aside. A browser shows it as
 * text and, with nosniff, never as a page. The whole value must be one type: of a list
 * (`application/json, text/html`), a browser takes the last one.
 */
const JSON_TYPE = /^\s*application\/(?:[\w.!#$&^-]+\+)?json\s*(?:;[^,]*)?$/i;

/**
 * Adds `SANDBOX_POLICY` to the headers of an answer with a body, unless their Content-Type is
 * JSON: a rule by what is not JSON rather than a list of types that run, so a type nobody listed
 * (an extension's, a missing one) is sandboxed too. A policy the headers already carry is kept,
 * and the sandbox added as a second one (a browser enforces both). Changes `headers` and returns it.
 *
 * @example sandboxed({ 'Content-Type': 'text/html' }) // { 'Content-Type': 'text/html', 'Content-Security-Policy': "sandbox; default-src 'none'" }
 */
export function sandboxed(headers: Record<string, string>): Record<string, string> {
  const type = headers['Content-Type'] ?? valueOf(headers, 'content-type');
  if (type !== undefined && JSON_TYPE.test(type)) return headers;
  const name = 'Content-Security-Policy' in headers ? 'Content-Security-Policy' : (Object.keys(headers).find((key) => key.toLowerCase() === 'content-security-policy') ?? 'Content-Security-Policy');
  const policy = headers[name];
  if (policy === undefined) headers[name] = SANDBOX_POLICY;
  else if (!policy.split(',').some((one) => one.trim() === SANDBOX_POLICY)) headers[name] = `${policy}, ${SANDBOX_POLICY}`;
  return headers;
}

function valueOf(headers: Record<string, string>, lowerName: string): string | undefined {
  for (const key in headers) if (key.toLowerCase() === lowerName) return headers[key];
  return undefined;
}

/** A response with the security headers, then the given ones; sandboxed when its body is not JSON. */
export function respond(body: string | null, status: number, headers: Record<string, string> = {}): Response {
  const all = { ...SECURITY_HEADERS, ...headers };
  return new Response(body, { status, headers: body === null ? all : sandboxed(all) });
}

/** A JSON response with the security headers. */
export function respondJson(value: unknown, status: number, headers: Record<string, string> = {}): Response {
  return respond(JSON.stringify(value), status, { 'Content-Type': 'application/json', ...headers });
}
