/**
 * Deprecation and sunset headers for operations marked `deprecated: true`, computed once:
 * `Deprecation: @<unix-seconds>` (RFC 9745) from `x-deprecated-at`, `Sunset: <HTTP-date>`
 * (RFC 8594) from `x-sunset`, and a `Link` to the operation's `externalDocs` with
 * `rel="deprecation sunset"`.
 */
import type { Operation } from '../../openapi/operations/operation.js';

export interface DeprecationPolicy {
  headers: Record<string, string>;
  /** When the operation stops answering, if the document says. */
  sunset?: Date;
  /**
   * A relative `externalDocs` URL, as the mock's path it names (resolved against the document's
   * server): the `Link` is then written per request, at the URL the client reached the mock under
   * (`deprecationLink`), and is not in `headers`.
   */
  docsPath?: string;
}

/**
 * `basePath`: the path of the document's server, which a relative `externalDocs` URL is resolved against.
 * @example deprecationPolicy(op)?.headers // { Deprecation: '@1788220800', Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT', Link: '...' }
 */
export function deprecationPolicy(operation: Operation, basePath = ''): DeprecationPolicy | undefined {
  if (!operation.deprecated) return undefined;
  const headers: Record<string, string> = {};
  const deprecatedAt = parseDate(operation.source['x-deprecated-at']);
  const sunset = parseDate(operation.source['x-sunset']);
  headers.Deprecation = deprecatedAt ? `@${Math.floor(deprecatedAt.getTime() / 1000)}` : '@0';
  if (sunset) headers.Sunset = sunset.toUTCString();
  const docs = operation.source.externalDocs?.url;
  if (typeof docs !== 'string') return { headers, sunset };
  if (/^[a-z][a-z0-9+.-]*:/i.test(docs) || docs.startsWith('//')) {
    headers.Link = deprecationLink(docs, sunset);
    return { headers, sunset };
  }
  // Relative (OpenAPI resolves it against the server's URL): a path of the mock, written where the client is.
  const resolved = new URL(docs, `http://server${basePath}`);
  return { headers, sunset, docsPath: `${resolved.pathname}${resolved.search}${resolved.hash}` };
}

/** The `Link` header to an operation's docs: one link-value with both relation types (RFC 8288 allows a list), not the URL twice. */
export function deprecationLink(url: string, sunset: Date | undefined): string {
  return `<${url}>; rel="${sunset ? 'deprecation sunset' : 'deprecation'}"; type="text/html"`;
}

/** An RFC 3339 date (`2027-06-30`, read as midnight UTC) or date-time; YAML may already give a Date. */
export function parseDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value !== 'string') return undefined;
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
