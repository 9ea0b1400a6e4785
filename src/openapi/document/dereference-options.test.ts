import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentLoadError, loadDocument } from './load-document.js';
import { dereferenceOptions } from './dereference-options.js';

const dir = mkdtempSync(join(tmpdir(), 'dereference-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'other.json'), JSON.stringify({ Other: { type: 'string' } }));
let files = 0;
/** Whether the documents loaded refer to another file too: swagger-parser then dereferences them, with these options. */
let external = false;

/** Loads a 3.0 document whose GET /a answers `schema`, with these named schemas. */
function load(schemas: object, schema: object = { $ref: '#/components/schemas/Used' }) {
  const file = join(dir, `doc-${files++}.json`);
  const answer = (schema: object) => ({ responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } });
  const paths = { '/a': { get: answer(schema) }, ...(external ? { '/other': { get: answer({ $ref: 'other.json#/Other' }) } } : {}) };
  writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths, components: { schemas } }));
  return loadDocument(file);
}

const answerOf = (api: any) => api.paths['/a'].get.responses['200'].content['application/json'].schema;

describe('dereferenceOptions', () => {
  it('skips walking the named schemas a $ref names whole, and only those', () => {
    const { excludedPathMatcher: skip } = dereferenceOptions({
      paths: { '/a': { get: { schema: { $ref: '#/components/schemas/Used' } } } },
      components: { schemas: { Used: { properties: { x: { $ref: '#/components/schemas/Odd%20name' }, y: { $ref: '#/components/schemas/Part/properties/y' } } } } },
    });
    expect(skip('#/components/schemas/Used')).toBe(true);
    expect(skip('#/components/schemas/Odd%20name')).toBe(true);
    expect(skip('#/components/schemas/Part')).toBe(false); // only a part of it is named
    expect(skip('#/components/schemas/Unused')).toBe(false);
    expect(skip('#/components/schemas/Used/properties')).toBe(false);
    expect(skip('#/paths/~1a/get')).toBe(false);
  });

  // The same document from swagger-parser (with the options) and from the walk for documents that refer only to themselves.
  describe.each([
    ['refers to another file (swagger-parser)', true],
    ['refers only to itself (dereference-local.ts)', false],
  ])('a document that %s', (_, refersOut) => {
    beforeAll(() => {
      external = refersOut;
    });

    it('leaves each named schema one object, shared by what references it, through aliases too', async () => {
      const { api } = await load(
        {
          Used: { type: 'object', properties: { next: { $ref: '#/components/schemas/Next' }, again: { $ref: '#/components/schemas/Alias' } } },
          Next: { type: 'object', properties: { name: { type: 'string' } } },
          Alias: { $ref: '#/components/schemas/Next' },
          Unused: { type: 'object', properties: { used: { $ref: '#/components/schemas/Used' } } },
        },
      );
      const schemas = api.components!.schemas!;
      expect(answerOf(api)).toBe(schemas.Used);
      expect(schemas.Used.properties!.next).toBe(schemas.Next);
      expect(schemas.Used.properties!.again).toBe(schemas.Next);
      expect(schemas.Unused.properties!.used).toBe(schemas.Used); // walked as before: nothing names it
    });

    it('still refuses a broken $ref in a named schema that nothing uses', async () => {
      const loading = load({ Used: { type: 'string' }, Unused: { type: 'object', properties: { gone: { $ref: '#/components/schemas/Gone' } } } });
      await expect(loading).rejects.toThrow(DocumentLoadError);
      await expect(loading).rejects.toThrow(/Missing \$ref pointer "#\/components\/schemas\/Gone"/);
    });

    it('keeps circular references as $ref', async () => {
      const { api } = await load({ Used: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Used' } } } } });
      expect(JSON.stringify(api)).toContain('"$ref":"#/components/schemas/Used"');
    });
  });
});
