/**
 * Values for the docs page's try-it panel from the mock's own records, so that the requests it
 * starts from name records that exist: for each operation under a record's path, the keys its
 * path parameters take; for each property that refers to another collection (`categoryId`), a
 * key of that collection. Read from the shared state each time the page is served; the page
 * (add-try-it-values.ts) puts them in its copy of the document as examples.
 */
import type { Collection } from '../../openapi/operations/collection.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { StateStore, StoredRecord } from '../../state/state-store.js';
import { operationKey } from './operation-key.js';

/** A key as a record holds it: `4`, `'a1b2'`. */
export type RecordKey = string | number | boolean;

export interface TryItValues {
  /** By operation (`delete /pets/{petId}`), a value for each path parameter: `{ petId: 4 }`. */
  parameters: Record<string, Record<string, RecordKey>>;
  /** By property name, a key of the collection the property refers to: `{ categoryId: 1, petId: 1 }`. */
  references: Record<string, RecordKey>;
  /** By operation, a value for each required parameter the records leave open (try-it-requests.ts). */
  inputs?: Record<string, TryItInput[]>;
  /** By operation, the body try-it starts from, as the mock's validator accepted it, with its media type. */
  bodies?: Record<string, { mediaType: string; value: unknown }>;
  /** By operation, why it has no body the mock's validator accepted (the page says so). */
  unconfirmed?: Record<string, string>;
}

/** A value for one parameter: `{ in: 'query', name: 'origin', value: '…' }`. */
export interface TryItInput {
  in: string;
  name: string;
  value: unknown;
}

/** How many records are looked at for one a delete can take, at most. */
const CANDIDATES = 1000;

/**
 * The values, for operations and collections as the mock inferred them, from `store`.
 *
 * Each operation below a collection's item path (`/pets/{petId}`, `/pets/{petId}/photos`) gets
 * the key of a record of the deepest such collection, and the keys of the records it is nested
 * under (`/users/{userId}/posts/{postId}`). A delete of the record itself gets one that no other
 * record refers to (a pet without orders, a category without pets) where there is one, so that
 * trying it can succeed; any other operation gets the first record. A collection with no records
 * gives no value (the page leaves those inputs empty, as Swagger UI does).
 *
 * @example tryItValues(operations, collections, store).parameters['delete /pets/{petId}'] // { petId: 4 }
 */
export function tryItValues(operations: readonly Operation[], collections: readonly Collection[], store: StateStore): TryItValues {
  const values: TryItValues = { parameters: {}, references: {} };
  for (const collection of collections) {
    for (const { property, collection: target } of collection.references) {
      const owner = collections.find((c) => c.name === target);
      const found = owner && firstRecord(store, owner, () => true);
      if (found && !(property in values.references)) values.references[property] = keyOf(found.record, owner);
    }
  }
  for (const operation of operations) {
    const at = shapeOf(operation.path);
    const owner = collections
      .filter((collection) => collection.itemPath !== '' && startsWith(at, shapeOf(collection.itemPath)))
      .sort((a, b) => shapeOf(b.itemPath).length - shapeOf(a.itemPath).length)[0];
    if (!owner) continue;
    const deletesIt = operation.method === 'delete' && at.length === shapeOf(owner.itemPath).length;
    const referred = deletesIt ? referredTo(owner, collections, store) : () => false;
    const found = firstRecord(store, owner, (record) => !referred(record)) ?? firstRecord(store, owner, () => true);
    if (!found) continue;
    // The path's parameters in order: those of the collection's scope (its parents' keys), then its own key.
    const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const keys = [...(found.scope ? found.scope.split('/') : []), keyOf(found.record, owner)];
    const given: Record<string, RecordKey> = {};
    // The record's own key goes to the item path's last parameter, its parents' before it: an item
    // path may name fewer parents than the scope holds (`/Exports/Jobs/{JobSid}` beside `/Exports/{ResourceType}/Jobs`).
    const offset = shapeOf(owner.itemPath).filter((segment) => segment === '{}').length - keys.length;
    keys.forEach((key, i) => names[i + offset] !== undefined && (given[names[i + offset]] = key));
    values.parameters[operationKey(operation.method, operation.path)] = given;
  }
  return values;
}

/** A path's segments with each parameter as `{}` and any format suffix dropped: `/Accounts/{Sid}.json` -> `['Accounts', '{}']`. */
function shapeOf(path: string): string[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((segment) => (/^\{[^}]+\}/.test(segment) ? '{}' : segment.replace(/\.[A-Za-z0-9]+$/, '')));
}

function startsWith(path: string[], prefix: string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => segment === path[i]);
}

function keyOf(record: StoredRecord, collection: Collection): RecordKey {
  return record[collection.keyProperty] as RecordKey;
}

/**
 * The first of the collection's records (scope by scope) that `accepts`, among the first
 * CANDIDATES: in the scopes its paths name (a collection whose item path names no parent looks in
 * the unscoped records only, as the mock does, though another path of the same name keeps records
 * per parent).
 */
function firstRecord(store: StateStore, collection: Collection, accepts: (record: StoredRecord) => boolean): { record: StoredRecord; scope: string } | undefined {
  const records = store.collection(collection.name);
  const depth = collection.scopeParams.length;
  let looked = 0;
  for (const scope of records.scopes()) {
    if ((scope === '' ? 0 : scope.split('/').length) !== depth) continue;
    for (const record of records.records(scope).values()) {
      if (accepts(record)) return { record, scope };
      if (++looked >= CANDIDATES) return undefined;
    }
  }
  return undefined;
}

/**
 * Whether another record refers to a record of `collection` (an order to its pet). An item keyed
 * by its owner's key (the stock of a pet, `/store/inventory/{petId}`) is its owner's own, not a
 * reference that would keep the owner.
 */
function referredTo(collection: Collection, collections: readonly Collection[], store: StateStore): (record: StoredRecord) => boolean {
  const referrers = collections.flatMap((c) => c.references.filter((r) => r.collection === collection.name && r.property !== c.keyProperty).map((r) => ({ name: c.name, property: r.property })));
  return (record) => referrers.some(({ name, property }) => store.collection(name).where(property, record[collection.keyProperty]).length > 0);
}
