/**
 * Reading a document from a URL, the one given and those its references bring in: the server is a
 * stranger's, so time, size and redirects are bounded, and each failure is one sentence.
 */
import { fromUtf8, readCapped } from '../../core/bytes.js';
import { DocumentLoadError } from './document.js';

export interface FetchOptions {
  /** How long it may take to arrive whole, redirects and body included (default 30 s). */
  timeoutMs?: number;
  /** What is fetched, for the sentence: `the OpenAPI document` (default), `the document referred to`. */
  what?: string;
}

const FETCH_TIMEOUT_MS = 30_000;
/** The most a document read from a URL may weigh: GitHub's REST description, the largest known, is 13 MB. */
export const MAX_REMOTE_DOCUMENT_BYTES = 32 * 1024 * 1024;
/** Redirects followed before a URL is given up on (a loop, most likely). */
const MAX_REDIRECTS = 5;

/**
 * The text at `url`. A stranger's server may answer slowly, never stop, loop its redirects or send
 * gigabytes: each is cut off (time, size, redirect count) and said in one sentence.
 *
 * @example await fetchDocument('https://example.com/openapi.yaml') // the YAML text
 * @throws DocumentLoadError `Cannot fetch the OpenAPI document URL: it answered 404.` and the like.
 */
export async function fetchDocument(url: string, { timeoutMs = FETCH_TIMEOUT_MS, what = 'the OpenAPI document' }: FetchOptions = {}): Promise<string> {
  const failed = (reason: string) => new DocumentLoadError(`Cannot fetch ${what} ${url}: ${reason}.`);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    let at = url;
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(at, { signal, redirect: 'manual', headers: { Accept: 'application/yaml, application/json, text/yaml, */*' } });
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location !== null) {
        await response.body?.cancel();
        const next = new URL(location, at);
        if (!/^https?:$/.test(next.protocol)) throw failed(`it redirected to ${next.href.slice(0, 200)}, which is not an http(s) URL`);
        if (redirects === MAX_REDIRECTS) throw failed(`it redirected more than ${MAX_REDIRECTS} times (a loop?), last to ${next.href.slice(0, 200)}`);
        at = next.href;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw failed(`it answered ${response.status}`);
      }
      return await boundedText(response, failed);
    }
  } catch (error) {
    if (error instanceof DocumentLoadError) throw error;
    if (signal.aborted) throw failed(`it did not arrive whole within ${timeoutMs / 1000} s`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw failed(cause?.code ?? cause?.message ?? (error as Error).message);
  }
}

/** The body as text, refused as soon as it is known to pass MAX_REMOTE_DOCUMENT_BYTES: by its Content-Length, or while it streams. */
async function boundedText(response: Response, failed: (reason: string) => DocumentLoadError): Promise<string> {
  const limit = `the ${MAX_REMOTE_DOCUMENT_BYTES / 1024 / 1024} MiB a document read from a URL may weigh`;
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_REMOTE_DOCUMENT_BYTES) {
    await response.body?.cancel();
    throw failed(`it is ${(declared / 1024 / 1024).toFixed(1)} MiB (Content-Length), more than ${limit}`);
  }
  if (!response.body) return '';
  const body = await readCapped(response.body, MAX_REMOTE_DOCUMENT_BYTES);
  if (!body) throw failed(`more than ${limit} arrived`);
  return fromUtf8(body);
}
