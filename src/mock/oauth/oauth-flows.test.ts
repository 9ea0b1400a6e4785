/**
 * The mock's authorization server on a document secured by OAuth 2.0 only
 * (test/documents/oauth-api.yaml: authorization code and client credentials flows, read and write
 * scopes, RFC 9457 problem details), in process: each flow a front end or a service runs, the
 * tokens it gets accepted by the operations (their scopes checked), refused once expired or
 * revoked, and each error of RFC 6749 with its status and `Cache-Control: no-store`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMock, type BuildMockOptions, type Mock } from '../app.js';
import { loadDocument, type LoadedDocument } from '../../openapi/document/load-document.js';
import { carryState } from '../reload.js';
import type { DocsAssets } from '../docs/docs-endpoint.js';
import { ROOT } from '../../test-support/petstore.js';
import { CODE_LIFETIME, DEFAULT_SUBJECT } from './oauth-options.js';

const KEY = 'boards-key-1';
/** The docs page's assets, enough for its OAuth callback page. */
const DOCS: DocsAssets = { get: (name) => ({ body: new TextEncoder().encode(name === 'oauth2-redirect.html' ? '<!doctype html><script src="oauth2-redirect.js"></script>' : 'run()') }) };
const START = Date.parse('2026-05-01T10:00:00Z');
const APP = 'http://localhost:5173/callback';

let document: LoadedDocument;
beforeAll(async () => {
  document = await loadDocument(`${ROOT}test/documents/oauth-api.yaml`);
});

/** A mock on the document with a clock the test moves. */
function boards(options: BuildMockOptions = {}) {
  let clock = START;
  const mock = buildMock(document, { apiKeys: [KEY], now: () => new Date(clock), ...options });
  return { mock, app: mock.app, advance: (seconds: number) => void (clock += seconds * 1000) };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function post(mock: Mock, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return mock.app.request(path, { method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers } });
}

/** A token response, checked for what RFC 6749 (section 5.1) asks of every one. */
async function tokenOf(response: Response): Promise<{ access_token: string; token_type: string; expires_in: number; scope: string; refresh_token?: string }> {
  const body = (await response.json()) as any;
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(response.headers.get('Cache-Control')).toBe('no-store');
  expect(response.headers.get('Pragma')).toBe('no-cache');
  expect(body.token_type).toBe('Bearer');
  return body;
}

/** An error response of RFC 6749 (section 5.2). */
async function expectOAuthError(response: Response, status: number, error: string): Promise<string> {
  const body = (await response.json()) as any;
  expect({ status: response.status, error: body.error }, body.error_description).toEqual({ status, error });
  expect(response.headers.get('Cache-Control')).toBe('no-store');
  expect(typeof body.error_description).toBe('string');
  return body.error_description;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const listBoards = (mock: Mock, token: string) => mock.app.request('/api/boards', { headers: bearer(token) });
const createBoard = (mock: Mock, token: string) => mock.app.request('/api/boards', { method: 'POST', body: JSON.stringify({ name: 'Roadmap' }), headers: { ...bearer(token), 'Content-Type': 'application/json' } });

/** A PKCE pair as a client makes it (RFC 7636, appendix B). */
function pkce() {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Runs the authorization endpoint; the values it sends back to the redirect_uri. */
async function authorize(mock: Mock, params: Record<string, string>, target = 'http://localhost') {
  const response = await mock.app.request(`${target}/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: APP, state: 's-1', ...params })}`);
  expect(response.status, await response.clone().text()).toBe(302);
  const location = new URL(response.headers.get('Location')!);
  return { location, query: Object.fromEntries(location.searchParams), fragment: Object.fromEntries(new URLSearchParams(location.hash.slice(1))) };
}

describe('client credentials', () => {
  it('gives a client that authenticates with an API key as its secret a token the operations accept, every declared scope by default', async () => {
    const { mock } = boards();
    const token = await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: basic('reporting-service', KEY) }));
    expect(token.expires_in).toBe(3600);
    expect(token.scope.split(' ').sort()).toEqual(['boards:read', 'boards:write']);
    expect(token.refresh_token).toBeUndefined(); // RFC 6749, section 4.4.3
    expect((await listBoards(mock, token.access_token)).status).toBe(200);
    expect((await createBoard(mock, token.access_token)).status).toBe(201);
    // A JWT (RFC 9068) whose claims say whose it is and until when.
    const [header, claims] = token.access_token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(claims).toMatchObject({ iss: 'http://localhost/__oauth', sub: 'reporting-service', client_id: 'reporting-service', iat: START / 1000, exp: START / 1000 + 3600 });
  });

  it('takes the secret in the body too (client_secret_post), and form-encoded Basic credentials', async () => {
    const { mock } = boards({ apiKeys: ['key with:colon'] });
    await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'client_credentials', client_id: 'svc', client_secret: 'key with:colon' }));
    const encoded = `Basic ${Buffer.from(`svc:${encodeURIComponent('key with:colon')}`).toString('base64')}`;
    await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: encoded }));
  });

  it('refuses a client without a secret, or with one that is no API key: 401 invalid_client with a Basic challenge', async () => {
    const { mock } = boards();
    const wrong = await post(mock, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: basic('svc', 'guess') });
    await expectOAuthError(wrong.clone(), 401, 'invalid_client');
    expect(wrong.headers.get('WWW-Authenticate')).toBe('Basic realm="Boards"');
    await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'client_credentials', client_id: 'svc' }), 401, 'invalid_client');
    // Two ways of authenticating at once (RFC 6749, section 2.3).
    await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'client_credentials', client_secret: KEY }, { Authorization: basic('svc', KEY) }), 400, 'invalid_request');
  });

  it('grants the scopes asked for, refuses one the document does not declare (invalid_scope), and the operations check them', async () => {
    const { mock } = boards();
    const reader = await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'client_credentials', scope: 'boards:read' }, { Authorization: basic('svc', KEY) }));
    expect(reader.scope).toBe('boards:read');
    expect((await listBoards(mock, reader.access_token)).status).toBe(200);
    // createBoard needs boards:write and declares 401 but no 403: a 401 whose challenge says insufficient_scope (RFC 6750, section 3.1).
    const refused = await createBoard(mock, reader.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('WWW-Authenticate')).toBe('Bearer realm="Boards", error="insufficient_scope", error_description="The access token lacks a scope this operation needs", scope="boards:read boards:write"');
    expect(mock.store.counts().boards).toBe(20); // nothing created

    const writer = await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'client_credentials', scope: 'boards:write' }, { Authorization: basic('svc', KEY) }));
    // listBoards declares 403: the document's problem details, status 403.
    const forbidden = await listBoards(mock, writer.access_token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('Content-Type')).toBe('application/problem+json');
    expect(forbidden.headers.get('WWW-Authenticate')).toContain('error="insufficient_scope"');
    expect(await forbidden.json()).toMatchObject({ status: 403 });

    const description = await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'client_credentials', scope: 'boards:read admin' }, { Authorization: basic('svc', KEY) }), 400, 'invalid_scope');
    expect(description).toContain('admin');
  });
});

describe('authorization code with PKCE', () => {
  it('sends the browser back at once with a code and the state, and the code with its S256 verifier gets an access and a refresh token', async () => {
    const { mock } = boards();
    const { verifier, challenge } = pkce();
    const back = await authorize(mock, { scope: 'boards:read boards:write', code_challenge: challenge, code_challenge_method: 'S256' });
    expect(`${back.location.origin}${back.location.pathname}`).toBe(APP);
    expect(back.query.state).toBe('s-1');
    expect(back.query.code).toMatch(/^[\w-]{43}$/);
    const token = await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'authorization_code', code: back.query.code, redirect_uri: APP, client_id: 'web', code_verifier: verifier }));
    expect(token.refresh_token).toMatch(/^[\w-]{43}$/);
    expect(token.scope).toBe('boards:read boards:write');
    expect((await createBoard(mock, token.access_token)).status).toBe(201);
    const claims = JSON.parse(Buffer.from(token.access_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: DEFAULT_SUBJECT, client_id: 'web' });
  });

  it('refuses a wrong verifier, a missing one, and one sent for a code asked for without a challenge (invalid_grant)', async () => {
    const { mock } = boards();
    const { challenge } = pkce();
    const exchange = (code: string, extra: Record<string, string>) => post(mock, '/__oauth/token', { grant_type: 'authorization_code', code, redirect_uri: APP, client_id: 'web', ...extra });
    let { query } = await authorize(mock, { code_challenge: challenge, code_challenge_method: 'S256' });
    expect(await expectOAuthError(await exchange(query.code, { code_verifier: pkce().verifier }), 400, 'invalid_grant')).toMatch(/does not match/);
    ({ query } = await authorize(mock, { code_challenge: challenge, code_challenge_method: 'S256' }));
    expect(await expectOAuthError(await exchange(query.code, {}), 400, 'invalid_grant')).toMatch(/code_verifier is required/);
    ({ query } = await authorize(mock, {}));
    await expectOAuthError(await exchange(query.code, { code_verifier: pkce().verifier }), 400, 'invalid_grant'); // no downgrade
  });

  it('takes the plain method, where the challenge is the verifier', async () => {
    const { mock } = boards();
    const { verifier } = pkce();
    const { query } = await authorize(mock, { code_challenge: verifier }); // plain is the default method (RFC 7636, section 4.3)
    await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'authorization_code', code: query.code, redirect_uri: APP, client_id: 'web', code_verifier: verifier }));
  });

  it('binds a code to its client and redirect_uri, serves it once, and revokes what it gave when it comes back', async () => {
    const { mock } = boards();
    const { query } = await authorize(mock, {});
    const exchange = (extra: Record<string, string>) => post(mock, '/__oauth/token', { grant_type: 'authorization_code', code: query.code, redirect_uri: APP, client_id: 'web', ...extra });
    await expectOAuthError(await exchange({ client_id: 'other' }), 400, 'invalid_grant');
    await expectOAuthError(await exchange({ redirect_uri: 'http://localhost:5173/elsewhere' }), 400, 'invalid_grant');
    const token = await tokenOf(await exchange({}));
    expect((await listBoards(mock, token.access_token)).status).toBe(200);
    expect(await expectOAuthError(await exchange({}), 400, 'invalid_grant')).toMatch(/already used/);
    expect((await listBoards(mock, token.access_token)).status).toBe(401);
    await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'refresh_token', refresh_token: token.refresh_token! }), 400, 'invalid_grant');
  });

  it(`lets a code expire after ${CODE_LIFETIME} s`, async () => {
    const { mock, advance } = boards();
    const { query } = await authorize(mock, {});
    advance(CODE_LIFETIME);
    expect(await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'authorization_code', code: query.code, redirect_uri: APP, client_id: 'web' }), 400, 'invalid_grant')).toMatch(/expired/);
  });

  it('names the user from login_hint, and sends errors after the redirect_uri is known back to it, with the state', async () => {
    const { mock } = boards();
    const { query } = await authorize(mock, { login_hint: 'alice' });
    const token = await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'authorization_code', code: query.code, redirect_uri: APP, client_id: 'web' }));
    expect(JSON.parse(Buffer.from(token.access_token.split('.')[1], 'base64url').toString()).sub).toBe('alice');

    expect((await authorize(mock, { scope: 'boards:admin' })).query).toMatchObject({ error: 'invalid_scope', state: 's-1' });
    expect((await authorize(mock, { response_type: 'id_token' })).query).toMatchObject({ error: 'unsupported_response_type', state: 's-1' });
    expect((await authorize(mock, { code_challenge: 'short', code_challenge_method: 'S256' })).query).toMatchObject({ error: 'invalid_request' });
    expect((await authorize(mock, { code_challenge: pkce().challenge, code_challenge_method: 'S512' })).query).toMatchObject({ error: 'invalid_request' });
    // The document declares no implicit flow: refused, in the fragment a token would have come in.
    expect((await authorize(mock, { response_type: 'token' })).fragment).toMatchObject({ error: 'unsupported_response_type', state: 's-1' });
  });
});

describe('the authorization endpoint: a top-level navigation only', () => {
  const params = new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: APP, state: 's-1' });
  const navigation = { 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-Site': 'cross-site' };
  const ask = (mock: Mock, headers: Record<string, string>) => mock.app.request(`/__oauth/authorize?${params}`, { headers });

  it('refuses by their Fetch Metadata a fetch, an XMLHttpRequest, a frame, an image, a script and a no-cors request: 403 access_denied shown by the mock, never a redirect, no code made', async () => {
    const { mock } = boards();
    const kinds: Array<[string, string, RegExp]> = [
      ['cors', 'empty', /fetch or XMLHttpRequest/],
      ['same-origin', 'empty', /fetch or XMLHttpRequest/],
      ['no-cors', 'empty', /no-cors/],
      ['no-cors', 'image', /no-cors/],
      ['no-cors', 'script', /no-cors/],
      ['navigate', 'iframe', /a frame/],
      ['navigate', 'frame', /a frame/],
      ['navigate', 'object', /a frame/],
    ];
    for (const [mode, dest, why] of kinds) {
      const refused = await ask(mock, { 'Sec-Fetch-Mode': mode, 'Sec-Fetch-Dest': dest, 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' });
      expect(refused.headers.get('Location'), `${mode} ${dest}`).toBeNull();
      expect(refused.headers.get('Access-Control-Allow-Origin'), `${mode} ${dest}`).toBeNull();
      const description = await expectOAuthError(refused, 403, 'access_denied');
      expect(description, `${mode} ${dest}`).toMatch(why);
      expect(description).toContain(`Sec-Fetch-Mode: ${mode}, Sec-Fetch-Dest: ${dest}`);
    }
    // Half of the metadata is no navigation either.
    await expectOAuthError(await ask(mock, { 'Sec-Fetch-Mode': 'navigate' }), 403, 'access_denied');
    expect(mock.oauth!.held.tables.codes.size).toBe(0);
  });

  it('signs in a top-level navigation (Sec-Fetch-Mode: navigate, Sec-Fetch-Dest: document) from any site, and a program that sends no browser headers, as before', async () => {
    const { mock } = boards();
    for (const headers of [navigation, {}]) {
      const back = await ask(mock, headers);
      expect(back.status).toBe(302);
      expect(new URL(back.headers.get('Location')!).searchParams.get('code')).toMatch(/^[\w-]{43}$/);
    }
  });

  it('without Fetch Metadata (an older browser), refuses a GET that carries Origin, which no navigation sends, and a POST from another origin; takes the sign-in form posted from the mock own origin', async () => {
    const { mock } = boards();
    const fetched = await ask(mock, { Origin: 'http://evil.example' });
    expect(await expectOAuthError(fetched, 403, 'access_denied')).toMatch(/GET carries Origin/);
    const submit = (origin: string | undefined, key = KEY) =>
      mock.app.request('http://mock.example.com/__oauth/authorize', { method: 'POST', body: `${params}&api_key=${encodeURIComponent(key)}`, headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(origin ? { Origin: origin } : {}) } });
    for (const origin of ['http://evil.example', 'null', 'http://mock.example.com:8080']) expect(await expectOAuthError(await submit(origin), 403, 'access_denied'), origin).toMatch(/only the mock's own sign-in form/);
    expect((await submit('http://mock.example.com')).status).toBe(302);
    expect((await submit(undefined)).status).toBe(302); // a program
    // A top-level form post from another site is a navigation: its Origin does not matter, the key still does.
    const navigated = await mock.app.request('http://mock.example.com/__oauth/authorize', { method: 'POST', body: `${params}&api_key=guess`, headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'http://evil.example', ...navigation } });
    expect(navigated.status).toBe(401);
  });

  it('gives its answers and its redirects no CORS headers, and its preflight grants nothing; the token endpoint keeps them', async () => {
    const { mock } = boards();
    const origin = { Origin: 'http://localhost:5173' };
    const back = await ask(mock, { ...navigation, ...origin });
    expect(back.status).toBe(302);
    expect(back.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const shown = await mock.app.request(`/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: 'https://evil.example/cb' })}`, { headers: { ...navigation, ...origin } });
    expect(shown.status).toBe(400);
    expect(shown.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const preflight = await mock.app.request('/__oauth/authorize', { method: 'OPTIONS', headers: { ...origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect(preflight.headers.get('Access-Control-Allow-Methods')).toBeNull();
    const token = await post(mock, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: basic('svc', KEY), ...origin });
    expect(token.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });
});

describe('refresh tokens', () => {
  it('give a new access token and a new refresh token, once each; a narrower scope is granted, a wider one refused', async () => {
    const { mock } = boards();
    const { query } = await authorize(mock, { scope: 'boards:read boards:write' });
    const first = await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'authorization_code', code: query.code, redirect_uri: APP, client_id: 'web' }));
    const second = await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: 'web' }));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await createBoard(mock, second.access_token)).status).toBe(201);
    // Rotated: the first refresh token serves no more.
    await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token! }), 400, 'invalid_grant');

    const narrower = await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'refresh_token', refresh_token: second.refresh_token!, scope: 'boards:read' }));
    expect(narrower.scope).toBe('boards:read');
    expect((await createBoard(mock, narrower.access_token)).status).toBe(401);
    await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'refresh_token', refresh_token: narrower.refresh_token!, scope: 'boards:read boards:write' }), 400, 'invalid_scope');
    await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'refresh_token', refresh_token: narrower.refresh_token!, client_id: 'other' }), 400, 'invalid_grant');
  });
});

describe('expiry', () => {
  it('refuses an access token from the moment its expires_in has passed on the mock clock: 401 invalid_token, the document error shape', async () => {
    const { mock, advance } = boards({ oauth: { tokenLifetime: 60 } });
    const token = await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: basic('svc', KEY) }));
    expect(token.expires_in).toBe(60);
    advance(59);
    expect((await listBoards(mock, token.access_token)).status).toBe(200);
    advance(1);
    const expired = await listBoards(mock, token.access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('WWW-Authenticate')).toBe('Bearer realm="Boards", error="invalid_token", error_description="The access token expired"');
    expect(expired.headers.get('Content-Type')).toBe('application/problem+json');
    expect(await expired.json()).toMatchObject({ status: 401, detail: expect.stringContaining('expired') });
  });

  it('lets a refresh token expire too (refreshTokenLifetime)', async () => {
    const { mock, advance } = boards({ oauth: { tokenLifetime: 60, refreshTokenLifetime: 600 } });
    const { query } = await authorize(mock, {});
    const token = await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'authorization_code', code: query.code, redirect_uri: APP, client_id: 'web' }));
    advance(600);
    expect(await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'refresh_token', refresh_token: token.refresh_token! }), 400, 'invalid_grant')).toMatch(/expired/);
  });
});

describe('redirect_uri', () => {
  it('is refused, without a redirect, unless it is on this machine, on the mock own origin, or allowed', async () => {
    const { mock } = boards();
    const ask = (redirectUri: string, target = 'http://localhost') =>
      mock.app.request(`${target}/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: redirectUri, state: 's' })}`);
    for (const refused of ['https://evil.example/cb', 'https://localhost.evil.example/cb', 'javascript:alert(1)', 'http://localhost:5173/cb#x', '/callback', 'http://user:pw@localhost/cb']) {
      const response = await ask(refused);
      expect(response.headers.get('Location'), refused).toBeNull();
      await expectOAuthError(response, 400, 'invalid_request');
    }
    const missing = await mock.app.request('/__oauth/authorize?response_type=code&client_id=web');
    expect(await expectOAuthError(missing, 400, 'invalid_request')).toMatch(/redirect_uri is required/);
    for (const allowed of ['http://127.0.0.1:3000/cb', 'http://[::1]:8080/cb', 'https://app.localhost/cb', 'http://localhost:8080/cb?keep=1']) expect((await ask(allowed)).status, allowed).toBe(302);
    // The mock's own origin (its docs page's callback), seen from a name beyond loopback.
    const { mock: demo } = boards({ apiKeys: ['petstore-demo-key'], docs: DOCS });
    const own = await demo.app.request(`http://mock.example.com:4010/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'docs', redirect_uri: 'http://mock.example.com:4010/__docs/oauth2-redirect.html' })}`);
    expect(own.status).toBe(302);
    // An origin the operator allowed.
    const { mock: allowing } = boards({ oauth: { redirectOrigins: ['https://app.example.com'] } });
    const response = await allowing.app.request(`/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: 'https://app.example.com/cb' })}`);
    expect(new URL(response.headers.get('Location')!).origin).toBe('https://app.example.com');
  });

  it('takes the mock itself only at its docs page callback, which carries no CORS grant, never at a path whose answers any site can read', async () => {
    const { mock } = boards({ docs: DOCS, oauth: { redirectOrigins: ['http://localhost', 'http://mock.example.com:4010'] } });
    const ask = (redirectUri: string, target = 'http://localhost') =>
      mock.app.request(`${target}/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: redirectUri })}`);
    // Its own origin, another loopback name or scheme on its port, the name it is reached by: all the mock, whatever the operator allowed.
    const refusals: Array<[string, string | undefined]> = [
      ['http://localhost/api/boards', undefined],
      ['http://localhost/__docs', undefined],
      ['http://localhost/__spec', undefined],
      ['http://localhost/__oauth/token', undefined],
      ['http://127.0.0.1/api/boards', undefined],
      ['http://[::1]:80/api/boards', undefined],
      ['https://a.localhost:80/api/boards', undefined],
      ['http://2130706433/api/boards', undefined], // 127.0.0.1, as a URL parser reads it
      ['http://localhost/__docs/../api/boards', undefined],
      ['http://127.0.0.1:4010/api/boards', 'http://mock.example.com:4010'],
      ['http://mock.example.com:4010/api/boards', 'http://mock.example.com:4010'],
    ];
    for (const [refused, target] of refusals) {
      const response = await ask(refused, target);
      expect(response.headers.get('Location'), refused).toBeNull();
      expect(await expectOAuthError(response, 400, 'invalid_request'), refused).toMatch(/is the mock itself/);
    }
    for (const allowed of ['http://localhost/__docs/oauth2-redirect.html', 'http://127.0.0.1/__docs/oauth2-redirect.html?x=1']) {
      const response = await ask(allowed);
      expect(response.status, allowed).toBe(302);
      expect(new URL(response.headers.get('Location')!).pathname).toBe('/__docs/oauth2-redirect.html');
    }
    // The page the code lands on grants no origin.
    const landing = await mock.app.request('/__docs/oauth2-redirect.html?code=c&state=s', { headers: { Origin: 'http://evil.example' } });
    expect(landing.status).toBe(200);
    expect([...landing.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    // Without the docs page, its path is the API's (a 404 with CORS headers): refused too.
    const { mock: noDocs } = boards();
    const response = await noDocs.app.request(`/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: 'http://localhost/__docs/oauth2-redirect.html' })}`);
    expect(await expectOAuthError(response, 400, 'invalid_request')).toMatch(/docs page is off/);
  });

  it("keeps the redirect_uri's own query, and the state as sent, reserved characters and all", async () => {
    const { mock } = boards();
    const { query } = await authorize(mock, { redirect_uri: 'http://localhost:5173/cb?tab=1', state: 'a&b=c d' });
    expect(query).toMatchObject({ tab: '1', state: 'a&b=c d' });
  });
});

describe('who is signed in at once', () => {
  it('asks a caller beyond this machine for an API key when the keys are not the demo key, then sends it back', async () => {
    const { mock } = boards();
    const params = new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: APP, state: 's-9', scope: 'boards:read' });
    const form = await mock.app.request(`http://mock.example.com/__oauth/authorize?${params}`);
    expect(form.status).toBe(200);
    expect(form.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(form.headers.get('Content-Security-Policy')).toContain("form-action 'self' http://localhost:5173");
    expect(form.headers.get('X-Frame-Options')).toBe('DENY');
    // Its form posts with the mock's Origin, which a browser without Fetch Metadata is judged by (no-referrer would send Origin: null).
    expect(form.headers.get('Referrer-Policy')).toBe('same-origin');
    const html = await form.text();
    expect(html).toContain('name="state" value="s-9"');
    expect(html).not.toContain(KEY);

    const submit = (key: string) => mock.app.request('http://mock.example.com/__oauth/authorize', { method: 'POST', body: `${params}&api_key=${encodeURIComponent(key)}`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect((await submit('guess')).status).toBe(401);
    const back = await submit(KEY);
    expect(back.status).toBe(302);
    expect(new URL(back.headers.get('Location')!).searchParams.get('state')).toBe('s-9');
    // A key in the query does not count: keys are never put in URLs.
    expect((await mock.app.request(`http://mock.example.com/__oauth/authorize?${params}&api_key=${KEY}`)).status).toBe(200);
    // prompt=none cannot ask: login_required, back at the client.
    const silent = await mock.app.request(`http://mock.example.com/__oauth/authorize?${params}&prompt=none`);
    expect(new URL(silent.headers.get('Location')!).searchParams.get('error')).toBe('login_required');
  });

  it('signs anyone in at once while the demo key (printed by the document) is accepted, and nobody at once behind a proxy', async () => {
    const { mock: open } = boards({ apiKeys: ['petstore-demo-key'] });
    expect((await open.app.request(`http://mock.example.com/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: APP })}`)).status).toBe(302);
    const { mock: proxied } = boards({ trustProxy: true });
    expect((await proxied.app.request(`/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: APP })}`)).status).toBe(200);
  });
});

describe('the token endpoint', () => {
  it('answers each malformed request with the error RFC 6749 names, never a 5xx', async () => {
    const { mock } = boards();
    await expectOAuthError(await post(mock, '/__oauth/token', {}), 400, 'invalid_request');
    await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code' }), 400, 'unsupported_grant_type');
    // The document declares no password flow.
    expect(await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'password', username: 'a', password: KEY }), 400, 'unsupported_grant_type')).toMatch(/no password flow/);
    await expectOAuthError(await mock.app.request('/__oauth/token', { method: 'POST', body: '{"grant_type":"client_credentials"}', headers: { 'Content-Type': 'application/json' } }), 400, 'invalid_request');
    await expectOAuthError(await mock.app.request('/__oauth/token', { method: 'POST', body: 'grant_type=client_credentials&grant_type=password', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), 400, 'invalid_request');
    await expectOAuthError(await mock.app.request('/__oauth/token', { method: 'POST', body: `grant_type=${'x'.repeat(20_000)}`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), 400, 'invalid_request');
    await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'authorization_code', code: 'never-issued', redirect_uri: APP, client_id: 'web' }), 400, 'invalid_grant');
    await expectOAuthError(await post(mock, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: 'Basic %%%' }), 401, 'invalid_client');
    const get = await mock.app.request('/__oauth/token');
    expect(get.headers.get('Allow')).toBe('POST, OPTIONS');
    await expectOAuthError(get, 405, 'invalid_request');
    await expectOAuthError(await mock.app.request('/__oauth/nothing'), 404, 'not_found');
  });

  it('carries the CORS headers of the API, so a page on a dev server can call it', async () => {
    const { mock } = boards();
    const response = await post(mock, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: basic('svc', KEY), Origin: 'http://localhost:5173' });
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const preflight = await mock.app.request('/__oauth/token', { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toContain('Authorization');
  });

  it('never tells the API keys or the admin token', async () => {
    const { mock } = boards({ adminToken: 'admin-secret-token' });
    const answers = [
      await post(mock, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: basic('svc', 'guess') }),
      await post(mock, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: basic('svc', KEY) }),
      await mock.app.request('/__oauth/.well-known/oauth-authorization-server'),
      await mock.app.request('/__oauth/jwks'),
      await mock.app.request(`http://mock.example.com/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: APP })}`),
    ];
    for (const answer of answers) {
      const text = `${[...answer.headers].join('\n')}\n${await answer.text()}`;
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('admin-secret-token');
    }
  });
});

describe('revocation and sign-out', () => {
  it('revokes an access token (RFC 7009: 200, unknown tokens too), and the operations refuse it as unknown', async () => {
    const { mock } = boards();
    const token = await tokenOf(await post(mock, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: basic('svc', KEY) }));
    expect((await post(mock, '/__oauth/revoke', { token: token.access_token })).status).toBe(200);
    expect((await post(mock, '/__oauth/revoke', { token: 'never-issued' })).status).toBe(200);
    const refused = await listBoards(mock, token.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    await expectOAuthError(await post(mock, '/__oauth/revoke', {}), 400, 'invalid_request');
  });

  it('signs out back to an allowed post_logout_redirect_uri with its state, and refuses another', async () => {
    const { mock } = boards();
    const back = await mock.app.request(`/__oauth/logout?${new URLSearchParams({ post_logout_redirect_uri: 'http://localhost:5173/bye', state: 'z' })}`);
    expect(back.status).toBe(302);
    expect(back.headers.get('Location')).toBe('http://localhost:5173/bye?state=z');
    const evil = await mock.app.request(`/__oauth/logout?${new URLSearchParams({ post_logout_redirect_uri: 'https://evil.example/' })}`);
    expect(evil.headers.get('Location')).toBeNull();
    await expectOAuthError(evil, 400, 'invalid_request');
  });
});

describe('what stays as it was', () => {
  it('the API keys still open every operation, whatever its scopes', async () => {
    const { mock } = boards();
    expect((await listBoards(mock, KEY)).status).toBe(200);
    expect((await createBoard(mock, KEY)).status).toBe(201);
    const unknown = await listBoards(mock, 'not-a-token');
    expect(unknown.headers.get('WWW-Authenticate')).toBe('Bearer realm="Boards", error="invalid_token", error_description="The access token is neither a known API key nor a token the mock issued"');
  });

  it('oauth: false serves no authorization server, and the keys alone open the operations', async () => {
    const { mock } = boards({ oauth: false });
    expect(mock.oauth).toBeUndefined();
    expect((await post(mock, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: basic('svc', KEY) })).status).toBe(404);
    expect((await listBoards(mock, KEY)).status).toBe(200);
  });

  it('a token from one mock means nothing to another', async () => {
    const { mock: one } = boards();
    const { mock: other } = boards();
    const token = await tokenOf(await post(one, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: basic('svc', KEY) }));
    expect((await listBoards(other, token.access_token)).status).toBe(401);
  });

  it('a reloaded mock (--watch) honours the tokens of the one it replaces', async () => {
    const { mock: before } = boards();
    const { mock: after } = boards();
    const token = await tokenOf(await post(before, '/__oauth/token', { grant_type: 'client_credentials' }, { Authorization: basic('svc', KEY) }));
    carryState(before, after);
    expect((await listBoards(after, token.access_token)).status).toBe(200);
    expect(await (await after.app.request('/__oauth/jwks')).json()).toEqual(await (await before.app.request('/__oauth/jwks')).json());
  });
});
