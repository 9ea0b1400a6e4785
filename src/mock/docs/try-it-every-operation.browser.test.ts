/**
 * Issue 40, point 3, in Chromium: Try it out on every operation of a sample of documents, through
 * Swagger UI as a user drives it (expand, Try it out, Execute), each answered as the operation
 * promises (a 2xx, or a status it declares when it declares no 2xx) by the mock as seeded.
 *
 * A sample, as driving all 24 documents so takes about 4 minutes on 2 cores (this takes about
 * 40 s): the issue tracker with discriminated `oneOf` bodies (test/documents/tracker-api.yaml),
 * train-travel (required query parameters, signed in with OAuth 2.0), readme's discriminators
 * (mappings, implicit names, overlapping branches), uspto (a form body, path parameters no record
 * gives) and Twilio's bulk exports (forms, HTTP Basic, a key named by its parent). Every operation
 * of every document of the corpus is checked by try-it-every-operation.integration.test.ts, whose
 * requests come from the page's copy of the document as Swagger UI reads its starting values:
 * here each request Swagger UI sends is compared with that one (method, path, query, body), so
 * what the integration test sends is what the page sends. An operation whose page says why it
 * cannot succeed (its description's "Try it out: ...") is left to the integration test, which
 * checks the reason. */
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { startServer } from '../../server/serve.js';
import { launchChromium } from '../../test-support/chromium.js';
import { CORPUS, ROOT } from '../../test-support/petstore.js';
import { collapse, count, opblock, tryIt } from '../../test-support/swagger-ui-page.js';
import { defaultRequests, pageOf } from '../../test-support/try-it-defaults.js';
import { packageDocsAssets } from './docs-assets.js';

const SAMPLE = [
  join(ROOT, 'test/documents/tracker-api.yaml'),
  join(CORPUS, 'bump-train-travel.yaml'),
  join(CORPUS, 'readme-discriminators.yaml'),
  join(CORPUS, 'oai-uspto.yaml'),
  join(CORPUS, 'apisguru-twilio-bulkexports.yaml'),
];

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Authorize's authorization code flow (with PKCE) against the mock's /__oauth, every scope chosen. */
async function signIn(page: Page): Promise<void> {
  await page.locator('button.authorize').first().click();
  const flow = page.locator('.auth-container').filter({ hasText: 'authorizationCode with PKCE' }).first();
  await flow.locator('a', { hasText: 'select all' }).click();
  const [popup] = await Promise.all([page.waitForEvent('popup'), flow.locator('button.authorize').click()]);
  if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 10_000 });
  await count(flow.locator('button', { hasText: 'Logout' }), 1, 'signed in');
  await page.locator('.modal-ux .close-modal').click();
}

/** A request's fields as compared: method, path, the query's pairs in order, the body (JSON parsed, a form's pairs). */
function shapeOf(method: string, url: URL, contentType: string | undefined, body: string | undefined) {
  const form = contentType?.startsWith('application/x-www-form-urlencoded');
  const parsed = body === undefined || body === '' ? undefined : form ? [...new URLSearchParams(body)].sort() : JSON.parse(body);
  return { method: method.toUpperCase(), path: decodeURIComponent(url.pathname), query: [...url.searchParams].sort(), body: parsed };
}

// Concurrent (two at a time: the browser project's maxConcurrency): each document has its own mock,
// server and page, and each page renders in a Chromium process of its own, so two keep both cores busy.
describe.concurrent('Try it out on every operation of a sample of documents (Chromium)', () => {
  for (const file of SAMPLE) {
    it(`sends the page's starting request for each operation of ${file.slice(ROOT.length)}, each answered as the operation promises`, async ({ expect }) => {
      const built = buildMock(await loadDocument(file), { docs: packageDocsAssets() });
      const server = await startServer(built.app, { port: 0, host: '127.0.0.1' });
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      try {
        const { page: copy, config } = await pageOf(built, server.url);
        const expected = defaultRequests(copy, DEMO_API_KEY).filter((r) => config.values?.unconfirmed?.[`${r.method} ${r.template}`] === undefined);
        expect(expected.length).toBeGreaterThan(0);
        await page.goto(`${server.url}/__docs`);
        await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
        // A document secured by OAuth 2.0: signed in with Authorize first, as a user does (the page fills in keys only).
        if (config.oauth) await signIn(page);
        const answered: string[] = [];
        for (const request of expected) {
          const where = `${request.method.toUpperCase()} ${request.template}`;
          // Each on the state the page was served on: the seed (a delete before does not take a record away).
          built.reset();
          const sent: Request[] = [];
          // The page's own calls (an image shown as the answer is fetched again by the <img>: not a call).
          const listen = (r: Request) => ['fetch', 'xhr'].includes(r.resourceType()) && !new URL(r.url()).pathname.startsWith('/__') && sent.push(r);
          page.on('request', listen);
          const block = opblock(page, request.method, request.template);
          const { status, body } = await tryIt(block);
          page.off('request', listen);
          await collapse(block);
          expect(sent, where).toHaveLength(1);
          const [one] = sent;
          const headers = await one.allHeaders();
          const actual = shapeOf(one.method(), new URL(one.url()), headers['content-type'], one.postData() ?? undefined);
          const wanted = shapeOf(request.method, new URL(`${server.url}${config.basePath}${request.url}`), request.headers['Content-Type'], request.body);
          expect(actual, `${where}: Swagger UI sends the page's starting request`).toEqual(wanted);
          const declared = Object.keys(request.operation.responses ?? {});
          const ok = (status >= 200 && status < 300) || (!declared.some((code) => code.startsWith('2')) && declared.includes(String(status)));
          expect(ok, `${where}: ${status} ${body.slice(0, 300)}`).toBe(true);
          answered.push(`${where} ${status}`);
        }
        expect(answered).toHaveLength(expected.length);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
        await server.close();
      }
    });
  }
});
