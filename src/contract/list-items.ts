/**
 * The records of an answer, as the collection the suite inferred describes them: a list bare
 * (`[...]`) or wrapped (`{items: [...]}`), one record bare or in its envelope (`{"data": {...}}`),
 * and what a create answered (one record, or several: an array, or an envelope holding one).
 * Shared by the phases that read records and lists and the checks that judge them.
 */
import type { Collection } from '../openapi/operations/collection.js';

type Row = Record<string, unknown>;

/** @example listItems(pets, [{ id: 1 }]) // [{ id: 1 }] */
export function listItems(collection: Collection, json: unknown): Row[] {
  const items = collection.listWrapper ? (json as Row | undefined)?.[collection.listWrapper.items] : json;
  return Array.isArray(items) ? (items as Row[]).filter(isRow) : [];
}

/** @example recordOf(roles, { data: { id: 3 } }) // { id: 3 } (roles.envelope is 'data'); undefined when the answer holds no one record */
export function recordOf(collection: Collection, json: unknown): Row | undefined {
  const inner = collection.envelope && isRow(json) ? json[collection.envelope] : json;
  return isRow(inner) ? inner : undefined;
}

/** Every record a create answered: one, or each of an array (bare, or in the envelope or the list's wrapper). */
export function createdRecords(collection: Collection, json: unknown): Row[] {
  const one = recordOf(collection, json);
  if (one && !(collection.envelope === undefined && collection.listWrapper && Array.isArray(one[collection.listWrapper.items]))) return [one];
  const inner = collection.envelope && isRow(json) ? json[collection.envelope] : json;
  if (Array.isArray(inner)) return inner.filter(isRow);
  return listItems(collection, json);
}

function isRow(value: unknown): value is Row {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}
