/**
 * Stage 4: enforce the security an operation declares, against the mock's API keys (and, for
 * oauth2 and openIdConnect, the access tokens the mock issued: src/mock/oauth).
 *
 * http bearer, oauth2 and openIdConnect take `Authorization: Bearer <key>`; http basic takes
 * `Basic base64(user:password)` where the user or the password is a key; apiKey reads its header,
 * query parameter or cookie. Alternatives are ORed, schemes inside one alternative ANDed. A key
 * passes every scope; an issued token passes the scopes it was granted.
 */
import type { SecuritySchemeObject } from '../../openapi/document/objects.js';
import { findResponse } from '../../openapi/operations/build-operations.js';
import type { Operation, SecurityAlternative } from '../../openapi/operations/operation.js';
import { ApiError } from '../../core/api-error.js';
import { safeDecode } from '../../core/safe-decode.js';
import type { QueryString } from '../../core/query-string.js';
import { Registry } from '../../core/registry.js';
import { fromBase64, fromUtf8 } from '../../core/bytes.js';

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
  const tokens = alternatives.some((alt) => alt.some(({ scheme }) => checkFor(scheme, checks)?.tokens));
  // RFC 6750: a token without the scopes is 403 insufficient_scope, where the operation has a 403 to answer it with.
  const forbids = findResponse(operation, 403) !== undefined;

  return (credentials) => {
    let worst: Failure = { outcome: 'missing', alternative: alternatives[0] };
    for (const alternative of alternatives) {
      const outcome = checkAlternative(alternative, credentials, keys, checks);
      if (outcome === 'ok') return undefined;
      if (RANK[outcome] > RANK[worst.outcome]) worst = { outcome, alternative };
    }
    return refusal(worst, { realm, bearerLike, tokens, forbids, first: alternatives[0] });
  };
}

function checkAlternative(alternative: SecurityAlternative, credentials: Credentials, keys: Set<string>, checks: Registry<SecuritySchemeCheck>): Outcome {
  let result: Outcome = 'ok';
  for (const { scheme, scopes } of alternative) {
    const outcome = checkFor(scheme, checks)?.check(scheme, credentials, keys, scopes ?? []) ?? 'ok'; // mutualTLS and unknown kinds cannot be checked by a mock
    if (RANK[outcome] < RANK[result]) result = outcome;
  }
  return result;
}

/**
 * What a scheme's check found: the credentials it wants, none, unknown ones, another
 * Authorization scheme, a token past its expiry, or a token without the scopes the requirement names.
 */
export type Outcome = 'ok' | 'missing' | 'unknown' | 'wrong-scheme' | 'expired' | 'insufficient-scope';

/**
 * How close an outcome came: an alternative answers with its furthest scheme from passing, and a
 * refusal tells of the alternative that came closest (a token without a scope, rather than a key missing elsewhere).
 */
const RANK: Record<Outcome, number> = { missing: 0, 'wrong-scheme': 1, unknown: 2, expired: 3, 'insufficient-scope': 4, ok: 5 };

interface Failure {
  outcome: Exclude<Outcome, 'ok'>;
  alternative: SecurityAlternative;
}

/**
 * Checks one kind of security scheme, registered by its `type` (`apiKey`, `oauth2`,
 * `openIdConnect`, `mutualTLS`) or, for `http`, as `http:<scheme>` (`http:bearer`, `http:basic`).
 * A scheme nothing is registered for cannot be checked by a mock and lets the request through.
 */
export interface SecuritySchemeCheck {
  /** `scopes`: what the requirement names for this scheme (`[]` for none). */
  check: (scheme: SecuritySchemeObject, credentials: Credentials, keys: ReadonlySet<string>, scopes: readonly string[]) => Outcome;
  /** Takes `Authorization: Bearer` (decides the 401's challenge). */
  bearer?: boolean;
  /** Also takes access tokens the mock issued (the 401 says a token, not only a key). */
  tokens?: boolean;
}

/**
 * Whether a bearer token is one of the mock's issued tokens, and if so what it passes: `ok`,
 * `expired` or `insufficient-scope` for the scopes asked; undefined when it is none of them.
 */
export type TokenVerifier = (token: string, scopes: readonly string[]) => Outcome | undefined;

/** `Authorization: <scheme> <token>`, split; undefined when there is no such header. */
function authorization(credentials: Credentials): { given: string; token: string } | undefined {
  const header = credentials.header('authorization');
  if (!header) return undefined;
  const space = header.indexOf(' ');
  return { given: (space < 0 ? header : header.slice(0, space)).toLowerCase(), token: space < 0 ? '' : header.slice(space + 1).trim() };
}

/**
 * `Authorization: Bearer <key>`; with `verify`, also the tokens it knows (oauth2 and openIdConnect
 * once the mock issues tokens). A key passes every scope.
 *
 * @example parts.securitySchemes.register('oauth2', bearerCheck(oauth.verify))
 */
export function bearerCheck(verify?: TokenVerifier): SecuritySchemeCheck {
  return {
    bearer: true,
    tokens: verify !== undefined,
    check: (_scheme, credentials, keys, scopes) => {
      const sent = authorization(credentials);
      if (!sent) return 'missing';
      if (sent.given !== 'bearer') return 'wrong-scheme';
      if (!sent.token) return 'unknown';
      if (keys.has(sent.token)) return 'ok';
      return verify?.(sent.token, scopes) ?? 'unknown';
    },
  };
}

const bearer = bearerCheck();

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

interface RefusalContext {
  realm: string;
  bearerLike: boolean;
  tokens: boolean;
  forbids: boolean;
  first: SecurityAlternative;
}

function refusal({ outcome, alternative }: Failure, { realm, bearerLike, tokens, forbids, first }: RefusalContext): ApiError {
  const scheme = first[0]?.scheme ?? {};
  const credential = tokens ? '<API_KEY or access token>' : '<API_KEY>';
  if (outcome === 'insufficient-scope') {
    const needed = alternative.flatMap(({ scopes }) => scopes ?? []);
    const challenge = `Bearer realm="${realm}", error="insufficient_scope", error_description="The access token lacks a scope this operation needs", scope="${needed.join(' ').replace(/["\\]/g, '')}"`;
    return new ApiError(forbids ? 403 : 401, 'INSUFFICIENT_SCOPE', `The access token lacks a scope this operation needs: it needs ${needed.join(', ')}.`, undefined, { 'WWW-Authenticate': challenge });
  }
  const description = outcome === 'expired' ? 'The access token expired' : tokens ? 'The access token is neither a known API key nor a token the mock issued' : 'The access token is not a known API key';
  const challenge = bearerLike
    ? `Bearer realm="${realm}"${outcome === 'unknown' || outcome === 'expired' ? `, error="invalid_token", error_description="${description}"` : ''}`
    : scheme.type === 'apiKey'
      ? `ApiKey realm="${realm}", in="${String(scheme.in)}", name="${String(scheme.name)}"`
      : `Basic realm="${realm}"`;
  const expected = bearerLike ? `Authorization: Bearer ${credential}` : scheme.type === 'apiKey' ? `the API key in ${String(scheme.in)} "${String(scheme.name)}"` : 'Authorization: Basic <credentials>';
  const message = {
    missing: `This operation requires credentials: send ${expected}.`,
    unknown: tokens ? 'The credentials sent are neither a known API key nor a token the mock issued.' : 'The credentials sent are not a known API key.',
    'wrong-scheme': `The Authorization header uses another scheme; send ${expected}.`,
    expired: 'The access token expired; get a new one (a refresh token, or the token endpoint again).',
  }[outcome];
  return new ApiError(401, 'UNAUTHORIZED', message, undefined, { 'WWW-Authenticate': challenge });
}
