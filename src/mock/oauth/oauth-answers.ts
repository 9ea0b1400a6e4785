/**
 * What the authorization server answers: JSON bodies that are never cached, the errors of RFC 6749
 * (section 5.2) and RFC 6750 (section 3.1) as data, and the 302 back to a client.
 */
import { respondJson, SECURITY_HEADERS } from '../../core/security-headers.js';

/** An error of RFC 6749 (section 5.2) or RFC 6750 (section 3.1). */
export class OAuthError {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
export const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);

/** A JSON answer, `Pragma: no-cache` as RFC 6749 asks of the token endpoint's. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return respondJson(body, status, { Pragma: 'no-cache', ...headers });
}

/** An error's answer: its status, `{error, error_description}`, and its headers (a challenge, `Allow`). */
export function oauthError(error: OAuthError): Response {
  return json(error.status, { error: error.error, error_description: error.description }, error.headers);
}

/** A 302 back to the client, its values in the query or the fragment. */
export function redirectTo(target: URL, values: Record<string, string | undefined>, where: 'query' | 'fragment'): Response {
  const url = new URL(target.href);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined) params.set(name, value);
  if (where === 'query') for (const [name, value] of params) url.searchParams.set(name, value);
  else url.hash = params.toString();
  return new Response(null, { status: 302, headers: { ...SECURITY_HEADERS, Location: url.href, 'Referrer-Policy': 'no-referrer' } });
}
