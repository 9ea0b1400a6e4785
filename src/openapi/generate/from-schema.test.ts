import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createFaker } from './create-faker.js';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv, type Ajv as AjvInstance } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { SchemaObject } from '../document/schema.js';
import { createGenerator } from './from-schema.js';
import { alphanumeric } from './helpers.js';
import { CORPUS } from '../../test-support/petstore.js';

// ajv-formats is CommonJS with a `default` export; under NodeNext the default import is the module.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

function makeAjv(dialect: '3.0' | '3.1' = '3.0'): AjvInstance {
  const options = { strict: false, allErrors: true, logger: false as const };
  const ajv = dialect === '3.1' ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

const ajv = makeAjv();

function generatorFor(seed: number, maxDepth?: number) {
  const faker = createFaker();
  faker.seed(seed);
  return createGenerator(faker, { maxDepth });
}

/** Generates with `count` different seeds and returns the values. */
function sample(schema: SchemaObject, count = 50, hints = {}): unknown[] {
  return Array.from({ length: count }, (_, seed) => generatorFor(seed)(schema, hints));
}

function expectValid(schema: SchemaObject, values: unknown[]): void {
  const validate = ajv.compile(schema);
  for (const value of values) {
    expect(validate(value), `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  }
}

const newPet = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, tag: { type: 'string' } },
};
const petstorePet = {
  type: 'object',
  required: ['name', 'photoUrls'],
  properties: {
    id: { type: 'integer', format: 'int64', example: 10 },
    name: { type: 'string', example: 'doggie' },
    category: {
      type: 'object',
      properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' } },
    },
    photoUrls: { type: 'array', items: { type: 'string', format: 'uri' } },
    tags: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' } } },
    },
    status: { type: 'string', description: 'pet status in the store', enum: ['available', 'pending', 'sold'] },
    birthday: { type: 'string', format: 'date', nullable: true },
    weight: { type: 'number', format: 'float', minimum: 0, exclusiveMinimum: true },
  },
};

describe('alphanumeric', () => {
  it('gives what faker.string.alphanumeric gives from the same seed (seeded photo URLs depend on it)', () => {
    for (const seed of [1, 2, 42]) {
      const [mine, fakers] = [createFaker(), createFaker()];
      mine.seed(seed);
      fakers.seed(seed);
      for (const length of [1, 8, 8, 30]) expect(alphanumeric(mine, length)).toBe(fakers.string.alphanumeric(length));
    }
  });
});

describe('createGenerator', () => {
  it('gives the same values for the same seed and different values for another seed', () => {
    const first = generatorFor(7)(petstorePet, { collection: 'pets' });
    const again = generatorFor(7)(petstorePet, { collection: 'pets' });
    const other = generatorFor(8)(petstorePet, { collection: 'pets' });
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it.each([
    'date-time', 'date', 'time', 'email', 'uri', 'url', 'uri-reference', 'iri', 'hostname',
    'ipv4', 'ipv6', 'uuid', 'byte', 'binary', 'password', 'duration', 'some-unknown-format',
  ])('generates strings that Ajv accepts for format %s', (format) => {
    const values = sample({ type: 'string', format });
    expectValid({ type: 'string', format }, values);
    expect(values.every((v) => typeof v === 'string' && v.length > 0)).toBe(true);
  });

  it('formats dates as YYYY-MM-DD and date-times as ISO strings', () => {
    const generate = generatorFor(1);
    expect(generate({ type: 'string', format: 'date' })).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(generate({ type: 'string', format: 'date-time' })).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('honours minLength and maxLength, also over property-name heuristics', () => {
    const schemas = [
      { type: 'string', minLength: 30 },
      { type: 'string', maxLength: 3 },
      { type: 'string', minLength: 5, maxLength: 5 },
      { type: 'string', format: 'email', maxLength: 40 },
    ];
    for (const schema of schemas) expectValid(schema, sample(schema, 30, { propertyName: 'description' }));
    expectValid({ type: 'string', maxLength: 4 }, sample({ type: 'string', maxLength: 4 }, 30, { propertyName: 'name', collection: 'users' }));
  });

  it('keeps numbers within minimum, maximum, exclusive bounds and multipleOf', () => {
    const schemas = [
      { type: 'integer', minimum: 5, maximum: 7 },
      { type: 'integer', exclusiveMinimum: 5, exclusiveMaximum: 8 },
      { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      { type: 'number', minimum: 0.001, maximum: 0.002 },
      { type: 'integer', multipleOf: 25, minimum: 10, maximum: 110 },
      { type: 'number', multipleOf: 0.5, minimum: -3 },
      { type: 'number', multipleOf: 0.01, minimum: 0, maximum: 100 },
      { type: 'number', multipleOf: 0.1 },
      { type: 'integer', format: 'int32', minimum: 2147483000 },
      { type: 'integer', maximum: -50 },
      { type: 'number', format: 'double' },
    ];
    for (const schema of schemas) expectValid(schema, sample(schema));
  });

  it('picks small realistic numbers: [0, 1000] unbounded, at most 1000 above a minimum', () => {
    const unbounded = sample({ type: 'integer', format: 'int64' }) as number[];
    expect(unbounded.every((n) => Number.isSafeInteger(n) && n >= 0 && n <= 1000)).toBe(true);
    const wide = sample({ type: 'integer', minimum: 1_000_000, maximum: 9_000_000_000 }) as number[];
    expect(wide.every((n) => n >= 1_000_000 && n <= 1_001_000)).toBe(true);
    const huge = sample({ type: 'integer', minimum: 1e300 }) as number[];
    expect(huge.every((n) => Number.isSafeInteger(n))).toBe(true);
  });

  it("draws a number the schema leaves open around its examples' size: a quantity of 7 up to 14, a price of 25 up to 50; bounds still decide", () => {
    const quantities = sample({ type: 'integer', format: 'int32', example: 7 }) as number[];
    expect(quantities.every((n) => Number.isInteger(n) && n >= 0 && n <= 14), quantities.join()).toBe(true);
    const prices = sample({ type: 'number', examples: [25, 12.5] }) as number[];
    expect(prices.every((n) => n >= 0 && n <= 50), prices.join()).toBe(true);
    expect(new Set(prices).size).toBeGreaterThan(10);
    const small = sample({ type: 'integer', example: 1 }) as number[];
    expect(small.every((n) => n >= 0 && n <= 10)).toBe(true);
    // An example the schema refuses says nothing; a maximum of the schema's own is kept.
    expect((sample({ type: 'integer', minimum: 100, example: 7 }) as number[]).every((n) => n >= 100 && n <= 1100)).toBe(true);
    expect((sample({ type: 'integer', maximum: 500, example: 7 }) as number[]).every((n) => n >= 0 && n <= 500)).toBe(true);
  });

  it('honours the OpenAPI 3.0 boolean exclusiveMinimum and exclusiveMaximum', () => {
    const integers = sample({ type: 'integer', minimum: 1, exclusiveMinimum: true, maximum: 3, exclusiveMaximum: true });
    expect(integers.every((n) => n === 2)).toBe(true);
    const numbers = sample({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true }) as number[];
    expect(numbers.every((n) => n > 0 && n < 1)).toBe(true);
  });

  it.each(['^[\\da-z]{26}$', '^JS[0-9a-fA-F]{32}$'])('generates strings matching the pattern %s', (pattern) => {
    const schema = { type: 'string', pattern, minLength: 26, maxLength: 34 };
    const values = sample(schema, 100);
    expectValid(schema, values);
    expect(new Set(values).size).toBeGreaterThan(90);
    expect(values.some((v) => /\d/.test(v as string))).toBe(true);
  });

  it('matches patterns Faker alone cannot: groups, alternation and escapes', () => {
    const patterns = [
      '^\\d{3}-\\d{4}$', '^(foo|bar)-[a-z]+$', '^[a-z]+(-[a-z]+)*$', '^\\w+@\\w+\\.com$',
      '^(?:\\+\\d{1,3})?\\d{10}$', '^[^\\s]{3,}$', '^\\p{Lu}\\p{Ll}+$', '^v\\d+\\.\\d+(\\.\\d+)?$',
    ];
    for (const pattern of patterns) expectValid({ type: 'string', pattern }, sample({ type: 'string', pattern }, 30));
  });

  it('returns a string without throwing for invalid or unsatisfiable patterns', () => {
    for (const pattern of ['[', '^(?=a)b$', 'a{5,2}']) {
      for (const value of sample({ type: 'string', pattern }, 5)) expect(typeof value).toBe('string');
    }
  });

  it('only picks enum values of the schema type, and the first value when none match', () => {
    const values = sample({ type: 'string', enum: ['none', 1, 2, 'latest'] }, 100);
    expect(new Set(values)).toEqual(new Set(['none', 'latest']));
    expect(sample({ type: 'boolean', enum: ['yes', 'no'] }, 5)).toEqual(Array(5).fill('yes'));
    expect(sample({ enum: [null, 'a'] }, 5)).toEqual(Array(5).fill('a'));
  });

  it('returns fewer unique items when the item space is smaller than the wanted length', () => {
    const schema = { type: 'array', uniqueItems: true, minItems: 3, maxItems: 10, items: { type: 'string', enum: ['LETTERS', 'DIGITS', 'SYMBOLS'] } };
    const values = sample(schema) as string[][];
    expectValid(schema, values);
    expect(values.every((v) => v.length === 3)).toBe(true);
    const { minItems: _, ...free } = schema;
    expectValid(free, sample(free));
  });

  it('prefers 1 to 3 items, within minItems and maxItems, and strings when items is missing', () => {
    const free = sample({ type: 'array', items: { type: 'integer' } }) as unknown[][];
    expect(free.every((v) => v.length >= 1 && v.length <= 3)).toBe(true);
    expectValid({ type: 'array', minItems: 5, maxItems: 6 }, sample({ type: 'array', minItems: 5, maxItems: 6 }));
    expect(sample({ type: 'array', maxItems: 0 })).toEqual(Array(50).fill([]));
    const untyped = sample({ type: 'array' }) as unknown[][];
    expect(untyped.flat().every((v) => typeof v === 'string')).toBe(true);
  });

  it('merges allOf branches, with the required lists of both', () => {
    const pet = { allOf: [newPet, { type: 'object', required: ['id'], properties: { id: { type: 'integer', format: 'int64' } } }] };
    const values = sample(pet) as Record<string, unknown>[];
    expectValid(pet, values);
    expect(values.every((v) => typeof v.id === 'number' && typeof v.name === 'string')).toBe(true);
  });

  it('intersects allOf bounds and keeps the values inside both', () => {
    const schema = { allOf: [{ type: 'integer', minimum: 10, maximum: 100 }, { minimum: 50, maximum: 200 }] };
    expectValid(schema, sample(schema));
  });

  it('generates one branch of a oneOf of objects, merged with the parent properties', () => {
    const cat = { type: 'object', required: ['kind', 'lives'], properties: { kind: { type: 'string', enum: ['cat'] }, lives: { type: 'integer', minimum: 1, maximum: 9 } } };
    const dog = { type: 'object', required: ['kind', 'barks'], properties: { kind: { type: 'string', enum: ['dog'] }, barks: { type: 'boolean' } } };
    const schema = { type: 'object', required: ['name'], properties: { name: { type: 'string' } }, oneOf: [cat, dog] };
    const values = sample(schema) as Record<string, unknown>[];
    expectValid(schema, values);
    expect(values.every((v) => typeof v.name === 'string')).toBe(true);
  });

  it('sets the discriminator property to the mapping key of the chosen branch', () => {
    const cat = { type: 'object', properties: { petType: { type: 'string' }, lives: { type: 'integer' } } };
    const dog = { type: 'object', title: 'Doggo', properties: { petType: { type: 'string' }, barks: { type: 'boolean' } } };
    const schema = { oneOf: [cat, dog], discriminator: { propertyName: 'petType', mapping: { kitty: cat } } };
    const values = sample(schema) as Record<string, unknown>[];
    expect(new Set(values.map((v) => v.petType))).toEqual(new Set(['kitty', 'Doggo']));
    for (const value of values) expect('lives' in value).toBe(value.petType === 'kitty');
  });

  it('skips null and contradicting branches of anyOf', () => {
    expect(sample({ anyOf: [{ type: 'null' }, { type: 'integer', minimum: 3, maximum: 3 }] }, 5)).toEqual(Array(5).fill(3));
    const values = sample({ type: 'string', oneOf: [{ type: 'integer' }, { minLength: 4, maxLength: 4 }] }, 10);
    expect(values.every((v) => typeof v === 'string' && v.length === 4)).toBe(true);
  });

  it('terminates on a circular schema and produces a valid value', () => {
    const node: SchemaObject = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    node.properties!.children = { type: 'array', items: node };
    const values = sample(node);
    // Ajv cannot compile a circular object graph: validate against the same schema written with $ref.
    const withRef = {
      $ref: '#/definitions/node',
      definitions: { node: { ...node, properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/node' } } } } },
    };
    expectValid(withRef, values);
    const depth = (v: any): number => 1 + Math.max(0, ...(v.children ?? []).map(depth));
    expect(Math.max(...values.map(depth))).toBeLessThanOrEqual(6);
  });

  it('terminates on a required self-reference and through allOf cycles', () => {
    const node: SchemaObject = { type: 'object', required: ['parent', 'label'], properties: { label: { type: 'string' } } };
    node.properties!.parent = node;
    const looping: SchemaObject = { type: 'object', properties: { a: { type: 'string' } } };
    looping.allOf = [looping];
    for (const schema of [node, looping]) {
      for (const value of sample(schema, 10)) expect(JSON.parse(JSON.stringify(value))).toEqual(value);
    }
    const nested = JSON.stringify(generatorFor(1)(node));
    expect(nested.split('"parent"').length - 1).toBeLessThanOrEqual(10);
  });

  it('calls the faker method named by x-faker, with or without an argument, and falls back on unknown paths', () => {
    const faker = createFaker();
    const petNames = new Set(faker.definitions.animal.pet_name as string[]);
    expect(sample({ type: 'string', 'x-faker': 'animal.petName' }, 20).every((v) => petNames.has(v as string))).toBe(true);
    const words = sample({ type: 'string', 'x-faker': { 'lorem.words': 4 } }, 20) as string[];
    expect(words.every((v) => v.split(' ').length === 4)).toBe(true);
    for (const spec of ['no.such.method', 'constructor.constructor', 'seed']) {
      expect(sample({ type: 'integer', maximum: 5, 'x-faker': spec }, 5).every((v) => Number.isInteger(v) && (v as number) <= 5)).toBe(true);
    }
  });

  it('uses the property name for realistic strings: emails, people, pets, dates', () => {
    expectValid({ type: 'string', format: 'email' }, sample({ type: 'string' }, 30, { propertyName: 'email' }));
    expectValid({ type: 'string', format: 'date-time' }, sample({ type: 'string' }, 30, { propertyName: 'createdAt' }));
    const people = sample({ type: 'string' }, 30, { propertyName: 'name', collection: 'users' }) as string[];
    expect(people.every((v) => v.includes(' '))).toBe(true);
    const faker = createFaker();
    const petNames = new Set(faker.definitions.animal.pet_name as string[]);
    const pets = sample({ type: 'string' }, 30, { propertyName: 'name', collection: 'pets' }) as string[];
    expect(pets.every((v) => petNames.has(v))).toBe(true);
  });

  it('lets a pattern or an enum win over property-name heuristics', () => {
    expectValid({ pattern: '^[A-Z]{3}$' }, sample({ type: 'string', pattern: '^[A-Z]{3}$' }, 20, { propertyName: 'email' }));
    expect(sample({ type: 'string', enum: ['x'] }, 5, { propertyName: 'email' })).toEqual(Array(5).fill('x'));
  });

  it('infers missing types, picks the non-null type, and reads an invalid type as string', () => {
    const generate = generatorFor(3);
    expect(generate({ properties: { a: { type: 'integer' } }, required: ['a'] })).toEqual({ a: expect.any(Number) });
    expect(Array.isArray(generate({ items: { type: 'boolean' } }))).toBe(true);
    expect(typeof generate({ maxLength: 3 })).toBe('string');
    expect(typeof generate({ minimum: 2 })).toBe('number');
    expect(typeof generate({ type: ['null', 'integer'] })).toBe('number');
    expect(typeof generate({ type: 'integer', nullable: true })).toBe('number');
    expect(typeof generate({ type: 'str' })).toBe('string');
    expect(generate({ type: 'null' })).toBeNull();
    expect(typeof generate({ nullable: true })).toBe('string');
  });

  it('never returns a Date: YAML dates in examples, enums and const become strings', () => {
    const day = new Date('2007-12-25T00:00:00Z');
    const generate = generatorFor(4);
    expect(generate({ type: 'string', format: 'date', const: day })).toBe('2007-12-25');
    expect(generate({ type: 'string', format: 'date-time', enum: [day] })).toBe('2007-12-25T00:00:00.000Z');
    expect(generate({ type: 'string', pattern: '^\\d{4}-12-25$', example: day, maxLength: 3 })).toMatch(/^\d{4}-12-25$/);
  });

  it('generates maps of 1-2 entries for additionalProperties, within min/maxProperties', () => {
    const map = { type: 'object', additionalProperties: { type: 'integer' } };
    const sizes = (sample(map) as object[]).map((v) => Object.keys(v).length);
    expect(sizes.every((n) => n >= 1 && n <= 2)).toBe(true);
    const bounded = { type: 'object', minProperties: 4, additionalProperties: { type: 'string' } };
    expectValid(bounded, sample(bounded));
    const capped = { type: 'object', maxProperties: 1, required: ['a'], properties: { a: { type: 'string' }, b: { type: 'string' } } };
    expectValid(capped, sample(capped));
  });

  it('includes optional properties near the root and only required ones deeper down', () => {
    const leaf = { type: 'object', required: ['r'], properties: { r: { type: 'string' }, o: { type: 'string' } } };
    const tree = { type: 'object', properties: { o: { type: 'string' }, child: { type: 'object', properties: { child: { type: 'object', properties: { child: leaf } } } } } };
    const value = generatorFor(5)(tree) as any;
    expect(Object.keys(value)).toEqual(['o', 'child']);
    expect(value.child.child.child).toEqual({ r: expect.any(String) });
  });

  it('works a schema out once but generates per call: values are fresh, and depth still decides the properties', () => {
    const choice = { enum: [{ a: 1 }] };
    const generate = generatorFor(6);
    (generate(choice) as any).a = 2;
    expect(generate(choice)).toEqual({ a: 1 });
    const leaf = { type: 'object', required: ['r'], properties: { r: { type: 'string' }, o: { type: 'string' } } };
    const deep = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'object', properties: { c: leaf } } } } } };
    expect(Object.keys(generate(leaf) as object)).toEqual(['r', 'o']);
    expect(Object.keys((generate(deep) as any).a.b.c)).toEqual(['r']);
    expect(Object.keys(generate(leaf) as object)).toEqual(['r', 'o']);
    expect(Object.keys((generatorFor(6, 0)({ type: 'object', properties: { c: leaf } }) as any).c)).toEqual(['r']);
  });

  it('never throws and always returns JSON for odd schemas', () => {
    const odd: unknown[] = [
      {}, true, false, null, 'string', [], { type: 42 }, { enum: [] }, { allOf: [{ type: 'string' }, { type: 'integer' }] },
      { type: 'array', items: false, minItems: 2 }, { type: 'object', properties: { __proto__: { type: 'string' } } },
      { type: 'string', format: 'constructor' }, { type: 'integer', minimum: 10, maximum: 1 }, { type: 'number', multipleOf: 0 },
      { 'x-faker': { 'helpers.arrayElement': [] } }, { oneOf: [] }, { type: 'string', minLength: 5, maxLength: 2 },
    ];
    for (const schema of odd) {
      const value = generatorFor(1)(schema as SchemaObject);
      expect(value).not.toBeUndefined();
      expect(() => JSON.stringify(value)).not.toThrow();
    }
  });

  it('generates a Petstore Pet that validates with Ajv 200 times in a row', () => {
    const values = Array.from({ length: 200 }, (_, seed) => generatorFor(1000 + seed)(petstorePet, { collection: 'pets' }));
    const { exclusiveMinimum: _, ...weight } = petstorePet.properties.weight;
    expectValid({ ...petstorePet, properties: { ...petstorePet.properties, weight } }, values);
    expect(values.every((v: any) => v.weight > 0)).toBe(true);
  });

  it('generates JSON for every schema of every corpus document', async () => {
    const dir = CORPUS;
    const files = readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f));
    let schemas = 0;
    let checked = 0;
    let valid = 0;
    for (const file of files) {
      let document: any;
      try {
        document = await SwaggerParser.dereference(join(dir, file));
      } catch {
        continue;
      }
      if (document.swagger) continue;
      const validator = makeAjv(String(document.openapi).startsWith('3.1') ? '3.1' : '3.0');
      for (const [name, schema] of Object.entries<SchemaObject>(document.components?.schemas ?? {})) {
        schemas++;
        let validate: ((v: unknown) => boolean) | undefined;
        try { validate = validator.compile(schema); } catch { validate = undefined; }
        for (let seed = 0; seed < 5; seed++) {
          const value = generatorFor(seed)(schema, { collection: name });
          expect(value, `${file} ${name}`).not.toBeUndefined();
          expect(() => JSON.stringify(value), `${file} ${name}`).not.toThrow();
          if (validate) {
            checked++;
            if (validate(value)) valid++;
          }
        }
      }
    }
    console.log(`corpus: ${files.length} documents, ${schemas} schemas, ${valid}/${checked} generated values valid with Ajv`);
    expect(schemas).toBeGreaterThan(100);
  });
});
