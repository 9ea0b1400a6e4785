/**
 * The dereferencing of documents with local references only (the browser's, and Node's for those)
 * against swagger-parser's, which Node uses for documents that refer to other files.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import yaml from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../../mock/app.js';
import { dereferenceLocal } from './dereference-local.js';
import { dereferenceOptions } from './dereference-options.js';
import { prepareDocument } from './document.js';
import { loadDocument } from './load-document.js';
import { validateMetaSchema } from './meta-schema/validate-meta-schema.js';
import type { DocumentObject, JsonObject } from './objects.js';
import type { SchemaObject } from './schema.js';

/** swagger-parser's dereferencing, as loadDocument asks it for a document that refers to other files. */
const viaSwaggerParser = async (document: JsonObject) => (await SwaggerParser.dereference(document as never, { dereference: dereferenceOptions(document) } as never)) as unknown as DocumentObject;
const load = (raw: unknown, name: string, dereference: (document: JsonObject) => Promise<DocumentObject>) => prepareDocument(structuredClone(raw), { name, metaSchema: validateMetaSchema, dereference });

const dir = mkdtempSync(join(tmpdir(), 'dereference-local-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dereferenceLocal', () => {
  it('replaces each reference by the one object it names, leaves a cycle as $ref, merges siblings', async () => {
    const api = await dereferenceLocal({
      components: {
        schemas: {
          Tag: { type: 'object', properties: { name: { type: 'string' } } },
          Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' }, tag: { $ref: '#/components/schemas/Tag' } } },
          Named: { $ref: '#/components/schemas/Tag', description: 'a tag with a description' },
        },
      },
      paths: { '/a': { get: { responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Tag' } } } } } } } },
    });
    const schemas = api.components!.schemas!;
    expect(api.paths!['/a'].get!.responses![200].content!['application/json'].schema).toBe(schemas.Tag);
    expect(schemas.Node.properties!.tag).toBe(schemas.Tag);
    expect(schemas.Node.properties!.child).toEqual({ $ref: '#/components/schemas/Node' });
    expect(schemas.Named).toEqual({ ...schemas.Tag, description: 'a tag with a description' });
  });

  it('says a reference to nothing as swagger-parser\'s sentence is put (one sentence, whichever dereferenced the document)', async () => {
    const document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/things': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } } } } }, components: { schemas: { Thing: { type: 'object', properties: { tag: { $ref: '#/components/schemas/Missing' } } } } } };
    writeFileSync(join(dir, 'broken.json'), JSON.stringify(document));
    const sentence = /is not a valid OpenAPI 3\.0\.3 document: Missing \$ref pointer "#\/components\/schemas\/Missing": it names nothing in the document\.$/;
    await expect(loadDocument(join(dir, 'broken.json'))).rejects.toThrow(sentence);
    await expect(load(document, 'broken', viaSwaggerParser)).rejects.toThrow(sentence);
    await expect(load(document, 'broken', dereferenceLocal)).rejects.toThrow(sentence);
  });

  it('refuses a reference outside the document, or to nothing', async () => {
    await expect(dereferenceLocal({ a: { $ref: 'other.yaml#/Pet' } })).rejects.toThrow(/points outside the document/);
    await expect(dereferenceLocal({ a: { $ref: '#/components/schemas/Missing' } })).rejects.toThrow(/names nothing/);
  });

  it('follows a pointer through what the document holds only: never into what every object inherits', async () => {
    for (const ref of ['#/__proto__', '#/constructor', '#/components/toString', '#/components/schemas/list/length', '#/a%ZZ']) {
      await expect(dereferenceLocal({ components: { schemas: { list: [] } }, a: { $ref: ref } }), ref).rejects.toThrow(/names nothing/);
    }
    const api = await dereferenceLocal({ components: { schemas: { list: [{ type: 'string' }] } }, a: { $ref: '#/components/schemas/list/0' } });
    expect(api).toMatchObject({ a: { type: 'string' } });
  });

  it('gives the Petstore the same answers as swagger-parser does', async () => {
    const raw = yaml.load(readFileSync('spec/openapi.yaml', 'utf8')) as SchemaObject;
    const inBrowser = await load(raw, 'petstore', dereferenceLocal);
    const onNode = await load(raw, 'petstore', viaSwaggerParser);
    const answers = async (document: typeof onNode) => {
      const { app } = buildMock(document, { seed: 5 });
      const auth = { Authorization: `Bearer ${DEMO_API_KEY}` };
      const paths = ['/pets?limit=5', '/categories', '/orders?limit=3', '/inventory', '/pets/3', '/pets?status=bogus'];
      return Promise.all(paths.map(async (path) => [path, (await app.request(path, { headers: auth })).status, await (await app.request(path, { headers: auth })).text()]));
    };
    expect(await answers(inBrowser)).toEqual(await answers(onNode));
  });

  it('gives real documents the same operations, collections and answers as swagger-parser does', async () => {
    const files = readdirSync('test/corpus').filter((f) => /\.(ya?ml|json)$/.test(f));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(join('test/corpus', file), 'utf8');
      if (/\$ref:\s*['"]?(?!#)[^\s'"]/.test(text) || /"\$ref"\s*:\s*"(?!#)/.test(text)) continue; // external references: Node only
      const raw = yaml.load(text) as SchemaObject;
      if (raw.swagger) continue; // converted to 3.0 first; the converted documents are compared through loadDocument below
      const onNode = await load(raw, file, viaSwaggerParser).catch(() => undefined);
      if (!onNode) continue;
      const inBrowser = await load(raw, file, dereferenceLocal);
      const shape = (document: typeof onNode) => {
        const mock = buildMock(document, { onWarning: () => undefined });
        return { answers: mock.answers, collections: mock.collections.map((c) => [c.name, c.path, c.keyProperty]) };
      };
      expect(shape(inBrowser), file).toEqual(shape(onNode));
    }
  });
});
