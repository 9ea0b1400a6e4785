/**
 * CORS in a real browser: a page served from one origin (a frontend dev server) calls the mock on
 * another, with Authorization (so the browser sends a preflight) and reads the exposed headers.
 * Chromium comes from Debian (`apt-get install -y chromium`, done by .ci/run).
 */
import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { launchChromium } from './test-support/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server/serve.js';
import { petstore } from './test-support/petstore.js';

let browser: Browser;
let page: Server;
let pageUrl: string;
const mocks: RunningServer[] = [];

/** The frontend: calls the API given in the query string and reports what it could read. */
const FRONTEND = `<!doctype html><script type="module">
const api = new URLSearchParams(location.search).get('api');
const auth = { Authorization: 'Bearer petstore-demo-key' };
try {
  const list = await fetch(api + '/pets?limit=2', { headers: auth });
  const created = await fetch(api + '/pets', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json', Prefer: 'delay=10' }, body: JSON.stringify({ name: 'From the browser', categoryId: 1 }) });
  const deprecated = await fetch(api + '/pets/1', { headers: auth });
  window.result = {
    status: list.status, total: list.headers.get('X-Total-Count'), link: list.headers.get('Link'), count: (await list.json()).length,
    created: created.status, location: created.headers.get('Location'), sunset: deprecated.headers.get('Sunset'),
  };
} catch (error) {
  window.result = { error: String(error) };
}
</script>`;

beforeAll(async () => {
  page = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(FRONTEND));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as { port: number }).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  page?.close();
  for (const mock of mocks) await mock.close();
});

async function fromTheBrowser(options: Parameters<typeof petstore>[0] = {}) {
  const mock = await petstore(options);
  const server = await startServer(mock.app, { port: 0, host: '127.0.0.1' });
  mocks.push(server);
  const tab = await browser.newPage();
  await tab.goto(`${pageUrl}/?api=${encodeURIComponent(server.url)}`);
  await tab.waitForFunction(() => (globalThis as unknown as { result?: unknown }).result !== undefined, undefined, { timeout: 120_000 });
  const result = await tab.evaluate(() => (globalThis as unknown as { result: Record<string, unknown> }).result);
  await tab.close();
  return result;
}

describe('CORS from a browser on another origin', () => {
  it('lets the page call the API with a bearer key and read the pagination, Location and deprecation headers', async () => {
    expect(await fromTheBrowser()).toEqual({ status: 200, total: '20', link: '</pets?limit=2&offset=2>; rel="next"', count: 2, created: 201, location: '/pets/21', sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' });
  });

  it('works when the page origin is the one allowed by --cors-origin', async () => {
    expect(await fromTheBrowser({ corsOrigins: [pageUrl] })).toMatchObject({ status: 200, total: '20', created: 201 });
  });

  it('is blocked by the browser when the page origin is not allowed', async () => {
    expect(await fromTheBrowser({ corsOrigins: ['http://localhost:5173'] })).toEqual({ error: 'TypeError: Failed to fetch' });
  });
});
