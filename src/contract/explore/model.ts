/**
 * The model a stateful sequence checks the server against: the records this sequence made, each
 * as it was last written (the fields the document promises to read back) and whether it was
 * deleted, with the step that made it (so a repro can name it as `{ $fromStep: i }`).
 */
import type { Collection } from '../../openapi/operations/collection.js';
import { mergedProperties } from '../../openapi/operations/schema-properties.js';

type Row = Record<string, unknown>;

export interface ModelRecord {
  /** The index of the step that created it. */
  step: number;
  key: unknown;
  /** The record's parents' keys and its own: the path parameters of an item operation on it. */
  params: Row;
  /** The fields a read must give back, as last written. */
  expected: Row;
  /** True once updated: a wrong read is then `update_persists`, before it `create_read_back`. */
  updated: boolean;
  deleted: boolean;
}

/** What fast-check's commands see and change: the records of one sequence, in the order made. */
export interface SequenceModel {
  records: ModelRecord[];
}

/** The fields of a written body a read returns: the body minus `writeOnly` and `readOnly` properties, and minus what the record does not have. */
export function readableFields(collection: Collection, body: unknown): Row {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const properties = mergedProperties(collection.schema);
  return Object.fromEntries(Object.entries(body).filter(([name]) => properties[name] && !properties[name].writeOnly && !properties[name].readOnly));
}

/** A list filter: a query parameter that selects records by one of their properties, with the values asked for (a repeated filter matches any). */
export interface Filter {
  name: string;
  values: unknown[];
}

/** True when a record matches every filter (filters combine with AND; a repeated one matches any of its values). */
export function matchesAll(record: Row, filters: Filter[]): boolean {
  return filters.every((f) => f.values.some((v) => String(v) === String(record[f.name])));
}

/** The model's records still alive, and those deleted. */
export const alive = (model: SequenceModel) => model.records.filter((r) => !r.deleted);
export const deleted = (model: SequenceModel) => model.records.filter((r) => r.deleted);
