import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { SchemaObject } from '../document/schema.js';
import { createFaker } from './create-faker.js';
import { createGenerator } from './from-schema.js';

/**
 * A chain of `length` object schemas as a dereferenced document has it (`next` is the next schema
 * object), and the same written with `$ref`s for Ajv.
 */
function chain(length: number, { nextRequired = true } = {}) {
  const objects: SchemaObject[] = [];
  const definitions: SchemaObject = {};
  for (let i = length - 1; i >= 0; i--) {
    const last = i === length - 1;
    const required = ['name', ...(nextRequired && !last ? ['next'] : [])];
    const scalars = { name: { type: 'string', minLength: 1 }, note: { type: 'string' } };
    objects[i] = { type: 'object', required, properties: { ...scalars, ...(last ? {} : { next: objects[i + 1] }) } };
    definitions[`n${i}`] = { type: 'object', required, properties: { ...scalars, ...(last ? {} : { next: { $ref: `#/definitions/n${i + 1}` } }) } };
  }
  return { schema: objects[0], forAjv: { definitions, $ref: '#/definitions/n0' } };
}

/** A value generated for `chain`: each object holds the next in `next`. */
interface Link {
  name: string;
  next: Link;
}

const depthOf = (value: any): number => (value && typeof value === 'object' ? 1 + depthOf(value.next) : 0);

function generator(seed = 1) {
  const faker = createFaker();
  faker.seed(seed);
  return createGenerator(faker);
}

describe('generating deep chains', () => {
  it('follows a chain of 150 required properties to its end: the value is valid', () => {
    const { schema, forAjv } = chain(150);
    const value = generator()(schema);
    expect(depthOf(value)).toBe(150);
    const validate = new Ajv({ strict: false }).compile(forAjv);
    expect(validate(value), JSON.stringify(validate.errors?.[0])).toBe(true);
  });

  it('stops a chain of 2,000 required properties at a bounded depth, without exhausting the stack', () => {
    const { schema } = chain(2000);
    const value = generator()(schema) as Link;
    // Not the minimal value the generator falls back on when it throws (a stack overflow included).
    const depth = depthOf(value);
    expect(depth).toBeGreaterThan(200);
    expect(depth).toBeLessThan(300);
    expect(JSON.parse(JSON.stringify(value))).toEqual(value);
    // Complete down to the bound; there the required `next` is missing, so the value does not pass for valid.
    let v = value;
    for (let level = 1; level < depth; level++, v = v.next) expect(typeof v.name === 'string' && v.name.length > 0).toBe(true);
    expect(v).toEqual({});
  });

  it('stops where a required property requires its own schema again (no finite value exists)', () => {
    const node: SchemaObject = { type: 'object', required: ['label', 'child'], properties: { label: { type: 'string' } } };
    node.properties!.child = { type: 'object', required: ['parent'], properties: { parent: node } };
    interface Generated {
      child?: { parent: Generated };
    }
    const value = generator()(node) as Generated;
    let levels = 0;
    for (let v = value; v && typeof v === 'object' && v.child; v = v.child.parent) levels++;
    expect(levels).toBeGreaterThan(0);
    expect(levels).toBeLessThan(20);
  });

  it('bounds the optional structure of a long chain of optional links', () => {
    const { schema } = chain(500, { nextRequired: false });
    const depths = Array.from({ length: 20 }, (_, seed) => depthOf(generator(seed)(schema)));
    // Optional properties down to maxDepth / 2 (the default 4): four objects at most.
    expect(Math.max(...depths)).toBe(4);
  });

  it('bounds required structure that multiplies at every level', () => {
    // Each level requires two of the next: 2^30 leaves for a complete value.
    let level: SchemaObject = { type: 'string' };
    for (let i = 0; i < 30; i++) level = { type: 'object', required: ['a', 'b'], properties: { a: level, b: level } };
    const started = performance.now();
    const text = JSON.stringify(generator()(level));
    expect(text.length).toBeLessThan(5_000_000);
    expect(performance.now() - started).toBeLessThan(10_000); // a generous bound: this catches a hang
  });
});
