/**
 * Stage 4: enforce the security an operation declares, against the mock's API keys.
 *
 * http bearer, oauth2 and openIdConnect take `Authorization: Bearer <key>`; http basic takes
 * `Basic base64(user:password)` where the user or the password is a key; apiKey reads its header,
 * query parameter or cookie. Alternatives are ORed, schemes inside one alternative ANDed.
 */
import type { Operation, SecurityAlternative } from '../operations/operation.js';
import { ApiError } from '../respond/api-error.js';
import { safeDecode } from '../validation/safe-decode.js';

export interface AuthOptions {
  /** The keys that open the API. */
  apiKeys: readonly string[];
  /** Realm of the `WWW-Authenticate` challenge (RFC 6750): the document's title. */
  realm: string;
}

export interface Credentials {
  header: (lowerCaseName: string) => string | undefined | null;
  /** The raw query string, without `?`. */
  query: string;
}

type Outcome = 'ok' | 'missing' | 'unknown' | 'wrong-scheme';

/**
 * Returns undefined when the operation is open to anonymous callers, else a check that gives
 * the 401 to send, or undefined when the credentials are good.
 *
 * @example
 * const check = compileAuthenticator(op, { apiKeys: ['k'], realm: 'Petstore' });
 * check?.({ header: () => 'Bearer k', query: '' }) // undefined: let it through
 */
export function compileAuthenticator(operation: Operation, options: AuthOptions): ((credentials: Credentials) => ApiError | undefined) | undefined {
  const alternatives = operation.security;
  if (alternatives.length === 0 || alternatives.some((alternative) => alternative.length === 0)) return undefined;
  const keys = new Set(options.apiKeys);
  const realm = options.realm.replace(/["\\]/g, '');
  const bearerLike = alternatives.some((alt) => alt.some(({ scheme }) => bearerScheme(scheme)));

  return (credentials) => {
    let worst: Outcome = 'missing';
    for (const alternative of alternatives) {
      const outcome = checkAlternative(alternative, credentials, keys);
      if (outcome === 'ok') return undefined;
      if (outcome === 'unknown' || (outcome === 'wrong-scheme' && worst === 'missing')) worst = outcome;
    }
    return unauthorized(worst, realm, bearerLike, alternatives[0]);
  };
}

function checkAlternative(alternative: SecurityAlternative, credentials: Credentials, keys: Set<string>): Outcome {
  let result: Outcome = 'ok';
  for (const { scheme } of alternative) {
    const outcome = checkScheme(scheme, credentials, keys);
    if (outcome !== 'ok') result = outcome;
  }
  return result;
}

function bearerScheme(scheme: Record<string, unknown>): boolean {
  return (
    (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') ||
    scheme.type === 'oauth2' ||
    scheme.type === 'openIdConnect'
  );
}

function checkScheme(scheme: Record<string, unknown>, credentials: Credentials, keys: Set<string>): Outcome {
  if (scheme.type === 'apiKey') {
    const value = readApiKey(String(scheme.in), String(scheme.name), credentials);
    return value === undefined ? 'missing' : keys.has(value) ? 'ok' : 'unknown';
  }
  const authorization = credentials.header('authorization');
  if (!authorization) return 'missing';
  const space = authorization.indexOf(' ');
  const given = (space < 0 ? authorization : authorization.slice(0, space)).toLowerCase();
  const token = space < 0 ? '' : authorization.slice(space + 1).trim();
  if (bearerScheme(scheme)) {
    if (given !== 'bearer') return 'wrong-scheme';
    return token && keys.has(token) ? 'ok' : 'unknown';
  }
  if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') {
    if (given !== 'basic') return 'wrong-scheme';
    const [user, ...rest] = Buffer.from(token, 'base64').toString('utf8').split(':');
    return keys.has(user) || keys.has(rest.join(':')) ? 'ok' : 'unknown';
  }
  return 'ok'; // mutualTLS and unknown types cannot be checked by a mock
}

function readApiKey(location: string, name: string, credentials: Credentials): string | undefined {
  if (location === 'header') return credentials.header(name.toLowerCase()) ?? undefined;
  if (location === 'query') {
    for (const pair of credentials.query.split('&')) {
      const [k, v = ''] = pair.split('=');
      if (safeDecode(k) === name) return safeDecode(v);
    }
    return undefined;
  }
  const cookies = credentials.header('cookie') ?? '';
  for (const part of cookies.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return safeDecode(v.join('='));
  }
  return undefined;
}

function unauthorized(outcome: Outcome, realm: string, bearerLike: boolean, first: SecurityAlternative): ApiError {
  const scheme = first[0]?.scheme ?? {};
  const challenge = bearerLike
    ? `Bearer realm="${realm}"${outcome === 'unknown' ? ', error="invalid_token", error_description="The access token is not a known API key"' : ''}`
    : scheme.type === 'apiKey'
      ? `ApiKey realm="${realm}", in="${String(scheme.in)}", name="${String(scheme.name)}"`
      : `Basic realm="${realm}"`;
  const expected = bearerLike ? 'Authorization: Bearer <API_KEY>' : scheme.type === 'apiKey' ? `the API key in ${String(scheme.in)} "${String(scheme.name)}"` : 'Authorization: Basic <credentials>';
  const message = {
    missing: `This operation requires credentials: send ${expected}.`,
    unknown: 'The credentials sent are not a known API key.',
    'wrong-scheme': `The Authorization header uses another scheme; send ${expected}.`,
    ok: '',
  }[outcome];
  return new ApiError(401, 'UNAUTHORIZED', message, undefined, { 'WWW-Authenticate': challenge });
}
