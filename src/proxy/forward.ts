/**
 * Forwarding one request to the upstream and reading its answer, bounded: the request goes only
 * to the upstream's origin (the path is appended to the upstream URL's path, never resolved
 * against it, so `//elsewhere.example/x` stays a path), without hop-by-hop headers, and a redirect
 * is handed to the client, never followed. The answer must start within the time limit; a JSON
 * body (the kind the document's schemas check) is read whole, up to the size limit, within it;
 * any other body, or one past the limit, streams through unread.
 */
import { concatBytes } from '../core/bytes.js';

/** Headers that belong to one connection (RFC 9110 7.6.1), and those the forwarding sets itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'expect']);

/** Where requests go: `http://127.0.0.1:3000/api` forwards `/pets` to `http://127.0.0.1:3000/api/pets`. */
export interface Upstream {
  /** `http://127.0.0.1:3000` */
  origin: string;
  /** The upstream URL's path without its trailing slash: `/api`, or `''`. */
  basePath: string;
}

/** @throws Error (one sentence) for a URL that is not http(s) or has a query, fragment or credentials. */
export function parseUpstream(text: string): Upstream {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--upstream ${text} is not a URL; give the real server's base URL, such as http://127.0.0.1:3000.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--upstream ${text} is not an http or https URL.`);
  if (url.username || url.password) throw new Error(`--upstream ${url.origin}: credentials in the URL are not forwarded; clients send their own.`);
  if (url.search || url.hash) throw new Error(`--upstream ${text}: give the base URL without a query or fragment.`);
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}

/** The upstream URL of a request's path and query: on the upstream's origin whatever the path says. */
export function upstreamUrl(upstream: Upstream, pathAndQuery: string): string {
  const url = `${upstream.origin}${upstream.basePath}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`;
  // A path is appended, never resolved, so the origin cannot change; checked all the same.
  if (new URL(url).origin !== upstream.origin) throw new Error(`refused: ${pathAndQuery} would leave ${upstream.origin}`);
  return url;
}

/** The headers to send on: without hop-by-hop ones (and those the `Connection` header names), with the X-Forwarded ones. */
export function forwardedHeaders(incoming: Headers, client: { address?: string; host?: string; proto: string }): Headers {
  const named = new Set((incoming.get('connection') ?? '').split(',').map((name) => name.trim().toLowerCase()));
  const out = new Headers();
  for (const [name, value] of incoming) {
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    // Bodies come back as sent: a compressed one would be decoded by fetch and then mislabelled.
    if (name === 'accept-encoding') continue;
    out.append(name, value);
  }
  if (client.address) out.set('x-forwarded-for', [incoming.get('x-forwarded-for'), client.address].filter(Boolean).join(', '));
  if (client.host && !out.has('x-forwarded-host')) out.set('x-forwarded-host', client.host);
  if (!out.has('x-forwarded-proto')) out.set('x-forwarded-proto', client.proto);
  return out;
}

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ForwardLimits {
  /** From sending the request to the end of a body that is read (default 30 s). */
  timeoutMs: number;
  /** The largest body read to be checked; a larger one streams through unchecked. */
  maxBodyBytes: number;
}

/** What the upstream answered: its status and headers, and its body read (`text`) or streaming through (`stream`). */
export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  /** The body as read, when it was (JSON of at most `maxBodyBytes`, or none). */
  bytes?: Uint8Array;
  /** The body still to come, when it was not read. */
  stream?: ReadableStream<Uint8Array>;
  /** Why the body streams unread: `not JSON`, `over 1048576 bytes`. */
  unread?: string;
  ms: number;
}

/** Why no answer came: the upstream could not be reached, or took too long. */
export interface UpstreamFailure {
  failure: 'unreachable' | 'timeout';
  message: string;
  ms: number;
}

/** Sends a request on to the upstream and reads its answer within the limits. */
export async function forward(fetch: Fetch, url: string, init: { method: string; headers: Headers; body?: Uint8Array }, limits: ForwardLimits, readable: (headers: Headers) => boolean): Promise<UpstreamAnswer | UpstreamFailure> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  const ms = () => Math.round((performance.now() - started) * 10) / 10;
  const failed = (error: unknown): UpstreamFailure =>
    controller.signal.aborted
      ? { failure: 'timeout', message: `the upstream did not answer within ${limits.timeoutMs / 1000} s`, ms: ms() }
      : { failure: 'unreachable', message: `the upstream could not be reached (${causeOf(error)})`, ms: ms() };
  let response: Response;
  try {
    const body = init.body && init.body.byteLength > 0 ? init.body : undefined;
    response = await fetch(url, { method: init.method, headers: init.headers, body, redirect: 'manual', signal: controller.signal });
  } catch (error) {
    clearTimeout(timer);
    return failed(error);
  }
  const headers = answerHeaders(response.headers);
  const length = Number(response.headers.get('content-length') ?? NaN);
  const tooLong = Number.isFinite(length) && length > limits.maxBodyBytes;
  if (!response.body || !readable(response.headers) || tooLong) {
    // Streams through: the time limit was for the answer to start.
    clearTimeout(timer);
    const unread = !response.body ? undefined : tooLong ? `over ${limits.maxBodyBytes} bytes` : 'not JSON';
    return { status: response.status, headers, stream: response.body ?? undefined, unread, ms: ms() };
  }
  try {
    const read = await readUpTo(response.body, limits.maxBodyBytes);
    clearTimeout(timer);
    if (read.rest) return { status: response.status, headers, stream: read.rest, unread: `over ${limits.maxBodyBytes} bytes`, ms: ms() };
    return { status: response.status, headers, bytes: read.bytes, ms: ms() };
  } catch (error) {
    clearTimeout(timer);
    return failed(error);
  }
}

/** The answer's headers to send back: without hop-by-hop ones, nor an encoding fetch has already undone. */
function answerHeaders(incoming: Headers): Headers {
  const named = new Set((incoming.get('connection') ?? '').split(',').map((name) => name.trim().toLowerCase()));
  const out = new Headers();
  const decoded = incoming.has('content-encoding');
  for (const [name, value] of incoming) {
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    if (decoded && name === 'content-encoding') continue;
    out.append(name, value);
  }
  return out;
}

/**
 * Reads a body up to `max` bytes. Past them, what was read and what is still to come are put back
 * together as one stream (it goes on to the client unchecked).
 */
async function readUpTo(body: ReadableStream<Uint8Array>, max: number): Promise<{ bytes: Uint8Array; rest?: undefined } | { rest: ReadableStream<Uint8Array>; bytes?: undefined }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > max) {
      return {
        rest: new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
          },
          async pull(controller) {
            const next = await reader.read();
            if (next.done) controller.close();
            else controller.enqueue(next.value);
          },
          cancel: (reason) => reader.cancel(reason),
        }),
      };
    }
  }
  return { bytes: concatBytes(chunks) };
}

/** `ECONNREFUSED`, `ENOTFOUND`...: what fetch's error hides in its cause. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}
