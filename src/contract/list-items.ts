/**
 * The records of a list response, bare (`[...]`) or wrapped (`{items: [...]}`), as the collection
 * the suite inferred describes it. Shared by the phases that read lists and the checks that judge them.
 */
import type { Collection } from '../operations/infer-collections.js';

/** @example listItems(pets, [{ id: 1 }]) // [{ id: 1 }] */
export function listItems(collection: Collection, json: unknown): Array<Record<string, unknown>> {
  const items = collection.listWrapper ? (json as Record<string, unknown> | undefined)?.[collection.listWrapper.items] : json;
  return Array.isArray(items) ? (items as Array<Record<string, unknown>>) : [];
}
