/**
 * One request on the wire and its answer as an exchange. Redirects are not followed (a 3xx is
 * judged as an answer). An answer that does not come within the timeout, is larger than the cap,
 * or breaks off becomes an exchange with status 0 and its `error` (judged by `response_received`
 * alone): a server can fail a check, never crash the run or take the machine's memory.
 */
import { readBody } from '../validation/read-body.js';
import type { Case, Exchange } from './case.js';

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

class ResponseTooLarge extends Error {}

export async function exchangeOf(fetch: Fetch, url: string, c: Case, limits: { timeoutMs: number; maxBytes: number }): Promise<Exchange> {
  const started = performance.now();
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const response = await fetch(url, { method: c.method, headers: c.headers, body: c.body as RequestInit['body'], redirect: 'manual', signal });
    const text = await readCapped(response, limits.maxBytes);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { case: c, status: response.status, headers: response.headers, text, json, ms: performance.now() - started };
  } catch (error) {
    const err = error as Error & { cause?: { code?: string } };
    const reason = err instanceof ResponseTooLarge ? err.message : err.name === 'TimeoutError' || signal.aborted ? `no answer within ${limits.timeoutMs} ms` : `the connection failed (${err.cause?.code ?? err.message})`;
    return { case: c, status: 0, headers: new Headers(), text: '', ms: performance.now() - started, error: reason };
  }
}

/** The body as text, reading at most `max` bytes (a server that streams forever or sends 23 MB of JSON cannot take the run down). */
async function readCapped(response: Response, max: number): Promise<string> {
  const bytes = await readBody(response, max);
  if (!bytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ResponseTooLarge(`an answer larger than ${max} bytes (--max-response-bytes)`);
  }
  return Buffer.from(bytes).toString('utf8');
}
