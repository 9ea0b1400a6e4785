/**
 * `GET /__spec`: the document being served, as written (before dereferencing; a Swagger 2.0 input
 * as converted to OpenAPI 3.0), for docs UIs and client generators. JSON unless `Accept` prefers
 * YAML (q-values honoured), or as `/__spec.json` and `/__spec.yaml` for tools that cannot set
 * headers. Each form is serialized once, on its first request (a 10 MB document costs nothing at
 * start and nothing per request), and carries an `ETag`, so a client that has it gets a 304.
 */
import { fnv1a } from '../core/fnv.js';
import yaml from 'js-yaml';
import type { JsonObject } from '../core/json-object.js';
import { SECURITY_HEADERS, sandboxed } from '../core/security-headers.js';
import { acceptQuality, parseAccept } from '../core/media-type.js';

export { parseAccept, type MediaRange } from '../core/media-type.js';

/** Where the document is served: `/__spec`, and `/__spec.json`, `/__spec.yaml`. */
export const SPEC_PATH = '/__spec';

/** The forms the document is served in. */
export type SpecFormat = 'json' | 'yaml';

/** The media types the document is served as, in the order preferred when a client likes several as much. */
const CANDIDATES: ReadonlyArray<{ type: string; format: SpecFormat }> = [
  { type: 'application/json', format: 'json' },
  { type: 'application/vnd.oai.openapi+json', format: 'json' },
  { type: 'application/yaml', format: 'yaml' },
  { type: 'application/x-yaml', format: 'yaml' },
  { type: 'text/yaml', format: 'yaml' },
  { type: 'application/vnd.oai.openapi', format: 'yaml' },
];

/**
 * The form and media type to answer an `Accept` header with: the candidate with the highest
 * q-value, each weighed by the most specific range that matches it (RFC 9110 §12.5.1), ties going
 * to JSON. Without `Accept`, or when it accepts none of them, JSON (`application/json`).
 *
 * @example negotiateSpec('application/yaml, application/json;q=0.5') // { format: 'yaml', type: 'application/yaml' }
 */
export function negotiateSpec(accept: string | null | undefined): { format: SpecFormat; type: string } {
  const ranges = accept ? parseAccept(accept) : [];
  let best = CANDIDATES[0];
  let bestQ = 0;
  for (const candidate of CANDIDATES) {
    const q = acceptQuality(candidate.type, ranges);
    if (q > bestQ) [best, bestQ] = [candidate, q];
  }
  return { format: best.format, type: best.type };
}

/** Whether an `If-None-Match` header names the entity tag (weak comparison, as RFC 9110 §13.1.2 asks). */
export function matchesEtag(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === bare;
  });
}

/** What one request to the document asks: the form (set by `/__spec.json` or `/__spec.yaml`) or its `Accept`, and its validators. */
export interface SpecRequest {
  /** The form the path asks for; undefined for `/__spec`, which follows `Accept`. */
  format?: SpecFormat;
  accept?: string | null;
  ifNoneMatch?: string | null;
  /** CORS headers for the request's origin, as the API's answers get them. */
  cors?: Record<string, string>;
}

interface Representation {
  bytes: Uint8Array;
  etag: string;
}

/**
 * Answers requests for the document: each form built on its first request, then kept.
 *
 * @example
 * const answer = specResponder(document.raw);
 * app.get('/__spec', (c) => answer({ accept: c.req.header('accept') }));
 */
export function specResponder(raw: JsonObject): (request: SpecRequest) => Response {
  const built: Partial<Record<SpecFormat, Representation>> = {};
  const representation = (format: SpecFormat): Representation =>
    (built[format] ??= represent(format === 'json' ? JSON.stringify(raw) : yaml.dump(raw, { noRefs: true, lineWidth: -1, skipInvalid: true })));
  return ({ format, accept, ifNoneMatch, cors }) => {
    const negotiated = format ? { format, type: format === 'json' ? 'application/json' : 'application/yaml' } : negotiateSpec(accept);
    const { bytes, etag } = representation(negotiated.format);
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      // Kept, but checked again each time: a reload (--watch) changes the document.
      'Cache-Control': 'no-cache',
      ...cors,
      ETag: etag,
    };
    // Vary lists what the answer depends on: the CORS Origin (if any), and Accept for /__spec.
    const vary = [cors?.Vary, format ? undefined : 'Accept'].filter(Boolean).join(', ');
    if (vary) headers.Vary = vary;
    if (matchesEtag(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
    headers['Content-Type'] = negotiated.format === 'json' ? negotiated.type : `${negotiated.type}; charset=utf-8`;
    // YAML is not JSON: a browser may show it as a page, so it is sandboxed like the mock's answers.
    return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers: sandboxed(headers) });
  };
}

/** The UTF-8 bytes of a text and their entity tag. */
function represent(text: string): Representation {
  const bytes = new TextEncoder().encode(text);
  return { bytes, etag: entityTag(bytes) };
}

/** A strong entity tag for some bytes: FNV-1a over them, and their length. */
export function entityTag(bytes: Uint8Array): string {
  return `"${fnv1a(bytes).toString(16).padStart(8, '0')}-${bytes.length.toString(16)}"`;
}
