/**
 * The state as a JSON document: exported by the admin API and the state file, imported by
 * them and by watch mode. An import is checked whole before anything changes: a bad one
 * changes nothing and says which collection, record and field is wrong.
 */
import type { ValidateFunction } from 'ajv';
import type { Collection } from '../openapi/operations/collection.js';
import { toProblems } from '../openapi/validation/ajv-problems.js';
import { formatProblem } from '../core/problem.js';
import type { CollectionSnapshot, StateStore } from './state-store.js';

export const SNAPSHOT_FORMAT = 'petstore-mock-kit/state@1';

export interface StateSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  collections: Record<string, CollectionSnapshot>;
}

export function exportSnapshot(store: StateStore): StateSnapshot {
  return { format: SNAPSHOT_FORMAT, collections: store.export() };
}

/**
 * Checks a snapshot against the document's collections and schemas.
 * @returns the snapshot, or a sentence saying what is wrong.
 */
export function checkSnapshot(
  data: unknown,
  collections: Collection[],
  validatorFor: (collection: Collection) => ValidateFunction | undefined,
): StateSnapshot | string {
  if (!data || typeof data !== 'object' || (data as StateSnapshot).format !== SNAPSHOT_FORMAT) {
    return `the state must be an object with "format": "${SNAPSHOT_FORMAT}" and "collections"`;
  }
  const given = (data as StateSnapshot).collections;
  if (!given || typeof given !== 'object') return 'the state has no "collections" object';
  for (const [name, snapshot] of Object.entries(given)) {
    const collection = collections.find((c) => c.name === name);
    if (!collection) return `collection "${name}" is not in the document (it has: ${collections.map((c) => c.name).join(', ')})`;
    if (!snapshot || typeof snapshot !== 'object' || typeof snapshot.scopes !== 'object' || !Number.isSafeInteger(snapshot.nextInteger)) {
      return `collection "${name}" must have "nextInteger" (an integer) and "scopes" (records by scope)`;
    }
    const sequences = snapshot.sequences;
    if (sequences !== undefined && (!sequences || typeof sequences !== 'object' || Array.isArray(sequences) || !Object.values(sequences).every(Number.isSafeInteger))) {
      return `collection "${name}": "sequences" must be an object of integers (each scope's next key)`;
    }
    const validate = validatorFor(collection);
    for (const [scope, records] of Object.entries(snapshot.scopes)) {
      if (!Array.isArray(records)) return `${name}: scope "${scope}" must hold an array of records`;
      // A scope is a parent record's key: a collection at the top has only "" (any other scope, `__proto__` included, would be stored and counted but never listed).
      if (collection.scopeParams.length === 0 && scope !== '') return `${name}: scope ${JSON.stringify(scope.slice(0, 100))} cannot hold records: ${name} are not under a parent record, so all of them are in scope ""`;
      const keys = new Set<string>();
      for (const [index, record] of records.entries()) {
        // Keyless records (no id: a collection with no item path) are told apart by their place.
        const key = collection.keyless ? undefined : (record as Record<string, unknown>)?.[collection.keyProperty];
        const label = `${name}: record ${index + 1}${key === undefined ? '' : ` (${collection.keyProperty} ${JSON.stringify(key)})`}`;
        if (!record || typeof record !== 'object' || Array.isArray(record)) return `${label} is not an object`;
        if (!collection.keyless) {
          if (key === undefined) return `${label} has no "${collection.keyProperty}"`;
          // Past 2^53 - 1 an integer is not exact (JSON.parse reads 2^53 + 1 as 2^53): two keys would be one.
          if (typeof key === 'number' && !Number.isSafeInteger(key)) return `${label}: ${collection.keyProperty} must be an integer from -(2^53 - 1) to 2^53 - 1, where integers are exact`;
          if (keys.has(String(key))) return `${label} repeats ${collection.keyProperty} ${JSON.stringify(key)}`;
          keys.add(String(key));
        }
        if (validate && !validate(record)) return `${label} does not match the schema: ${formatProblem(toProblems(validate.errors, '')[0])}`;
      }
    }
  }
  return data as StateSnapshot;
}

/** Replaces the collections the snapshot names (checked beforehand with `checkSnapshot`). */
export function applySnapshot(store: StateStore, snapshot: StateSnapshot): void {
  for (const [name, collection] of Object.entries(snapshot.collections)) store.collection(name).import(collection);
}

/**
 * A state file holds every collection: one that lacks some (or has others) is refused at start
 * rather than mixed with seed data. (An import through the admin API may name only some.)
 * @returns what is missing, as part of a sentence, or undefined when the state is whole.
 */
export function missingCollections(snapshot: StateSnapshot, collections: readonly Pick<Collection, 'name'>[]): string | undefined {
  const missing = collections.map((c) => c.name).filter((name) => !Object.hasOwn(snapshot.collections, name));
  if (missing.length === 0) return undefined;
  const named = missing.map((name) => `"${name}"`).join(', ');
  return `${missing.length === 1 ? 'collection' : 'collections'} ${named} ${missing.length === 1 ? 'is' : 'are'} missing (the document has: ${collections.map((c) => c.name).join(', ')}); a state file holds every collection`;
}
