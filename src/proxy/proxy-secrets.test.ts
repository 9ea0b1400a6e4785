/**
 * What the proxy keeps of a client's secrets: nothing. Its credentials (a bearer token, cookies, a
 * key in a header or the query), echoed by the upstream in an ordinary field or inside a longer
 * text, and the values of fields named like secrets (`accessTokens`, `credentials`, `sessionId`),
 * reach neither the log line, nor `/__admin/violations`, nor the recorded fixtures; and the
 * fixtures still load and validate.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { buildProxy, type ProxyExchange } from './proxy.js';
import { createRecorder } from './record.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ERROR = { type: 'object', required: ['code', 'message', 'status'], properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } };

/** Accounts that hold secrets under secret names, and free text (`note`) and a patterned `handle` an upstream may echo a credential into. */
const ACCOUNTS = {
  openapi: '3.1.0',
  info: { title: 'Accounts', version: '1.0.0' },
  servers: [{ url: 'https://api.example.com' }],
  security: [{ bearer: [] }, { headerKey: [] }],
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, headerKey: { type: 'apiKey', in: 'header', name: 'X-Key' } },
    schemas: {
      Account: {
        type: 'object',
        required: ['id', 'name', 'handle'],
        additionalProperties: false,
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          handle: { type: 'string', pattern: '^[a-z0-9-]+$' },
          note: { type: 'string' },
          accessTokens: { type: 'array', items: { type: 'string' } },
          credentials: { type: 'object', additionalProperties: { type: 'string' } },
          sessionId: { type: 'string' },
        },
      },
      Error: ERROR,
    },
  },
  paths: {
    '/accounts': {
      get: { operationId: 'listAccounts', responses: { '200': { description: 'The accounts.', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Account' } } } } } } },
      post: {
        operationId: 'createAccount',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Account' } } } },
        responses: {
          '201': { description: 'Created.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Account' } } } },
          '400': { description: 'Bad input.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/accounts/{accountId}': {
      get: {
        operationId: 'getAccount',
        parameters: [{ name: 'accountId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'One account.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Account' } } } },
          '404': { description: 'No such account.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
  },
};

/** The client's own credentials, and the secrets the upstream's answer holds under secret names. */
const BEARER = 'tok-client-0123456789';
const COOKIE_SID = 'cookie-value-abcdef';
const COOKIE_THEME = 'theme-value-ghijkl';
const SESSION_HEADER = 'hdr-session-5566778899';
const X_KEY = 'xkey-value-4433221100';
const QUERY = { access_token: 'qtoken-1234567', api_key: 'qkey-12345678', token: 'qtok-abcdefgh', key: 'qk-zyxwvuts' };
const ACCESS_TOKEN = 'at-secret-1234567890';
const CREDENTIAL = 'cred-secret-0987';
const SESSION_ID = 'sess-secret-112233';
const ALL = [BEARER, COOKIE_SID, COOKIE_THEME, SESSION_HEADER, X_KEY, ...Object.values(QUERY), ACCESS_TOKEN, CREDENTIAL, SESSION_ID];

const CLIENT_HEADERS = { Authorization: `Bearer ${BEARER}`, Cookie: `sid=${COOKIE_SID}; theme=${COOKIE_THEME}`, 'X-Session-Id': SESSION_HEADER, 'X-Key': X_KEY };
const QUERY_STRING = new URLSearchParams({ ...QUERY, expand: 'all' }).toString();

/** An upstream that echoes what it was sent into the account it answers: the credentials inside a note, the bearer token as the handle. */
function echoingUpstream(status: (path: string) => number) {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const id = Number(url.pathname.split('/').at(-1));
    const account = {
      sessionId: SESSION_ID,
      accessTokens: [ACCESS_TOKEN],
      credentials: { user: 'ada', pass: CREDENTIAL },
      note: `seen ${request.headers.get('authorization')} with ${request.headers.get('cookie')}, ${request.headers.get('x-session-id')}, ${request.headers.get('x-key')} and ${url.search}`,
      handle: request.headers.get('authorization')!.slice('Bearer '.length),
      id,
      name: 'Ada',
    };
    return new Response(JSON.stringify(account), { status: status(url.pathname), headers: { 'Content-Type': 'application/json', 'Set-Cookie': `sid=${COOKIE_SID}; HttpOnly` } });
  };
}

describe('the proxy keeps no secret', () => {
  it('masks the client\'s credentials wherever the upstream echoes them, and secret-named values, in the log line, /__admin/violations and the fixtures', async () => {
    const document = await loadDocument(structuredClone(ACCOUNTS));
    const dir = mkdtempSync(join(tmpdir(), 'proxy-secrets-'));
    dirs.push(dir);
    const recorder = createRecorder({ dir, document });
    const exchanges: ProxyExchange[] = [];
    // Account 1 answers as documented (recorded); account 2 with a status the document does not declare (a violation quoting the body).
    const proxy = buildProxy(document, {
      upstream: 'http://upstream.test',
      fetch: echoingUpstream((path) => (path.endsWith('/2') ? 418 : 200)),
      mock: { adminToken: 'admin-token-for-the-test' },
      onExchange: (entry) => exchanges.push(entry),
      onAnswer: (answer) => recorder.observe(answer),
    });
    for (const id of [1, 2]) {
      const answer = await proxy.fetch(new Request(`http://127.0.0.1:4010/accounts/${id}?${QUERY_STRING}`, { headers: CLIENT_HEADERS }));
      expect(answer.status).toBe(id === 1 ? 200 : 418);
      // The client gets the upstream's answer as it was: masking is for what the proxy keeps.
      expect(((await answer.json()) as { handle: string }).handle).toBe(BEARER);
    }
    recorder.close();

    const listed = await proxy.fetch(new Request('http://127.0.0.1:4010/__admin/violations', { headers: { Authorization: 'Bearer admin-token-for-the-test' } }));
    expect(listed.status).toBe(200);
    const violations = await listed.text();
    expect(JSON.parse(violations).counts.total).toBeGreaterThan(0);
    const logged = JSON.stringify(exchanges);
    const fixture = readFileSync(join(dir, 'accounts.json'), 'utf8');
    for (const secret of ALL) {
      expect(violations, `${secret} in /__admin/violations`).not.toContain(secret);
      expect(logged, `${secret} in the log line`).not.toContain(secret);
      expect(fixture, `${secret} in the fixture`).not.toContain(secret);
    }
    // What is not a secret is left as it was.
    expect(exchanges[0].path).toBe(`/accounts/1?access_token=***&api_key=***&token=***&key=***&expand=all`);
    expect(violations).toContain('expand=all');

    // The recorded account keeps its shape: the echo masked in the note, a handle that fits its pattern, no secret-named field.
    const [account] = JSON.parse(fixture) as Array<Record<string, unknown>>;
    expect(Object.keys(account).sort()).toEqual(['handle', 'id', 'name', 'note']);
    expect(account.note).toContain('***');
    expect(account.handle).toMatch(/^[a-z0-9-]+$/);
    // And the mock loads it and answers it as recorded.
    const playback = buildMock(document, { fixtures: dir, counts: { default: 0 } });
    const read = await playback.app.request('/accounts/1', { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(account);
    await proxy.close();
  });

  it('masks the values of secret-named fields of a request body in the violation and its repro', async () => {
    const document = await loadDocument(structuredClone(ACCOUNTS));
    const proxy = buildProxy(document, { upstream: 'http://upstream.test', fetch: async () => new Response('{}', { status: 418, headers: { 'Content-Type': 'application/json' } }) });
    const body = { id: 3, name: 'Bo', handle: 'bo', sessionId: SESSION_ID, credentials: { pass: CREDENTIAL }, accessTokens: [ACCESS_TOKEN] };
    await proxy.fetch(new Request('http://127.0.0.1:4010/accounts', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Key': X_KEY }, body: JSON.stringify(body) }));
    const text = JSON.stringify(proxy.violations.latest(10));
    expect(proxy.violations.counts().total).toBeGreaterThan(0);
    for (const secret of [SESSION_ID, CREDENTIAL, ACCESS_TOKEN, X_KEY]) expect(text).not.toContain(secret);
    expect(text).toContain('Bo');
  });
});
