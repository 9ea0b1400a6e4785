/**
 * Where the mock's own authorization server answers: under `/__oauth`, at the root of its origin
 * (whatever the document's base path), like `/__admin`, `/__spec` and `/__docs`. The issuer is
 * `<origin>/__oauth`, so OpenID Connect discovery is at `<issuer>/.well-known/openid-configuration`
 * (OpenID Connect Discovery 1.0, section 4). Constants only: the docs page's script reads them too.
 */
export const OAUTH_PATH = '/__oauth';

export const OAUTH_ENDPOINTS = {
  authorize: `${OAUTH_PATH}/authorize`,
  token: `${OAUTH_PATH}/token`,
  jwks: `${OAUTH_PATH}/jwks`,
  userinfo: `${OAUTH_PATH}/userinfo`,
  revoke: `${OAUTH_PATH}/revoke`,
  logout: `${OAUTH_PATH}/logout`,
  /** OpenID Connect Discovery 1.0 for the issuer `<origin>/__oauth`. */
  openIdConfiguration: `${OAUTH_PATH}/.well-known/openid-configuration`,
  /** The same metadata, as RFC 8414 names it. */
  serverMetadata: `${OAUTH_PATH}/.well-known/oauth-authorization-server`,
} as const;

/**
 * The endpoints a browser navigates to, which no page may call: their answers and redirects carry
 * no CORS grant, and their preflights are refused (the authorization endpoint, whose redirect
 * carries the code).
 */
export const NAVIGATION_ENDPOINTS: readonly string[] = [OAUTH_ENDPOINTS.authorize];

/** The issuer of the mock's tokens for an origin: `http://127.0.0.1:4010/__oauth`. */
export const issuerFor = (origin: string): string => `${origin}${OAUTH_PATH}`;
