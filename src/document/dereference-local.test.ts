/**
 * The browser's dereferencing (local references only) against swagger-parser's, which Node uses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../app.js';
import { dereferenceLocal } from './dereference-local.js';
import { prepareDocument } from './document.js';
import { loadDocument } from './load-document.js';
import type { SchemaObject } from './schema.js';

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

  it('refuses a reference outside the document, or to nothing', async () => {
    await expect(dereferenceLocal({ a: { $ref: 'other.yaml#/Pet' } })).rejects.toThrow(/points outside the document/);
    await expect(dereferenceLocal({ a: { $ref: '#/components/schemas/Missing' } })).rejects.toThrow(/names nothing/);
  });

  it('gives the Petstore the same answers as swagger-parser does', async () => {
    const raw = yaml.load(readFileSync('spec/openapi.yaml', 'utf8')) as SchemaObject;
    const inBrowser = await prepareDocument(raw, { name: 'petstore', dereference: dereferenceLocal });
    const onNode = await loadDocument('spec/openapi.yaml');
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
      const onNode = await loadDocument(join('test/corpus', file)).catch(() => undefined);
      if (!onNode || onNode.convertedFrom) continue;
      const inBrowser = await prepareDocument(yaml.load(text) as SchemaObject, { name: file, dereference: dereferenceLocal });
      const shape = (document: typeof onNode) => {
        const mock = buildMock(document, { onWarning: () => undefined });
        return { answers: mock.answers, collections: mock.collections.map((c) => [c.name, c.path, c.keyProperty]) };
      };
      expect(shape(inBrowser), file).toEqual(shape(onNode));
    }
  });
});
