/**
 * Every answer the mock sends in a type a browser may render as a document (HTML, SVG, XML, or
 * anything that is not JSON) is sandboxed, on every path that writes one: a record read as a page,
 * a body an extension's encoder writes, a static answer, a scenario forced by `Prefer`, an error,
 * with or without CORS, through the proxy's mock fallback and its own errors. JSON answers carry
 * no policy (bytes cost throughput: src/core/security-headers.ts). The attack itself, in Chromium:
 * src/mock/respond/stored-markup.browser.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMock, type Mock } from '../app.js';
import { SANDBOX_POLICY, sandboxed } from '../../core/security-headers.js';
import { packageDocsAssets } from '../docs/docs-assets.js';
import { loadDocument, type LoadedDocument } from '../../openapi/document/load-document.js';
import { buildProxy } from '../../proxy/proxy.js';
import type { MockPlugin } from '../registries/extension.js';
import { ROOT } from '../../test-support/petstore.js';

const PAGES = `${ROOT}test/documents/pages-api.yaml`;
const MARKUP = '<img src=x onerror=alert(document.domain)>';
type HeaderSet = Record<string, string>;
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

/** An extension writing a badge as its own markup (image/svg+xml), and anything as XML. */
const pagesPlugin: MockPlugin = {
  name: 'pages',
  mock(parts) {
    parts.bodyEncoders.register('image/svg+xml', (value) => String((value as { markup?: unknown }).markup ?? ''));
    parts.bodyEncoders.register('application/xml', (value) => `<value>${String(value)}</value>`);
    return true;
  },
};

let document: LoadedDocument;
beforeAll(async () => {
  document = await loadDocument(PAGES);
});

const pagesMock = () => buildMock(document, { plugins: [pagesPlugin], counts: { default: 0 } });

/** Creates a card and a badge holding markup; their ids. */
async function stored(mock: Mock): Promise<{ card: number; badge: number }> {
  const send = async (path: string, body: unknown) => {
    const response = await mock.app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status, path).toBe(201);
    return ((await response.json()) as { id: number }).id;
  };
  return { card: await send('/cards', { title: MARKUP }), badge: await send('/badges', { markup: SVG }) };
}

function expectSandboxed(response: Response, what: string): void {
  expect(response.headers.get('Content-Security-Policy'), what).toBe(SANDBOX_POLICY);
  expect(response.headers.get('X-Content-Type-Options'), what).toBe('nosniff');
}

describe('the sandbox rule (sandboxed)', () => {
  const typesBrowsersRender = [
    'text/html',
    'text/html; charset=utf-8',
    'TEXT/HTML',
    'application/xhtml+xml',
    'image/svg+xml',
    'text/xml',
    'application/xml',
    'application/atom+xml',
    'application/rss+xml',
    'text/xsl',
    'application/xslt+xml',
    'application/pdf',
    'text/plain',
    'text/csv',
    'application/octet-stream',
    'application/x-made-up',
    'image/png',
    'application/json, text/html', // a browser takes the last type of a list
    'application/jsonp',
    'text/json',
    '',
  ];
  it('sandboxes every Content-Type that is not JSON, unknown and missing ones included', () => {
    for (const type of typesBrowsersRender) {
      expect(sandboxed({ 'Content-Type': type })['Content-Security-Policy'], type).toBe(SANDBOX_POLICY);
    }
    expect(sandboxed({})['Content-Security-Policy']).toBe(SANDBOX_POLICY);
    expect(sandboxed({ 'content-type': 'text/html' })['Content-Security-Policy']).toBe(SANDBOX_POLICY);
  });

  it('leaves JSON alone: application/json and any +json type, with or without parameters', () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/problem+json', 'application/vnd.api+json', 'application/merge-patch+json;charset=utf-8']) {
      expect(sandboxed({ 'Content-Type': type }), type).toEqual({ 'Content-Type': type });
    }
  });

  it('keeps a policy the answer already has, and adds the sandbox as a second one (a browser enforces both)', () => {
    expect(sandboxed({ 'Content-Type': 'text/html', 'Content-Security-Policy': "img-src 'self'" })['Content-Security-Policy']).toBe(`img-src 'self', ${SANDBOX_POLICY}`);
    expect(sandboxed({ 'Content-Type': 'text/html', 'content-security-policy': SANDBOX_POLICY })).toEqual({ 'Content-Type': 'text/html', 'content-security-policy': SANDBOX_POLICY });
  });

  it('the policy forbids scripts, same-origin access, forms and every load', () => {
    const directives = SANDBOX_POLICY.split(';').map((d) => d.trim());
    expect(directives).toContain('sandbox'); // no allow-scripts, allow-same-origin, allow-forms...
    expect(directives).toContain("default-src 'none'");
  });
});

describe('answers in a type a browser renders (test/documents/pages-api.yaml)', () => {
  it('a record read as HTML is sandboxed, with CORS or without, GET or HEAD', async () => {
    const mock = pagesMock();
    const { card } = await stored(mock);
    for (const headers of [{ Accept: 'text/html' }, { Accept: 'text/html', Origin: 'http://evil.example' }, { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }] as HeaderSet[]) {
      const response = await mock.app.request(`/cards/${card}`, { headers });
      expect([response.status, response.headers.get('Content-Type')]).toEqual([200, 'text/html']);
      expect(await response.text()).toContain(MARKUP); // the record as it was stored: the policy, not escaping, keeps it inert
      expectSandboxed(response, JSON.stringify(headers));
    }
    expectSandboxed(await mock.app.request(`/cards/${card}`, { method: 'HEAD', headers: { Accept: 'text/html' } }), 'HEAD');
  });

  it("a record written by an extension's encoder (SVG) is sandboxed", async () => {
    const mock = pagesMock();
    const { badge } = await stored(mock);
    for (const headers of [{}, { Origin: 'http://evil.example' }] as HeaderSet[]) {
      const response = await mock.app.request(`/badges/${badge}`, { headers });
      expect([response.status, response.headers.get('Content-Type'), await response.text()]).toEqual([200, 'image/svg+xml', SVG]);
      expectSandboxed(response, JSON.stringify(headers));
    }
  });

  it("a static answer from the document's example, and the same forced by Prefer, are sandboxed", async () => {
    const mock = pagesMock();
    for (const headers of [{}, { Prefer: 'example=plain' }, { Prefer: 'dynamic=true' }, { Origin: 'http://evil.example' }] as HeaderSet[]) {
      const response = await mock.app.request('/notice', { headers });
      expect([response.status, response.headers.get('Content-Type')], JSON.stringify(headers)).toEqual([200, 'text/html']);
      expectSandboxed(response, JSON.stringify(headers));
    }
  });

  it('a record forced by Prefer (a JSON value sent as HTML) is sandboxed', async () => {
    const mock = pagesMock();
    await stored(mock);
    for (const headers of [{ Prefer: 'dynamic=true' }, { Prefer: 'seed=3' }, { Prefer: 'dynamic=true', Origin: 'http://evil.example' }] as HeaderSet[]) {
      const response = await mock.app.request('/cards/1', { headers: { Accept: 'text/html', ...headers } });
      expect([response.status, response.headers.get('Content-Type')], JSON.stringify(headers)).toEqual([200, 'text/html']);
      expectSandboxed(response, JSON.stringify(headers));
    }
  });

  it('errors declared as HTML are sandboxed (they carry what the request sent), forced or not', async () => {
    const mock = pagesMock();
    const cases: Array<[string, HeaderSet, number]> = [
      ['/cards/999', { Accept: 'text/html' }, 404],
      ['/cards/999', {}, 404],
      [`/cards/${encodeURIComponent(MARKUP)}`, { Accept: 'text/html' }, 400],
      ['/cards/1', { Prefer: 'code=404' }, 404],
      ['/cards/1', { Prefer: 'example=nothing', Origin: 'http://evil.example' }, 400],
    ];
    for (const [path, headers, status] of cases) {
      const response = await mock.app.request(path, { headers });
      expect([response.status, response.headers.get('Content-Type')], `${path} ${JSON.stringify(headers)}`).toEqual([status, 'text/html']);
      expectSandboxed(response, `${path} ${JSON.stringify(headers)}`);
    }
  });

  it('JSON answers carry no policy: records, lists, creates and JSON errors', async () => {
    const mock = pagesMock();
    const { card, badge } = await stored(mock);
    for (const [path, headers] of [[`/cards/${card}`, {}], [`/cards/${card}`, { Accept: 'application/json' }], ['/cards', {}], ['/cards', { Origin: 'http://evil.example' }], ['/badges/999', {}], ['/cards/1', { Prefer: 'dynamic=true' }]] as Array<[string, HeaderSet]>) {
      const response = await mock.app.request(path, { headers });
      expect(response.headers.get('Content-Type'), path).toMatch(/json/);
      expect(response.headers.get('Content-Security-Policy'), `${path} ${JSON.stringify(headers)}`).toBeNull();
    }
    const created = await mock.app.request('/badges', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"markup":"<b>"}' });
    expect([created.status, created.headers.get('Content-Security-Policy')]).toEqual([201, null]);
    expect((await mock.app.request(`/badges/${badge}`, { headers: { Accept: 'application/json' } })).status).toBe(200);
  });
});

describe("the proxy's own answers", () => {
  it('its mock fallback and its errors go through the same rule', async () => {
    const upstream = async () => new Response('{"code":"NOPE","message":"no such route"}', { status: 404, headers: { 'Content-Type': 'application/json' } });
    const proxy = buildProxy(document, { upstream: 'http://upstream.test', fetch: upstream, fallback: 'mock', errors: true, mock: { plugins: [pagesPlugin], counts: { default: 0 } } });
    try {
      const created = await proxy.fetch(new Request('http://127.0.0.1:4010/cards', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ title: MARKUP }) }));
      expect(created.status).toBe(201);
      const page = await proxy.fetch(new Request(`http://127.0.0.1:4010/cards/${((await created.json()) as { id: number }).id}`, { headers: { Accept: 'text/html' } }));
      expect([page.status, page.headers.get('Content-Type')]).toEqual([200, 'text/html']);
      expectSandboxed(page, 'the fallback');
      const refused = await proxy.fetch(new Request('http://127.0.0.1:4010/cards/abc', { headers: { Accept: 'text/html' } }));
      expect([refused.status, refused.headers.get('Content-Type')]).toEqual([400, 'text/html']);
      expectSandboxed(refused, "the proxy's error");
    } finally {
      await proxy.close();
    }
  });
});

describe("the mock's own answers", () => {
  it('the document as YAML is sandboxed, as JSON not; the docs page keeps its own policy, which runs its scripts', async () => {
    const mock = pagesMock();
    const yaml = await mock.app.request('/__spec.yaml');
    expect([yaml.status, yaml.headers.get('Content-Type')]).toEqual([200, 'application/yaml; charset=utf-8']);
    expectSandboxed(yaml, '/__spec.yaml');
    const json = await mock.app.request('/__spec.json');
    expect([json.status, json.headers.get('Content-Security-Policy')]).toEqual([200, null]);
    const docs = await buildMock(document, { docs: packageDocsAssets() }).app.request('/__docs');
    expect([docs.status, docs.headers.get('Content-Type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(docs.headers.get('Content-Security-Policy')).toMatch(/script-src 'self'/);
    expect(docs.headers.get('Content-Security-Policy')).not.toMatch(/sandbox/);
  });
});
