/**
 * The authorization server's parts on their own: what a document declares, the redirect_uri rule,
 * PKCE, the bounded token tables and the JWT signer.
 */
import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DocumentObject } from '../../openapi/document/objects.js';
import { buildOperations } from '../../openapi/operations/build-operations.js';
import { base64Url, randomToken, rsaSigner } from './crypto.js';
import { oauthDeclaration } from './oauth-document.js';
import { isPkceValue, verifierMatches } from './pkce.js';
import { checkRedirectUri, isLoopbackHost } from './redirect-uri.js';
import { BoundedMap, TokenTables } from './tokens.js';

const api = (securitySchemes: Record<string, unknown>, security: unknown[] = []): DocumentObject =>
  ({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    security,
    paths: { '/x': { get: { responses: { 200: { description: 'ok' } } } }, '/y': { get: { security: [{ other: ['extra:scope'] }], responses: { 200: { description: 'ok' } } } } },
    components: { securitySchemes },
  }) as unknown as DocumentObject;

describe('oauthDeclaration', () => {
  it('reads the flows as grants, and the scopes of the flows and of the requirements', () => {
    const doc = api({ a: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://idp/token', scopes: { read: 'r' } } } }, other: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://idp/auth', scopes: {} } } }, key: { type: 'apiKey', in: 'header', name: 'k' } }, [{ a: ['read', 'required:only'] }]);
    const declared = oauthDeclaration(doc, buildOperations(doc))!;
    expect([...declared.grants].sort()).toEqual(['client_credentials', 'implicit']);
    expect([...declared.scopes].sort()).toEqual(['extra:scope', 'read', 'required:only']);
    expect(declared.openId).toBe(false);
    expect(declared.schemes).toEqual([
      { name: 'a', type: 'oauth2', urls: ['https://idp/token'] },
      { name: 'other', type: 'oauth2', urls: ['https://idp/auth'] },
    ]);
  });

  it('serves every grant and the OpenID Connect scopes once an openIdConnect scheme is declared, and nothing without such schemes', () => {
    const doc = api({ oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://idp/.well-known/openid-configuration' } });
    const declared = oauthDeclaration(doc, buildOperations(doc))!;
    expect(declared.openId).toBe(true);
    expect(declared.grants.size).toBe(5);
    expect(declared.scopes.has('openid')).toBe(true);
    const keysOnly = api({ key: { type: 'apiKey', in: 'header', name: 'k' }, bearer: { type: 'http', scheme: 'bearer' } });
    expect(oauthDeclaration(keysOnly, buildOperations(keysOnly))).toBeUndefined();
  });
});

describe('checkRedirectUri', () => {
  const MOCK = 'http://10.0.0.5:4010';
  const rules = (allowedOrigins: string[], ownCallbacks = ['/__docs/oauth2-redirect.html']) => ({ mockOrigin: MOCK, ownCallbacks, allowedOrigins });
  it('takes loopback origins on any other port, the mock own callback and the allowed origins', () => {
    for (const uri of ['http://localhost:5173/cb', 'http://127.0.0.1/cb', 'http://127.1.2.3:9/cb', 'http://[::1]:3000/', 'https://dev.localhost/cb', `${MOCK}/__docs/oauth2-redirect.html`, 'http://127.0.0.1:4010/__docs/oauth2-redirect.html?a=1', 'https://app.example.com/x?y=1']) {
      expect(checkRedirectUri(uri, rules(['https://app.example.com/'])), uri).toBeInstanceOf(URL);
    }
  });

  it('refuses the mock itself anywhere but its own callbacks: its origin, and its port on a loopback name, its own name or the other scheme, whatever is allowed', () => {
    for (const uri of [`${MOCK}/pets`, `${MOCK}/__docs`, 'http://localhost:4010/pets', 'http://127.0.0.1:4010/', 'http://[::1]:4010/x', 'https://10.0.0.5:4010/pets', 'http://a.localhost:4010/', `${MOCK}/__docs/oauth2-redirect.html/..%2F..%2Fpets`]) {
      expect(checkRedirectUri(uri, rules([MOCK, 'http://localhost:4010'])), uri).toMatch(/is the mock itself/);
    }
    expect(checkRedirectUri(`${MOCK}/__docs/oauth2-redirect.html`, rules([], []))).toMatch(/docs page is off/);
    // Another port of the same machine is another server.
    expect(checkRedirectUri('http://10.0.0.5:4011/cb', rules(['http://10.0.0.5:4011']))).toBeInstanceOf(URL);
  });

  it('refuses other origins, other schemes, fragments, credentials and relative URLs, saying why', () => {
    const refusals: Array<[string | undefined, RegExp]> = [
      [undefined, /required/],
      ['/cb', /not an absolute URL/],
      ['ftp://localhost/cb', /not an http\(s\) URL/],
      ['http://localhost/cb#frag', /fragment/],
      ['http://localhost/cb#', /fragment/],
      ['http://a:b@localhost/cb', /credentials/],
      ['http://localhost.evil.example/cb', /--oauth-redirect-origin http:\/\/localhost\.evil\.example/],
      ['http://10.0.0.5:4011/cb', /not on this machine/],
      ['https://app.example.com.evil/cb', /not on this machine/],
    ];
    for (const [uri, reason] of refusals) expect(checkRedirectUri(uri, rules(['https://app.example.com'])), String(uri)).toMatch(reason);
  });

  it('knows loopback names', () => {
    expect(['localhost', 'LOCALHOST', 'a.localhost', '127.0.0.1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['localhost.example', '128.0.0.1', '0.0.0.0', '[::2]'].some(isLoopbackHost)).toBe(false);
  });
});

describe('PKCE', () => {
  it('matches an S256 challenge with its verifier (RFC 7636, appendix B) and a plain one with itself', async () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(await verifierMatches({ value: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', method: 'S256' }, verifier)).toBe(true);
    expect(await verifierMatches({ value: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cN', method: 'S256' }, verifier)).toBe(false);
    expect(await verifierMatches({ value: verifier, method: 'plain' }, verifier)).toBe(true);
    expect(await verifierMatches({ value: 'short', method: 'plain' }, 'short')).toBe(false); // too short to be a verifier
    expect(isPkceValue('a'.repeat(43)) && isPkceValue('a'.repeat(128)) && !isPkceValue('a'.repeat(129)) && !isPkceValue(`${'a'.repeat(42)}+`)).toBe(true);
  });
});

describe('the token tables', () => {
  it('forget their oldest entries past their bound', () => {
    const map = new BoundedMap<number>(3);
    for (let i = 1; i <= 5; i++) map.set(`t${i}`, i);
    expect(map.size).toBe(3);
    expect([map.get('t1'), map.get('t2'), map.get('t3'), map.get('t5')]).toEqual([undefined, undefined, 3, 5]);
  });

  it('revoke an access token with the refresh token issued with it', () => {
    const tables = new TokenTables();
    const grant = { clientId: 'c', subject: 's', scopes: [], authTime: 0, expiresAt: 1 };
    tables.access.set('a', { ...grant, refreshToken: 'r' });
    tables.refresh.set('r', grant);
    tables.revoke('a');
    expect([tables.access.get('a'), tables.refresh.get('r')]).toEqual([undefined, undefined]);
  });
});

describe('crypto', () => {
  it('makes distinct url-safe tokens of 256 bits', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => randomToken()));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(base64Url(new Uint8Array([251, 255]))).toBe('-_8');
  });

  it('signs RS256 JWTs that its JWKS verifies', async () => {
    const signer = rsaSigner();
    const jwt = await signer.sign({ sub: 'x' });
    const [header, payload, signature] = jwt.split('.');
    const { keys } = await signer.jwks();
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT', kid: keys[0].kid });
    const key = await webcrypto.subtle.importKey('jwk', keys[0] as webcrypto.JsonWebKey, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']);
    expect(await webcrypto.subtle.verify('RSASSA-PKCS1-v1_5', key, Buffer.from(signature, 'base64url'), Buffer.from(`${header}.${payload}`))).toBe(true);
  });
});
