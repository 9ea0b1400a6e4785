/**
 * Examples for bounded numbers, where Swagger UI's own would be their maximum: its OpenAPI 3.0
 * sampler takes a number's `maximum` whenever there is one, and its 3.1 sampler when the minimum
 * is 0 or absent. So every identifier of the Petstore (`maximum: 9007199254740991`) read
 * 2^53 - 1, in every example and every request body the try-it panel starts from, and every
 * Error's `status` read 599.
 */
import type { SchemaObject } from '../../openapi/document/schema.js';
import { followRef } from './follow-ref.js';
import { eachSchemaSlot } from './schema-slots.js';

/**
 * Each property or item whose schema is an integer or a number with a maximum, and without an
 * example, default, enum or const, gets in its place a copy of its schema with the value nearest
 * 0 the bounds allow (`minimum: 1` gives 1; `minimum: 0` gives 0). A parameter's own schema is
 * left alone: Swagger UI would fill the parameter in from it, and an optional filter would then
 * be sent by default.
 *
 * @example addNumberExamples(doc) // Pet's id: { $ref: Id } -> { type: 'integer', ..., maximum: 9007199254740991, example: 1 }
 */
export function addNumberExamples(doc: object): void {
  eachSchemaSlot(doc, (slot) => {
    const schema = followRef(doc, slot.schema);
    const example = nearestZero(schema);
    if (example !== undefined) slot.replace({ ...schema, example });
  });
}

interface Bound {
  value: number;
  strict: boolean;
}

function nearestZero(schema: SchemaObject): number | undefined {
  const types: unknown[] = [schema.type].flat();
  const integer = types.includes('integer');
  if (!integer && !types.includes('number')) return undefined;
  if (['example', 'examples', 'default', 'enum', 'const'].some((key) => schema[key] !== undefined)) return undefined;
  const upper = boundOf(schema.maximum, schema.exclusiveMaximum, Math.min);
  if (!upper) return undefined;
  const lower = boundOf(schema.minimum, schema.exclusiveMinimum, Math.max);
  const aboveLower = (x: number) => !lower || (lower.strict ? x > lower.value : x >= lower.value);
  const inside = (x: number) => aboveLower(x) && (upper.strict ? x < upper.value : x <= upper.value);
  let value: number;
  if (inside(0)) value = 0;
  else if (!aboveLower(0)) value = integer ? lowestInteger(lower!) : lowestNumber(lower!, upper);
  else value = integer ? highestInteger(upper) : highestNumber(upper, lower);
  const step = schema.multipleOf;
  if (typeof step === 'number' && step > 0 && value % step !== 0) value = value > 0 ? Math.ceil(value / step) * step : Math.floor(value / step) * step;
  return inside(value) ? value : undefined;
}

function lowestInteger({ value, strict }: Bound): number {
  return strict ? Math.floor(value) + 1 : Math.ceil(value);
}

function highestInteger({ value, strict }: Bound): number {
  return strict ? Math.ceil(value) - 1 : Math.floor(value);
}

/** A number's lowest value, or halfway to the upper bound when the lower is exclusive. */
function lowestNumber(lower: Bound, upper: Bound): number {
  return lower.strict ? (lower.value + upper.value) / 2 : lower.value;
}

/** A number's highest value, or halfway to the lower bound (1 below, without one) when the upper is exclusive. */
function highestNumber(upper: Bound, lower: Bound | undefined): number {
  if (!upper.strict) return upper.value;
  return lower ? (lower.value + upper.value) / 2 : upper.value - 1;
}

/**
 * A bound as OpenAPI 3.0 writes it (`minimum`, with `exclusiveMinimum: true`) or 3.1 does
 * (`exclusiveMinimum: 0`); with both of 3.1's, the tighter (`tighter`: Math.max for a lower bound).
 */
function boundOf(inclusive: unknown, exclusive: unknown, tighter: (a: number, b: number) => number): Bound | undefined {
  const plain = typeof inclusive === 'number' ? { value: inclusive, strict: exclusive === true } : undefined;
  if (typeof exclusive !== 'number') return plain;
  if (!plain || tighter(plain.value, exclusive) === exclusive) return { value: exclusive, strict: true };
  return plain;
}
