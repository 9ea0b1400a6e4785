/**
 * How the mock reads what a request carries beyond its URL: its headers, its body (capped) and
 * the address it came from. The default reads the WHATWG `Request` (in a browser, in tests through
 * `app.request`, behind any fetch-style server). A server may bring a reader of its own: on Node,
 * src/server.ts reads Node's `IncomingMessage` directly, which saves building a `Headers` object
 * and a body stream per request. Everything above takes a reader; none of it names Node.
 */
import type { Context } from 'hono';
import { readBody } from '../../openapi/validation/read-body.js';

/** A request header by its lower-case name. */
export type HeaderReader = (lowerCaseName: string) => string | null | undefined;

export interface RequestReader {
  headers(c: Context): HeaderReader;
  /** The body, or undefined when it is over `maxBytes` (refused from `Content-Length` alone when that says so). */
  body(c: Context, maxBytes: number): Promise<Uint8Array | undefined>;
  /** The peer's address; undefined for a request that came from no socket (in process: local by definition). */
  remoteAddress(c: Context): string | undefined;
}

/** The reader of the WHATWG `Request` behind a Hono context. */
export const WEB_REQUESTS: RequestReader = {
  headers: (c) => (name) => c.req.raw.headers.get(name),
  body: (c, maxBytes) => readBody(c.req.raw, maxBytes),
  remoteAddress: () => undefined,
};
