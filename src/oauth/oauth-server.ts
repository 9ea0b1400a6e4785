/**
 * The mock's own authorization server, for a document whose operations are secured by oauth2 or
 * openIdConnect schemes: their tokenUrl and authorizationUrl point at a real identity provider, so
 * a front end needs somewhere on the mock to get a token from. Served under /__oauth
 * (./oauth-paths.ts): the authorization endpoint (code with PKCE, and implicit), the token endpoint
 * (authorization_code, refresh_token, client_credentials, password), OpenID Connect's discovery,
 * JWKS and userinfo, revocation (RFC 7009) and a logout that sends the browser back.
 *
 * A mock has no users and no registered clients. What stands in for them:
 * - a client secret (client credentials) or a password (password grant) is any of the mock's API
 *   keys, so a token is never easier to get than the API itself;
 * - the authorization endpoint signs in at once (no login page) for a caller who could read a key
 *   anyway (the demo key is accepted, or the browser is on this machine), and asks anyone else for
 *   a key first; `login_hint` names the user (the tokens' `sub`, `mock-user` without it);
 * - the authorization endpoint answers a top-level navigation only (./navigation-only.ts), and
 *   `redirect_uri` must be on this machine or allowed, and on the mock itself only its docs page's
 *   callback (./redirect-uri.ts): no page of another site reads a code.
 *
 * Only the grants the document's flows declare are served (every one with an openIdConnect
 * scheme), and only the scopes it declares are granted. Access tokens are JWTs (RS256, RFC 9068)
 * that the mock accepts for those schemes, checking their scopes against each operation's, until
 * they expire on the mock's clock. Pure over a request object: the assembly mounts it
 * (src/assembly/own-endpoints.ts), and nothing here names Hono or Node.
 */
import { escapeHtml } from '../core/html.js';
import { fromBase64, fromUtf8 } from '../core/bytes.js';
import { QueryString, decodeQueryComponent } from '../core/query-string.js';
import { respondJson, SECURITY_HEADERS } from '../core/security-headers.js';
import type { Outcome, TokenVerifier } from '../security/authenticate.js';
import { base64Url, randomToken, rsaSigner, sha256, type JwtSigner } from './crypto.js';
import { OPENID_SCOPES, type GrantType, type OAuthDeclaration } from './oauth-document.js';
import { OAUTH_ENDPOINTS, OAUTH_PATH, issuerFor } from './oauth-paths.js';
import { isPkceValue, verifierMatches, type ChallengeMethod } from './pkce.js';
import { notANavigation } from './navigation-only.js';
import { checkRedirectUri, type RedirectRules } from './redirect-uri.js';
import { TokenTables, type AccessEntry, type Grant, type TokenLimits } from './tokens.js';

/** The options a user sets (`oauth` in the library; `--oauth-token-ttl`, `--oauth-redirect-origin` in the CLI). */
export interface OAuthOptions {
  /** How long an access token lasts, in seconds (default 3600: `expires_in`). */
  tokenLifetime?: number;
  /** How long a refresh token lasts, in seconds (default 30 days); each use gives a new one. */
  refreshTokenLifetime?: number;
  /** Origins (`https://app.example.com`) `redirect_uri` may name besides loopback ones; on the mock itself only its docs page's callback, whatever is listed. */
  redirectOrigins?: string[];
}

export const DEFAULT_TOKEN_LIFETIME = 3600;
export const DEFAULT_REFRESH_TOKEN_LIFETIME = 30 * 24 * 3600;
/** An authorization code lasts 10 minutes, the most RFC 6749 (section 4.1.2) recommends, and serves once. */
export const CODE_LIFETIME = 600;
/** The `sub` of tokens got through the authorization endpoint without a `login_hint`. */
export const DEFAULT_SUBJECT = 'mock-user';
/** Bodies of the token, revocation and authorization endpoints are read up to this size. */
export const MAX_FORM_BYTES = 16 * 1024;

export interface OAuthServerOptions extends OAuthOptions {
  declaration: OAuthDeclaration;
  apiKeys: readonly string[];
  /** The mock's clock, in milliseconds. */
  now: () => number;
  /** Whether a caller may be signed in without showing a key: the demo key is accepted, or the caller is on this machine. */
  keyless: (local: boolean) => boolean;
  /** The realm of the challenges (the document's title). */
  realm: string;
  /** The mock is behind a reverse proxy: the issuer's scheme is read from `X-Forwarded-Proto`. */
  trustProxy?: boolean;
  /** The mock's own pages a code may be sent back to (the docs page's callback, when it is served); no other path of the mock. */
  ownCallbacks?: readonly string[];
  limits?: TokenLimits;
}

/** What the endpoints read of a request. */
export interface OAuthRequest {
  method: string;
  url: URL;
  header: (lowerCaseName: string) => string | null | undefined;
  /** The body, or undefined past `maxBytes`. */
  body: (maxBytes: number) => Promise<Uint8Array | undefined>;
  /** The caller is on this machine (a loopback peer and Host, no proxy). */
  local: boolean;
}

export interface OAuthServer {
  declaration: OAuthDeclaration;
  /** Seconds an access token lasts. */
  tokenLifetime: number;
  /** The tokens this server issued, for the bearer check of oauth2 and openIdConnect schemes. */
  verify: TokenVerifier;
  /** Answers a request under /__oauth, or at one of the document's own URLs it serves (`endpointFor`). */
  handle: (request: OAuthRequest) => Promise<Response>;
  /**
   * The endpoint under /__oauth a request is for: its own path there, or the one a document URL
   * on the API's origin stands for (`declaration.documentPaths`) when the request reaches the mock
   * by that URL's origin; undefined for any other path.
   */
  endpointFor: (request: Pick<OAuthRequest, 'url' | 'header'>) => string | undefined;
  /** Honours the tokens and the signing key of the server this one replaces (a `--watch` reload). */
  takeOver: (previous: OAuthServer) => void;
  /** The tables and the signer, for `takeOver`. */
  readonly held: { tables: TokenTables; signer: JwtSigner };
}

/** An error of RFC 6749 (section 5.2) or RFC 6750 (section 3.1). */
class OAuthError {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);

const GRANT_FLOWS: Record<GrantType, string> = {
  authorization_code: 'authorizationCode',
  implicit: 'implicit',
  client_credentials: 'clientCredentials',
  password: 'password',
  refresh_token: 'authorizationCode or password',
};

/** @example const oauth = createOAuthServer({ declaration, apiKeys: ['k'], now: Date.now, keyless: () => true, realm: 'Pets' }) */
export function createOAuthServer(options: OAuthServerOptions): OAuthServer {
  const { declaration, now, realm } = options;
  const keys = new Set(options.apiKeys);
  const tokenLifetime = options.tokenLifetime ?? DEFAULT_TOKEN_LIFETIME;
  const refreshLifetime = options.refreshTokenLifetime ?? DEFAULT_REFRESH_TOKEN_LIFETIME;
  const redirectOrigins = options.redirectOrigins ?? [];
  const redirectRules = (request: OAuthRequest): RedirectRules => ({ mockOrigin: originOf(request), ownCallbacks: options.ownCallbacks ?? [], allowedOrigins: redirectOrigins });
  let tables = new TokenTables(options.limits);
  let signer = rsaSigner();
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
  const issue = async (origin: string, grant: Grant, extras: { refresh: boolean; idToken: boolean }) => {
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

  const tokenResponse = (issued: { accessToken: string; refreshToken?: string; idToken?: string }, scopes: readonly string[]) =>
    json(200, {
      access_token: issued.accessToken,
      token_type: 'Bearer',
      expires_in: tokenLifetime,
      scope: scopes.join(' '),
      ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
      ...(issued.idToken ? { id_token: issued.idToken } : {}),
    });

  // ---- The token endpoint (RFC 6749, section 3.2) ----

  const token = async (request: OAuthRequest): Promise<Response> => {
    const form = await readForm(request);
    if (form instanceof OAuthError) return oauthError(form);
    const client = readClient(request, form);
    if (client instanceof OAuthError) return oauthError(client);
    const grantType = form.get('grant_type');
    if (!grantType) return oauthError(invalidRequest('grant_type is required.'));
    if (!['authorization_code', 'refresh_token', 'client_credentials', 'password'].includes(grantType))
      return oauthError(new OAuthError(400, 'unsupported_grant_type', `The mock does not serve grant_type ${JSON.stringify(grantType.slice(0, 100))}; it serves ${[...declaration.grants].filter((g) => g !== 'implicit').join(', ')}.`));
    const refused = grantServed(grantType as GrantType);
    if (refused) return oauthError(refused);
    const origin = originOf(request);
    const answer = await (grantType === 'client_credentials'
      ? clientCredentials(form, client, origin)
      : grantType === 'password'
        ? password(form, client, origin)
        : grantType === 'authorization_code'
          ? authorizationCode(form, client, origin)
          : refresh(form, client, origin));
    return answer instanceof OAuthError ? oauthError(answer) : answer;
  };

  const clientCredentials = async (form: Form, client: Client, origin: string): Promise<Response | OAuthError> => {
    if (client.secret === undefined) return invalidClient('client_credentials needs client authentication: a client_secret (Basic, or in the body) that is one of the mock\'s API keys.');
    if (!keys.has(client.secret)) return invalidClient("The client secret is none of the mock's API keys.");
    if (!client.id) return invalidRequest('client_id is required.');
    const scopes = readScopes(form.get('scope'));
    if (scopes instanceof OAuthError) return scopes;
    // No refresh token: the client can ask again (RFC 6749, section 4.4.3).
    return tokenResponse(await issue(origin, { clientId: client.id, subject: client.id, scopes, authTime: seconds() }, { refresh: false, idToken: false }), scopes);
  };

  const password = async (form: Form, client: Client, origin: string): Promise<Response | OAuthError> => {
    const username = form.get('username');
    const secret = form.get('password');
    if (!username || secret === undefined) return invalidRequest('The password grant needs username and password.');
    if (!keys.has(secret)) return invalidGrant("The password is none of the mock's API keys: the mock has no users, any username signs in with a key as its password.");
    const scopes = readScopes(form.get('scope'));
    if (scopes instanceof OAuthError) return scopes;
    const grant: Grant = { clientId: client.id ?? 'mock-client', subject: username.slice(0, 200), scopes, authTime: seconds() };
    return tokenResponse(await issue(origin, grant, { refresh: true, idToken: true }), scopes);
  };

  const authorizationCode = async (form: Form, client: Client, origin: string): Promise<Response | OAuthError> => {
    const code = form.get('code');
    const redirectUri = form.get('redirect_uri');
    if (!code) return invalidRequest('code is required.');
    if (!client.id) return invalidRequest('client_id is required (in the body, or with Basic authentication).');
    const entry = tables.codes.get(code);
    if (!entry) return invalidGrant('The code is unknown: it was never issued, or the mock restarted.');
    if (now() >= entry.expiresAt) {
      tables.codes.delete(code);
      return invalidGrant(`The code expired: a code lasts ${CODE_LIFETIME} s.`);
    }
    if (entry.exchanged) {
      // A code used twice was stolen, or replayed: what it gave the first time is revoked (RFC 6749, section 4.1.2).
      tables.revoke(entry.exchanged.accessToken);
      if (entry.exchanged.refreshToken) tables.revoke(entry.exchanged.refreshToken);
      tables.codes.delete(code);
      return invalidGrant('The code was already used; the tokens it gave are revoked.');
    }
    if (entry.clientId !== client.id) return invalidGrant('The code was issued to another client_id.');
    if (redirectUri !== entry.redirectUri) return invalidGrant('redirect_uri must be the one the authorization request gave.');
    const verifier = form.get('code_verifier');
    if (entry.challenge) {
      if (verifier === undefined) return invalidGrant('code_verifier is required: the authorization request sent a code_challenge.');
      if (!(await verifierMatches(entry.challenge, verifier))) return invalidGrant(`code_verifier does not match the code_challenge (${entry.challenge.method}).`);
    } else if (verifier !== undefined) {
      return invalidGrant('code_verifier was sent, but the authorization request sent no code_challenge.');
    }
    const issued = await issue(origin, entry, { refresh: true, idToken: true });
    entry.exchanged = { accessToken: issued.accessToken, refreshToken: issued.refreshToken };
    return tokenResponse(issued, entry.scopes);
  };

  const refresh = async (form: Form, client: Client, origin: string): Promise<Response | OAuthError> => {
    const given = form.get('refresh_token');
    if (!given) return invalidRequest('refresh_token is required.');
    const entry = tables.refresh.get(given);
    if (!entry) return invalidGrant('The refresh token is unknown: it was used already (each use gives a new one), revoked, or the mock restarted.');
    if (now() >= entry.expiresAt) {
      tables.refresh.delete(given);
      return invalidGrant('The refresh token expired.');
    }
    if (client.id !== undefined && client.id !== entry.clientId) return invalidGrant('The refresh token was issued to another client_id.');
    const scopes = readScopes(form.get('scope'), entry.scopes);
    if (scopes instanceof OAuthError) return scopes;
    tables.refresh.delete(given); // rotated: a refresh token serves once
    return tokenResponse(await issue(origin, { ...entry, scopes }, { refresh: true, idToken: true }), scopes);
  };

  // ---- The authorization endpoint (RFC 6749, sections 4.1 and 4.2) ----

  const authorize = async (request: OAuthRequest): Promise<Response> => {
    // Before anything is read: a request a page made on its own gets nothing, not even the checks' answers.
    const refusal = notANavigation(request.method, request.header, originOf(request));
    if (refusal) return oauthError(new OAuthError(403, 'access_denied', refusal));
    let params: Form;
    if (request.method === 'POST') {
      const form = await readForm(request);
      if (form instanceof OAuthError) return oauthError(form);
      params = form;
    } else {
      params = formOf(new QueryString(request.url.search.slice(1)));
    }
    // Until the client and its redirect_uri are known good, errors are shown here, never sent to the redirect_uri (section 4.1.2.1).
    const clientId = params.get('client_id');
    if (!clientId) return oauthError(invalidRequest('client_id is required.'));
    const origin = originOf(request);
    const redirect = checkRedirectUri(params.get('redirect_uri'), redirectRules(request));
    if (typeof redirect === 'string') return oauthError(invalidRequest(redirect));
    if (params.repeated) return oauthError(invalidRequest(`${params.repeated} is given more than once.`));

    const responseType = params.get('response_type');
    const implicit = responseType === 'token';
    const mode = params.get('response_mode') ?? (implicit ? 'fragment' : 'query');
    const state = params.get('state');
    const back = (values: Record<string, string | undefined>) => redirectTo(redirect, values, mode === 'fragment' ? 'fragment' : 'query');
    const fail = (error: string, description: string) => back({ error, error_description: description, state });
    if (mode !== 'query' && mode !== 'fragment') return fail('invalid_request', `response_mode ${JSON.stringify(mode.slice(0, 50))} is not served: query or fragment.`);
    if (!responseType) return fail('invalid_request', 'response_type is required.');
    if (responseType !== 'code' && !implicit) return fail('unsupported_response_type', `response_type ${JSON.stringify(responseType.slice(0, 50))} is not served: code, or token (implicit).`);
    if (implicit && mode === 'query') return fail('invalid_request', 'response_type token sends the token in the fragment, never in the query.');
    const unserved = grantServed(implicit ? 'implicit' : 'authorization_code');
    if (unserved) return fail(unserved.error, unserved.description);
    const scopes = readScopes(params.get('scope'));
    if (scopes instanceof OAuthError) return fail(scopes.error, scopes.description);
    let challenge: { value: string; method: ChallengeMethod } | undefined;
    const challengeValue = params.get('code_challenge');
    const method = params.get('code_challenge_method') ?? 'plain';
    if (challengeValue !== undefined && !implicit) {
      if (method !== 'S256' && method !== 'plain') return fail('invalid_request', `code_challenge_method ${JSON.stringify(method.slice(0, 50))} is not served: S256 or plain.`);
      if (!isPkceValue(challengeValue)) return fail('invalid_request', 'code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, -, ., _ and ~ (RFC 7636).');
      challenge = { value: challengeValue, method };
    } else if (params.get('code_challenge_method') !== undefined && !implicit) {
      return fail('invalid_request', 'code_challenge_method was sent without a code_challenge.');
    }
    const hint = params.get('login_hint');
    if (hint !== undefined && !/^[^\u0000-\u001f\u007f]{1,200}$/.test(hint)) return fail('invalid_request', 'login_hint must be 1 to 200 characters without control characters.');

    // Signed in: at once for a caller who could read a key anyway, else with a key typed into the form.
    if (!options.keyless(request.local)) {
      const typed = request.method === 'POST' ? params.get('api_key') : undefined;
      if (typed === undefined || !keys.has(typed)) {
        if (params.get('prompt') === 'none') return fail('login_required', 'The mock needs an API key to sign in from here, and prompt=none forbids asking for one.');
        return signInPage(params, redirect, typed !== undefined);
      }
    }
    const grant: Grant = { clientId, subject: hint ?? DEFAULT_SUBJECT, scopes, authTime: seconds(), nonce: params.get('nonce') };
    if (implicit) {
      const issued = await issue(origin, grant, { refresh: false, idToken: false });
      return back({ access_token: issued.accessToken, token_type: 'Bearer', expires_in: String(tokenLifetime), scope: scopes.join(' '), state });
    }
    const code = randomToken();
    tables.codes.set(code, { ...grant, expiresAt: now() + CODE_LIFETIME * 1000, redirectUri: params.get('redirect_uri')!, challenge });
    return back({ code, state });
  };

  // ---- The others ----

  const userinfo = (request: OAuthRequest): Response => {
    const sent = request.header('authorization');
    const token = sent && /^bearer /i.test(sent) ? sent.slice(7).trim() : undefined;
    const challenge = (error?: string, description?: string) => ({ 'WWW-Authenticate': `Bearer realm="${realm.replace(/["\\]/g, '')}"${error ? `, error="${error}", error_description="${description}"` : ''}` });
    if (!token) return oauthError(new OAuthError(401, 'invalid_request', 'Send the access token: Authorization: Bearer <token>.', challenge()));
    const entry = tables.access.get(token);
    if (!entry) return oauthError(new OAuthError(401, 'invalid_token', 'The access token is not one the mock issued.', challenge('invalid_token', 'The access token is not one the mock issued')));
    if (now() >= entry.expiresAt) return oauthError(new OAuthError(401, 'invalid_token', 'The access token expired.', challenge('invalid_token', 'The access token expired')));
    if (!entry.scopes.includes('openid')) return oauthError(new OAuthError(403, 'insufficient_scope', 'userinfo needs a token with the openid scope.', { 'WWW-Authenticate': `Bearer realm="${realm.replace(/["\\]/g, '')}", error="insufficient_scope", scope="openid"` }));
    return json(200, { sub: entry.subject, ...userClaims(entry) });
  };

  const revoke = async (request: OAuthRequest): Promise<Response> => {
    const form = await readForm(request);
    if (form instanceof OAuthError) return oauthError(form);
    const given = form.get('token');
    if (!given) return oauthError(invalidRequest('token is required.'));
    tables.revoke(given); // an unknown token is answered the same (RFC 7009, section 2.2)
    return new Response(null, { status: 200, headers: { ...SECURITY_HEADERS, Pragma: 'no-cache' } });
  };

  const logout = (request: OAuthRequest): Response => {
    const params = formOf(new QueryString(request.url.search.slice(1)));
    const target = params.get('post_logout_redirect_uri');
    if (target === undefined) return page(200, 'Signed out', '<p>You are signed out of the mock. Its tokens stay valid until they expire or are revoked.</p>');
    const redirect = checkRedirectUri(target, redirectRules(request));
    if (typeof redirect === 'string') return oauthError(invalidRequest(redirect.replaceAll('redirect_uri', 'post_logout_redirect_uri')));
    return redirectTo(redirect, { state: params.get('state') }, 'query');
  };

  const metadata = (request: OAuthRequest): Response => {
    const origin = originOf(request);
    const at = (path: string) => `${origin}${path}`;
    const grants = [...declaration.grants];
    return json(200, {
      issuer: issuerFor(origin),
      authorization_endpoint: at(OAUTH_ENDPOINTS.authorize),
      token_endpoint: at(OAUTH_ENDPOINTS.token),
      jwks_uri: at(OAUTH_ENDPOINTS.jwks),
      userinfo_endpoint: at(OAUTH_ENDPOINTS.userinfo),
      revocation_endpoint: at(OAUTH_ENDPOINTS.revoke),
      end_session_endpoint: at(OAUTH_ENDPOINTS.logout),
      scopes_supported: [...declaration.scopes],
      response_types_supported: [...(declaration.grants.has('authorization_code') ? ['code'] : []), ...(declaration.grants.has('implicit') ? ['token'] : [])],
      response_modes_supported: ['query', 'fragment'],
      grant_types_supported: grants,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      code_challenge_methods_supported: ['S256', 'plain'],
      claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'at_hash', 'name', 'preferred_username', 'email', 'email_verified'],
    });
  };

  /** Each endpoint's methods; HEAD only where a GET changes nothing (never on the authorization endpoint, which makes a code). */
  const ROUTES: Record<string, { methods: string[]; answer: (request: OAuthRequest) => Response | Promise<Response> }> = {
    [OAUTH_ENDPOINTS.authorize]: { methods: ['GET', 'POST'], answer: authorize },
    [OAUTH_ENDPOINTS.token]: { methods: ['POST'], answer: token },
    [OAUTH_ENDPOINTS.jwks]: { methods: ['GET', 'HEAD'], answer: async () => json(200, await signer.jwks(), { 'Cache-Control': 'no-cache' }) },
    [OAUTH_ENDPOINTS.userinfo]: { methods: ['GET', 'POST'], answer: userinfo },
    [OAUTH_ENDPOINTS.revoke]: { methods: ['POST'], answer: revoke },
    [OAUTH_ENDPOINTS.logout]: { methods: ['GET'], answer: logout },
    [OAUTH_ENDPOINTS.openIdConfiguration]: { methods: ['GET', 'HEAD'], answer: metadata },
    [OAUTH_ENDPOINTS.serverMetadata]: { methods: ['GET', 'HEAD'], answer: metadata },
  };

  const server: OAuthServer = {
    declaration,
    tokenLifetime,
    verify: (token, scopes): Outcome | undefined => {
      const entry = tables.access.get(token);
      if (!entry) return undefined;
      if (now() >= entry.expiresAt) return 'expired';
      return scopes.every((scope) => entry.scopes.includes(scope)) ? 'ok' : 'insufficient-scope';
    },
    endpointFor(request) {
      const { pathname } = request.url;
      if (pathname.startsWith(`${OAUTH_PATH}/`)) return pathname;
      return declaration.documentPaths.find((p) => p.path === pathname && (p.origin === undefined || p.origin === originOf(request)))?.endpoint;
    },
    async handle(request) {
      const route = ROUTES[server.endpointFor(request) ?? request.url.pathname];
      if (!route) return oauthError(new OAuthError(404, 'not_found', `The mock's authorization server has no ${request.url.pathname.slice(0, 200)}; its endpoints: ${Object.values(OAUTH_ENDPOINTS).join(', ')}.`));
      const method = request.method;
      const allow = [...route.methods, 'OPTIONS'].join(', ');
      if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { ...SECURITY_HEADERS, Allow: allow } });
      if (!route.methods.includes(method)) return oauthError(new OAuthError(405, 'invalid_request', `${request.url.pathname} takes ${route.methods.join(' or ')}.`, { Allow: allow }));
      const response = await route.answer(request);
      return request.method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response;
    },
    takeOver(previous) {
      tables = previous.held.tables;
      signer = previous.held.signer;
    },
    get held() {
      return { tables, signer };
    },
  };
  return server;

  // ---- Reading requests ----

  function readClient(request: OAuthRequest, form: Form): Client | OAuthError {
    const header = request.header('authorization');
    const bodyId = form.get('client_id');
    const bodySecret = form.get('client_secret');
    if (header && /^basic /i.test(header)) {
      if (bodySecret !== undefined) return invalidRequest('The client authenticated twice (Basic and client_secret): RFC 6749 (section 2.3) allows one method.');
      const decoded = fromBase64(header.slice(6).trim());
      const text = decoded ? fromUtf8(decoded) : '';
      const colon = text.indexOf(':');
      if (!decoded || colon < 0) return new OAuthError(401, 'invalid_client', 'The Basic credentials are not base64 of client_id:client_secret.', { 'WWW-Authenticate': `Basic realm="${realm.replace(/["\\]/g, '')}"` });
      // Each part is form-encoded before base64 (RFC 6749, section 2.3.1); a client that did not encode them reads the same.
      const id = decodeQueryComponent(text.slice(0, colon)) ?? text.slice(0, colon);
      const secret = decodeQueryComponent(text.slice(colon + 1)) ?? text.slice(colon + 1);
      if (bodyId !== undefined && bodyId !== id) return invalidRequest('client_id in the body differs from the one in the Basic credentials.');
      return { id, secret, basic: true };
    }
    return { id: bodyId, secret: bodySecret, basic: false };
  }

  function invalidClient(description: string): OAuthError {
    return new OAuthError(401, 'invalid_client', description, { 'WWW-Authenticate': `Basic realm="${realm.replace(/["\\]/g, '')}"` });
  }
}

interface Client {
  id?: string;
  secret?: string;
  /** Sent as Basic credentials (client_secret_basic). */
  basic: boolean;
}

/** Form parameters: each once (RFC 6749, section 3.1), empty values as absent. */
interface Form {
  get(name: string): string | undefined;
  /** The first parameter given more than once, if any. */
  repeated?: string;
}

function formOf(query: QueryString): Form {
  const entries = query.entries();
  let repeated: string | undefined;
  for (const [name, values] of entries) if (values.length > 1 && repeated === undefined) repeated = name;
  return {
    repeated,
    get: (name) => {
      const value = query.first(name);
      return value === '' ? undefined : value;
    },
  };
}

async function readForm(request: OAuthRequest): Promise<Form | OAuthError> {
  const type = (request.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return invalidRequest('Send the parameters as an application/x-www-form-urlencoded body (RFC 6749, section 3.2).');
  const bytes = await request.body(MAX_FORM_BYTES);
  if (!bytes) return invalidRequest(`The body is larger than ${MAX_FORM_BYTES} bytes.`);
  const form = formOf(new QueryString(fromUtf8(bytes)));
  if (form.repeated) return invalidRequest(`${form.repeated} is given more than once.`);
  return form;
}

/** The claims of the profile and email scopes, made up from the subject. */
function userClaims(grant: Pick<Grant, 'subject' | 'scopes'>): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  if (grant.scopes.includes('profile')) Object.assign(claims, { name: grant.subject, preferred_username: grant.subject });
  if (grant.scopes.includes('email')) Object.assign(claims, { email: grant.subject.includes('@') ? grant.subject : `${grant.subject}@example.com`, email_verified: true });
  return claims;
}

// ---- Answers ----

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return respondJson(body, status, { Pragma: 'no-cache', ...headers });
}

function oauthError(error: OAuthError): Response {
  return json(error.status, { error: error.error, error_description: error.description }, error.headers);
}

/** A 302 back to the client, its values in the query or the fragment. */
function redirectTo(target: URL, values: Record<string, string | undefined>, where: 'query' | 'fragment'): Response {
  const url = new URL(target.href);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined) params.set(name, value);
  if (where === 'query') for (const [name, value] of params) url.searchParams.set(name, value);
  else url.hash = params.toString();
  return new Response(null, { status: 302, headers: { ...SECURITY_HEADERS, Location: url.href, 'Referrer-Policy': 'no-referrer' } });
}

function page(status: number, title: string, body: string, formTarget?: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · mock</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}input,button{font:inherit;padding:.4rem}label{display:block;margin:1rem 0 .3rem}.error{color:#b00}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
  const csp = ["default-src 'none'", "style-src 'unsafe-inline'", `form-action 'self'${formTarget ? ` ${formTarget}` : ''}`, "frame-ancestors 'none'", "base-uri 'none'"].join('; ');
  // same-origin, not no-referrer: the sign-in form then posts with the mock's Origin (no-referrer sends `Origin: null`), which a browser without Fetch Metadata is judged by.
  return new Response(html, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'same-origin' } });
}

/** The form a caller who may not be signed in at once fills in with an API key; it posts the request back here. */
function signInPage(params: Form, redirect: URL, wrongKey: boolean): Response {
  const names = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'nonce', 'login_hint', 'response_mode', 'prompt'];
  const hidden = names
    .map((name) => [name, params.get(name)] as const)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value!)}">`)
    .join('\n');
  const body = `<p>The mock has no users. To sign in to ${escapeHtml(redirect.origin)}, give one of its API keys.</p>
${wrongKey ? '<p class="error">That is none of the mock\'s API keys.</p>' : ''}
<form method="post" action="${OAUTH_ENDPOINTS.authorize}">
${hidden}
<label for="api_key">API key</label><input id="api_key" name="api_key" type="password" autocomplete="off" required autofocus>
<button type="submit">Sign in</button>
</form>`;
  return page(wrongKey ? 401 : 200, 'Sign in to the mock', body, redirect.origin);
}

