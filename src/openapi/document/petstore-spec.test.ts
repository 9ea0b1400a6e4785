/**
 * The Petstore document itself: valid and holding every decision the product brief fixes. Linted
 * by Spectral: petstore-spec.process.test.ts.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { buildOperations } from '../operations/build-operations.js';
import { SPEC, petstoreDocument } from '../../test-support/petstore.js';

const api = (await petstoreDocument()).api;
const operations = buildOperations(api);
const responses = (id: string) => operations.find((op) => op.id === id)!.responses.map((r) => r.status);

describe('spec/openapi.yaml', () => {
  it('passes SwaggerParser.validate', async () => {
    await expect(SwaggerParser.validate(SPEC)).resolves.toBeTruthy();
  });

  it('is OpenAPI 3.0.3, version 1.0.0, with the tags Pets and Store', () => {
    expect(api.openapi).toBe('3.0.3');
    expect(api.info.version).toBe('1.0.0');
    expect(api.tags!.map((t: { name: string }) => t.name)).toEqual(['Pets', 'Store']);
    for (const op of operations) expect(op.source.tags, op.id).toHaveLength(1);
  });

  it('has the models of the service description field for field: the same fields, types, formats and required flags, and no others', () => {
    // The service description's table: name -> [type, format, required]. `PetStatus` stands for the enum.
    const described: Record<string, Record<string, [string, string | undefined, boolean]>> = {
      NewPet: { name: ['string', undefined, true], categoryId: ['integer', 'int64', true], status: ['PetStatus', undefined, false] },
      Pet: { name: ['string', undefined, true], categoryId: ['integer', 'int64', true], status: ['PetStatus', undefined, false], id: ['integer', 'int64', true] },
      NewCategory: { name: ['string', undefined, true], description: ['string', undefined, false] },
      Category: { name: ['string', undefined, true], description: ['string', undefined, false], id: ['integer', 'int64', true] },
      Order: { id: ['integer', 'int64', false], petId: ['integer', 'int64', false], quantity: ['integer', undefined, false], shipDate: ['string', 'date-time', false], complete: ['boolean', undefined, false] },
      InventoryItem: { petId: ['integer', 'int64', true], quantity: ['integer', undefined, true], status: ['PetStatus', undefined, true] },
      InventoryUpdate: { quantity: ['integer', undefined, true] },
    };
    const schemas = api.components!.schemas!;
    const flatten = (schema: any): { properties: Record<string, any>; required: string[] } => {
      const parts = [schema, ...(schema.allOf ?? [])].map((part) => (part === schema ? part : flatten(part)));
      return {
        properties: Object.assign({}, ...parts.map((part) => part.properties ?? {})),
        required: parts.flatMap((part) => part.required ?? []),
      };
    };
    for (const [model, fields] of Object.entries(described)) {
      const { properties, required } = flatten(schemas[model]);
      const actual = Object.fromEntries(
        Object.entries(properties).map(([name, property]: [string, any]) => [name, [property === schemas.PetStatus ? 'PetStatus' : property.type, property.format, required.includes(name)]]),
      );
      expect(actual, model).toEqual(fields);
    }
    expect(schemas.PetStatus).toMatchObject({ type: 'string', enum: ['available', 'pending', 'sold'] });
    expect(schemas.Pets).toMatchObject({ type: 'array', items: schemas.Pet });
    // Error: these three required, extra optional fields allowed.
    const error = flatten(schemas.Error);
    expect(error.required).toEqual(['code', 'message', 'status']);
    expect([error.properties.code.type, error.properties.message.type, error.properties.status.type, error.properties.status.format]).toEqual(['string', 'string', 'integer', undefined]);
    expect(schemas.Error.additionalProperties).not.toBe(false);
    // PetStatus is the only enumerated state set.
    const enums: string[] = [];
    const walk = (schema: any, where: string, seen = new Set()) => {
      if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
      seen.add(schema);
      if (schema.enum && schema !== schemas.PetStatus) enums.push(where);
      for (const [k, v] of Object.entries(schema.properties ?? {})) walk(v, `${where}.${k}`, seen);
      for (const part of schema.allOf ?? []) walk(part, where, seen);
      walk(schema.items, `${where}[]`, seen);
    };
    for (const [name, schema] of Object.entries(schemas)) walk(schema, name);
    expect(enums).toEqual([]);
  });

  it('has the models of the brief, with Pet and Category built as NewPet/NewCategory plus id', () => {
    const schemas = api.components!.schemas!;
    for (const name of ['PetStatus', 'NewPet', 'Pet', 'Pets', 'NewCategory', 'Category', 'Order', 'InventoryItem', 'InventoryUpdate', 'Error']) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(schemas.Pet.allOf![0]).toBe(schemas.NewPet);
    expect(schemas.Pet.allOf![1].required).toEqual(['id']);
    expect(schemas.Category.allOf![0]).toBe(schemas.NewCategory);
    expect(schemas.Order.required).toBeUndefined();
    expect(schemas.Error.required).toEqual(['code', 'message', 'status']);
    expect(schemas.Id).toMatchObject({ type: 'integer', format: 'int64' });
  });

  it('secures every operation with bearer auth and declares 401 with the Error schema on each', () => {
    expect(api.components!.securitySchemes!.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const op of operations) {
      expect(op.security, op.id).toEqual([[{ name: 'bearerAuth', scheme: api.components!.securitySchemes!.bearerAuth, scopes: [] }]]);
      const source = op.source;
      expect(source.responses!['401'].content!['application/json'].schema, op.id).toBe(api.components!.schemas!.Error);
    }
  });

  it('declares 400 on every operation that takes input and 404 on every item path', () => {
    for (const op of operations) {
      if (op.parameters.length || op.requestBody) expect(responses(op.id), op.id).toContain('400');
      if (op.path.endsWith('}')) expect(responses(op.id), op.id).toContain('404');
      if (op.requestBody) expect(responses(op.id), op.id).toContain('413');
    }
  });

  it('deprecates GET /pets/{petId} with a sunset date and declares its headers', () => {
    const getPet = api.paths!['/pets/{petId}'].get!;
    expect(getPet.deprecated).toBe(true);
    expect(getPet['x-sunset']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(getPet.responses!['200'].headers!)).toEqual(['Deprecation', 'Sunset', 'Link']);
  });

  it('hides the try-it panel of GET /store/orders and marks experimental and beta operations', () => {
    expect(api.paths!['/store/orders'].get!['x-hideTryItPanel']).toBe(true);
    const stabilities = operations.map((op) => op.source['x-stability']);
    expect(stabilities).toContain('experimental');
    expect(stabilities).toContain('beta');
  });

  it('gives every operation cURL, JavaScript and Python code samples', () => {
    for (const op of operations) {
      const samples = op.source['x-codeSamples'] as Array<{ lang: string; label: string; source: string }>;
      expect(samples.map((s) => s.lang), op.id).toEqual(['cURL', 'JavaScript', 'Python']);
      for (const sample of samples) expect(sample.label && sample.source.length > 20, op.id).toBeTruthy();
    }
  });

  it('bounds every string, every list and every number the client sends', () => {
    const unbounded: string[] = [];
    const walk = (schema: any, where: string, seen = new Set()) => {
      if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
      seen.add(schema);
      if (schema.type === 'string' && !schema.enum && schema.maxLength === undefined && schema.format !== 'date-time') unbounded.push(where);
      if (schema.type === 'array' && schema.maxItems === undefined) unbounded.push(where);
      if (schema.type === 'integer' && (schema.minimum === undefined || schema.maximum === undefined)) unbounded.push(where);
      for (const [k, v] of Object.entries(schema.properties ?? {})) walk(v, `${where}.${k}`, seen);
      for (const part of schema.allOf ?? []) walk(part, where, seen);
      walk(schema.items, `${where}[]`, seen);
    };
    for (const op of operations) {
      for (const p of op.parameters) walk(p.schema, `${op.id} ${p.in}.${p.name}`);
      for (const media of Object.values(op.requestBody?.content ?? {})) walk(media.schema, `${op.id} body`);
    }
    expect(unbounded).toEqual([]);
  });
});
