/**
 * The in-memory state: one map of records per collection (and per scope, for nested
 * collections such as `/users/{userId}/posts`). Maps keep insertion order, and integer keys are
 * allocated in increasing order, so a list is already sorted by key without sorting per request.
 */
import type { Collection } from '../operations/infer-collections.js';

export type StoredRecord = Record<string, unknown>;

export class CollectionState {
  private readonly scopes = new Map<string, Map<string, StoredRecord>>();
  private nextInteger = 1;

  constructor(readonly collection: Collection) {}

  /** Records of one scope, in key order. */
  records(scope = ''): Map<string, StoredRecord> {
    let records = this.scopes.get(scope);
    if (!records) this.scopes.set(scope, (records = new Map()));
    return records;
  }

  /** Every record of every scope. */
  *all(): IterableIterator<StoredRecord> {
    for (const records of this.scopes.values()) yield* records.values();
  }

  get size(): number {
    let size = 0;
    for (const records of this.scopes.values()) size += records.size;
    return size;
  }

  get(key: unknown, scope = ''): StoredRecord | undefined {
    return this.scopes.get(scope)?.get(String(key));
  }

  /** Stores a record under its key property. Integer keys also move the sequence past them. */
  put(record: StoredRecord, scope = ''): StoredRecord {
    const key = record[this.collection.keyProperty];
    if (typeof key === 'number' && key >= this.nextInteger) this.nextInteger = key + 1;
    this.records(scope).set(String(key), record);
    return record;
  }

  delete(key: unknown, scope = ''): boolean {
    return this.scopes.get(scope)?.delete(String(key)) ?? false;
  }

  /** The next integer key: one past the largest ever stored, never reused after a delete. */
  allocateInteger(): number {
    return this.nextInteger++;
  }

  clear(): void {
    this.scopes.clear();
    this.nextInteger = 1;
  }

  /** Everything needed to restore this collection: records by scope and the key sequence. */
  export(): CollectionSnapshot {
    return { nextInteger: this.nextInteger, scopes: Object.fromEntries([...this.scopes].map(([scope, records]) => [scope, [...records.values()]])) };
  }

  /** Replaces the content with a snapshot (already checked by the caller). */
  import(snapshot: CollectionSnapshot): void {
    this.clear();
    for (const [scope, records] of Object.entries(snapshot.scopes)) for (const record of records) this.put(structuredClone(record), scope);
    this.nextInteger = Math.max(this.nextInteger, snapshot.nextInteger);
  }
}

export interface CollectionSnapshot {
  nextInteger: number;
  scopes: Record<string, StoredRecord[]>;
}

/** All collections of a document, by name. */
export class Store {
  readonly collections = new Map<string, CollectionState>();

  constructor(collections: Collection[]) {
    for (const collection of collections) this.collections.set(collection.name, new CollectionState(collection));
  }

  collection(name: string): CollectionState {
    const state = this.collections.get(name);
    if (!state) throw new Error(`No collection named ${name}`);
    return state;
  }

  /** A deep copy of every collection, as plain JSON. */
  export(): Record<string, CollectionSnapshot> {
    return structuredClone(Object.fromEntries([...this.collections].map(([name, state]) => [name, state.export()])));
  }

  /** Record counts by collection, for the start-up banner. */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.collections].map(([name, state]) => [name, state.size]));
  }
}
