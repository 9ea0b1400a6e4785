/**
 * The requests the docs page's try-it panel starts from (try-it-requests.ts, try-it-sample.ts):
 * a branch of each choice with its discriminator's value, what the branch requires filled in,
 * the records' keys, each body confirmed by the mock's request validator, and, when none is, the
 * reason the page shows instead of a body the mock would refuse.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY, type Mock } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import type { SchemaObject } from '../../openapi/document/schema.js';
import { CORPUS, ROOT } from '../../test-support/petstore.js';
import { pageOf } from '../../test-support/try-it-defaults.js';
import { sampleOf } from './try-it-sample.js';

const NO_ASSETS = { get: () => undefined };
const valuesOf = async (mock: Mock) => (await pageOf(mock)).config.values!;
const send = async (mock: Mock, method: string, path: string, body: unknown) =>
  (await mock.app.request(path, { method, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${DEMO_API_KEY}` }, body: JSON.stringify(body) })).status;

describe('the bodies try-it starts from', () => {
  it('choose a branch of a discriminated oneOf, set its value and fill what it requires: the issue tracker\'s create is a bug with a severity', async () => {
    const mock = buildMock(await loadDocument(join(ROOT, 'test/documents/tracker-api.yaml')), { docs: NO_ASSETS });
    const values = await valuesOf(mock);
    const project = values.parameters['post /projects/{projectKey}/issues'].projectKey;
    const issue = values.bodies!['post /projects/{projectKey}/issues'];
    expect(issue.mediaType).toBe('application/json');
    expect(issue.value).toMatchObject({ issueType: 'bug', title: expect.any(String), severity: 'low' });
    expect(await send(mock, 'POST', `/projects/${project}/issues`, issue.value)).toBe(201);
    // Without a mapping: the branch's schema name, on branches that are an allOf of a base and their part.
    const attachment = values.bodies!['post /projects/{projectKey}/attachments'].value;
    expect(attachment).toMatchObject({ kind: 'LinkAttachment', name: expect.any(String), url: expect.stringMatching(/^https?:/) });
    expect(await send(mock, 'POST', `/projects/${project}/attachments`, attachment)).toBe(201);
    // A create whose key the client chooses: a key no project has.
    const created = values.bodies!['post /projects'].value as { key: string };
    expect(mock.store.collection('projects').where('key', created.key)).toEqual([]);
    expect(await send(mock, 'POST', '/projects', created)).toBe(201);
    expect(values.unconfirmed).toEqual({});
  });

  it('tell a branch of an overlapping oneOf from the others, so exactly one fits', async () => {
    const mock = buildMock(await loadDocument(join(CORPUS, 'readme-polymorphism.yaml')), { docs: NO_ASSETS });
    const values = await valuesOf(mock);
    const body = values.bodies!['post /anything/one-of-object'].value;
    expect(body).toMatchObject({ a: expect.any(String), c: 0 });
    expect(await send(mock, 'POST', '/anything/one-of-object', body)).toBe(200);
  });

  it('are never one the validator refuses: with none it accepts, the operation says why', async () => {
    const mock = buildMock(await loadDocument(join(CORPUS, 'readme31-schema-types.yaml')), { docs: NO_ASSETS });
    const values = await valuesOf(mock);
    expect(values.bodies!['put /anything/quirks/polymorphism']).toBeUndefined();
    expect(values.unconfirmed!['put /anything/quirks/polymorphism']).toMatch(/^no body built from the document was accepted by the mock's validator \(body: must be /);
    // The page shows it in the operation's description.
    const { page } = await pageOf(mock);
    expect(page.paths!['/anything/quirks/polymorphism'].put!.description).toMatch(/\*\*Try it out:\*\* no body built from the document was accepted/);
  });

  it('fill a required query parameter the records leave open with a value its schema takes', async () => {
    const mock = buildMock(await loadDocument(join(CORPUS, 'bump-train-travel.yaml')), { docs: NO_ASSETS });
    const inputs = (await valuesOf(mock)).inputs!['get /trips'];
    expect(inputs.map((input) => `${input.in}.${input.name}`).sort()).toEqual(['query.date', 'query.destination', 'query.origin']);
    const origin = inputs.find((input) => input.name === 'origin')!.value;
    expect(origin).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('sampleOf', () => {
  const leaf = (schema: SchemaObject) => (schema.type === 'integer' ? 7 : 'text');
  it('takes the document\'s examples, defaults and enums first, leaves readOnly out, and required-only on request', () => {
    const schema: SchemaObject = {
      type: 'object',
      required: ['name'],
      properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', example: 'Rex' }, status: { type: 'string', enum: ['available', 'sold'] }, size: { type: 'integer', default: 3 }, note: { type: 'string' } },
    };
    expect(sampleOf(schema, { document: {}, references: {}, branch: 0, optional: true, leaf })).toEqual({ name: 'Rex', status: 'available', size: 3, note: 'text' });
    expect(sampleOf(schema, { document: {}, references: {}, branch: 0, optional: false, leaf })).toEqual({ name: 'Rex' });
    // A reference gets the mock's key over the document's example.
    const withRef: SchemaObject = { type: 'object', properties: { categoryId: { type: 'integer', example: 42 } } };
    expect(sampleOf(withRef, { document: {}, references: { categoryId: 1 }, branch: 0, optional: true, leaf })).toEqual({ categoryId: 1 });
  });

  it('chooses the n-th branch, merged with the schema\'s own properties, its discriminator value set', () => {
    const document = { components: { schemas: { Cat: { type: 'object', required: ['meows'], properties: { meows: { type: 'boolean', example: true } } }, Dog: { type: 'object', required: ['barks'], properties: { barks: { type: 'integer' } } } } } };
    const schema: SchemaObject = {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', example: 'Tom' }, kind: { type: 'string' } },
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
      discriminator: { propertyName: 'kind' },
    };
    const options = { document, references: {}, optional: false, leaf };
    expect(sampleOf(schema, { ...options, branch: 0 })).toEqual({ name: 'Tom', meows: true, kind: 'Cat' });
    expect(sampleOf(schema, { ...options, branch: 1 })).toEqual({ name: 'Tom', barks: 7, kind: 'Dog' });
    expect(sampleOf(schema, { ...options, branch: 2 })).toEqual({ name: 'Tom', meows: true, kind: 'Cat' });
  });

  it('stops at a schema that holds itself, and gives up on a required one', () => {
    const document = { components: { schemas: { Node: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, next: { $ref: '#/components/schemas/Node' } } } } } };
    expect(sampleOf({ $ref: '#/components/schemas/Node' }, { document, references: {}, branch: 0, optional: true, leaf })).toEqual({ name: 'text' });
  });
});
