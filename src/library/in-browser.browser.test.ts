/**
 * The mock running inside a real browser page: the page bundles `petstore-mock-kit/browser` and
 * `petstore-mock-kit/msw` (the built files, dist/browser.js and dist/msw.js: `npm run build`
 * first) with MSW's `setupWorker`, and its own `fetch` calls are answered by the mock in the page,
 * with state kept between requests. The page's server sees none of them. Chromium comes from
 * Debian (`apt-get install -y chromium`, done by .ci/run).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../core/package-root.js';
import { launchChromium } from '../test-support/chromium.js';

const WORK = join(PACKAGE_ROOT, '.tmp/in-browser');

/** The frontend's code: start the mock in the page behind MSW, then signal it is ready. */
const APP = `
import { setupWorker } from 'msw/browser';
import { createMock } from '../../dist/browser.js';
import { mswHandlers } from '../../dist/msw.js';
const mock = await createMock();
window.mock = mock;
await setupWorker(...mswHandlers(mock, { baseUrl: '/api' })).start({ quiet: true, onUnhandledRequest: 'bypass' });
window.ready = true;
`;
const PAGE = '<!doctype html><title>in-browser mock</title><script type="module" src="/app.js"></script>';

let browser: Browser;
let site: Server;
let siteUrl: string;
let bundle: string;
/** Paths the page's server was asked for: the API calls must not be among them. */
const served: string[] = [];

async function build(code: string, name: string, external: string[] = []): Promise<string> {
  writeFileSync(join(WORK, `${name}.js`), code);
  const bundler = await rolldown({ input: join(WORK, `${name}.js`), platform: 'browser', logLevel: 'silent', external });
  const { output } = await bundler.generate({ format: 'esm', minify: true, codeSplitting: false });
  await bundler.close();
  return output[0].code;
}

beforeAll(async () => {
  if (!existsSync(join(PACKAGE_ROOT, 'dist/browser.js'))) throw new Error('This test bundles dist/browser.js: npm run build first.');
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  bundle = await build(APP, 'app');
  const worker = readFileSync(join(PACKAGE_ROOT, 'node_modules/msw/lib/mockServiceWorker.js'));
  site = createServer((req, res) => {
    served.push(req.url ?? '');
    if (req.url === '/app.js') return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle);
    if (req.url === '/mockServiceWorker.js') return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(worker);
    if (req.url === '/') return res.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  site?.close();
  rmSync(WORK, { recursive: true, force: true });
});

describe('the mock in a browser page, behind MSW setupWorker', () => {
  it("answers the page's fetch calls from state kept in the page", async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(String(error)));
    await tab.goto(siteUrl);
    await tab.waitForFunction(() => (globalThis as { ready?: boolean }).ready === true, undefined, { timeout: 120_000 }).catch(() => {
      throw new Error(`The page did not start the mock: ${errors.join('; ') || 'no error reported'}`);
    });
    const result = await tab.evaluate(async () => {
      const auth = { Authorization: 'Bearer petstore-demo-key' };
      const json = { ...auth, 'Content-Type': 'application/json' };
      const categories = (await (await fetch('/api/categories', { headers: auth })).json()) as Array<{ name: string }>;
      const created = await fetch('/api/pets', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Born in the browser', categoryId: 1 }) });
      const pet = (await created.json()) as { id: number; name: string };
      const read = (await (await fetch(`/api/pets/${pet.id}`, { headers: auth })).json()) as { name: string };
      const renamed = await fetch(`/api/pets/${pet.id}`, { method: 'PATCH', headers: json, body: JSON.stringify({ name: 'Renamed' }) });
      const anonymous = await fetch('/api/pets');
      const deleted = await fetch(`/api/pets/${pet.id}`, { method: 'DELETE', headers: auth });
      const gone = await fetch(`/api/pets/${pet.id}`, { headers: auth });
      return {
        categories: categories.map((c) => c.name),
        created: created.status,
        read: read.name,
        renamed: renamed.status,
        renamedName: renamed.ok ? ((await renamed.json()) as { name: string }).name : await renamed.text(),
        anonymous: anonymous.status,
        anonymousBody: await anonymous.json(),
        deleted: deleted.status,
        gone: gone.status,
        controlled: (globalThis as unknown as { navigator: { serviceWorker: { controller: unknown } } }).navigator.serviceWorker.controller !== null,
      };
    });
    await tab.close();
    expect(errors).toEqual([]);
    expect(result).toMatchObject({ created: 201, read: 'Born in the browser', renamed: 200, renamedName: 'Renamed', anonymous: 401, deleted: 204, gone: 404, controlled: true });
    expect(result.categories).toContain('Dogs'); // the bundled fixtures
    expect(Object.keys(result.anonymousBody as object).sort()).toEqual(['code', 'message', 'status']);
    expect(served.filter((path) => path.startsWith('/api'))).toEqual([]);
  });

  it('reports what the library adds to a browser bundle (minified), MSW apart', async () => {
    // createMock and mswHandlers with their dependencies (hono, Ajv, Faker's English data, js-yaml), MSW left out: the application has it already.
    const library = await build(`export { createMock } from '../../dist/browser.js';\nexport { mswHandlers } from '../../dist/msw.js';\n`, 'library', ['msw']);
    console.log(`browser bundle, minified: the library ${kb(library.length)} (${kb(gzipSync(library).length)} gzip); the whole test page with MSW ${kb(bundle.length)} (${kb(gzipSync(bundle).length)} gzip)`);
    expect(library).not.toMatch(/from\s*["']node:|require\(["']node:/);
    expect(library).toMatch(/from\s*["']msw["']/); // left out, as the application's own
    expect(library.length).toBeLessThan(bundle.length);
  });
});

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
