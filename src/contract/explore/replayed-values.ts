/**
 * The values of a sequence found on another run, as this run has them. A create step's body holds
 * values no run gives twice: the key of the record it references (the category a pet was made
 * in, created for it), the run's marker, a fresh unique value; a later step of the sequence (a
 * list filtered by `categoryId`, an update that keeps the category) holds the same values. When
 * the sequence is sent again, each create step teaches the value it got this time for the value
 * it had then, field by field, and later steps are written with this run's.
 *
 * @example
 * values.learn(stepThen, stepNow); // body.categoryId 26 then, 31 now
 * values.of('categoryId', 26); // 31
 */
import type { Collection } from '../../openapi/operations/collection.js';
import { mergedProperties } from '../../openapi/operations/schema-properties.js';
import type { Operation } from '../../openapi/operations/operation.js';
import { isMarked } from '../marker.js';
import { requestSchema } from '../request-bodies.js';
import type { Step } from './sequence.js';

type Row = Record<string, unknown>;

export class ReplayedValues {
  /** By field name, this run's value for each value written then (as a string: a query gives them as text). */
  private readonly now = new Map<string, Map<string, unknown>>();

  /** Learns what a create step's path parameters and body fields are on this run, where they differ from the step as written. */
  learn(then: Pick<Step, 'params' | 'body'>, now: Pick<Step, 'params' | 'body'>): void {
    for (const part of ['params', 'body'] as const) {
      const before = then[part];
      const after = now[part];
      if (!isRow(before) || !isRow(after)) continue;
      for (const [name, value] of Object.entries(before)) {
        if (!isScalar(value) || !(name in after) || after[name] === value) continue;
        if (!this.now.has(name)) this.now.set(name, new Map());
        this.now.get(name)!.set(String(value), after[name]);
      }
    }
  }

  /** The value a field had then, as this run has it (the same value when this run gave no other). */
  of(name: string, value: unknown): unknown {
    if (!isScalar(value)) return value;
    const known = this.now.get(name);
    return known?.has(String(value)) ? known.get(String(value)) : value;
  }

  /** Each field of a row (a body, path parameters), as this run has it. */
  row<T>(row: T): T {
    if (!isRow(row)) return row;
    return Object.fromEntries(Object.entries(row).map(([name, value]) => [name, this.of(name, value)])) as T;
  }
}

/**
 * What a create step's body, sent again, asks of the body createRecord builds (its `overrides`):
 * every value as written but those of this run's making, which createRecord makes anew (the
 * references, a key the client chooses, the marker); every property the step's body left out,
 * left out again (`undefined`).
 */
export function createOverrides(collection: Collection, create: Operation, written: Row): Row {
  const schema = requestSchema(create);
  const anew = new Set([collection.keyProperty, ...collection.references.map((r) => r.property)]);
  const overrides: Row = Object.fromEntries(Object.keys(schema ? mergedProperties(schema) : {}).filter((name) => !(name in written)).map((name) => [name, undefined]));
  for (const [name, value] of Object.entries(written)) if (!anew.has(name) && !isMarked(value)) overrides[name] = value;
  return overrides;
}

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
