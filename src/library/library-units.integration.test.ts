/**
 * The library's modules imported directly (not through src/index.ts): `createMock` answering in
 * process, from the bundled Petstore or a document given as an object, and listening on loopback
 * only; `inProcessMock` wrapping a loaded document; and `runContract` returning its report for a
 * short run against a mock on 127.0.0.1. Every server started here is closed in a finally.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../mock/app.js';
import { ContractSetupError } from '../contract/run-contract.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { createMock } from './create-mock.js';
import { inProcessMock } from './in-process-mock.js';
import { runContract } from './run-contract.js';

const AUTH = { Authorization: `Bearer ${DEMO_API_KEY}` };
const THING = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } } };
const json = (schema: object) => ({ 'application/json': { schema } });

/** A small document, given as an object: a collection of things under /v1, no security. */
const THINGS = {
  openapi: '3.0.3',
  info: { title: 'Things', version: '1.0.0' },
  servers: [{ url: '/v1' }],
  paths: {
    '/things': {
      get: { operationId: 'listThings', responses: { '200': { description: 'The things.', content: json({ type: 'array', items: { $ref: '#/components/schemas/Thing' } }) } } },
      post: { operationId: 'createThing', requestBody: { required: true, content: json({ $ref: '#/components/schemas/Thing' }) }, responses: { '201': { description: 'Created.', content: json({ $ref: '#/components/schemas/Thing' }) } } },
    },
    '/things/{thingId}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'The thing.', content: json({ $ref: '#/components/schemas/Thing' }) }, '404': { description: 'No such thing.' } },
      },
    },
  },
  components: { schemas: { Thing: THING } },
};

const post = (name: string): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) });

describe('createMock', () => {
  it('serves the bundled Petstore in process by default, with its plugin and its key', async () => {
    const mock = await createMock();
    expect(mock.plugins).toEqual(['petstore']);
    expect((await mock.fetch('/pets?limit=2')).status).toBe(401);
    const pets = await mock.fetch('/pets?limit=2', { headers: AUTH });
    expect(pets.status).toBe(200);
    expect(await pets.json()).toHaveLength(2);
  });

  it('serves a document given as an object, with state kept between fetches and no plugin', async () => {
    const mock = await createMock({ spec: THINGS, counts: { things: 3 } });
    expect(mock.plugins).toEqual([]);
    expect(mock.operations.map((answer) => answer.operationId).sort()).toEqual(['createThing', 'getThing', 'listThings']);
    expect(((await (await mock.fetch('/v1/things')).json()) as unknown[]).length).toBe(3);
    const created = await mock.fetch('/v1/things', post('Widget'));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect(created.headers.get('Location')).toBe(`/v1/things/${id}`);
    expect(await (await mock.fetch(`/v1/things/${id}`)).json()).toEqual({ id, name: 'Widget' });
  });

  it('listens on a free loopback port, answers over HTTP, and stops answering once closed', async () => {
    const mock = await createMock({ spec: THINGS, counts: { things: 2 } });
    const server = await mock.listen(0);
    let url = '';
    try {
      url = server.url;
      expect(url).toBe(`http://127.0.0.1:${server.port}`);
      expect(server.port).toBeGreaterThan(0);
      const listed = await fetch(`${url}/v1/things`);
      expect([listed.status, ((await listed.json()) as unknown[]).length]).toEqual([200, 2]);
    } finally {
      await server.close();
    }
    await expect(fetch(`${url}/v1/things`)).rejects.toThrow();
  });

  it('refuses to listen beyond loopback with the admin API open and no token, before opening anything', async () => {
    const mock = await createMock({ spec: THINGS });
    await expect(mock.listen(0, { host: '0.0.0.0' })).rejects.toThrow(/Refusing to listen on 0\.0\.0\.0.*adminToken/);
    await expect(mock.listen(0, { host: '192.0.2.1' })).rejects.toThrow(/adminToken, or admin: false/);
  });
});

describe('inProcessMock', () => {
  it('wraps a loaded document: fetch by relative URL or Request, handles() by the base path, reset, seed, snapshot and restore', async () => {
    const document = await loadDocument(THINGS);
    const { mock, built } = inProcessMock(document, { counts: { things: 4 } });
    expect(mock.app).toBe(built.app);
    expect(mock.store.counts()).toEqual({ things: 4 });
    expect((await mock.fetch(new Request('http://api.example/v1/things', post('A')))).status).toBe(201);
    expect(mock.store.counts()).toEqual({ things: 5 });
    expect([mock.handles('/v1/things/12'), mock.handles('http://elsewhere/v1/things'), mock.handles('/things'), mock.handles('/v1/other')]).toEqual([true, true, false, false]);

    mock.reset();
    expect(mock.store.counts()).toEqual({ things: 4 });
    const saved = mock.snapshot();
    expect(mock.seed({ counts: { things: 1 } })).toEqual({ seed: expect.any(Number), counts: { things: 1 } });
    expect(mock.store.counts()).toEqual({ things: 1 });
    mock.restore(saved);
    expect(mock.snapshot()).toEqual(saved);
    expect(() => mock.restore({ ...saved, collections: { nope: { nextInteger: 1, scopes: {} } } })).toThrow(/does not fit the document/);
    expect(mock.snapshot()).toEqual(saved); // a refused restore changed nothing
  });
});

describe('runContract', () => {
  it('checks a mock listening on 127.0.0.1 against the bundled Petstore and returns the whole report, conforming', async () => {
    const mock = await createMock();
    const server = await mock.listen(0);
    try {
      const report = await runContract({ baseUrl: server.url, token: DEMO_API_KEY, operations: ['listCategories', 'getCategory'], harmCheck: false });
      expect(report.failures).toEqual([]);
      expect(report.conforms).toBe(true);
      expect(report.plugins).toEqual(['petstore']);
      expect(report.strict).toBe(false);
      expect(report.requests).toBeGreaterThan(0);
      expect(report.checks.length).toBeGreaterThan(0);
      // Every outcome is of the operations asked for, and some passed.
      expect(report.outcomes.length).toBeGreaterThan(0);
      expect(new Set(report.outcomes.map((outcome) => outcome.operationId))).toEqual(new Set(['listCategories', 'getCategory']));
      expect(report.outcomes.some((outcome) => outcome.passed > 0)).toBe(true);
      expect(report.outcomes.every((outcome) => outcome.failed === 0)).toBe(true);
      expect(report.harm).toBeUndefined();
      expect(report.harmCheckOff).toEqual(expect.any(String));
      expect(report).toMatchObject({ gaps: expect.any(Array), coverage: expect.any(Array), notSent: expect.any(Array), leftBehind: [], unconfirmed: expect.any(Array), unmapped: expect.any(Array), durationMs: expect.any(Number) });
    } finally {
      await server.close();
    }
  });

  it('refuses an unknown operation or plugin before sending anything', async () => {
    // Port 9 (discard) on loopback: nothing answers there, so a request sent would fail otherwise.
    await expect(runContract({ baseUrl: 'http://127.0.0.1:9', operations: ['listPetz'] })).rejects.toThrow(ContractSetupError);
    await expect(runContract({ baseUrl: 'http://127.0.0.1:9', plugins: ['petstroe'] })).rejects.toThrow(/Unknown plugin petstroe/);
  });
});
