/**
 * GET /__docs in-process: the page (its settings, its Content-Security-Policy, the key it offers
 * and to whom), its assets (types, gzip, entity tags), GET / leading there only when the document
 * has nothing at `/`, and a 404 in the document's error shape when the page is off. The page in a
 * browser: docs-page.browser.test.ts. The assets the build writes in dist/docs, served:
 * docs-assets.dist.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildMock } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { petstore, ROOT } from '../../test-support/petstore.js';
import { packageDocsAssets } from './docs-assets.js';
import type { DocsConfig } from './docs-document.js';
import type { DocsAssets } from './docs-endpoint.js';

const assets = packageDocsAssets();

/** The settings a page carries. */
async function configOf(response: Response): Promise<DocsConfig> {
  const html = await response.text();
  const json = /<script type="application\/json" id="mock-docs-config">(.*?)<\/script>/s.exec(html)?.[1];
  expect(json, html).toBeDefined();
  return JSON.parse(json!) as DocsConfig;
}

describe('GET /__docs', () => {
  it('serves the page: its settings, and a policy that keeps every request on the mock\'s origin', async () => {
    const mock = await petstore({ docs: assets });
    const page = await mock.app.request('/__docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const csp = page.headers.get('content-security-policy')!;
    for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]) expect(csp).toContain(directive);
    const config = await configOf(page);
    expect(config).toMatchObject({ title: 'Petstore', specUrl: '/__spec.json', basePath: '', apiKey: 'petstore-demo-key' });
    // The deprecation headers the page shows are the ones the mock sends.
    const sent = await mock.call('GET', '/pets/1');
    expect(config.deprecations).toEqual({ 'get /pets/{petId}': { Deprecation: sent.headers.get('deprecation'), Sunset: sent.headers.get('sunset'), Link: sent.headers.get('link') } });
  });

  it('carries keys of the records the mock holds when the page is served, for the try-it panel', async () => {
    const mock = await petstore({ docs: assets });
    const first = (await configOf(await mock.app.request('/__docs'))).values!;
    expect(first.references).toEqual({ categoryId: 1, petId: 1 });
    const { petId } = first.parameters['delete /pets/{petId}'];
    expect((await mock.call('DELETE', `/pets/${petId}`)).status).toBe(204);
    // Read again for the next page: the pet deleted is not offered any more.
    const next = (await configOf(await mock.app.request('/__docs'))).values!;
    expect(next.parameters['delete /pets/{petId}'].petId).not.toBe(petId);
    expect((await mock.call('GET', `/pets/${next.parameters['delete /pets/{petId}'].petId}`)).status).toBe(200);
  });

  it('offers a key of one\'s own only to a caller on this machine that named it (a loopback Host), never through a proxy', async () => {
    const own = await petstore({ docs: assets, apiKeys: ['s3cret-key'] });
    expect((await configOf(await own.app.request('/__docs'))).apiKey).toBe('s3cret-key');
    const remote = await configOf(await own.app.request('/__docs', { headers: { 'X-Forwarded-For': '203.0.113.9' } }));
    expect(remote.apiKey).toBeUndefined();
    // Nor the keys of its records, which the API would not give it either.
    expect(remote.values).toBeUndefined();
    const proxied = await petstore({ docs: assets, apiKeys: ['s3cret-key'], trustProxy: true });
    expect((await configOf(await proxied.app.request('/__docs'))).apiKey).toBeUndefined();
    // A page whose own name points at 127.0.0.1 (DNS rebinding) has a loopback peer: its Host gives it away.
    for (const host of ['evil.example', 'evil.example:4010', '10.0.0.5:4010', '127.0.0.1.evil.example']) {
      const rebound = await configOf(await own.app.request(`http://${host}/__docs`));
      expect([rebound.apiKey, rebound.values], host).toEqual([undefined, undefined]);
    }
    for (const host of ['localhost:4010', '127.0.0.1:4010', '127.0.0.2', '[::1]:4010']) {
      expect((await configOf(await own.app.request(`http://${host}/__docs`))).apiKey, host).toBe('s3cret-key');
    }
    // The demo key is in the document for all to read: offered to anyone.
    const demo = await petstore({ docs: assets, trustProxy: true });
    expect((await configOf(await demo.app.request('/__docs', { headers: { Forwarded: 'for=203.0.113.9' } }))).apiKey).toBe('petstore-demo-key');
  });

  it('tells the page where OAuth sign-ins come back when the mock serves an authorization server, and serves that page with the policy', async () => {
    expect((await configOf(await (await petstore({ docs: assets })).app.request('/__docs'))).oauth).toBeUndefined();
    const files: DocsAssets = { get: (name) => ({ body: new TextEncoder().encode(name === 'oauth2-redirect.html' ? '<!doctype html><script src="oauth2-redirect.js"></script>' : 'run()') }) };
    const { app } = buildMock(await loadDocument(`${ROOT}test/documents/oauth-api.yaml`), { docs: files });
    expect((await configOf(await app.request('/__docs'))).oauth).toEqual({ redirectPath: '/__docs/oauth2-redirect.html' });
    const redirect = await app.request('/__docs/oauth2-redirect.html');
    expect(redirect.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(redirect.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(redirect.headers.get('x-frame-options')).toBe('DENY');
    expect((await app.request('/__docs/oauth2-redirect.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('escapes the settings: a title cannot end the script they are in', async () => {
    const document = await loadDocument({ openapi: '3.0.3', info: { title: '</script><script>alert(1)</script>', version: '1' }, paths: {} });
    const html = await (await buildMock(document, { docs: assets }).app.request('/__docs')).text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('<title>&#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62; · API reference (mock)</title>');
  });

  it('answers a name it does not serve, or an asset the source lacks, with a 404 in the error shape', async () => {
    const none: DocsAssets = { get: () => undefined };
    for (const [docs, path] of [[assets, '/__docs/package.json'], [assets, '/__docs/..%2Fcli.js'], [none, '/__docs/docs-ui.js']] as const) {
      const response = await (await petstore({ docs })).app.request(path);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    }
  });

  it('is off without assets (a mock in a browser, or --no-docs): 404 in the error shape, and / is not led there', async () => {
    const { app } = await petstore();
    const page = await app.request('/__docs');
    expect(page.status).toBe(404);
    expect(await page.json()).toMatchObject({ code: 'NOT_FOUND', status: 404, message: expect.stringContaining('docs page is off') });
    const root = await app.request('/');
    expect(root.status).toBe(404);
    expect(await root.json()).toMatchObject({ status: 404 });
  });

  it('tells onRequest of each answer, as the other endpoints of the mock do', async () => {
    const seen: string[] = [];
    const { app } = await petstore({ docs: assets, onRequest: (entry) => seen.push(`${entry.method} ${entry.path} ${entry.status}`) });
    await app.request('/');
    await app.request('/__docs');
    await app.request('/__docs/nope.js');
    expect(seen).toEqual(['GET / 302', 'GET /__docs 200', 'GET /__docs/nope.js 404']);
  });
});

describe('GET /', () => {
  const withRoot = (methods: string[]) =>
    loadDocument({
      openapi: '3.0.3',
      info: { title: 'Root', version: '1' },
      paths: { '/': Object.fromEntries(methods.map((m) => [m, { responses: { 200: { description: 'ok', content: { 'application/json': { example: { root: true } } } } } }])) },
    });

  it('leads to the docs page when no operation is at / (and so does /__docs/)', async () => {
    const { app } = await petstore({ docs: assets });
    for (const path of ['/', '/__docs/']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe('/__docs');
    }
  });

  it('warns at start of an operation the docs page hides', async () => {
    const document = await loadDocument({ openapi: '3.0.3', info: { title: 'Hidden', version: '1' }, paths: { '/__docs/{page}': { get: { operationId: 'page', parameters: [{ name: 'page', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok' } } } } } });
    expect(buildMock(document, { docs: assets }).warnings).toContain("page: GET /__docs/{page} is hidden by the mock's docs page (/__docs).");
    expect(buildMock(document).warnings).toEqual([]);
  });

  it('is the document\'s own when an operation is there: answered by it, or 405 for another method', async () => {
    const get = buildMock(await withRoot(['get']), { docs: assets });
    const answer = await get.app.request('/');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ root: true });
    const post = buildMock(await withRoot(['post']), { docs: assets });
    const refused = await post.app.request('/');
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toContain('POST');
  });
});
