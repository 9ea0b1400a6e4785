import { describe, expect, it } from 'vitest';
import { loadDocument } from './load-document.js';
import { discriminatedChoice } from './discriminator.js';
import type { SchemaObject } from './schema.js';
import { CORPUS, ROOT } from '../../test-support/petstore.js';

const tracker = await loadDocument(`${ROOT}test/documents/tracker-api.yaml`);
const readme = await loadDocument(`${CORPUS}/readme-discriminators.yaml`);
const bodyOf = (api: object, path: string, method = 'patch') => (api as any).paths[path][method].requestBody.content['application/json'].schema as SchemaObject;
const valuesOf = (api: object, schema: SchemaObject) => discriminatedChoice(api, schema)?.branches.map((b) => b.values);

describe('discriminatedChoice', () => {
  it('reads the values that choose each branch from the mapping, in the loaded document and as written', () => {
    expect(valuesOf(tracker.api, tracker.api.components!.schemas!.NewIssue)).toEqual([['bug'], ['feature']]);
    // As written (the docs page's copy keeps its references).
    expect(valuesOf(tracker.raw, (tracker.raw as any).components.schemas.NewIssue)).toEqual([['bug'], ['feature']]);
    expect(valuesOf(readme.api, bodyOf(readme.api, '/discriminator-with-mapping'))).toEqual([['Option One'], ['Option Two']]);
  });

  it('without a mapping, takes the names of the schemas (implicit mapping), through branches that are an allOf', () => {
    expect(valuesOf(tracker.api, tracker.api.components!.schemas!.Attachment)).toEqual([['LinkAttachment'], ['FileAttachment']]);
    expect(valuesOf(readme.api, bodyOf(readme.api, '/oneof-allof-top-level-disc'))).toEqual([['CatNoDisc'], ['DogNoDisc']]);
  });

  it('takes the value a branch pins the property to (an enum of one, a const, in an allOf part) over its name', () => {
    const api = {
      components: {
        schemas: {
          Bug: { allOf: [{ type: 'object', properties: { kind: { type: 'string', enum: ['bug'] } } }] },
          Feature: { type: 'object', properties: { kind: { const: 'feature' } } },
        },
      },
    };
    const schema = { oneOf: [{ $ref: '#/components/schemas/Bug' }, { $ref: '#/components/schemas/Feature' }], discriminator: { propertyName: 'kind' } };
    expect(valuesOf(api, schema)).toEqual([['bug'], ['feature']]);
    // anyOf too.
    expect(discriminatedChoice(api, { anyOf: schema.oneOf, discriminator: schema.discriminator })?.keyword).toBe('anyOf');
  });

  it('is no choice without a discriminator, without branches, or where two branches claim the same values', () => {
    expect(discriminatedChoice(tracker.api, tracker.api.components!.schemas!.Watcher)).toBeUndefined();
    expect(discriminatedChoice({}, { type: 'object', discriminator: { propertyName: 'kind' } })).toBeUndefined();
    // Inline branches with no name and no value of their own.
    expect(discriminatedChoice({}, { oneOf: [{ type: 'object' }, { type: 'object' }], discriminator: { propertyName: 'kind' } })).toBeUndefined();
    const both = { type: 'object', properties: { kind: { enum: ['a', 'b'] } } };
    expect(discriminatedChoice({}, { oneOf: [both, both], discriminator: { propertyName: 'kind' } })).toBeUndefined();
  });
});
