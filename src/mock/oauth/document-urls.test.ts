/**
 * The mock's authorization server at the document's own token and authorization URLs, when they are
 * on the API's origin (test/documents/oauth-api.yaml with its flows' URLs changed): a relative
 * `tokenUrl` (resolved against the server URL), or an absolute one on the server URL's origin or
 * on the origin the mock is reached by. A real identity provider's URL keeps only /__oauth, and an
 * operation the document declares at the same method and path keeps it, with a warning.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildMock, type Mock } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { ROOT } from '../../test-support/petstore.js';

const KEY = 'boards-key-1';
const APP = 'http://localhost:5173/callback';
const BOARDS = parse(readFileSync(`${ROOT}test/documents/oauth-api.yaml`, 'utf8'));

interface Change {
  authorizationUrl?: string;
  tokenUrl?: string;
  servers?: Array<{ url: string }>;
  paths?: Record<string, unknown>;
}

/** A mock of the Boards document with its flows' URLs (both flows' tokenUrl and refreshUrl are `tokenUrl`), its servers or more paths changed. */
async function boards(change: Change): Promise<Mock> {
  const document = structuredClone(BOARDS);
  const { authorizationCode, clientCredentials } = document.components.securitySchemes.boardsAuth.flows;
  if (change.authorizationUrl) authorizationCode.authorizationUrl = change.authorizationUrl;
  if (change.tokenUrl) authorizationCode.tokenUrl = authorizationCode.refreshUrl = clientCredentials.tokenUrl = change.tokenUrl;
  if (change.servers) document.servers = change.servers;
  Object.assign(document.paths, change.paths ?? {});
  return buildMock(await loadDocument(document), { apiKeys: [KEY] });
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const form = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({ method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers } });
const clientCredentials = form({ grant_type: 'client_credentials', scope: 'boards:read' }, { Authorization: basic('reporting', KEY) });

/** The access token of a token response, which must be one. */
async function accessToken(response: Response): Promise<string> {
  const body = (await response.json()) as { access_token?: string };
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(response.headers.get('Cache-Control')).toBe('no-store');
  return body.access_token!;
}

const listBoards = (mock: Mock, token: string, origin = 'http://localhost') => mock.app.request(`${origin}/api/boards`, { headers: { Authorization: `Bearer ${token}` } });

describe('a relative tokenUrl', () => {
  it('gives client credentials tokens at /oauth/token, which the operations accept, and /__oauth/token still does', async () => {
    const mock = await boards({ tokenUrl: '/oauth/token' });
    expect(mock.warnings).toEqual([]);
    const token = await accessToken(await mock.app.request('/oauth/token', clientCredentials));
    expect((await listBoards(mock, token)).status).toBe(200);
    expect((await listBoards(mock, await accessToken(await mock.app.request('/__oauth/token', clientCredentials)))).status).toBe(200);
  });

  it('runs the authorization code flow with PKCE at the document’s authorizationUrl and tokenUrl, and refreshes there', async () => {
    const mock = await boards({ authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token' });
    const verifier = randomBytes(48).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorized = await mock.app.request(`http://localhost/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: APP, state: 's-1', code_challenge: challenge, code_challenge_method: 'S256' })}`);
    expect(authorized.status, await authorized.clone().text()).toBe(302);
    const back = new URL(authorized.headers.get('Location')!);
    expect(`${back.origin}${back.pathname}`).toBe(APP);
    expect(back.searchParams.get('state')).toBe('s-1');
    const exchange = (code_verifier: string) => mock.app.request('/oauth/token', form({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, client_id: 'web', redirect_uri: APP, code_verifier }));
    const wrong = await exchange('another-verifier-another-verifier-another-verifier');
    expect({ status: wrong.status, error: ((await wrong.json()) as { error: string }).error }).toEqual({ status: 400, error: 'invalid_grant' });
    const tokens = (await (await mock.app.request('/oauth/token', form({ grant_type: 'authorization_code', code: (await codeFor(mock, challenge)), client_id: 'web', redirect_uri: APP, code_verifier: verifier }))).json()) as { access_token: string; refresh_token: string };
    expect((await listBoards(mock, tokens.access_token)).status).toBe(200);
    const refreshed = await accessToken(await mock.app.request('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'web' })));
    expect((await listBoards(mock, refreshed)).status).toBe(200);
  });

  it('resolves against the server URL as a folder: oauth/token under /api is /api/oauth/token, and /oauth/token is at the root', async () => {
    const under = await boards({ tokenUrl: 'oauth/token' });
    await accessToken(await under.app.request('/api/oauth/token', clientCredentials));
    expect((await under.app.request('/oauth/token', clientCredentials)).status).toBe(404);
    const absoluteServer = await boards({ tokenUrl: 'token', servers: [{ url: 'https://boards.example.com/api/v2' }] });
    await accessToken(await absoluteServer.app.request('/api/v2/token', clientCredentials));
  });

  it('answers a wrong method there as /__oauth/token does (405 with Allow), and a preflight with the API’s CORS headers', async () => {
    const mock = await boards({ tokenUrl: '/oauth/token' });
    const get = await mock.app.request('/oauth/token');
    expect(get.status).toBe(405);
    expect(get.headers.get('Allow')).toBe('POST, OPTIONS');
    const preflight = await mock.app.request('/oauth/token', { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const token = await mock.app.request('/oauth/token', { ...clientCredentials, headers: { ...(clientCredentials.headers as Record<string, string>), Origin: 'http://localhost:5173' } });
    expect(token.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });
});

describe('an absolute URL', () => {
  it('on the server URL’s origin is served at its path, whatever origin the mock is reached by', async () => {
    const mock = await boards({ tokenUrl: 'https://boards.example.com/oauth/token', servers: [{ url: 'https://boards.example.com/api' }] });
    await accessToken(await mock.app.request('http://127.0.0.1:4010/oauth/token', clientCredentials));
  });

  it('on the origin the mock is reached by is served there, and not to a request by another origin', async () => {
    const mock = await boards({ tokenUrl: 'http://localhost:4010/oauth/token' });
    await accessToken(await mock.app.request('http://localhost:4010/oauth/token', clientCredentials));
    const elsewhere = await mock.app.request('http://127.0.0.1:5000/oauth/token', clientCredentials);
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ message: expect.stringContaining('No operation of the document matches POST /oauth/token') }); // the API's 404, not the authorization server's
  });

  it('of a real identity provider keeps only /__oauth, as before', async () => {
    const mock = await boards({}); // https://login.example.com/oauth2/token
    expect((await mock.app.request('/oauth2/token', clientCredentials)).status).toBe(404);
    await accessToken(await mock.app.request('/__oauth/token', clientCredentials));
  });
});

describe('the document’s authorization URL', () => {
  it('answers a top-level navigation only, with no CORS grant, as /__oauth/authorize does', async () => {
    const mock = await boards({ authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token' });
    const query = new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: APP });
    const fetched = await mock.app.request(`http://localhost/oauth/authorize?${query}`, { headers: { 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty', Origin: 'http://evil.example' } });
    expect(fetched.status).toBe(403);
    expect(fetched.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const preflight = await mock.app.request('/oauth/authorize', { method: 'OPTIONS', headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'GET' } });
    expect(preflight.status).toBe(403);
    expect(await preflight.json()).toMatchObject({ code: 'CORS_REFUSED' });
  });
});

describe('an operation at the same method and path', () => {
  const tokenOperation = {
    '/oauth/token': {
      post: { operationId: 'issueToken', security: [], responses: { '200': { description: 'A token of the API’s own.', content: { 'application/json': { schema: { type: 'object', required: ['mine'], properties: { mine: { type: 'boolean', enum: [true] } } } } } } } },
    },
  };

  it('keeps it: the operation answers, the start warns, /__oauth/token still gives tokens', async () => {
    const mock = await boards({ tokenUrl: '/api/oauth/token', paths: tokenOperation });
    expect(mock.warnings).toEqual(["POST /api/oauth/token is the document's boardsAuth.flows.authorizationCode.tokenUrl and its operation issueToken: the operation answers it; the mock's /__oauth/token stays there."]);
    const answer = await mock.app.request('/api/oauth/token', clientCredentials);
    expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 200, body: { mine: true } });
    await accessToken(await mock.app.request('/__oauth/token', clientCredentials));
  });

  it('keeps only the methods the operations take: another method there is the authorization server’s', async () => {
    const mock = await boards({ authorizationUrl: '/api/oauth/token', tokenUrl: '/api/oauth/token', paths: tokenOperation });
    // POST is the operation's; GET (the authorization endpoint's) is left to the authorization server.
    expect((await mock.app.request('/api/oauth/token', clientCredentials)).status).toBe(200);
    const navigation = await mock.app.request(`http://localhost/api/oauth/token?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: APP })}`);
    expect(navigation.status).toBe(302);
  });
});

/** A code from the document's authorization URL, for a PKCE challenge. */
async function codeFor(mock: Mock, challenge: string): Promise<string> {
  const response = await mock.app.request(`http://localhost/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: APP, code_challenge: challenge, code_challenge_method: 'S256' })}`);
  expect(response.status).toBe(302);
  return new URL(response.headers.get('Location')!).searchParams.get('code')!;
}
