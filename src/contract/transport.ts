/**
 * One request on the wire and its answer as an exchange. Redirects are not followed (a 3xx is
 * judged as an answer). An answer that does not come within the timeout, is larger than the cap,
 * or breaks off becomes an exchange with status 0 and its `error` (judged by `response_received`
 * alone): a server can fail a check, never crash the run or take the machine's memory.
 */
import { readBody } from '../openapi/validation/read-body.js';
import type { Case, Exchange } from './case.js';

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export interface Limits {
  timeoutMs: number;
  maxBytes: number;
}

/** Sends a case to a URL and gives the exchange: the `fetch` given (in-process, a test's), or the wire's (below). */
export type Sender = (url: string, c: Case, limits: Limits) => Promise<Exchange>;

class ResponseTooLarge extends Error {}

/** Over a `fetch` (the WHATWG one: in-process apps, tests, a user's own). */
export function fetchSender(fetch: Fetch): Sender {
  return (url, c, limits) =>
    answered(c, limits, async (signal) => {
      const response = await fetch(url, { method: c.method, headers: c.headers, body: c.body as RequestInit['body'], redirect: 'manual', signal });
      return { status: response.status, headers: response.headers, text: await readCapped(response, limits.maxBytes) };
    });
}

/**
 * Over sockets, with undici's `request` on connections kept open: measured beside the global
 * `fetch` against the mock on loopback, about 0.2 ms of the suite's CPU a request instead of 0.3
 * to 0.4 (the WHATWG machinery: streams, Request and Response objects). No redirect is followed.
 * `close()` ends its connections.
 */
export function wireSender(): { send: Sender; close: () => Promise<void> } {
  // undici and its connections, loaded once on the first request.
  let client: Promise<{ agent: import('undici').Agent; request: typeof import('undici').request }> | undefined;
  const clientOf = () => (client ??= import('undici').then(({ Agent, request }) => ({ agent: new Agent({ connections: 64 }), request })));
  const send: Sender = (url, c, limits) =>
    answered(c, limits, async (signal) => {
      const { agent, request } = await clientOf();
      const answer = await request(url, { dispatcher: agent, method: c.method as never, headers: c.headers, body: c.body as string | undefined, signal });
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
      const declared = Number(headers.get('content-length') ?? NaN);
      if (declared > limits.maxBytes) {
        answer.body.on('error', () => undefined).destroy();
        throw new ResponseTooLarge(tooLarge(limits.maxBytes));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limits.maxBytes) {
          answer.body.on('error', () => undefined).destroy();
          throw new ResponseTooLarge(tooLarge(limits.maxBytes));
        }
        chunks.push(chunk);
      }
      return { status: answer.statusCode, headers, text: Buffer.concat(chunks).toString('utf8') };
    });
  return { send, close: async () => void (await (await client)?.agent.close()) };
}

/** The exchange of what `send` received within the limits; a timeout, a broken connection or an answer too large is an exchange with status 0 and its `error`. */
async function answered(c: Case, limits: Limits, send: (signal: AbortSignal) => Promise<{ status: number; headers: Headers; text: string }>): Promise<Exchange> {
  const started = performance.now();
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const { status, headers, text } = await send(signal);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { case: c, status, headers, text, json, ms: performance.now() - started };
  } catch (error) {
    const err = error as Error & { cause?: { code?: string }; code?: string };
    const reason = err instanceof ResponseTooLarge ? err.message : err.name === 'TimeoutError' || signal.aborted ? `no answer within ${limits.timeoutMs} ms` : `the connection failed (${err.cause?.code ?? err.code ?? err.message})`;
    return { case: c, status: 0, headers: new Headers(), text: '', ms: performance.now() - started, error: reason };
  }
}

const tooLarge = (max: number) => `an answer larger than ${max} bytes (--max-response-bytes)`;

/** The body as text, reading at most `max` bytes (a server that streams forever or sends 23 MB of JSON cannot take the run down). */
async function readCapped(response: Response, max: number): Promise<string> {
  const bytes = await readBody(response, max);
  if (!bytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ResponseTooLarge(tooLarge(max));
  }
  return Buffer.from(bytes).toString('utf8');
}
