/**
 * CORS from the document, in a real browser: a page on one origin calls a mock on another whose
 * document takes its key in `X-Api-Key` and declares an `X-Request-Id` header parameter. Chromium
 * sends a preflight for each custom header and refuses the call unless the mock allows it.
 */
import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMock } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { startServer, type RunningServer } from '../../server/serve.js';
import { launchChromium } from '../../test-support/chromium.js';

/** A small API whose key travels in a custom header, with a declared header parameter. */
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Custom headers', version: '1.0.0' },
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    schemas: { Thing: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
  },
  security: [{ key: [] }],
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        parameters: [{ name: 'X-Request-Id', in: 'header', required: false, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } } } },
      },
    },
  },
};

/** The frontend: calls the API given in the query string with the headers given there too. */
const FRONTEND = `<!doctype html><script type="module">
const query = new URLSearchParams(location.search);
try {
  const list = await fetch(query.get('api') + '/things', { headers: JSON.parse(query.get('headers')) });
  window.result = { status: list.status, count: (await list.json()).length };
} catch (error) {
  window.result = { error: String(error) };
}
</script>`;

let browser: Browser;
let page: Server;
let pageUrl: string;
let mock: RunningServer;

beforeAll(async () => {
  page = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(FRONTEND));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as { port: number }).port}`;
  const { app } = buildMock(await loadDocument(DOCUMENT));
  mock = await startServer(app, { port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  page?.close();
  await mock?.close();
});

/** What the page could read after calling the mock with these headers. */
async function fromTheBrowser(headers: Record<string, string>) {
  const tab = await browser.newPage();
  await tab.goto(`${pageUrl}/?api=${encodeURIComponent(mock.url)}&headers=${encodeURIComponent(JSON.stringify(headers))}`);
  await tab.waitForFunction(() => (globalThis as unknown as { result?: unknown }).result !== undefined, undefined, { timeout: 120_000 });
  const result = await tab.evaluate(() => (globalThis as unknown as { result: Record<string, unknown> }).result);
  await tab.close();
  return result;
}

describe('CORS for the headers the document names', () => {
  it('lets a page on another origin send the API key in the header the document names', async () => {
    expect(await fromTheBrowser({ 'X-Api-Key': 'petstore-demo-key' })).toEqual({ status: 200, count: expect.any(Number) });
  });

  it('lets it send a declared header parameter too, whatever the case of its name', async () => {
    expect(await fromTheBrowser({ 'x-api-key': 'petstore-demo-key', 'x-request-id': 'req-1' })).toEqual({ status: 200, count: expect.any(Number) });
  });

  it('still refuses a header neither the document nor the mock names', async () => {
    expect(await fromTheBrowser({ 'X-Api-Key': 'petstore-demo-key', 'X-Undeclared': '1' })).toEqual({ error: 'TypeError: Failed to fetch' });
  });
});
