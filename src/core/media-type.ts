/**
 * Content-Type parsing and matching against the media types an operation declares
 * (`application/json`, `application/*`, `*\/*`, `application/vnd.api+json`).
 */

export interface ParsedMediaType {
  /** `application/json`, lower case, without parameters. */
  essence: string;
  charset?: string;
}

export function parseMediaType(header: string | undefined | null): ParsedMediaType | undefined {
  if (!header) return undefined;
  const [essence, ...params] = header.split(';');
  const charset = params
    .map((p) => p.trim().split('='))
    .find(([k]) => k.toLowerCase() === 'charset')?.[1]
    ?.replace(/"/g, '')
    .toLowerCase();
  return { essence: essence.trim().toLowerCase(), charset };
}

export function isJsonMediaType(essence: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json$/.test(essence) || essence === '*/*' || essence === 'application/*';
}

/** The declared media type that accepts a received one: exact, then `type/*`, then `*\/*`. */
export function matchMediaType(declared: string[], received: string): string | undefined {
  const lower = declared.map((d) => d.toLowerCase().split(';')[0].trim());
  const exact = lower.indexOf(received);
  if (exact >= 0) return declared[exact];
  const range = lower.indexOf(`${received.split('/')[0]}/*`);
  if (range >= 0) return declared[range];
  const any = lower.indexOf('*/*');
  return any >= 0 ? declared[any] : undefined;
}

/**
 * The declared media type a JSON body is sent as: `application/json` when the operation takes it,
 * else the first JSON type it declares (`application/merge-patch+json`); undefined when none is.
 */
export function jsonMediaType(declared: string[]): string | undefined {
  const essences = declared.map((d) => parseMediaType(d)?.essence ?? '');
  const index = [essences.indexOf('application/json'), essences.findIndex((e) => /^application\/(?:[\w.+-]+\+)?json$/.test(e)), essences.findIndex((e) => /json/.test(e))].find((i) => i >= 0);
  return index === undefined ? undefined : declared[index];
}

/** One media range of an `Accept` header: `text/*;q=0.5` is `{ type: 'text', subtype: '*', q: 0.5 }`. */
export interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** The media ranges of an `Accept` header, lower-cased, parameters other than `q` left out; a malformed range (or q-value) is skipped. */
export function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [range, ...params] = part.split(';');
    const match = /^\s*([\w.+*-]+)\/([\w.+*-]+)\s*$/.exec(range);
    if (!match) continue;
    const qParam = params.map((p) => /^\s*q\s*=(.*)$/i.exec(p)?.[1]).find((q) => q !== undefined);
    const q = qParam === undefined ? 1 : /^\s*\d*\.?\d+\s*$/.test(qParam) ? Number(qParam) : NaN;
    if (Number.isNaN(q)) continue;
    ranges.push({ type: match[1].toLowerCase(), subtype: match[2].toLowerCase(), q: Math.min(q, 1) });
  }
  return ranges;
}

/**
 * The q-value the ranges of an `Accept` header give a media type (lower case, without parameters):
 * that of the most specific range matching it (RFC 9110 §12.5.1), 0 if none does.
 *
 * @example acceptQuality('text/plain', parseAccept('text/*;q=0.5, text/plain;q=0.2')) // 0.2
 */
export function acceptQuality(mediaType: string, ranges: readonly MediaRange[]): number {
  const slash = mediaType.indexOf('/');
  const type = mediaType.slice(0, slash);
  const subtype = mediaType.slice(slash + 1);
  let specificity = -1;
  let q = 0;
  for (const range of ranges) {
    const level = range.type === type && range.subtype === subtype ? 2 : range.type === type && range.subtype === '*' ? 1 : range.type === '*' && range.subtype === '*' ? 0 : -1;
    if (level > specificity || (level === specificity && range.q > q)) [specificity, q] = [level, range.q];
  }
  return specificity < 0 ? 0 : q;
}
