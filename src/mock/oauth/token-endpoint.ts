/**
 * The token endpoint (RFC 6749, section 3.2): authorization_code (with PKCE), refresh_token
 * (rotated on each use), client_credentials and password, each only where the document declares its flow.
 */
import { invalidGrant, invalidRequest, OAuthError, oauthError } from './oauth-answers.js';
import type { OAuthCore } from './oauth-core.js';
import type { GrantType } from './oauth-document.js';
import { invalidClient, readClient, readForm, type Client, type Form } from './oauth-form.js';
import { CODE_LIFETIME, type OAuthRequest } from './oauth-options.js';
import { verifierMatches } from './pkce.js';
import type { Grant } from './tokens.js';

/** @example const token = tokenEndpoint(core); await token(request) // 200 {access_token, token_type: 'Bearer', ...} */
export function tokenEndpoint(core: OAuthCore): (request: OAuthRequest) => Promise<Response> {
  const { declaration, keys, now, seconds, originOf, readScopes, grantServed, issue, tokenResponse, realm } = core;
  const token = async (request: OAuthRequest): Promise<Response> => {
    const form = await readForm(request);
    if (form instanceof OAuthError) return oauthError(form);
    const client = readClient(request, form, realm);
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
    if (client.secret === undefined) return invalidClient('client_credentials needs client authentication: a client_secret (Basic, or in the body) that is one of the mock\'s API keys.', realm);
    if (!keys.has(client.secret)) return invalidClient("The client secret is none of the mock's API keys.", realm);
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
    const entry = core.tables.codes.get(code);
    if (!entry) return invalidGrant('The code is unknown: it was never issued, or the mock restarted.');
    if (now() >= entry.expiresAt) {
      core.tables.codes.delete(code);
      return invalidGrant(`The code expired: a code lasts ${CODE_LIFETIME} s.`);
    }
    if (entry.exchanged) {
      // A code used twice was stolen, or replayed: what it gave the first time is revoked (RFC 6749, section 4.1.2).
      core.tables.revoke(entry.exchanged.accessToken);
      if (entry.exchanged.refreshToken) core.tables.revoke(entry.exchanged.refreshToken);
      core.tables.codes.delete(code);
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
    const entry = core.tables.refresh.get(given);
    if (!entry) return invalidGrant('The refresh token is unknown: it was used already (each use gives a new one), revoked, or the mock restarted.');
    if (now() >= entry.expiresAt) {
      core.tables.refresh.delete(given);
      return invalidGrant('The refresh token expired.');
    }
    if (client.id !== undefined && client.id !== entry.clientId) return invalidGrant('The refresh token was issued to another client_id.');
    const scopes = readScopes(form.get('scope'), entry.scopes);
    if (scopes instanceof OAuthError) return scopes;
    core.tables.refresh.delete(given); // rotated: a refresh token serves once
    return tokenResponse(await issue(origin, { ...entry, scopes }, { refresh: true, idToken: true }), scopes);
  };

  return token;
}
