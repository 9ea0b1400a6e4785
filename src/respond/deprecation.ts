/**
 * Deprecation and sunset headers for operations marked `deprecated: true`, computed once:
 * `Deprecation: @<unix-seconds>` (RFC 9745) from `x-deprecated-at`, `Sunset: <HTTP-date>`
 * (RFC 8594) from `x-sunset`, and a `Link` to the operation's `externalDocs` with
 * `rel="deprecation sunset"`.
 */
import type { Operation } from '../operations/operation.js';

export interface DeprecationPolicy {
  headers: Record<string, string>;
  /** When the operation stops answering, if the document says. */
  sunset?: Date;
}

/** @example deprecationPolicy(op)?.headers // { Deprecation: '@1788220800', Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT', Link: '...' } */
export function deprecationPolicy(operation: Operation): DeprecationPolicy | undefined {
  if (!operation.deprecated) return undefined;
  const headers: Record<string, string> = {};
  const deprecatedAt = parseDate(operation.source['x-deprecated-at']);
  const sunset = parseDate(operation.source['x-sunset']);
  headers.Deprecation = deprecatedAt ? `@${Math.floor(deprecatedAt.getTime() / 1000)}` : '@0';
  if (sunset) headers.Sunset = sunset.toUTCString();
  const docs = operation.source.externalDocs?.url;
  // One link-value with both relation types (RFC 8288 allows a list), not the URL twice.
  if (typeof docs === 'string') headers.Link = `<${docs}>; rel="${sunset ? 'deprecation sunset' : 'deprecation'}"; type="text/html"`;
  return { headers, sunset };
}

/** An RFC 3339 date (`2027-06-30`, read as midnight UTC) or date-time; YAML may already give a Date. */
export function parseDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value !== 'string') return undefined;
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
