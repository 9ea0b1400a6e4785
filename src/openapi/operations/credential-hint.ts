/**
 * How a client sends a key as a security scheme says: a bearer or basic `Authorization`, an
 * apiKey header, query parameter or cookie. One mapping for the banner's hints and the contract
 * suite's requests.
 */
import type { SecuritySchemeObject } from '../document/objects.js';
import type { Operation } from './operation.js';
import { toBase64 } from '../../core/bytes.js';

/** Where one scheme carries a key: a header, a query parameter or a cookie, as [name, value]. */
export interface Credential {
  header?: [string, string];
  query?: [string, string];
  cookie?: [string, string];
}

export function credentialFor(scheme: SecuritySchemeObject, key: string): Credential {
  if (scheme.type === 'apiKey') {
    const name = String(scheme.name);
    return scheme.in === 'query' ? { query: [name, key] } : scheme.in === 'cookie' ? { cookie: [name, key] } : { header: [name, key] };
  }
  if (scheme.type === 'http' && /^basic$/i.test(String(scheme.scheme))) return { header: ['Authorization', `Basic ${toBase64(`${key}:`)}`] };
  return { header: ['Authorization', `Bearer ${key}`] }; // http bearer, oauth2, openIdConnect
}

export interface CredentialHint {
  /** `Authorization: Bearer KEY`, `X-API-Key: KEY`, `?key=KEY`, `Cookie: session=KEY` */
  text: string;
  /** The same as curl arguments: `-H 'X-API-Key: KEY'`, or a query string to append. */
  curl: { header?: string; query?: string };
}

/** The hint for an operation's first way to authenticate, or undefined when it asks for none. */
export function credentialHint(op: Operation | undefined, key: string): CredentialHint | undefined {
  const scheme = op?.security[0]?.[0]?.scheme;
  if (!scheme) return undefined;
  const { header, query, cookie } = credentialFor(scheme, key);
  if (query) return { text: `?${query[0]}=${query[1]}`, curl: { query: `${encodeURIComponent(query[0])}=${encodeURIComponent(query[1])}` } };
  const line = cookie ? `Cookie: ${cookie[0]}=${cookie[1]}` : `${header![0]}: ${header![1]}`;
  return { text: line, curl: { header: line } };
}
