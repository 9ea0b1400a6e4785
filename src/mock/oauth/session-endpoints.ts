/**
 * The endpoints around a session: OpenID Connect's userinfo, revocation (RFC 7009), a logout that
 * sends the browser back, and the server's metadata (OpenID Connect discovery, RFC 8414).
 */
import { SECURITY_HEADERS } from '../../core/security-headers.js';
import { QueryString } from '../../core/query-string.js';
import { invalidRequest, json, OAuthError, oauthError, redirectTo } from './oauth-answers.js';
import { userClaims, type OAuthCore } from './oauth-core.js';
import { formOf, readForm } from './oauth-form.js';
import type { OAuthRequest } from './oauth-options.js';
import { OAUTH_ENDPOINTS, issuerFor } from './oauth-paths.js';
import { checkRedirectUri } from './redirect-uri.js';
import { page } from './sign-in-page.js';

type Endpoint = (request: OAuthRequest) => Response | Promise<Response>;

/** The answers of userinfo, revoke, logout and the metadata, over one core. */
export function sessionEndpoints(core: OAuthCore): { userinfo: Endpoint; revoke: Endpoint; logout: Endpoint; metadata: Endpoint } {
  const { declaration, now, realm, originOf, redirectRules } = core;
  const userinfo = (request: OAuthRequest): Response => {
    const sent = request.header('authorization');
    const token = sent && /^bearer /i.test(sent) ? sent.slice(7).trim() : undefined;
    const challenge = (error?: string, description?: string) => ({ 'WWW-Authenticate': `Bearer realm="${realm.replace(/["\\]/g, '')}"${error ? `, error="${error}", error_description="${description}"` : ''}` });
    if (!token) return oauthError(new OAuthError(401, 'invalid_request', 'Send the access token: Authorization: Bearer <token>.', challenge()));
    const entry = core.tables.access.get(token);
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
    core.tables.revoke(given); // an unknown token is answered the same (RFC 7009, section 2.2)
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

  return { userinfo, revoke, logout, metadata };
}
