/**
 * How a client sends a key to an operation, for the banner's hints: as the operation's first way
 * to authenticate says (a bearer or basic `Authorization`, an apiKey header, query parameter or
 * cookie), or nothing when the document asks for none.
 */
import type { Operation } from '../operations/operation.js';

export interface CredentialHint {
  /** `Authorization: Bearer KEY`, `X-API-Key: KEY`, `?key=KEY`, `Cookie: session=KEY` */
  text: string;
  /** The same as curl arguments: `-H 'X-API-Key: KEY'`, or a query string to append. */
  curl: { header?: string; query?: string };
}

export function credentialHint(op: Operation | undefined, key: string): CredentialHint | undefined {
  const scheme = op?.security[0]?.[0]?.scheme;
  if (!scheme) return undefined;
  if (scheme.type === 'apiKey' && scheme.in === 'query') return { text: `?${scheme.name}=${key}`, curl: { query: `${encodeURIComponent(scheme.name)}=${encodeURIComponent(key)}` } };
  const header =
    scheme.type === 'apiKey' && scheme.in === 'cookie'
      ? `Cookie: ${scheme.name}=${key}`
      : scheme.type === 'apiKey'
        ? `${scheme.name}: ${key}`
        : scheme.type === 'http' && /^basic$/i.test(String(scheme.scheme))
          ? `Authorization: Basic ${Buffer.from(`${key}:`).toString('base64')}`
          : `Authorization: Bearer ${key}`;
  return { text: header, curl: { header } };
}
