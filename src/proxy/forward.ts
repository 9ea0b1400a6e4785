/**
 * Forwarding one request to the upstream and reading its answer, bounded: the request goes only
 * to the upstream's origin (the path is appended to the upstream URL's path, never resolved
 * against it, so `//elsewhere.example/x` stays a path), without hop-by-hop headers, and a redirect
 * is handed to the client, never followed. The answer, with a JSON body (the kind the document's
 * schemas check) read whole up to the size limit, must be in within the time limit, however it is
 * spaced out; any other body, or one past the limit, streams through unread, cut after a silence
 * as long. The forwarding headers are the proxy's own (the client's are dropped unless trusted).
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

/**
 * Headers that say who a request was forwarded for: anyone can write them, so they are the proxy's
 * to set, or (behind a proxy it trusts) to extend.
 */
const FORWARDING = /^(forwarded|x-forwarded-[a-z0-9-]+|x-real-ip|x-client-ip|true-client-ip|cf-connecting-ip|fastly-client-ip|x-cluster-client-ip)$/;

/** Who the proxy forwards for: the peer's address, the Host it was asked for, its scheme. */
export interface ForwardedFor {
  address?: string;
  host?: string;
  proto: string;
}

/**
 * The headers to send on: without hop-by-hop ones (and those the `Connection` header names), with
 * the proxy's own `Forwarded`, `X-Forwarded-For`, `-Host` and `-Proto`. The client's forwarding
 * headers are dropped, unless `trusted` (`--trust-proxy`: the peer is a proxy whose word counts),
 * where its `Forwarded` and `X-Forwarded-For` get this hop added and its `-Host` and `-Proto` stand.
 */
export function forwardedHeaders(incoming: Record<string, string>, client: ForwardedFor, trusted = false): Record<string, string> {
  const named = new Set((incoming.connection ?? '').split(',').map((name) => name.trim().toLowerCase()));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (HOP_BY_HOP.has(name) || named.has(name) || (!trusted && FORWARDING.test(name))) continue;
    // Bodies come back as the upstream writes them for a client that asks for no encoding: readable to be checked.
    if (name === 'accept-encoding') continue;
    out[name] = value;
  }
  const before = (name: string) => (trusted ? out[name] : undefined);
  if (client.address) out['x-forwarded-for'] = [before('x-forwarded-for'), client.address].filter(Boolean).join(', ');
  if (client.host) out['x-forwarded-host'] = before('x-forwarded-host') ?? client.host;
  out['x-forwarded-proto'] = before('x-forwarded-proto') ?? client.proto;
  out.forwarded = [before('forwarded'), forwardedElement(client)].filter(Boolean).join(', ');
  return out;
}

/** This hop as RFC 7239 says it: `for=127.0.0.1;host="127.0.0.1:4010";proto=http` (an IPv6 address as `for="[::1]"`). */
function forwardedElement(client: ForwardedFor): string {
  const node = client.address === undefined ? 'unknown' : client.address.includes(':') ? `[${client.address}]` : client.address;
  const pairs = [`for=${tokenOrQuoted(node)}`];
  if (client.host) pairs.push(`host=${tokenOrQuoted(client.host)}`);
  pairs.push(`proto=${tokenOrQuoted(client.proto)}`);
  return pairs.join(';');
}

/** A value as an RFC 9110 token where it is one, else a quoted string. */
function tokenOrQuoted(value: string): string {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
}

export type UpstreamFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ForwardLimits {
  /** How long the upstream has from the request to the end of a body that is read; and the longest silence in a body that streams through unread. */
  timeoutMs: number;
  /** The largest body read to be checked; a larger one streams through unchecked. */
  maxBodyBytes: number;
}

/** A request to send on: its method, its path and query (appended to the upstream URL), the headers to send, its body. */
export interface Outgoing {
  method: string;
  pathAndQuery: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** What the upstream answered: its status and headers, and its body read (`bytes`) or streaming through (`stream`). */
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

/** Why no answer came: the upstream could not be reached, took too long, or answered with a status HTTP cannot pass on. */
export interface UpstreamFailure {
  failure: 'unreachable' | 'timeout' | 'unsendable';
  message: string;
  ms: number;
}

/** Sends requests on to the upstream; `readable` says, from an answer's headers, whether its body is read to be checked. */
export interface Forwarder {
  send(request: Outgoing, readable: (contentType: string | null) => boolean): Promise<UpstreamAnswer | UpstreamFailure>;
  /** Closes the connections kept open to the upstream. */
  close(): Promise<void>;
}

const roundMs = (started: number) => Math.round((performance.now() - started) * 10) / 10;
const timedOut = (limits: ForwardLimits, started: number): UpstreamFailure => ({ failure: 'timeout', message: `the upstream did not answer within ${limits.timeoutMs / 1000} s`, ms: roundMs(started) });
/** A final status a response can carry (a 1xx is never final; 600 and above are no HTTP status). */
const sendable = (status: number) => status >= 200 && status <= 599;
const unsendable = (status: number, started: number): UpstreamFailure => ({ failure: 'unsendable', message: `the upstream answered status ${status}, outside 200 to 599`, ms: roundMs(started) });
const unreachable = (error: unknown, started: number): UpstreamFailure => ({ failure: 'unreachable', message: `the upstream could not be reached (${causeOf(error)})`, ms: roundMs(started) });

/**
 * Over connections kept open to the upstream's origin (undici's Pool: measured beside the global
 * fetch with nothing checked, 15.8k and 4.0k requests a second through a proxy, GET /pets/1 on 2
 * cores). undici is loaded on the first request, so `serve` never pays for it. Its answers are not
 * decoded: a compressed body passes as it came (the client's Accept-Encoding is not forwarded, so
 * one comes only from an upstream that compresses unasked, and is then not checked).
 */
export function poolForwarder(upstream: Upstream, limits: ForwardLimits): Forwarder {
  let pool: Promise<import('undici').Pool> | undefined;
  // undici's own timeouts bound the silence between two parts (a body streamed through unread is cut after as long); the deadline below bounds the whole.
  const poolOf = () =>
    (pool ??= import('undici').then(({ Pool }) => new Pool(upstream.origin, { connections: 256, pipelining: 1, headersTimeout: limits.timeoutMs, bodyTimeout: limits.timeoutMs })));
  return {
    async send(request, readable) {
      const started = performance.now();
      // From sending the request to the end of a body that is read: a body that trickles in never reaches undici's timeouts.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), limits.timeoutMs);
      const failed = (error: unknown) => {
        clearTimeout(timer);
        return deadline.signal.aborted || isTimeout(error) ? timedOut(limits, started) : unreachable(error, started);
      };
      const answered = <T>(value: T) => {
        clearTimeout(timer);
        return value;
      };
      let answer;
      try {
        const path = upstreamPath(upstream, request.pathAndQuery);
        const body = request.body && request.body.byteLength > 0 ? request.body : undefined;
        answer = await (await poolOf()).request({ path, method: request.method as never, headers: request.headers, body, signal: deadline.signal });
      } catch (error) {
        return failed(error);
      }
      if (!sendable(answer.statusCode)) {
        // Destroying the body fails it with an abort: heard here, or it would be the process's uncaught error.
        answer.body.on('error', () => undefined).destroy();
        return answered(unsendable(answer.statusCode, started));
      }
      const headers = answerHeaders(answer.headers, false);
      const contentType = headers.get('content-type');
      const length = Number(headers.get('content-length') ?? NaN);
      const tooLong = Number.isFinite(length) && length > limits.maxBodyBytes;
      const empty = length === 0 || request.method === 'HEAD' || answer.statusCode === 204 || answer.statusCode === 304;
      if (empty) {
        answer.body.resume();
        return answered({ status: answer.statusCode, headers, bytes: new Uint8Array(0), ms: roundMs(started) });
      }
      if (!readable(contentType) || tooLong) {
        return answered({ status: answer.statusCode, headers, stream: streamOf([], answer.body[Symbol.asyncIterator]()), unread: tooLong ? `over ${limits.maxBodyBytes} bytes` : 'not JSON', ms: roundMs(started) });
      }
      try {
        const read = await readUpTo(answer.body, limits.maxBodyBytes);
        if (read.rest) return answered({ status: answer.statusCode, headers, stream: read.rest, unread: `over ${limits.maxBodyBytes} bytes`, ms: roundMs(started) });
        return answered({ status: answer.statusCode, headers, bytes: read.bytes, ms: roundMs(started) });
      } catch (error) {
        return failed(error);
      }
    },
    close: async () => {
      if (pool) await (await pool).close();
    },
  };
}

/** Through a `fetch` (an app in the same process, in tests and from the library); redirects are not followed. */
export function fetchForwarder(fetch: UpstreamFetch, upstream: Upstream, limits: ForwardLimits): Forwarder {
  return {
    async send(request, readable) {
      const started = performance.now();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
      const failed = (error: unknown) => (controller.signal.aborted ? timedOut(limits, started) : unreachable(error, started));
      let response: Response;
      try {
        const url = `${upstream.origin}${upstreamPath(upstream, request.pathAndQuery)}`;
        if (new URL(url).origin !== upstream.origin) throw new Error(`refused: ${request.pathAndQuery} would leave ${upstream.origin}`);
        const body = request.body && request.body.byteLength > 0 ? request.body : undefined;
        response = await fetch(url, { method: request.method, headers: request.headers, body: body as Uint8Array<ArrayBuffer> | undefined, redirect: 'manual', signal: controller.signal });
      } catch (error) {
        clearTimeout(timer);
        return failed(error);
      }
      if (!sendable(response.status)) {
        clearTimeout(timer);
        await response.body?.cancel().catch(() => undefined);
        return unsendable(response.status, started);
      }
      // fetch has undone a Content-Encoding: the body goes on decoded, without it.
      const headers = answerHeaders(response.headers, true);
      const length = Number(response.headers.get('content-length') ?? NaN);
      const tooLong = Number.isFinite(length) && length > limits.maxBodyBytes;
      if (!response.body || !readable(response.headers.get('content-type')) || tooLong) {
        clearTimeout(timer);
        const unread = !response.body ? undefined : tooLong ? `over ${limits.maxBodyBytes} bytes` : 'not JSON';
        return { status: response.status, headers, stream: response.body ?? undefined, unread, ms: roundMs(started) };
      }
      try {
        const read = await readUpTo(chunksOf(response.body), limits.maxBodyBytes);
        clearTimeout(timer);
        if (read.rest) return { status: response.status, headers, stream: read.rest, unread: `over ${limits.maxBodyBytes} bytes`, ms: roundMs(started) };
        return { status: response.status, headers, bytes: read.bytes, ms: roundMs(started) };
      } catch (error) {
        clearTimeout(timer);
        return failed(error);
      }
    },
    close: async () => undefined,
  };
}

/**
 * The path on the upstream of a request's path and query: appended to the upstream URL's path,
 * never resolved against it. It goes to the upstream's origin whatever it says (`//elsewhere/x`
 * is a path there): the pool connects to that origin only, and a URL is the origin then the path.
 */
function upstreamPath(upstream: Upstream, pathAndQuery: string): string {
  return `${upstream.basePath}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`;
}

/** The answer's headers to send back: without hop-by-hop ones, nor (`decoded`) an encoding already undone. */
function answerHeaders(incoming: Headers | Record<string, string | string[] | undefined>, decoded: boolean): Headers {
  const entries: Array<[string, string]> = [];
  if (incoming instanceof Headers) incoming.forEach((value, name) => entries.push([name, value]));
  else for (const [name, value] of Object.entries(incoming)) for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) entries.push([name.toLowerCase(), item]);
  const connection = entries.find(([name]) => name === 'connection')?.[1] ?? '';
  const named = new Set(connection.split(',').map((name) => name.trim().toLowerCase()));
  // The length is the server's to set again (HOP_BY_HOP); a body fetch has decoded goes on without its encoding.
  const out = new Headers();
  for (const [name, value] of entries) {
    if (HOP_BY_HOP.has(name) || named.has(name) || (decoded && name === 'content-encoding')) continue;
    out.append(name, value);
  }
  return out;
}

/**
 * Reads a body up to `max` bytes. Past them, what was read and what is still to come are put back
 * together as one stream (it goes on to the client unchecked).
 */
async function readUpTo(body: AsyncIterable<Uint8Array>, max: number): Promise<{ bytes: Uint8Array; rest?: undefined } | { rest: ReadableStream<Uint8Array>; bytes?: undefined }> {
  const iterator = body[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await iterator.next();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > max) return { rest: streamOf(chunks, iterator) };
  }
  return { bytes: concatBytes(chunks) };
}

/** A web stream's chunks, read as an iterator (the DOM's ReadableStream type has none). */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
  } finally {
    reader.releaseLock();
  }
}

/** A stream of the chunks already read, then of what the iterator still gives. */
function streamOf(read: Uint8Array[], rest: AsyncIterator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of read) controller.enqueue(chunk);
    },
    async pull(controller) {
      const next = await rest.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: async (reason) => void (await rest.return?.(reason)),
  });
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

/** `ECONNREFUSED`, `ENOTFOUND`...: what the error (or fetch's, in its cause) says. */
function causeOf(error: unknown): string {
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return err?.cause?.code ?? err?.code ?? err?.cause?.message ?? err?.message ?? String(error);
}
