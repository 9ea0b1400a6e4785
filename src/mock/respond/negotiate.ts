/**
 * Which declared media type an answer is sent as, by the request's `Accept` (RFC 9110 §12.5.1:
 * q-values, `type/*`, `*\/*`, the most specific range deciding). Only the media types the mock can
 * write are candidates: JSON ones (`application/json`, `application/problem+json`, a declared
 * `*\/*` or `application/*` sent as `application/json`), and those a body encoder writes (`text/*`
 * built in, `text/csv` or `application/xml` when a plugin registers one). The mock's own order
 * breaks ties: `application/json`, then other JSON types, then the document's order.
 *
 * Without `Accept`, with `*\/*` or with `application/json` where it is declared, the answer is the
 * first candidate without parsing anything (the fast path of every JSON API).
 */
import { acceptQuality, isJsonMediaType, parseAccept, type MediaRange } from '../../core/media-type.js';
import type { MediaTypeSpec, ResponseSpec } from '../../openapi/operations/operation.js';

/** A way to send a response's body: the declared media type (the key of its `content`) and the type sent as `Content-Type`. */
export interface Representation {
  /** The key of the response's `content`: `application/json`, `*\/*`, `text/plain; charset=utf-8`. */
  key: string;
  /** The media type sent: the key, or for a declared range the type the mock writes under it (`*\/*` as `application/json`). */
  type: string;
  /** The type sent, lower case and without parameters (`application/json`). */
  essence: string;
}

/** What an answer is sent as: a representation, and whether the request's `Accept` takes it. */
export interface Choice extends Representation {
  /** False when `Accept` takes none of the declared media types: this is the first of them. */
  fits: boolean;
}

/** Whether the mock can write a body as a media type (lower case, without parameters) other than JSON. */
export type CanWrite = (essence: string) => boolean;

/**
 * The representations of a response the mock can write, in its order of preference; empty when
 * it declares no content, or none the mock can write.
 *
 * @example representations({ status: '200', headers: {}, content: { 'application/xml': {}, 'application/json': {} } }, () => false) // [{ key: 'application/json', type: 'application/json', essence: 'application/json' }]
 */
export function representations(response: ResponseSpec, canWrite: CanWrite): Representation[] {
  const out: Representation[] = [];
  for (const key of Object.keys(response.content)) {
    const essence = key.split(';')[0].trim().toLowerCase();
    if (essence === '*/*' || essence === 'application/*') out.push({ key, type: 'application/json', essence: 'application/json' });
    else if (essence === 'text/*') out.push({ key, type: 'text/plain', essence: 'text/plain' });
    else if (isJsonMediaType(essence) || (!essence.includes('*') && canWrite(essence))) out.push({ key, type: key, essence });
  }
  const rank = (r: Representation) => (r.essence === 'application/json' ? 0 : isJsonMediaType(r.essence) ? 1 : 2);
  return out.sort((a, b) => rank(a) - rank(b));
}

/** Accept headers seen, parsed once: a client sends the same one again and again. */
const parsed = new Map<string, MediaRange[]>();

function rangesOf(accept: string): MediaRange[] {
  let ranges = parsed.get(accept);
  if (!ranges) {
    if (parsed.size >= 256) parsed.clear(); // bounded: a client sending a new Accept each time costs a parse, not memory
    parsed.set(accept, (ranges = parseAccept(accept)));
  }
  return ranges;
}

/** Whether an `Accept` header takes anything at all as it is: none, empty, or `*\/*`. */
export function acceptsAnything(accept: string | undefined | null): boolean {
  return !accept || accept === '*/*';
}

/**
 * The representation to answer with for an `Accept` header: the one it weighs highest (ties to the
 * mock's order), or the first with `fits: false` when it takes none. An `Accept` with no valid
 * range at all is read as none sent.
 *
 * @example choose(reps, 'application/xml;q=0.5, application/json') // application/json, fits
 */
export function choose(candidates: readonly Representation[], accept: string | undefined | null): Choice | undefined {
  const first = candidates[0];
  if (!first) return undefined;
  if (acceptsAnything(accept) || (accept === 'application/json' && first.essence === 'application/json')) return { ...first, fits: true };
  const ranges = rangesOf(accept!);
  if (ranges.length === 0) return { ...first, fits: true };
  let best = first;
  let bestQ = 0;
  for (const candidate of candidates) {
    const q = acceptQuality(candidate.essence, ranges);
    if (q > bestQ) [best, bestQ] = [candidate, q];
  }
  return { ...best, fits: bestQ > 0 };
}

/**
 * Whether an `Accept` header takes any of a response's declared media types, written by the mock
 * or not (a declared range, `image/*`, is taken by any range of its type).
 *
 * @example takesAny(['image/png'], 'application/json') // false
 */
export function takesAny(content: Record<string, MediaTypeSpec>, accept: string | undefined | null): boolean {
  if (acceptsAnything(accept)) return true;
  const ranges = rangesOf(accept!);
  if (ranges.length === 0) return true;
  return Object.keys(content).some((key) => {
    const essence = key.split(';')[0].trim().toLowerCase();
    const [type, subtype] = essence.split('/');
    if (type === '*') return ranges.some((range) => range.q > 0);
    if (subtype === '*') return ranges.some((range) => range.q > 0 && (range.type === type || range.type === '*'));
    return acceptQuality(essence, ranges) > 0;
  });
}

/** The media types of a response as a client reads them in a message: `application/json or application/xml`. */
export function declaredTypes(content: Record<string, MediaTypeSpec>): string {
  return Object.keys(content).join(' or ');
}
