/**
 * What the authorization server has handed out and still honours: access tokens, refresh tokens and
 * authorization codes, each with its grant and its expiry on the mock's clock. Held in memory and
 * bounded (the oldest go first when a table is full), so a client asking for tokens in a loop
 * cannot grow the mock without limit; nothing here survives a restart.
 */

/** What a token or a code stands for. */
export interface Grant {
  clientId: string;
  /** Who it is for: the `login_hint`, the password grant's username, the client itself for client credentials. */
  subject: string;
  scopes: string[];
  /** When the user "signed in" (seconds since the epoch): the id token's `auth_time`. */
  authTime: number;
  /** OpenID Connect's `nonce`, from the authorization request. */
  nonce?: string;
}

export interface AccessEntry extends Grant {
  expiresAt: number;
  /** The refresh token issued with it, if any (revoking one revokes the other). */
  refreshToken?: string;
}

export interface RefreshEntry extends Grant {
  expiresAt: number;
}

export interface CodeEntry extends Grant {
  expiresAt: number;
  redirectUri: string;
  challenge?: { value: string; method: 'S256' | 'plain' };
  /** Set once the code was exchanged: a second use revokes what the first was given (RFC 6749, section 4.1.2). */
  exchanged?: { accessToken: string; refreshToken?: string };
}

/** A map that forgets its oldest entries past `max`. */
export class BoundedMap<V> {
  private readonly entries = new Map<string, V>();
  constructor(readonly max: number) {}

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  delete(key: string): boolean {
    return this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

export interface TokenLimits {
  accessTokens: number;
  refreshTokens: number;
  codes: number;
}

export const DEFAULT_TOKEN_LIMITS: TokenLimits = { accessTokens: 10_000, refreshTokens: 10_000, codes: 1_000 };

/** The three tables. */
export class TokenTables {
  readonly access: BoundedMap<AccessEntry>;
  readonly refresh: BoundedMap<RefreshEntry>;
  readonly codes: BoundedMap<CodeEntry>;

  constructor(limits: TokenLimits = DEFAULT_TOKEN_LIMITS) {
    this.access = new BoundedMap(limits.accessTokens);
    this.refresh = new BoundedMap(limits.refreshTokens);
    this.codes = new BoundedMap(limits.codes);
  }

  /** Forgets a token, access or refresh, and the other one issued with it. */
  revoke(token: string): void {
    const access = this.access.get(token);
    if (access) {
      this.access.delete(token);
      if (access.refreshToken) this.refresh.delete(access.refreshToken);
      return;
    }
    this.refresh.delete(token);
  }
}
