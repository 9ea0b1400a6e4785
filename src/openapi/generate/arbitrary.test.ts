/**
 * schemaArbitrary draws what a schema allows, reaches its bounds, text beyond ASCII and the empty
 * string, and mostly values the document's own validator accepts (the suite confirms each anyway).
 */
import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../document/load-document.js';
import type { SchemaObject } from '../document/schema.js';
import { buildOperations } from '../operations/build-operations.js';
import { CORPUS } from '../../test-support/petstore.js';
import { createAjv } from '../validation/ajv-instance.js';
import { schemaCompiler } from '../validation/compile-schema.js';
import { SchemaConverter } from '../validation/to-json-schema.js';
import { schemaArbitrary } from './arbitrary.js';

const draw = (schema: SchemaObject, count = 300, seed = 1) => fc.sample(schemaArbitrary(schema), { numRuns: count, seed });

describe('schemaArbitrary', () => {
  it('reaches the bounds of integers and numbers and stays within them', () => {
    const integers = draw({ type: 'integer', minimum: 0, maximum: 100_000 }, 1000) as number[];
    expect(integers.every((n) => Number.isInteger(n) && n >= 0 && n <= 100_000)).toBe(true);
    expect(integers).toContain(100_000);
    expect(integers).toContain(99_999);
    expect(integers).toContain(0);
    const exclusive = draw({ type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true }) as number[];
    expect(new Set(exclusive)).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    const stepped = draw({ type: 'integer', minimum: 1, maximum: 100, multipleOf: 7 }) as number[];
    expect(stepped.every((n) => n % 7 === 0 && n >= 7 && n <= 98)).toBe(true);
    const numbers = draw({ type: 'number', minimum: -1.5, maximum: 2.5 }) as number[];
    expect(numbers.every((n) => n >= -1.5 && n <= 2.5)).toBe(true);
    expect(numbers).toContain(2.5);
  });

  it('draws strings at their lengths, the empty one where allowed, and characters beyond ASCII', () => {
    const texts = draw({ type: 'string', maxLength: 500 }, 500) as string[];
    expect(texts.every((t) => [...t].length <= 500)).toBe(true);
    expect(texts).toContain('');
    expect(texts.some((t) => [...t].length === 500)).toBe(true);
    expect(texts.some((t) => /[\u{1F300}-\u{1F64F}]/u.test(t))).toBe(true); // astral
    expect(texts.some((t) => /[\u0300-\u036f]/.test(t))).toBe(true); // combining
    expect(texts.some((t) => /[\u05d0-\u05ea\u0627-\u064a]/.test(t))).toBe(true); // right to left
    expect((draw({ type: 'string', minLength: 3, maxLength: 3 }) as string[]).every((t) => [...t].length === 3)).toBe(true);
  });

  it('leaves out readOnly properties of a request, draws optional ones alone and together, and every branch of a discriminated oneOf with its value', () => {
    const values = draw({
      type: 'object',
      required: ['name'],
      properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' }, a: { type: 'boolean' }, b: { type: 'boolean' } },
    }) as Array<Record<string, unknown>>;
    expect(values.every((v) => !('id' in v) && typeof v.name === 'string')).toBe(true);
    const shapes = new Set(values.map((v) => Object.keys(v).sort().join(',')));
    expect(shapes).toEqual(new Set(['name', 'a,name', 'b,name', 'a,b,name']));
    const cat = { type: 'object', required: ['kind', 'lives'], properties: { kind: { type: 'string' }, lives: { type: 'integer', minimum: 1, maximum: 9 } } };
    const dog = { type: 'object', required: ['kind', 'barks'], properties: { kind: { type: 'string' }, barks: { type: 'boolean' } } };
    const pets = draw({ oneOf: [cat, dog], discriminator: { propertyName: 'kind', mapping: { cat, dog } } }) as Array<Record<string, unknown>>;
    expect(new Set(pets.map((p) => p.kind))).toEqual(new Set(['cat', 'dog']));
    expect(pets.every((p) => (p.kind === 'cat' ? typeof p.lives === 'number' : typeof p.barks === 'boolean'))).toBe(true);
  });

  it('draws values the validator accepts for every request schema of the corpus, but for what it leaves to the validator', async () => {
    let drawn = 0;
    const refusals: string[] = [];
    for (const file of readdirSync(CORPUS).filter((f) => /\.(ya?ml|json)$/.test(f))) {
      const document = await loadDocument(`${CORPUS}/${file}`).catch(() => undefined);
      if (!document) continue;
      const ajv = createAjv(document.dialect);
      const validator = schemaCompiler(ajv, new SchemaConverter(document.api, ajv, document.dialect), 'request');
      const schemas = buildOperations(document.api).flatMap((op) => [...op.parameters.map((p) => p.schema), ...Object.values(op.requestBody?.content ?? {}).map((m) => m.schema)]);
      for (const schema of schemas) {
        const validate = schema && validator(schema);
        if (!validate) continue;
        for (const value of fc.sample(schemaArbitrary(schema, { document: document.api }), { numRuns: 20, seed: 3 })) {
          drawn++;
          const errors = validate(value) ? [] : (validate.errors ?? []);
          const error = errors[0];
          // Left to the validator: oneOf branches that overlap (readme's discriminators without a mapping) and allOf parts no value fits.
          const left = errors.some((e) => e.keyword === 'oneOf' || /\/allOf\/\d+\//.test(e.schemaPath));
          if (error && !left) refusals.push(`${file}: ${JSON.stringify(value).slice(0, 80)} ${error.instancePath} ${error.message}`);
        }
      }
    }
    expect(drawn).toBeGreaterThan(1000);
    expect(refusals).toEqual([]);
  });
});
