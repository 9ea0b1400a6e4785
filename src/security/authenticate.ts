/**
 * Stage 4: enforce the security an operation declares, against the mock's API keys.
 *
 * http bearer, oauth2 and openIdConnect take `Authorization: Bearer <key>`; http basic takes
 * `Basic base64(user:password)` where the user or the password is a key; apiKey reads its header,
 * query parameter or cookie. Alternatives are ORed, schemes inside one alternative ANDed.
 */
import type { SecuritySchemeObject } from '../document/objects.js';
import type { Operation, SecurityAlternative } from '../operations/operation.js';
import { ApiError } from '../core/api-error.js';
import { safeDecode } from '../core/safe-decode.js';
import type { QueryString } from '../core/query-string.js';
import { Registry } from '../core/registry.js';
import { fromBase64, fromUtf8 } from '../core/bytes.js';

export interface AuthOptions {
  /** The keys that open the API. */
  apiKeys: readonly string[];
  /** Realm of the `WWW-Authenticate` challenge (RFC 6750): the document's title. */
  realm: string;
  /** The checks by kind of scheme (default: the built-ins). */
  schemes?: Registry<SecuritySchemeCheck>;
}

export interface Credentials {
  header: (lowerCaseName: string) => string | undefined | null;
  /** The request's query (parsed once per request). */
  query: QueryString;
}

/**
 * Returns undefined when the operation is open to anonymous callers, else a check that gives
 * the 401 to send, or undefined when the credentials are good.
 *
 * @example
 * const check = compileAuthenticator(op, { apiKeys: ['k'], realm: 'Petstore' });
 * check?.({ header: () => 'Bearer k', query: QueryString.EMPTY }) // undefined: let it through
 */
export function compileAuthenticator(operation: Operation, options: AuthOptions): ((credentials: Credentials) => ApiError | undefined) | undefined {
  const alternatives = operation.security;
  if (alternatives.length === 0 || alternatives.some((alternative) => alternative.length === 0)) return undefined;
  const keys = new Set(options.apiKeys);
  const checks = options.schemes ?? BUILT_IN;
  const realm = options.realm.replace(/["\\]/g, '');
  const bearerLike = alternatives.some((alt) => alt.some(({ scheme }) => checkFor(scheme, checks)?.bearer));

  return (credentials) => {
    let worst: Outcome = 'missing';
    for (const alternative of alternatives) {
      const outcome = checkAlternative(alternative, credentials, keys, checks);
      if (outcome === 'ok') return undefined;
      if (outcome === 'unknown' || (outcome === 'wrong-scheme' && worst === 'missing')) worst = outcome;
    }
    return unauthorized(worst, realm, bearerLike, alternatives[0]);
  };
}

function checkAlternative(alternative: SecurityAlternative, credentials: Credentials, keys: Set<string>, checks: Registry<SecuritySchemeCheck>): Outcome {
  let result: Outcome = 'ok';
  for (const { scheme } of alternative) {
    const outcome = checkFor(scheme, checks)?.check(scheme, credentials, keys) ?? 'ok'; // mutualTLS and unknown kinds cannot be checked by a mock
    if (outcome !== 'ok') result = outcome;
  }
  return result;
}

/** What a scheme's check found: the credentials it wants, none, unknown ones, or another Authorization scheme. */
export type Outcome = 'ok' | 'missing' | 'unknown' | 'wrong-scheme';

/**
 * Checks one kind of security scheme, registered by its `type` (`apiKey`, `oauth2`,
 * `openIdConnect`, `mutualTLS`) or, for `http`, as `http:<scheme>` (`http:bearer`, `http:basic`).
 * A scheme nothing is registered for cannot be checked by a mock and lets the request through.
 */
export interface SecuritySchemeCheck {
  check: (scheme: SecuritySchemeObject, credentials: Credentials, keys: ReadonlySet<string>) => Outcome;
  /** Takes `Authorization: Bearer` (decides the 401's challenge). */
  bearer?: boolean;
}

/** `Authorization: <scheme> <token>`, split; undefined when there is no such header. */
function authorization(credentials: Credentials): { given: string; token: string } | undefined {
  const header = credentials.header('authorization');
  if (!header) return undefined;
  const space = header.indexOf(' ');
  return { given: (space < 0 ? header : header.slice(0, space)).toLowerCase(), token: space < 0 ? '' : header.slice(space + 1).trim() };
}

const bearer: SecuritySchemeCheck = {
  bearer: true,
  check: (_scheme, credentials, keys) => {
    const sent = authorization(credentials);
    if (!sent) return 'missing';
    if (sent.given !== 'bearer') return 'wrong-scheme';
    return sent.token && keys.has(sent.token) ? 'ok' : 'unknown';
  },
};

/** The built-in checks. */
export function securitySchemeChecks(): Registry<SecuritySchemeCheck> {
  return new Registry<SecuritySchemeCheck>('security scheme')
    .register('apiKey', {
      check: (scheme, credentials, keys) => {
        const value = scheme.type === 'apiKey' ? readApiKey(scheme.in, scheme.name, credentials) : undefined;
        return value === undefined ? 'missing' : keys.has(value) ? 'ok' : 'unknown';
      },
    })
    .register('http:bearer', bearer)
    .register('oauth2', bearer)
    .register('openIdConnect', bearer)
    .register('http:basic', {
      check: (_scheme, credentials, keys) => {
        const sent = authorization(credentials);
        if (!sent) return 'missing';
        if (sent.given !== 'basic') return 'wrong-scheme';
        const [user, ...rest] = fromUtf8(fromBase64(sent.token) ?? new Uint8Array(0)).split(':');
        return keys.has(user) || keys.has(rest.join(':')) ? 'ok' : 'unknown';
      },
    });
}

const BUILT_IN = securitySchemeChecks();

function checkFor(scheme: SecuritySchemeObject, checks: Registry<SecuritySchemeCheck>): SecuritySchemeCheck | undefined {
  return checks.get(scheme.type === 'http' ? `http:${scheme.scheme}` : scheme.type);
}

function readApiKey(location: string, name: string, credentials: Credentials): string | undefined {
  if (location === 'header') return credentials.header(name.toLowerCase()) ?? undefined;
  if (location === 'query') return credentials.query.first(name);
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
