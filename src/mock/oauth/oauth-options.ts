/**
 * What the mock's authorization server is given and what its endpoints read of a request, and
 * the lifetimes and bounds it keeps (./oauth-server.ts).
 */
import type { OAuthDeclaration } from './oauth-document.js';
import type { TokenLimits } from './tokens.js';

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
