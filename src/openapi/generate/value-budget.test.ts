/**
 * A generated value is bounded however the schema multiplies it: required properties that are
 * each the same schema with required properties (a `$ref` fan-out, loaded as one object shared),
 * arrays of arrays with a large minItems, maps with a large minProperties, strings with a large
 * minLength. Past the budget the rest is the minimal value, as below the optional structure.
 */
import { describe, expect, it } from 'vitest';
import type { SchemaObject } from '../document/schema.js';
import { createFaker } from './create-faker.js';
import { createGenerator, VALUE_BUDGET } from './from-schema.js';

/** Values and characters in a generated value, as the budget counts them. */
function weight(value: unknown): number {
  let total = 0;
  const stack = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    total += 1 + (typeof next === 'string' ? next.length : 0);
    if (next !== null && typeof next === 'object') stack.push(...Object.values(next));
  }
  return total;
}

/** `levels` schemas, each requiring `fan` properties that are each the next one: fan^(levels-1) strings, as a dereferenced document shares them. */
function requiredFanOut(levels: number, fan: number): SchemaObject {
  let schema: SchemaObject = { type: 'string' };
  for (let level = 1; level < levels; level++) {
    const names = Array.from({ length: fan }, (_, i) => `p${i}`);
    schema = { type: 'object', required: names, properties: Object.fromEntries(names.map((name) => [name, schema])) };
  }
  return schema;
}

const generate = () => {
  const faker = createFaker();
  faker.seed(1);
  return createGenerator(faker);
};

describe('the value budget', () => {
  it('is 100,000 values and characters', () => {
    expect(VALUE_BUDGET).toBe(100_000);
  });

  const bombs: Array<[string, SchemaObject]> = [
    ['required properties fanning out (ten of ten, seven deep: ten million strings)', requiredFanOut(8, 10)],
    ['arrays of arrays of 2,000 items (eight billion strings)', { type: 'array', minItems: 2000, items: { type: 'array', minItems: 2000, items: { type: 'array', minItems: 2000, items: { type: 'string' } } } }],
    ['a map of a billion entries', { type: 'object', minProperties: 1_000_000_000, additionalProperties: { type: 'integer' } }],
    ['unique items from three', { type: 'array', minItems: 1_000_000_000, uniqueItems: true, items: { enum: ['a', 'b', 'c'] } }],
    ['strings of a billion characters', { type: 'array', minItems: 3, items: { type: 'string', minLength: 1_000_000_000 } }],
  ];
  for (const [what, schema] of bombs) {
    it(`bounds ${what}`, () => {
      const value = generate()(schema);
      // The budget, and the minimal values that finish what was open when it ran out (a few per level).
      expect(weight(value)).toBeLessThanOrEqual(VALUE_BUDGET + 1000);
    });
  }

  it('leaves values under it as they were: the same schema, smaller, is generated whole', () => {
    const value = generate()(requiredFanOut(4, 10)) as Record<string, Record<string, Record<string, string>>>;
    expect(Object.keys(value)).toHaveLength(10);
    expect(Object.values(value).flatMap((inner) => Object.values(inner).flatMap((leaf) => Object.values(leaf)))).toHaveLength(1000);
    expect(Object.values(value.p9.p9).every((leaf) => typeof leaf === 'string' && leaf.length > 0)).toBe(true);
  });
});
