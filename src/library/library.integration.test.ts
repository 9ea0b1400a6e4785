/**
 * The library as a user imports it (src/index.ts, the package's main entry): createMock with the
 * bundled Petstore by default, its in-process fetch, admin controls and listen, and runContract.
 */
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { ContractSetupError, createMock, DEMO_API_KEY, DocumentLoadError, runContract, type MockInstance } from '../index.js';
import { loadDocument } from '../openapi/document/load-document.js';

const auth = { Authorization: `Bearer ${DEMO_API_KEY}` };
const json = { ...auth, 'Content-Type': 'application/json' };

describe('createMock()', () => {
  let mock: MockInstance;
  it('serves the bundled Petstore with its fixtures and rules, as the CLI does', async () => {
    mock = await createMock();
    expect(mock.plugins).toEqual(['petstore']);
    const categories = (await (await mock.fetch('/categories', { headers: auth })).json()) as Array<{ name: string }>;
    expect(categories.map((c) => c.name)).toContain('Dogs'); // fixtures/categories.json
    const pets = await mock.fetch('/pets?limit=2', { headers: auth });
    expect(pets.status).toBe(200);
    expect((await mock.fetch('/pets')).status).toBe(401);
  });

  it('keeps state between requests, and reset() puts the seed back', async () => {
    const before = mock.store.counts().pets;
    const created = await mock.fetch(new Request('http://localhost/pets', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect((await mock.fetch(`/pets/${id}`, { headers: auth })).status).toBe(200);
    expect(mock.store.counts().pets).toBe(before + 1);
    mock.reset();
    expect(mock.store.counts().pets).toBe(before);
  });

  it('seed() changes seed and counts; snapshot() and restore() round-trip', async () => {
    expect(mock.seed({ counts: { pets: 3 } }).counts.pets).toBe(3);
    const saved = mock.snapshot();
    await mock.fetch('/pets', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Tom', categoryId: 1 }) });
    expect(mock.store.counts().pets).toBe(4);
    mock.restore(saved);
    expect(mock.store.counts().pets).toBe(3);
    expect(() => mock.restore({ format: 'nonsense' } as never)).toThrow(/does not fit the document/);
    expect(() => mock.seed({ counts: { pets: 10_000_000 } })).toThrow(/more than the mock holds/);
  });

  it('says which paths the document defines', () => {
    expect(mock.handles('/pets/12')).toBe(true);
    expect(mock.handles('http://api.example.com/categories')).toBe(true);
    expect(mock.handles('/nothing-here')).toBe(false);
  });

  it('listen() serves it over HTTP, checking Host', async () => {
    const server = await mock.listen(0);
    try {
      const res = await fetch(`${server.url}/pets?limit=1`, { headers: auth });
      expect(res.status).toBe(200);
      // fetch cannot set Host: a raw request, as a DNS-rebinding page's would arrive.
      const status = await new Promise<number | undefined>((resolve, reject) =>
        request(`${server.url}/pets`, { headers: { ...auth, Host: 'rebind.evil.example' } }, (res) => resolve(res.resume().statusCode)).on('error', reject).end(),
      );
      expect(status).toBe(421);
    } finally {
      await server.close();
    }
    await expect(mock.listen(0, { host: '0.0.0.0' })).rejects.toThrow(/adminToken/);
  });

  it('takes a document as an object, and reports a bad one in one sentence', async () => {
    const { raw } = await loadDocument('test/documents/library-api.yaml');
    const other = await createMock({ spec: raw, seed: 3 });
    expect(other.plugins).toEqual([]);
    expect(other.operations.length).toBeGreaterThan(0);
    await expect(createMock({ spec: { openapi: '3.0.3' } })).rejects.toThrow(DocumentLoadError);
    await expect(createMock({ spec: 'missing.yaml' })).rejects.toThrow(/does not exist/);
  });
});

describe('runContract()', () => {
  let server: Awaited<ReturnType<MockInstance['listen']>>;
  afterAll(() => server?.close());

  it('checks a running server against the bundled document and returns the structured report', async () => {
    const mock = await createMock();
    server = await mock.listen(0);
    const report = await runContract({ baseUrl: server.url, token: DEMO_API_KEY, operations: ['listCategories', 'getCategory'] });
    expect(report.plugins).toEqual(['petstore']);
    expect(report.requests).toBeGreaterThan(0);
    expect(report.failures).toEqual([]);
    expect(report.conforms).toBe(true);
  });

  it('fails a server that breaks a promise, through any fetch', async () => {
    const mock = await createMock();
    // A server whose categories lose their required name.
    const broken = async (url: string, init?: RequestInit) => {
      const res = await mock.fetch(url, init);
      if (!new URL(url).pathname.startsWith('/categories') || res.status !== 200) return res;
      const body = (await res.json()) as Record<string, unknown> | Array<Record<string, unknown>>;
      const strip = (c: Record<string, unknown>) => ({ ...c, name: undefined });
      return new Response(JSON.stringify(Array.isArray(body) ? body.map(strip) : strip(body)), { status: 200, headers: res.headers });
    };
    const report = await runContract({ baseUrl: 'http://localhost', token: DEMO_API_KEY, operations: ['listCategories'], fetch: broken });
    expect(report.conforms).toBe(false);
    expect(report.failures.some((f) => f.check === 'response_schema_conformance')).toBe(true);
  });

  it('refuses a typo instead of checking nothing', async () => {
    await expect(runContract({ baseUrl: 'http://127.0.0.1:9', operations: ['listPetz'] })).rejects.toThrow(ContractSetupError);
    await expect(runContract({ baseUrl: 'http://127.0.0.1:9', plugins: ['petstroe'] })).rejects.toThrow(/Unknown plugin petstroe/);
  });
});
