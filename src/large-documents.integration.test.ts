/**
 * Large documents (the bench's generated ones, smaller): they load, the mock is built and answers,
 * including on the resource at the head of a chain of 500 named schemas.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { largeDocument, writeLargeDocument } from '../bench/large-document.js';
import { buildMock, DEMO_API_KEY } from './mock/app.js';
import { loadDocument } from './openapi/document/load-document.js';
import { responseCheckerFor } from './test-support/response-checker.js';

const AUTH = { Authorization: `Bearer ${DEMO_API_KEY}` };
const operationsOf = (doc: any) => Object.values<any>(doc.paths).flatMap((item) => ['get', 'post', 'put', 'delete'].filter((m) => item[m]));

describe('the generated large document', () => {
  it('has the operations asked for, over chains of named schemas, and is the same every time', () => {
    const doc = largeDocument({ operations: 2000, chain: 50, longChain: 500 }) as any;
    expect(operationsOf(doc)).toHaveLength(2000);
    expect(doc.components.schemas.Schema_0.properties.next).toEqual({ $ref: '#/components/schemas/Schema_1' });
    expect(doc.components.schemas.Schema_49.properties.next).toBeUndefined(); // chains of 50
    expect(doc.components.schemas.Deep_498.properties.next).toEqual({ $ref: '#/components/schemas/Deep_499' });
    expect(JSON.stringify(largeDocument({ operations: 2000, chain: 50, longChain: 500 }))).toBe(JSON.stringify(doc));
  });
});

describe('a document with a chain of 500 named schemas', () => {
  const file = writeLargeDocument({ operations: 100, chain: 10, longChain: 500 });
  afterAll(() => rmSync(dirname(file), { recursive: true, force: true }));

  it('loads with each named schema one object, shared by the schemas that reference it', async () => {
    const { api } = await loadDocument(file);
    const schemas = api.components!.schemas!;
    expect(schemas.Deep_0.properties!.next).toBe(schemas.Deep_1);
    expect(schemas.Deep_498.properties!.next).toBe(schemas.Deep_499);
    expect(api.paths!['/deep/{id}'].get!.responses!['200'].content!['application/json'].schema).toBe(schemas.Deep_0);
  });

  it('is served: the head of the chain is read, created and refused at depth, with valid answers', async () => {
    const document = await loadDocument(file);
    const mock = buildMock(document);
    expect(mock.warnings).toEqual([]);
    const check = responseCheckerFor(document);
    const operation = (id: string) => mock.operations.find((op) => op.id === id)!;

    const read = await mock.app.request('/deep/1', { headers: AUTH });
    const text = await read.text();
    expect(read.status).toBe(200);
    expect(check(operation('read_deep'), { status: read.status, headers: read.headers, text })).toEqual([]);
    expect(JSON.parse(text)).toMatchObject({ id: 1, name: expect.any(String) });

    const json = { ...AUTH, 'Content-Type': 'application/json' };
    // Every third schema of a chain requires a status (Deep_0, Deep_3).
    const body = { name: 'a', status: 'active', next: { name: 'b', next: { name: 'c', next: { name: 'd', status: 'pending' } } } };
    const created = await mock.app.request('/deep', { method: 'POST', headers: json, body: JSON.stringify(body) });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject(body);

    const wrong = { ...body, next: { name: 'b', next: { name: 'c', next: { name: 5, status: 'pending' } } } };
    const refused = await mock.app.request('/deep', { method: 'POST', headers: json, body: JSON.stringify(wrong) });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { details: unknown }).details).toEqual([{ path: 'body.next.next.next.name', rule: 'type', message: 'must be string' }]);
  });
});
