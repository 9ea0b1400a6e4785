/**
 * A query, header or cookie parameter's value written as a client sends it: in the parameter's
 * style (`ids=1&ids=2`, `ids=1,2`, `ids=1|2`, `filter[a]=1`, a header `1,2`), or, for a parameter
 * given as `content`, in its media type (`filter={"limit":2}`, JSON-encoded), percent-encoded where
 * it goes into the query string or a cookie.
 *
 * @example
 * writeParameter({ name: 'ids', in: 'query', style: 'form', explode: false, required: false, schema: {} }, [1, 2])
 * // → { query: 'ids=1%2C2' }
 */
import type { ParameterSpec } from '../openapi/document/schema.js';

export interface Written {
  /** A fragment of the query string: `ids=1&ids=2`. */
  query?: string;
  /** A header's value. */
  header?: string;
  /** A cookie pair: `session=abc`. */
  cookie?: string;
}

const DELIMITERS: Record<string, string> = { spaceDelimited: ' ', pipeDelimited: '|' };

export function writeParameter(spec: ParameterSpec, value: unknown): Written {
  const text = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
  const pair = (name: string, v: string) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`;
  if (spec.mediaType !== undefined || value === null || typeof value !== 'object') {
    const whole = spec.mediaType !== undefined && /json/i.test(spec.mediaType) ? JSON.stringify(value) : text(value);
    return spec.in === 'header' ? { header: whole } : spec.in === 'cookie' ? { cookie: pair(spec.name, whole) } : { query: pair(spec.name, whole) };
  }
  const entries: Array<[string, string]> = Array.isArray(value) ? value.map((v) => [spec.name, text(v)]) : Object.entries(value).map(([k, v]) => [k, text(v)]);
  const flat = Array.isArray(value) ? entries.map(([, v]) => v) : entries.flat();
  if (spec.in === 'header') return { header: spec.explode && !Array.isArray(value) ? entries.map(([k, v]) => `${k}=${v}`).join(',') : flat.join(',') };
  if (spec.in === 'cookie') return { cookie: pair(spec.name, flat.join(',')) };
  if (spec.style === 'deepObject' && !Array.isArray(value)) return { query: entries.map(([k, v]) => pair(`${spec.name}[${k}]`, v)).join('&') };
  if (spec.explode && spec.style === 'form') return { query: entries.map(([k, v]) => pair(k, v)).join('&') };
  return { query: pair(spec.name, flat.join(DELIMITERS[spec.style] ?? ',')) };
}
