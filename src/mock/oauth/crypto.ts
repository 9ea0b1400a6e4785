/**
 * The little cryptography the authorization server needs, with Web Crypto (`globalThis.crypto`:
 * Node 20 and every browser in a secure context), never node:crypto, so the mock's core still runs
 * in a page: unguessable tokens, SHA-256 (PKCE's S256, the id token's at_hash), and RS256
 * signatures for JWTs with the public key published as a JWKS.
 */
import { toBase64, utf8 } from '../../core/bytes.js';

/** base64url without padding (RFC 7515, section 2). */
export function base64Url(data: string | Uint8Array): string {
  return toBase64(data).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unguessable string: `bytes` random bytes (32: 256 bits), base64url. */
export function randomToken(bytes = 32): string {
  return base64Url(globalThis.crypto.getRandomValues(new Uint8Array(bytes)));
}

/** Whether this runtime can sign and hash (Web Crypto's `subtle`: absent in a browser page that is not a secure context). */
export function hasWebCrypto(): boolean {
  return typeof globalThis.crypto?.subtle?.digest === 'function' && typeof globalThis.crypto.getRandomValues === 'function';
}

export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', utf8(text) as Uint8Array<ArrayBuffer>));
}

/** A public key as a JWK, as a JWKS lists it. */
export interface PublicJwk {
  kty: string;
  n?: string;
  e?: string;
  kid: string;
  alg: 'RS256';
  use: 'sig';
}

/** Signs JWTs with one RSA key made on first use (2048 bits, RS256: the algorithm every OpenID Connect client must accept). */
export interface JwtSigner {
  sign(claims: Record<string, unknown>, type?: string): Promise<string>;
  /** The public key, for /__oauth/jwks. */
  jwks(): Promise<{ keys: PublicJwk[] }>;
}

/** Web Crypto's key type, named through the global (the program has no DOM library, and the core imports no node:* module). */
type SigningKey = Parameters<typeof globalThis.crypto.subtle.sign>[1];

const RS256 = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };

/** @example const token = await rsaSigner().sign({ sub: 'alice' }) // header.payload.signature */
export function rsaSigner(): JwtSigner {
  let made: Promise<{ privateKey: SigningKey; jwk: PublicJwk }> | undefined;
  const key = () =>
    (made ??= (async () => {
      // The private key cannot be exported: only the public one leaves this object.
      const pair = (await globalThis.crypto.subtle.generateKey(RS256, false, ['sign', 'verify'])) as { privateKey: SigningKey; publicKey: SigningKey };
      const exported = await globalThis.crypto.subtle.exportKey('jwk', pair.publicKey);
      return { privateKey: pair.privateKey, jwk: { kty: String(exported.kty), n: exported.n, e: exported.e, kid: randomToken(12), alg: 'RS256', use: 'sig' } };
    })());
  return {
    async sign(claims, type = 'JWT') {
      const { privateKey, jwk } = await key();
      const input = `${base64Url(JSON.stringify({ alg: 'RS256', typ: type, kid: jwk.kid }))}.${base64Url(JSON.stringify(claims))}`;
      const signature = await globalThis.crypto.subtle.sign(RS256.name, privateKey, utf8(input) as Uint8Array<ArrayBuffer>);
      return `${input}.${base64Url(new Uint8Array(signature))}`;
    },
    async jwks() {
      return { keys: [(await key()).jwk] };
    },
  };
}
