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
 * (src/mock/assembly/own-endpoints.ts), and nothing here names Hono or Node.
 *
 * Each endpoint is a factory over one shared core (./oauth-core.ts): ./authorize-endpoint.ts,
 * ./token-endpoint.ts, ./session-endpoints.ts (userinfo, revocation, logout, metadata).
 */
import type { Outcome, TokenVerifier } from '../security/authenticate.js';
import { authorizeEndpoint } from './authorize-endpoint.js';
import type { JwtSigner } from './crypto.js';
import { json, OAuthError, oauthError } from './oauth-answers.js';
import { createOAuthCore } from './oauth-core.js';
import type { OAuthDeclaration } from './oauth-document.js';
import type { OAuthRequest, OAuthServerOptions } from './oauth-options.js';
import { OAUTH_ENDPOINTS, OAUTH_PATH } from './oauth-paths.js';
import { sessionEndpoints } from './session-endpoints.js';
import { tokenEndpoint } from './token-endpoint.js';
import type { TokenTables } from './tokens.js';
import { SECURITY_HEADERS } from '../../core/security-headers.js';

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

/** @example const oauth = createOAuthServer({ declaration, apiKeys: ['k'], now: Date.now, keyless: () => true, realm: 'Pets' }) */
export function createOAuthServer(options: OAuthServerOptions): OAuthServer {
  const core = createOAuthCore(options);
  const { declaration, now, tokenLifetime, originOf } = core;
  const authorize = authorizeEndpoint(core);
  const token = tokenEndpoint(core);
  const { userinfo, revoke, logout, metadata } = sessionEndpoints(core);

  /** Each endpoint's methods; HEAD only where a GET changes nothing (never on the authorization endpoint, which makes a code). */
  const ROUTES: Record<string, { methods: string[]; answer: (request: OAuthRequest) => Response | Promise<Response> }> = {
    [OAUTH_ENDPOINTS.authorize]: { methods: ['GET', 'POST'], answer: authorize },
    [OAUTH_ENDPOINTS.token]: { methods: ['POST'], answer: token },
    [OAUTH_ENDPOINTS.jwks]: { methods: ['GET', 'HEAD'], answer: async () => json(200, await core.signer.jwks(), { 'Cache-Control': 'no-cache' }) },
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
      const entry = core.tables.access.get(token);
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
      core.tables = previous.held.tables;
      core.signer = previous.held.signer;
    },
    get held() {
      return { tables: core.tables, signer: core.signer };
    },
  };
  return server;
}
