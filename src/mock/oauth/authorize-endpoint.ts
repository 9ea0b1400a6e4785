/**
 * The authorization endpoint (RFC 6749, sections 4.1 and 4.2): a code (with PKCE) or, implicit,
 * a token, sent back to a `redirect_uri` on this machine or allowed; answered to a top-level
 * navigation only, and signing in at once only a caller who could read a key anyway.
 */
import { invalidRequest, OAuthError, oauthError, redirectTo } from './oauth-answers.js';
import type { OAuthCore } from './oauth-core.js';
import { formOf, readForm, type Form } from './oauth-form.js';
import { CODE_LIFETIME, DEFAULT_SUBJECT, type OAuthRequest } from './oauth-options.js';
import { notANavigation } from './navigation-only.js';
import { isPkceValue, type ChallengeMethod } from './pkce.js';
import { checkRedirectUri } from './redirect-uri.js';
import { randomToken } from './crypto.js';
import { signInPage } from './sign-in-page.js';
import type { Grant } from './tokens.js';
import { QueryString } from '../../core/query-string.js';

/** @example const authorize = authorizeEndpoint(core); await authorize(request) // 302 to the redirect_uri with a code */
export function authorizeEndpoint(core: OAuthCore): (request: OAuthRequest) => Promise<Response> {
  const { options, keys, now, seconds, tokenLifetime, originOf, redirectRules, readScopes, grantServed, issue } = core;
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
    core.tables.codes.set(code, { ...grant, expiresAt: now() + CODE_LIFETIME * 1000, redirectUri: params.get('redirect_uri')!, challenge });
    return back({ code, state });
  };

  return authorize;
}
