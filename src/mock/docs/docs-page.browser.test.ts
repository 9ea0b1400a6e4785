/**
 * The docs page (GET /__docs) in real Chromium (Debian's, driven by playwright-core), served by the
 * built CLI as a user starts it: it loads with no console error and no request beyond the mock's
 * origin; it lists every operation with the badges and notices the document asks for; the code
 * samples it shows run against the mock; the try-it panel answers from the mock, plays a declared
 * status when asked, and is absent where `x-hideTryItPanel` says so; and a document that is not
 * the Petstore gets the same page. And (issue 25) what it offers works against the mock as
 * seeded: try-it on every operation with the values the page fills in is answered 2xx; its
 * examples have no out-of-range ids and each error's has its status; the operations start on the
 * first screen; the request log's drawer covers nothing; expanding every operation logs nothing.
 * And (issue 28) Authorize signs in against the mock's /__oauth on a document secured by OAuth 2.0.
 * One browser and one CLI serve every test; both are stopped whatever fails.
 *
 * With DOCS_SCREENSHOTS=1 the screenshots land in docs/images/ (docs/docs-page.md shows them); otherwise
 * they go to a temporary directory.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageDocsAssets } from './docs-assets.js';
import { codeSamplesOf, hidesTryIt } from './docs-document.js';
import { followRef } from './follow-ref.js';
import { HTTP_METHODS } from '../../openapi/operations/operation.js';
import { loadDocument, type LoadedDocument } from '../../openapi/document/load-document.js';
import type { SchemaObject } from '../../openapi/document/schema.js';
import { buildMock } from '../app.js';
import { startServer } from '../../server/serve.js';
import { launchChromium } from '../../test-support/chromium.js';
import { runSample, SAMPLE_PRECONDITIONS } from '../../test-support/code-samples.js';
import { CORPUS, httpCaller, ROOT } from '../../test-support/petstore.js';
import { startCli, type StartedProcess } from '../../test-support/processes.js';
import { collapse, count, expand, opblock, tryIt } from '../../test-support/swagger-ui-page.js';

const KEEP_SCREENSHOTS = process.env.DOCS_SCREENSHOTS === '1';
const SCREENSHOTS = KEEP_SCREENSHOTS ? join(ROOT, 'docs/images') : mkdtempSync(join(tmpdir(), 'docs-page-'));
mkdirSync(SCREENSHOTS, { recursive: true });

let browser: Browser;
let mock: StartedProcess & { url: string };
let petstore: LoadedDocument;
const started: StartedProcess[] = [];

beforeAll(async () => {
  // Started together, but each kept (for afterAll to stop) once it is up, whichever of the others failed.
  const [cli, chromium, document] = await Promise.allSettled([startCli([]), launchChromium(), loadDocument(join(ROOT, 'spec/openapi.yaml'))]);
  if (cli.status === 'fulfilled') started.push((mock = cli.value));
  if (chromium.status === 'fulfilled') browser = chromium.value;
  if (document.status === 'fulfilled') petstore = document.value;
  for (const result of [cli, chromium, document]) if (result.status === 'rejected') throw result.reason;
});

afterAll(async () => {
  for (const { child } of started) child.kill();
  if (!KEEP_SCREENSHOTS) rmSync(SCREENSHOTS, { recursive: true, force: true });
  await browser?.close();
});

/** The document's operations as the page lists them: method, path, the operation as written. */
function operationsOf(api: SchemaObject): Array<{ method: string; path: string; operation: SchemaObject }> {
  return Object.entries(api.paths as Record<string, SchemaObject>).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({ method, path, operation: item[method] as SchemaObject })),
  );
}

/** What a page did while it was open: console errors, uncaught errors, console warnings, every URL it asked for. */
interface Watched {
  page: Page;
  errors: string[];
  warnings: string[];
  requests: string[];
}

async function openDocs(url: string, path = '/__docs', viewport = { width: 1280, height: 900 }): Promise<Watched> {
  const page = await browser.newPage({ viewport });
  const watched: Watched = { page, errors: [], warnings: [], requests: [] };
  page.on('console', (message) => message.type() === 'error' && watched.errors.push(message.text()));
  page.on('console', (message) => message.type() === 'warning' && watched.warnings.push(message.text()));
  page.on('pageerror', (error) => watched.errors.push(`uncaught: ${error.message}`));
  page.on('request', (request) => watched.requests.push(request.url()));
  await page.goto(`${url}${path}`);
  await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
  return watched;
}

/** Waits (up to 5 s) until the first element's text contains `text`. */
async function containsText(locator: Locator, text: string): Promise<void> {
  await expect.poll(async () => (await locator.first().textContent()) ?? '', { timeout: 5_000 }).toContain(text);
}

/**
 * A screenshot from the top of one element to the bottom of another below it. The reference
 * scrolls in its own pane, not the window (a full-page screenshot shows no more of it): the
 * viewport is made tall enough for both for the while.
 */
async function screenshotBetween(top: Locator, bottom: Locator, path: string): Promise<void> {
  const page = top.page();
  const viewport = page.viewportSize()!;
  const span = async () => [(await top.boundingBox())!, (await bottom.boundingBox())!] as const;
  let [from, to] = await span();
  // Room for both, and for the request log's bar below the pane.
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, Math.ceil(to.y + to.height - from.y) + 100) });
  try {
    await top.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    [from, to] = await span();
    await page.screenshot({ path, clip: { x: from.x, y: from.y, width: from.width, height: to.y + to.height - from.y + 10 } });
  } finally {
    await page.setViewportSize(viewport);
  }
}

describe('the docs page (Chromium)', () => {
  it('is where GET / leads; it loads with no console error, and nothing leaves the mock\'s origin', async () => {
    const { page, errors, requests } = await openDocs(mock.url, '/');
    try {
      expect(page.url()).toBe(`${mock.url}/__docs`);
      await count(page.locator('.opblock'), operationsOf(petstore.raw).length);
      // The first screen: the title, the description's first block, the servers and Authorize, the operations.
      await page.screenshot({ path: join(SCREENSHOTS, 'docs-reference.png') });
      expect(errors).toEqual([]);
      const origin = new URL(mock.url).origin;
      expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      // The page and its assets, and the document: all from the mock.
      expect(requests.map((url) => new URL(url).pathname)).toEqual(expect.arrayContaining(['/__docs', '/__docs/swagger-ui-bundle.js', '/__docs/docs-ui.js', '/__spec.json']));
    } finally {
      await page.close();
    }
  });

  it('lists every operation, with the stability badge and the deprecation notice where the document puts them', async () => {
    const { page, errors } = await openDocs(mock.url);
    try {
      for (const { method, path, operation } of operationsOf(petstore.raw)) {
        const block = opblock(page, method, path);
        await count(block, 1, `${method} ${path}`);
        const badge = block.locator('.opblock-summary .mock-stability');
        // A deprecated operation shows its deprecation only: getPet's `x-stability: stable` is not shown beside it.
        if (operation['x-stability'] && !operation.deprecated) expect(await badge.textContent(), `${method} ${path}`).toBe(operation['x-stability']);
        else await count(badge, 0, `${method} ${path}`);
        await count(block.locator('.opblock-summary .mock-deprecated'), operation.deprecated ? 1 : 0, `${method} ${path}`);
      }
      expect((petstore.raw.paths as Record<string, Record<string, SchemaObject>>)['/pets/{petId}'].get['x-stability']).toBe('stable');
      // Both values of x-stability besides `stable` that the Petstore uses show.
      const current = operationsOf(petstore.raw).filter((o) => !o.operation.deprecated);
      expect(new Set(await page.locator('.mock-stability').allTextContents())).toEqual(new Set(current.map((o) => o.operation['x-stability']).filter(Boolean)));

      const getPet = opblock(page, 'get', '/pets/{petId}');
      expect(await getPet.locator('.mock-deprecated').textContent()).toBe('deprecated · sunset 2027-06-30');
      await expand(getPet);
      const notice = getPet.locator('.mock-deprecation');
      await containsText(notice, 'Deprecated since 2026-09-01; sunset on 2027-06-30.');
      // The headers the mock sends, as it sends them.
      const sent = await fetch(`${mock.url}/pets/1`, { headers: { Authorization: 'Bearer petstore-demo-key' } });
      await containsText(notice, `Sunset: ${sent.headers.get('sunset')}`);
      await containsText(notice, `Deprecation: ${sent.headers.get('deprecation')}`);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows each operation\'s code samples in tabs, pointing at the mock; its cURL and JavaScript samples, run as shown, succeed', async () => {
    const { page, errors } = await openDocs(mock.url);
    const call = httpCaller(mock.url);
    const ran: string[] = [];
    try {
      for (const { method, path, operation } of operationsOf(petstore.raw)) {
        const samples = codeSamplesOf(operation);
        const block = opblock(page, method, path);
        await expand(block);
        // The tabs render with the operation's parameters, which may come a frame after its body.
        if (samples.length > 0) await block.locator('.mock-tab').first().waitFor();
        expect(await block.locator('.mock-tab').allTextContents(), `${method} ${path}`).toEqual(samples.map((s) => s.label ?? s.lang));
        expect(samples.map((s) => s.lang)).toEqual(['cURL', 'JavaScript', 'Python']);
        for (const [i, sample] of samples.entries()) {
          await block.locator('.mock-tab').nth(i).click();
          const shown = (await block.locator('.mock-sample pre').textContent()) ?? '';
          expect(shown.trim()).toBe(sample.source.replaceAll('http://localhost:4010', mock.url).trim());
          if (sample.lang === 'Python') continue; // shown and checked as text; src/code-samples.process.test.ts runs it
          await reset(mock.url);
          await SAMPLE_PRECONDITIONS[operation.operationId as string]?.(call);
          const stdout = await runSample(sample.lang, shown);
          const [last] = await latestRequests(mock.url, 1);
          expect(`${last.method} ${last.status}`, `${operation.operationId} ${sample.lang}: ${stdout}`).toMatch(new RegExp(`^${method.toUpperCase()} 2\\d\\d$`));
          ran.push(`${operation.operationId} ${sample.lang}`);
        }
      }
      expect(ran).toHaveLength(operationsOf(petstore.raw).length * 2);
      expect(errors).toEqual([]);
    } finally {
      await reset(mock.url);
      await page.close();
    }
  });

  it('tries GET /pets against the mock (a 200 with its pets), and plays a declared error status when one is chosen', async () => {
    const { page, errors } = await openDocs(mock.url);
    try {
      const listPets = opblock(page, 'get', '/pets');
      // Three pets, so the answer fits a screenshot.
      await expand(listPets);
      await listPets.locator('.try-out__btn').click();
      await listPets.locator('tr[data-param-name="limit"] input').fill('3');
      const ok = await tryIt(listPets);
      expect(ok.status).toBe(200);
      const pets = JSON.parse(ok.body) as Array<{ id: number; name: string }>;
      const fromTheMock = (await httpCaller(mock.url)('GET', '/pets?limit=3&offset=0')).body;
      expect(pets).toEqual(fromTheMock);
      expect(pets.length).toBeGreaterThan(0);
      // From the parameters to the response headers.
      await screenshotBetween(listPets.locator('.parameters-container'), listPets.locator('.live-responses-table'), join(SCREENSHOTS, 'docs-try-it.png'));
      expect(errors).toEqual([]);

      // Every declared status is offered; 401 is chosen, and shown with the document's Error body.
      const offered = await listPets.locator('.mock-scenario option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
      expect(offered).toEqual(expect.arrayContaining(['', 'code=200', 'code=400', 'code=401']));
      const refused = await tryIt(listPets, 'code=401');
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
      await containsText(listPets.locator('.curl-command'), "Prefer: code=401");
      // The browser logs the 401 it was asked for; nothing else.
      expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('offers no try-it on GET /store/orders (x-hideTryItPanel: true), and says why', async () => {
    const { page, errors } = await openDocs(mock.url);
    try {
      const orders = opblock(page, 'get', '/store/orders');
      await expand(orders);
      await count(orders.locator('.try-out__btn'), 0);
      await containsText(orders.locator('.mock-no-try-it'), 'x-hideTryItPanel');
      // Its neighbour keeps it.
      const placeOrder = opblock(page, 'post', '/store/orders');
      await expand(placeOrder);
      await count(placeOrder.locator('.try-out__btn'), 1);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('lists the requests the mock answers in a drawer beside the reference, live while it is open', async () => {
    const { page, errors } = await openDocs(mock.url);
    try {
      const drawer = page.locator('details.mock-log');
      await drawer.locator('summary').click();
      // A request from another client, with a scenario: it shows, as the command's log describes it.
      await fetch(`${mock.url}/pets/2`, { headers: { Authorization: 'Bearer petstore-demo-key', Prefer: 'code=404' } });
      const row = drawer.locator('tbody tr').filter({ hasText: '/pets/2' }).first();
      await expect.poll(async () => (await row.count()) && (await row.locator('td').allTextContents()).slice(1), { timeout: 5_000 }).toEqual(['GET', '/pets/2', '404', expect.any(String), 'code=404: forced']);
      // Closed, it stops reading: no request to the admin API while closed.
      await drawer.locator('summary').click();
      const reads: string[] = [];
      page.on('request', (request) => request.url().includes('/__admin/') && reads.push(request.url()));
      await page.waitForTimeout(2_500);
      expect(reads).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('serves a document that is not the Petstore: every operation, try-it under its base path, Basic auth filled in', async () => {
    const file = join(CORPUS, 'redocly-museum.yaml');
    const museum = await startCli(['--spec', file, '--admin-token', 'museum-admin-token']);
    started.push(museum);
    const api = (await loadDocument(file)).raw;
    const { page, errors, requests } = await openDocs(museum.url, '/');
    try {
      // Webhooks (OpenAPI 3.1) are listed too; each operation once.
      for (const { method, path } of operationsOf(api)) await count(opblock(page, method, path), 1, `${method} ${path}`);
      const authorization: string[] = [];
      page.on('request', (request) => request.url().includes('/museum-hours') && authorization.push(request.headers().authorization ?? ''));
      const hours = await tryIt(opblock(page, 'get', '/museum-hours'));
      // The document's scheme is HTTP Basic: the page filled it in with the demo key as the user name.
      expect(authorization).toEqual([`Basic ${btoa('petstore-demo-key:')}`]);
      expect(hours.status).toBe(200);
      expect(Array.isArray(JSON.parse(hours.body))).toBe(true);
      const sent = requests.find((url) => url.includes('/museum-hours'));
      expect(sent && new URL(sent).pathname).toBe('/_mock/docs/openapi/museum-api/museum-hours');
      expect(requests.filter((url) => new URL(url).origin !== new URL(museum.url).origin)).toEqual([]);
      expect(errors).toEqual([]);
      // With --admin-token the page cannot read the request log (it has no token), and says why.
      await page.locator('details.mock-log summary').click();
      await containsText(page.locator('.mock-log-body'), 'answers a browser on this machine only (without --admin-token); here it said 401');
    } finally {
      await page.close();
    }
  });

  it('signs in with Authorize against the mock\'s own authorization server (authorization code with PKCE), and Try it out sends its token', async () => {
    const boards = await startCli(['--spec', join(ROOT, 'test/documents/oauth-api.yaml')]);
    started.push(boards);
    const { page, errors, requests } = await openDocs(boards.url);
    try {
      const authorization: string[] = [];
      page.on('request', (request) => new URL(request.url()).pathname === '/api/boards' && authorization.push(request.headers().authorization ?? ''));
      await page.locator('button.authorize').first().click();
      const flow = page.locator('.auth-container').filter({ hasText: 'authorizationCode with PKCE' }).first();
      expect(await flow.locator('input[id^="client_id"]').inputValue()).toBe('mock-docs');
      await flow.locator('a', { hasText: 'select all' }).click();
      // The popup goes to /__oauth/authorize, is sent back at once to /__docs/oauth2-redirect.html, hands the code over and closes.
      const [popup] = await Promise.all([page.waitForEvent('popup'), flow.locator('button.authorize').click()]);
      if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 10_000 });
      await count(flow.locator('button', { hasText: 'Logout' }), 1, 'signed in');
      await page.locator('.modal-ux .close-modal').click();
      // createBoard needs boards:write: the token has it.
      const created = await tryIt(opblock(page, 'post', '/boards'));
      expect(created.status).toBe(201);
      expect(authorization).toHaveLength(1);
      expect(authorization[0]).toMatch(/^Bearer eyJ/); // a JWT of the mock's, not the key
      expect(requests.filter((url) => new URL(url).origin !== new URL(boards.url).origin)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('renders every document of the corpus with no console error or warning, each operation listed', async () => {
    const docs = packageDocsAssets();
    const files = readdirSync(CORPUS).filter((f) => /\.(ya?ml|json)$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(20);
    async function renders(file: string): Promise<void> {
      const built = buildMock(await loadDocument(join(CORPUS, file)), { docs });
      const server = await startServer(built.app, { port: 0, host: '127.0.0.1' });
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => ['error', 'warning'].includes(message.type()) && problems.push(`${message.type()}: ${message.text()}`));
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      try {
        await page.goto(`${server.url}/__docs`);
        // A document with webhooks only (OpenAPI 3.1) lists those.
        await page.locator('.opblock, .no-ops, .webhooks').first().waitFor({ timeout: 20_000 });
        for (const op of built.operations) await count(opblock(page, op.method, op.path), 1, `${file}: ${op.method} ${op.path}`);
        expect(problems, file).toEqual([]);
      } finally {
        await page.close();
        await server.close();
      }
    }
    // Two pages at a time: each page renders in a Chromium process of its own, so two keep both
    // cores busy while this process waits (each page is still checked whole, on its own server).
    const lanes = [files.filter((_, i) => i % 2 === 0), files.filter((_, i) => i % 2 === 1)];
    const ends = await Promise.allSettled(lanes.map(async (lane) => {
      for (const file of lane) await renders(file);
    }));
    for (const end of ends) if (end.status === 'rejected') throw end.reason;
  });
});

describe('the examples the docs page offers, against the mock as seeded (Chromium)', () => {
  it('shows the first operation on the first screen; expanding every operation logs no warning or error, and no example is out of place', async () => {
    const { page, errors, warnings } = await openDocs(mock.url, '/__docs', { width: 1280, height: 800 });
    try {
      // Without scrolling: the long description is down to its first block, and a button for the rest.
      const pane = page.locator('#mock-docs-main');
      const first = (await page.locator('.opblock').first().boundingBox())!;
      const visible = (await pane.boundingBox())!;
      expect(await pane.evaluate((element) => element.scrollTop)).toBe(0);
      expect(first.y).toBeGreaterThanOrEqual(visible.y);
      expect(first.y + first.height).toBeLessThanOrEqual(visible.y + visible.height);
      expect(visible.y + visible.height).toBeLessThanOrEqual(800);
      expect(await page.locator('.info .description h2').count()).toBeGreaterThan(1);
      expect(await page.locator('.info .description h2').first().isVisible()).toBe(false);
      await page.locator('.mock-info-toggle').click();
      expect(await page.locator('.info .description h2').first().isVisible()).toBe(true);

      /** Each example shown, by `get /pets/{petId} 410` (responses) or `post /pets` (request bodies). */
      const shown = new Map<string, string>();
      for (const { method, path, operation } of operationsOf(petstore.raw)) {
        const block = opblock(page, method, path);
        await expand(block);
        // A deprecated operation says so, and nothing else: getPet's `x-stability: stable` is not shown.
        if (operation.deprecated) await count(block.locator('.mock-stability'), 0, `${method} ${path}`);
        // Every declared error's example (the document's, or the one generated for it) has its status. Swagger
        // UI resolves an operation once it opens, then shows the example of each response with a body.
        const bodies = Object.entries(operation.responses as Record<string, SchemaObject>).filter(([, response]) => followRef(petstore.raw, response).content).map(([status]) => status);
        const read = () => block.locator('.responses-table tr.response').evaluateAll((elements) => elements.map((row) => [row.getAttribute('data-code') ?? '', row.querySelector('.example')?.textContent ?? ''] as const));
        await expect.poll(async () => (await read()).filter(([, example]) => example).map(([status]) => status), { timeout: 5_000 }).toEqual(bodies);
        if (operation.requestBody) await count(block.locator('.opblock-section-request-body .microlight'), 1, `${method} ${path}`);
        const rows = await read();
        expect(rows).toHaveLength(Object.keys(operation.responses as Record<string, SchemaObject>).length);
        for (const [status, example] of rows) {
          shown.set(`${method} ${path} ${status}`, example);
          if (Number(status) >= 400) expect(JSON.parse(example), `${method} ${path} ${status}`).toMatchObject({ status: Number(status) });
        }
        for (const body of await block.locator('.opblock-section-request-body .microlight').allTextContents()) shown.set(`${method} ${path}`, body);
        await collapse(block);
      }
      // Every response and request body each operation declares.
      expect(shown.size).toBe(operationsOf(petstore.raw).reduce((n, { operation }) => n + Object.keys(operation.responses as Record<string, SchemaObject>).length + (operation.requestBody ? 1 : 0), 0));
      expect([...shown].filter(([, text]) => text.includes('9007199254740991'))).toEqual([]);
      expect(JSON.parse(shown.get('get /pets/{petId} 404')!)).toMatchObject({ code: 'NOT_FOUND', status: 404 });
      expect(JSON.parse(shown.get('get /pets/{petId} 410')!)).toMatchObject({ code: 'SUNSET', status: 410 });
      // The body try-it starts from names a category of the mock's.
      expect(JSON.parse(shown.get('post /pets')!)).toEqual({ name: 'Rex', categoryId: 1, status: 'available' });
      expect(errors).toEqual([]);
      expect(warnings).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('executes try-it on every operation that offers it, with the values the page fills in: each answered 2xx by a reset mock', async () => {
    const { page, errors } = await openDocs(mock.url);
    const call = httpCaller(mock.url);
    const answered: string[] = [];
    try {
      const operations = operationsOf(petstore.raw);
      // The one operation without try-it, as the document asks (x-hideTryItPanel).
      expect(operations.filter(({ operation }) => hidesTryIt(petstore.raw, operation)).map(({ method, path }) => `${method} ${path}`)).toEqual(['get /store/orders']);
      /** Whether the page was served on a state other than the seed's: its values are read from the state when it is served. */
      let stale = false;
      for (const { method, path, operation } of operations.filter((o) => !hidesTryIt(petstore.raw, o.operation))) {
        await reset(mock.url);
        const precondition = Object.hasOwn(SAMPLE_PRECONDITIONS, operation.operationId as string) ? SAMPLE_PRECONDITIONS[operation.operationId as string] : undefined;
        // deleteCategory: every seeded category holds pets; the same state its code sample gets (one emptied).
        if (precondition) await precondition(call);
        if (precondition || stale) {
          await page.reload();
          await page.locator('.opblock').first().waitFor();
        }
        stale = Boolean(precondition);
        const block = opblock(page, method, path);
        const { status, body } = await tryIt(block);
        await collapse(block);
        answered.push(`${method.toUpperCase()} ${path} ${status}`);
        expect(status, `${method} ${path}: ${body}`).toBeGreaterThanOrEqual(200);
        expect(status, `${method} ${path}: ${body}`).toBeLessThan(300);
        // The mock's own account of it: this operation's request, every path parameter filled in.
        const [last] = await latestRequests(mock.url, 1);
        expect(`${last.method} ${last.status}`).toBe(`${method.toUpperCase()} ${status}`);
        expect(last.path).toMatch(new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/{}%]+')}(\\?|$)`));
      }
      expect(answered).toHaveLength(operations.length - 1);
      expect(errors).toEqual([]);
    } finally {
      // The next test finds the mock as seeded.
      await page.close();
      await reset(mock.url);
    }
  });

  it('keeps the request log off the reference: open and full, its drawer covers no part of a responses table', async () => {
    const { page, errors } = await openDocs(mock.url, '/__docs', { width: 1280, height: 800 });
    try {
      for (let i = 0; i < 12; i++) await fetch(`${mock.url}/pets/${i + 1}`, { headers: { Authorization: 'Bearer petstore-demo-key' } });
      const drawer = page.locator('details.mock-log');
      await drawer.locator('summary').click();
      await expect.poll(() => drawer.locator('tbody tr').count(), { timeout: 5_000 }).toBeGreaterThanOrEqual(12);
      // The reference's pane ends where the drawer begins (within a pixel: the edge falls between pixels).
      const [pane, open] = [(await page.locator('#mock-docs-main').boundingBox())!, (await drawer.boundingBox())!];
      expect(pane.y + pane.height).toBeLessThanOrEqual(open.y + 1);
      expect(open.y + open.height).toBeLessThanOrEqual(800);
      // A responses table brought down to the bottom of what shows: its header, then its last row, are what is at their place.
      const getPet = opblock(page, 'get', '/pets/{petId}');
      await expand(getPet);
      const table = getPet.locator('.responses-table').first();
      for (const part of [table.locator('thead tr').first(), table.locator('tbody > tr.response').last()]) {
        await part.evaluate((element) => element.scrollIntoView({ block: 'end' }));
        const box = (await part.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(open.y + 1);
        expect(await part.evaluate((element) => {
          const { left, top, width, height } = element.getBoundingClientRect();
          return element.contains(element.ownerDocument.elementFromPoint(left + width / 2, top + height - 2));
        })).toBe(true);
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

async function reset(url: string): Promise<void> {
  const response = await fetch(`${url}/__admin/reset`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(200);
}

async function latestRequests(url: string, limit: number): Promise<Array<{ method: string; path: string; status: number }>> {
  const response = await fetch(`${url}/__admin/requests?limit=${limit}`);
  return ((await response.json()) as { requests: Array<{ method: string; path: string; status: number }> }).requests;
}
