/**
 * "A token is never easier to get than a key", tried from a real browser. The mock serves a
 * document secured by OAuth 2.0 with a key of its own (`--api-key`), so the demo key opens nothing
 * and the authorization endpoint signs in at once only a browser on this machine. A page of another
 * site (`http://evil.example`, pointed at 127.0.0.1 inside Chromium only) tries to get a code out of
 * it: a fetch that follows the redirect and reads `response.url` (to the mock's API, to the docs
 * page's callback), a frame, and a popup it then tries to read. No code, no token, no board. A
 * front end on a loopback dev server that navigates to the authorization endpoint still gets its
 * code, exchanges it and creates a board. Chromium comes from Debian, as for src/cors.browser.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMock, type Mock } from '../app.js';
import { packageDocsAssets } from '../docs/docs-assets.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { allowedHostsFor } from '../middleware/host-guard.js';
import { type RunningServer } from '../../server/serve.js';
import { serveNoting } from '../../test-support/serve-noting.js';
import { launchChromium } from '../../test-support/chromium.js';
import { ROOT } from '../../test-support/petstore.js';

const EVIL = 'evil.example';
const KEY = 'boards-key-of-my-own';
let browser: Browser;
const servers: Server[] = [];
const mocks: RunningServer[] = [];

beforeAll(async () => {
  // The attacker's name resolves to loopback inside the browser only: no DNS is asked.
  browser = await launchChromium([`--host-resolver-rules=MAP ${EVIL} 127.0.0.1`]);
});

afterAll(async () => {
  await browser?.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  for (const mock of mocks) await mock.close();
});

/** The developer's mock, as `npm start -- --spec test/documents/oauth-api.yaml --api-key K` serves it, with a log of what reached it. */
async function developersMock() {
  const document = await loadDocument(join(ROOT, 'test/documents/oauth-api.yaml'));
  // The docs page's OAuth callback is swagger-ui-dist's page, as the build copies it.
  const mock: Mock = buildMock(document, { apiKeys: [KEY], allowedHosts: allowedHostsFor('127.0.0.1'), docs: packageDocsAssets(join(ROOT, 'node_modules/swagger-ui-dist')) });
  const { server, reached } = await serveNoting(mock.app);
  mocks.push(server);
  return { mock, url: server.url, reached, boards: () => mock.store.counts().boards };
}

/** Serves the pages `pageFor(path)` gives on a free loopback port. */
async function site(pageFor: (path: string) => string): Promise<number> {
  const server = createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(pageFor(new URL(req.url ?? '/', 'http://x').pathname)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/** The attack of issue 37, run in the attacker's page: follow the authorization endpoint's redirect with fetch, read the code, exchange it, create a board. */
async function stealWithFetch([api, redirectUri]: readonly [string, string]): Promise<string> {
  try {
    const response = await fetch(`${api}/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'e', redirect_uri: redirectUri })}`);
    const code = new URL(response.url).searchParams.get('code');
    if (!code) return `read ${response.status} at ${response.url}, no code`;
    const token = await fetch(`${api}/__oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'e', redirect_uri: redirectUri }) });
    const accessToken = ((await token.json()) as { access_token?: string }).access_token;
    if (!accessToken) return `a code, but the token endpoint said ${token.status}`;
    const created = await fetch(`${api}/api/boards`, { method: 'POST', headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'From another site' }) });
    return `a token; createBoard ${created.status}`;
  } catch (error) {
    return String(error);
  }
}

describe('the authorization server against a page of another site (Chromium)', () => {
  it(`gives a page on http://${EVIL} no code and no token: fetch, a frame and a popup it reads get nothing, and createBoard is never reached`, async () => {
    const { url, reached, boards } = await developersMock();
    const before = boards();
    const evilPort = await site(() => '<!doctype html><title>any site</title><body></body>');
    const tab = await browser.newPage();
    await tab.goto(`http://${EVIL}:${evilPort}/`);
    const authorize = (redirectUri: string) => `${url}/__oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'e', redirect_uri: redirectUri })}`;

    // The attack as reported: the code's redirect_uri on the mock's API, whose answers grant any origin; then on the docs page's callback.
    const toApi = await tab.evaluate(stealWithFetch, [url, `${url}/api/boards`] as const);
    const toCallback = await tab.evaluate(stealWithFetch, [url, `${url}/__docs/oauth2-redirect.html`] as const);

    // A frame: refused, and unreadable.
    const framed = await tab.evaluate(async (src) => {
      const dom = globalThis as any; // the page's DOM: the project's TypeScript has no DOM library
      const frame = dom.document.createElement('iframe');
      const loaded = new Promise((resolve) => (frame.onload = resolve));
      frame.src = src;
      dom.document.body.append(frame);
      await loaded;
      try {
        return String(frame.contentWindow.location.href);
      } catch (error) {
        return (error as Error).name;
      }
    }, authorize(`${url}/api/boards`));

    // A popup is a top-level navigation: it signs in and lands on the docs page's callback, where the page cannot read it.
    const [popup] = await Promise.all([tab.waitForEvent('popup'), tab.evaluate((href) => void ((globalThis as any).opened = (globalThis as any).open(href, 'signin')), authorize(`${url}/__docs/oauth2-redirect.html`))]);
    await popup.waitForURL(/oauth2-redirect\.html\?code=/);
    await popup.waitForLoadState('load');
    const popupRead = await tab.evaluate(() => {
      const opened = (globalThis as any).opened;
      const attempts: string[] = [];
      for (const read of [() => opened.location.href, () => opened.document.URL, () => opened.swaggerUIRedirectOauth2]) {
        try {
          attempts.push(`read ${String(read())}`);
        } catch (error) {
          attempts.push((error as Error).name);
        }
      }
      return attempts;
    });
    await tab.close();

    expect({ toApi, toCallback, framed, popupRead }).toEqual({
      toApi: 'TypeError: Failed to fetch', // refused (Sec-Fetch-Mode: cors), and unreadable: no CORS grant
      toCallback: 'TypeError: Failed to fetch',
      framed: 'SecurityError',
      popupRead: ['SecurityError', 'SecurityError', 'SecurityError'],
    });
    // The fetches and the frame reached the authorization endpoint and were refused; the popup's navigation was served. Nothing else.
    expect(reached.filter((line) => line.includes('/__oauth/authorize'))).toEqual(['GET /__oauth/authorize 403', 'GET /__oauth/authorize 403', 'GET /__oauth/authorize 403', 'GET /__oauth/authorize 302']);
    expect(reached.filter((line) => line.startsWith('POST ') || line.includes('/api/'))).toEqual([]);
    expect(boards()).toBe(before);
  });
});

describe('a front end on a loopback dev server (Chromium)', () => {
  it('navigates to the authorization endpoint, gets its code at its redirect_uri, exchanges it with PKCE and creates a board', async () => {
    const { url, reached, boards } = await developersMock();
    const before = boards();
    let appPort = 0;
    const app = () => `http://localhost:${appPort}`;
    // The app's two pages: the start, which sends the browser to the mock, and the callback, which finishes.
    appPort = await site((path) =>
      path === '/callback'
        ? `<!doctype html><script type="module">
const query = new URLSearchParams(location.search);
try {
  const token = await fetch(${JSON.stringify(`${url}/__oauth/token`)}, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: query.get('code'), client_id: 'web', redirect_uri: ${JSON.stringify(`${app()}/callback`)}, code_verifier: sessionStorage.getItem('verifier') }) });
  const body = await token.json();
  const created = await fetch(${JSON.stringify(`${url}/api/boards`)}, { method: 'POST', headers: { Authorization: 'Bearer ' + body.access_token, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Signed in' }) });
  window.result = { state: query.get('state') === sessionStorage.getItem('state'), token: token.status, scope: body.scope, created: created.status };
} catch (error) {
  window.result = { error: String(error) };
}
</script>`
        : `<!doctype html><script type="module">
const bytes = (n) => crypto.getRandomValues(new Uint8Array(n));
const base64Url = (data) => btoa(String.fromCharCode(...new Uint8Array(data))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const verifier = base64Url(bytes(48));
const state = base64Url(bytes(16));
sessionStorage.setItem('verifier', verifier);
sessionStorage.setItem('state', state);
const challenge = base64Url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
location.assign(${JSON.stringify(`${url}/__oauth/authorize`)} + '?' + new URLSearchParams({ response_type: 'code', client_id: 'web', redirect_uri: ${JSON.stringify(`${app()}/callback`)}, scope: 'boards:read boards:write', state, code_challenge: challenge, code_challenge_method: 'S256' }));
</script>`,
    );

    const tab = await browser.newPage();
    await tab.goto(`${app()}/`);
    await tab.waitForURL(/\/callback\?code=/);
    await tab.waitForFunction(() => (globalThis as unknown as { result?: unknown }).result !== undefined);
    const result = await tab.evaluate(() => (globalThis as unknown as { result: unknown }).result);
    await tab.close();

    expect(result).toEqual({ state: true, token: 200, scope: 'boards:read boards:write', created: 201 });
    expect(reached.filter((line) => !line.startsWith('OPTIONS ') && /__oauth|\/api\//.test(line))).toEqual(['GET /__oauth/authorize 302', 'POST /__oauth/token 200', 'POST /api/boards 201']);
    expect(boards()).toBe(before + 1);
  });
});
