/**
 * The mock's authorization server on a document secured by OpenID Connect
 * (test/documents/oidc-api.yaml: a provider named by its discovery URL only, scopes per operation):
 * a client that knows only the issuer finds every endpoint through discovery, signs in with
 * authorization code and PKCE, and gets an id token whose signature the published JWKS verifies.
 */
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMock, type Mock } from '../app.js';
import { loadDocument, type LoadedDocument } from '../../openapi/document/load-document.js';
import { ROOT } from '../../test-support/petstore.js';

const KEY = 'orders-key';
const START = Date.parse('2026-05-01T10:00:00Z');
const APP = 'http://localhost:3000/auth/callback';

let document: LoadedDocument;
beforeAll(async () => {
  document = await loadDocument(`${ROOT}test/documents/oidc-api.yaml`);
});

function orders() {
  let clock = START;
  const mock = buildMock(document, { apiKeys: [KEY], now: () => new Date(clock), oauth: { tokenLifetime: 300 } });
  return { mock, advance: (seconds: number) => void (clock += seconds * 1000) };
}

const form = (fields: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
const decode = (jwt: string) => jwt.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));

/** Whether the JWT's signature verifies with a key of the JWKS (as a client library checks it). */
async function verifies(jwt: string, jwks: { keys: Array<Record<string, unknown>> }): Promise<boolean> {
  const [header, payload, signature] = jwt.split('.');
  const jwk = jwks.keys.find((k) => k.kid === decode(jwt)[0].kid);
  if (!jwk) return false;
  const key = await webcrypto.subtle.importKey('jwk', jwk as webcrypto.JsonWebKey, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']);
  return webcrypto.subtle.verify('RSASSA-PKCS1-v1_5', key, Buffer.from(signature, 'base64url'), Buffer.from(`${header}.${payload}`));
}

/** Discovery, then authorization code with PKCE: the tokens, and the endpoints discovery named. */
async function signIn(mock: Mock, scope: string, extra: Record<string, string> = {}) {
  const config = (await (await mock.app.request('/__oauth/.well-known/openid-configuration')).json()) as Record<string, any>;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorizeUrl = new URL(config.authorization_endpoint);
  const params = new URLSearchParams({ response_type: 'code', client_id: 'spa', redirect_uri: APP, scope, state: 'st', nonce: 'n-0S6', code_challenge: challenge, code_challenge_method: 'S256', ...extra });
  const back = await mock.app.request(`${authorizeUrl.pathname}?${params}`);
  const code = new URL(back.headers.get('Location')!).searchParams.get('code')!;
  const token = await mock.app.request(new URL(config.token_endpoint).pathname, form({ grant_type: 'authorization_code', code, redirect_uri: APP, client_id: 'spa', code_verifier: verifier }));
  expect(token.status).toBe(200);
  return { config, tokens: (await token.json()) as Record<string, any> };
}

describe('OpenID Connect', () => {
  it('publishes a discovery document whose issuer and endpoints are the mock, with every grant and the scopes the document uses', async () => {
    const { mock } = orders();
    const response = await mock.app.request('/__oauth/.well-known/openid-configuration', { headers: { Origin: 'http://localhost:3000' } });
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const config = (await response.json()) as Record<string, any>;
    expect(config).toMatchObject({
      issuer: 'http://localhost/__oauth',
      authorization_endpoint: 'http://localhost/__oauth/authorize',
      token_endpoint: 'http://localhost/__oauth/token',
      jwks_uri: 'http://localhost/__oauth/jwks',
      userinfo_endpoint: 'http://localhost/__oauth/userinfo',
      end_session_endpoint: 'http://localhost/__oauth/logout',
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256', 'plain'],
      response_types_supported: ['code', 'token'],
    });
    expect(config.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'orders:read', 'orders:write']));
    expect(config.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials', 'password', 'implicit']));
    // Discovery for an issuer is at <issuer>/.well-known/openid-configuration: the client derives one from the other.
    expect(`${config.issuer}/.well-known/openid-configuration`).toBe('http://localhost/__oauth/.well-known/openid-configuration');
  });

  it('signs in with authorization code and PKCE: an id token signed with the JWKS key, for the client, with the nonce and at_hash', async () => {
    const { mock } = orders();
    const { config, tokens } = await signIn(mock, 'openid profile email orders:read', { login_hint: 'alice@example.com' });
    expect(tokens.refresh_token).toBeDefined();
    const jwks = (await (await mock.app.request(new URL(config.jwks_uri).pathname)).json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0].d).toBeUndefined(); // the public key only
    expect(await verifies(tokens.id_token, jwks)).toBe(true);
    expect(await verifies(tokens.access_token, jwks)).toBe(true);
    const tampered = `${tokens.id_token.slice(0, -4)}AAAA`;
    expect(await verifies(tampered, jwks)).toBe(false);

    const [, claims] = decode(tokens.id_token);
    const seconds = START / 1000;
    expect(claims).toEqual({
      iss: config.issuer,
      sub: 'alice@example.com',
      aud: 'spa',
      iat: seconds,
      exp: seconds + 300,
      auth_time: seconds,
      nonce: 'n-0S6',
      at_hash: createHash('sha256').update(tokens.access_token).digest().subarray(0, 16).toString('base64url'),
      name: 'alice@example.com',
      preferred_username: 'alice@example.com',
      email: 'alice@example.com',
      email_verified: true,
    });
  });

  it('answers userinfo for a token with the openid scope, and the API for its other scopes', async () => {
    const { mock } = orders();
    const { tokens } = await signIn(mock, 'openid email orders:read', { login_hint: 'bob' });
    const auth = { Authorization: `Bearer ${tokens.access_token}` };
    expect(await (await mock.app.request('/__oauth/userinfo', { headers: auth })).json()).toEqual({ sub: 'bob', email: 'bob@example.com', email_verified: true });
    expect((await mock.app.request('/v2/orders', { headers: auth })).status).toBe(200);
    // placeOrder needs orders:write; it declares 403 (without a body).
    const refused = await mock.app.request('/v2/orders', { method: 'POST', body: '{"item":"tea"}', headers: { ...auth, 'Content-Type': 'application/json' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('WWW-Authenticate')).toContain('scope="orders:write"');
    expect(await refused.text()).toBe('');
  });

  it('refuses userinfo without the openid scope (403) and with an expired token (401 invalid_token)', async () => {
    const { mock, advance } = orders();
    const withoutOpenId = await signIn(mock, 'orders:read');
    expect(withoutOpenId.tokens.id_token).toBeUndefined();
    const forbidden = await mock.app.request('/__oauth/userinfo', { headers: { Authorization: `Bearer ${withoutOpenId.tokens.access_token}` } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('WWW-Authenticate')).toContain('error="insufficient_scope"');
    const { tokens } = await signIn(mock, 'openid');
    advance(300);
    const expired = await mock.app.request('/__oauth/userinfo', { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    expect((await mock.app.request('/v2/orders', { headers: { Authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
  });

  it('gives a new id token with a refreshed access token', async () => {
    const { mock } = orders();
    const { tokens } = await signIn(mock, 'openid orders:read');
    const refreshed = (await (await mock.app.request('/__oauth/token', form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'spa' }))).json()) as Record<string, any>;
    expect(decode(refreshed.id_token)[1]).toMatchObject({ sub: 'mock-user', aud: 'spa', nonce: 'n-0S6' });
  });

  it('serves the flows a discovery document would: password (a key as the password) and implicit (the token in the fragment)', async () => {
    const { mock } = orders();
    const password = await mock.app.request('/__oauth/token', form({ grant_type: 'password', username: 'carol', password: KEY, scope: 'openid orders:read', client_id: 'cli' }));
    expect(password.status).toBe(200);
    expect(decode(((await password.json()) as Record<string, string>).id_token)[1].sub).toBe('carol');
    const wrong = await mock.app.request('/__oauth/token', form({ grant_type: 'password', username: 'carol', password: 'guess' }));
    expect(((await wrong.json()) as Record<string, string>).error).toBe('invalid_grant');

    const implicit = await mock.app.request(`/__oauth/authorize?${new URLSearchParams({ response_type: 'token', client_id: 'spa', redirect_uri: APP, scope: 'orders:read', state: 'i' })}`);
    const fragment = new URLSearchParams(new URL(implicit.headers.get('Location')!).hash.slice(1));
    expect(Object.fromEntries(fragment)).toMatchObject({ token_type: 'Bearer', expires_in: '300', scope: 'orders:read', state: 'i' });
    expect((await mock.app.request('/v2/orders', { headers: { Authorization: `Bearer ${fragment.get('access_token')}` } })).status).toBe(200);
    // A token never travels in the query.
    const query = await mock.app.request(`/__oauth/authorize?${new URLSearchParams({ response_type: 'token', response_mode: 'query', client_id: 'spa', redirect_uri: APP })}`);
    expect(new URL(query.headers.get('Location')!).searchParams.get('access_token')).toBeNull();
  });
});
