/**
 * The optional speed-ups of a collection (`CollectionSpeedups`), with what stands in for each when
 * a store does not offer it: readers call these, never the collection's own methods.
 */
import type { CollectionSpeedups, RecordCollection, StoredRecord } from './state-store.js';

/** The record as JSON text: the store's own copy when it keeps one. */
export function recordJson(collection: RecordCollection, record: StoredRecord): string {
  return collection.json ? collection.json(record) : JSON.stringify(record);
}

/** The collection's version, or undefined when it has none: then nothing computed from it may be cached. */
export function versionOf(collection: RecordCollection): number | undefined {
  return collection.version;
}

/** The collection's indexes, when it has them. */
export function indexOf(collection: RecordCollection): Pick<CollectionSpeedups, 'isIndexed' | 'keysWhere' | 'countWhere'> | undefined {
  const { isIndexed, keysWhere, countWhere } = collection;
  return isIndexed && keysWhere && countWhere ? (collection as Pick<CollectionSpeedups, 'isIndexed' | 'keysWhere' | 'countWhere'>) : undefined;
}
