/**
 * Bounded numbers get an example within their bounds, where Swagger UI's samplers would take
 * their maximum (2^53 - 1 for every Petstore id): in properties and items, not in parameters,
 * and never inside example data.
 */
import { describe, expect, it } from 'vitest';
import { addNumberExamples } from './number-examples.js';
import type { SchemaObject } from '../../openapi/document/schema.js';
import { petstoreDocument } from '../../test-support/petstore.js';

/** The example a property of this schema gets, or undefined. */
function exampleFor(schema: Record<string, unknown>): unknown {
  const doc = { components: { schemas: { Box: { type: 'object', properties: { value: schema } } } } };
  addNumberExamples(doc);
  return doc.components.schemas.Box.properties.value.example;
}

describe('addNumberExamples', () => {
  it('gives the value nearest 0 that the bounds allow', () => {
    expect(exampleFor({ type: 'integer', format: 'int64', minimum: 1, maximum: 9007199254740991 })).toBe(1);
    expect(exampleFor({ type: 'integer', minimum: 400, maximum: 599 })).toBe(400);
    expect(exampleFor({ type: 'integer', minimum: 0, maximum: 100000 })).toBe(0);
    expect(exampleFor({ type: 'number', maximum: 10 })).toBe(0);
    expect(exampleFor({ type: 'integer', minimum: -10, maximum: -5 })).toBe(-5);
    expect(exampleFor({ type: ['integer', 'null'], minimum: 3, maximum: 9 })).toBe(3);
  });

  it('reads exclusive bounds as OpenAPI 3.0 and 3.1 write them, and multipleOf', () => {
    expect(exampleFor({ type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 10 })).toBe(1);
    expect(exampleFor({ type: 'integer', exclusiveMinimum: 0, maximum: 10 })).toBe(1);
    expect(exampleFor({ type: 'integer', minimum: 2, exclusiveMinimum: 0, maximum: 10 })).toBe(2);
    expect(exampleFor({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 })).toBe(0.5);
    expect(exampleFor({ type: 'integer', minimum: 1, maximum: 20, multipleOf: 5 })).toBe(5);
    // No value fits: Swagger UI's own is left.
    expect(exampleFor({ type: 'integer', minimum: 3, maximum: 4, multipleOf: 5 })).toBeUndefined();
    expect(exampleFor({ type: 'integer', minimum: 5, maximum: 4 })).toBeUndefined();
  });

  it('leaves numbers with an example, a default, an enum, or no maximum, and what is not a number', () => {
    for (const schema of [
      { type: 'integer', maximum: 9, example: 7 },
      { type: 'integer', maximum: 9, default: 2 },
      { type: 'integer', maximum: 9, enum: [9] },
      { type: 'integer', minimum: 5 },
      { type: 'string', maxLength: 9 },
    ]) {
      expect(exampleFor(schema), JSON.stringify(schema)).toBe(schema.example);
    }
  });

  it('puts a copy in each place a referenced schema stands, the component itself and parameters as written, example data untouched', () => {
    const id = { type: 'integer', minimum: 1, maximum: 99 };
    const data = { type: 'integer', maximum: 5 };
    const doc = {
      paths: {
        '/pets/{petId}': {
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { $ref: '#/components/schemas/Id' } }],
          get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Id' } }, example: data } } } } },
        },
      },
      components: { schemas: { Id: id, Pet: { type: 'object', properties: { id: { $ref: '#/components/schemas/Id' }, default: { type: 'integer', maximum: 3 } } } } },
    };
    addNumberExamples(doc);
    expect(doc.components.schemas.Pet.properties.id).toEqual({ ...id, example: 1 });
    expect(doc.components.schemas.Pet.properties.default).toEqual({ type: 'integer', maximum: 3, example: 0 });
    expect(doc.paths['/pets/{petId}'].get.responses[200].content['application/json'].schema.items).toEqual({ ...id, example: 1 });
    expect(doc.components.schemas.Id).toEqual({ type: 'integer', minimum: 1, maximum: 99 });
    expect(doc.paths['/pets/{petId}'].parameters[0].schema).toEqual({ $ref: '#/components/schemas/Id' });
    expect(doc.paths['/pets/{petId}'].get.responses[200].content['application/json'].example).toEqual({ type: 'integer', maximum: 5 });
  });

  it('leaves no maximum as the example of a Petstore property: ids read 1, Error status 400', async () => {
    const doc = structuredClone((await petstoreDocument()).raw);
    addNumberExamples(doc);
    const schemas = (doc.components as { schemas: Record<string, { properties: Record<string, SchemaObject> }> }).schemas;
    expect(schemas.NewPet.properties.categoryId.example).toBe(1);
    expect(schemas.Order.properties.quantity.example).toBe(1);
    expect(schemas.InventoryUpdate.properties.quantity.example).toBe(0);
    expect(schemas.Error.properties.status.example).toBe(400);
    expect(JSON.stringify(doc)).not.toMatch(/"example":9007199254740991/);
  });
});
