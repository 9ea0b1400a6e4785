/**
 * A document may name its paths, and so its collections, like the properties every JavaScript
 * object has (`/constructor`, `/toString`, `/__proto__`): the mock starts, seeds and serves them like
 * any other (it used to stop at start with "fixtures is not iterable").
 */
import { describe, expect, it } from 'vitest';
import { buildMock } from './mock/app.js';
import { loadDocument } from './openapi/document/load-document.js';

const record = { $ref: '#/components/schemas/T' };
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }];
const collection = (name: string) => ({
  [`/${name}`]: { get: { responses: { '200': { description: 'ok', ...json({ type: 'array', items: record }) } } }, post: { requestBody: json(record), responses: { '201': { description: 'ok', ...json(record) } } } },
  [`/${name}/{id}`]: { get: { parameters: id, responses: { '200': { description: 'ok', ...json(record) } } } },
});

describe('paths named like the properties of every object', () => {
  it('are served, seeded and kept like any other collection', async () => {
    const document = await loadDocument({
      openapi: '3.0.3',
      info: { title: 'object properties', version: '1' },
      paths: { ...collection('constructor'), ...collection('toString'), ...collection('__proto__'), ...collection('hasOwnProperty') },
      components: { schemas: { T: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } },
    });
    const { app } = buildMock(document, { counts: { default: 3 } });
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const listed = await app.request(`/${name}`);
      expect(listed.status, name).toBe(200);
      expect(((await listed.json()) as unknown[]).length, name).toBe(3);
      const created = await app.request(`/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'new' }) });
      expect(created.status, name).toBe(201);
      const { id: key } = (await created.json()) as { id: number };
      expect(await (await app.request(`/${name}/${key}`)).json(), name).toEqual({ name: 'new', id: key });
    }
  });
});
