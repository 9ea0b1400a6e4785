/**
 * What every endpoint of the authorization server shares: its options, the token tables and the
 * signing key (swapped by a `--watch` reload, so read through the core at each request), the
 * mock's clock, the scopes and grants the document declares, and issuing tokens.
 */
import { base64Url, randomToken, rsaSigner, sha256, type JwtSigner } from './crypto.js';
import { json, OAuthError } from './oauth-answers.js';
import { OPENID_SCOPES, type GrantType, type OAuthDeclaration } from './oauth-document.js';
import { DEFAULT_REFRESH_TOKEN_LIFETIME, DEFAULT_TOKEN_LIFETIME, type OAuthRequest, type OAuthServerOptions } from './oauth-options.js';
import { issuerFor } from './oauth-paths.js';
import type { RedirectRules } from './redirect-uri.js';
import { TokenTables, type AccessEntry, type Grant } from './tokens.js';

/** The flow of the document that serves each grant. */
const GRANT_FLOWS: Record<GrantType, string> = {
  authorization_code: 'authorizationCode',
  implicit: 'implicit',
  client_credentials: 'clientCredentials',
  password: 'password',
  refresh_token: 'authorizationCode or password',
};

/** Tokens as they are issued: the access token, and a refresh token and an ID token when asked for and granted. */
export interface Issued {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
}

export interface OAuthCore {
  options: OAuthServerOptions;
  declaration: OAuthDeclaration;
  realm: string;
  /** The mock's API keys: a client secret, a password, a key typed into the sign-in form must be one. */
  keys: ReadonlySet<string>;
  /** Seconds an access token lasts. */
  tokenLifetime: number;
  /** The tokens issued; replaced on a reload (`takeOver`). */
  tables: TokenTables;
  /** The signing key; replaced on a reload (`takeOver`). */
  signer: JwtSigner;
  /** The mock's clock, in milliseconds, and in whole seconds (the tokens' `iat`). */
  now: () => number;
  seconds: () => number;
  /** The mock's origin as the caller reaches it (`X-Forwarded-Proto` read only behind a trusted proxy). */
  originOf: (request: Pick<OAuthRequest, 'url' | 'header'>) => string;
  /** Where a code or a sign-out may be sent back to. */
  redirectRules: (request: OAuthRequest) => RedirectRules;
  /** The scopes asked for (space-separated), every one declared; the defaults when none are named. */
  readScopes: (text: string | undefined, within?: readonly string[]) => string[] | OAuthError;
  /** Undefined when the document declares a flow of the grant; else the error that refuses it. */
  grantServed: (grant: GrantType) => OAuthError | undefined;
  /** An access token (a JWT the mock also keeps, so it checks it without verifying a signature), and what goes with it. */
  issue: (origin: string, grant: Grant, extras: { refresh: boolean; idToken: boolean }) => Promise<Issued>;
  /** The token endpoint's answer for tokens issued with these scopes. */
  tokenResponse: (issued: Issued, scopes: readonly string[]) => Response;
}

/** @example const core = createOAuthCore({ declaration, apiKeys: ['k'], now: Date.now, keyless: () => true, realm: 'Pets' }) */
export function createOAuthCore(options: OAuthServerOptions): OAuthCore {
  const { declaration, now, realm } = options;
  const keys = new Set(options.apiKeys);
  const tokenLifetime = options.tokenLifetime ?? DEFAULT_TOKEN_LIFETIME;
  const refreshLifetime = options.refreshTokenLifetime ?? DEFAULT_REFRESH_TOKEN_LIFETIME;
  const redirectOrigins = options.redirectOrigins ?? [];
  const redirectRules = (request: OAuthRequest): RedirectRules => ({ mockOrigin: originOf(request), ownCallbacks: options.ownCallbacks ?? [], allowedOrigins: redirectOrigins });
  const seconds = () => Math.floor(now() / 1000);
  /** The scopes granted when a request names none: every scope of the document's own (OpenID Connect's are asked for by name). */
  const defaultScopes = [...declaration.scopes].filter((scope) => !(OPENID_SCOPES as readonly string[]).includes(scope));

  const originOf = (request: Pick<OAuthRequest, 'url' | 'header'>): string => {
    const proto = options.trustProxy ? request.header('x-forwarded-proto')?.split(',')[0].trim().toLowerCase() : undefined;
    return proto === 'https' || proto === 'http' ? `${proto}://${request.url.host}` : request.url.origin;
  };

  /** The scopes asked for (space-separated), every one declared; the defaults when none are named. */
  const readScopes = (text: string | undefined, within?: readonly string[]): string[] | OAuthError => {
    if (text === undefined) return within ? [...within] : [...defaultScopes];
    const asked = [...new Set(text.split(' ').filter(Boolean))];
    const unknown = asked.filter((scope) => !(within ?? [...declaration.scopes]).includes(scope));
    if (unknown.length === 0) return asked;
    const offered = within ? `the grant has ${within.join(' ') || 'no scope'}` : `the document declares ${[...declaration.scopes].slice(0, 20).join(' ') || 'no scope'}`;
    return new OAuthError(400, 'invalid_scope', `Unknown scope ${unknown.slice(0, 5).join(' ')}: ${offered}.`);
  };

  const grantServed = (grant: GrantType): OAuthError | undefined =>
    declaration.grants.has(grant) ? undefined : new OAuthError(400, grant === 'implicit' || grant === 'authorization_code' ? 'unsupported_response_type' : 'unsupported_grant_type', `The document declares no ${GRANT_FLOWS[grant]} flow, so the mock does not serve ${grant}; it serves ${[...declaration.grants].join(', ') || 'none'}.`);

  /** An access token (a JWT the mock also keeps, so it checks it without verifying a signature), and what goes with it. */
  const issue = async (origin: string, grant: Grant, extras: { refresh: boolean; idToken: boolean }): Promise<Issued> => {
    const { tables, signer } = core;
    const issuedAt = seconds();
    const issuer = issuerFor(origin);
    const accessToken = await signer.sign(
      { iss: issuer, sub: grant.subject, aud: origin, client_id: grant.clientId, scope: grant.scopes.join(' '), iat: issuedAt, exp: issuedAt + tokenLifetime, jti: randomToken(16) },
      'at+jwt',
    );
    const refreshToken = extras.refresh ? randomToken() : undefined;
    const entry: AccessEntry = { ...grant, expiresAt: now() + tokenLifetime * 1000, refreshToken };
    tables.access.set(accessToken, entry);
    if (refreshToken) tables.refresh.set(refreshToken, { ...grant, expiresAt: now() + refreshLifetime * 1000 });
    let idToken: string | undefined;
    if (extras.idToken && declaration.openId && grant.scopes.includes('openid')) {
      const digest = await sha256(accessToken);
      idToken = await signer.sign({
        iss: issuer,
        sub: grant.subject,
        aud: grant.clientId,
        iat: issuedAt,
        exp: issuedAt + tokenLifetime,
        auth_time: grant.authTime,
        ...(grant.nonce === undefined ? {} : { nonce: grant.nonce }),
        at_hash: base64Url(digest.subarray(0, digest.length / 2)),
        ...userClaims(grant),
      });
    }
    return { accessToken, refreshToken, idToken };
  };

  const tokenResponse = (issued: Issued, scopes: readonly string[]) =>
    json(200, {
      access_token: issued.accessToken,
      token_type: 'Bearer',
      expires_in: tokenLifetime,
      scope: scopes.join(' '),
      ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
      ...(issued.idToken ? { id_token: issued.idToken } : {}),
    });

  const core: OAuthCore = {
    options,
    declaration,
    realm,
    keys,
    tokenLifetime,
    tables: new TokenTables(options.limits),
    signer: rsaSigner(),
    now,
    seconds,
    originOf,
    redirectRules,
    readScopes,
    grantServed,
    issue,
    tokenResponse,
  };
  return core;
}

/** The claims of the profile and email scopes, made up from the subject. */
export function userClaims(grant: Pick<Grant, 'subject' | 'scopes'>): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  if (grant.scopes.includes('profile')) Object.assign(claims, { name: grant.subject, preferred_username: grant.subject });
  if (grant.scopes.includes('email')) Object.assign(claims, { email: grant.subject.includes('@') ? grant.subject : `${grant.subject}@example.com`, email_verified: true });
  return claims;
}
