/**
 * The state behind the mock, as the pipeline and the rules see it. The in-memory store
 * (`MemoryStore`, src/state/store.ts) is the first implementation.
 *
 * Every request's work on the state runs inside `transact`. The in-memory store runs it at once
 * and returns its result, so a request that needs nothing else stays synchronous. A store shared
 * between processes implements the same interface by loading what it serves into memory, running
 * the work under a lock and writing the changes back; `transact` then returns a promise, and the
 * pipeline waits for it. Nothing in the pipeline, the actions or the rules changes for that.
 *
 * What the comments below promise is checked for every implementation by one shared suite, the
 * store conformance suite (src/test-support/store-conformance.ts): a new store runs it as it is.
 */
import type { Collection } from '../openapi/operations/collection.js';

export type StoredRecord = Record<string, unknown>;

export interface CollectionSnapshot {
  nextInteger: number;
  scopes: Record<string, StoredRecord[]>;
  /** For keys counted per parent (`keyPerParent`): each scope's next key, deletes included. */
  sequences?: Record<string, number>;
}

/**
 * The records of one collection, by scope (`''` for a top-level collection, the parent's key for a
 * nested one). What a store must do; the speed-ups a store may add are `CollectionSpeedups`.
 */
export interface RecordCollection extends Partial<CollectionSpeedups> {
  readonly collection: Collection;
  /**
   * Records of one scope, in list order: the order they were first put (one put again under its key
   * keeps its place, one deleted and put again goes last), by the text of their keys. Do not change
   * the map: go through `put`, `update`, `delete`.
   */
  records(scope?: string): ReadonlyMap<string, StoredRecord>;
  /** Every record of every scope. */
  all(): IterableIterator<StoredRecord>;
  readonly size: number;
  /** The record under the key in the scope; keys are matched by their text (`7` and `'7'` are one key). */
  get(key: unknown, scope?: string): StoredRecord | undefined;
  /** Stores a record under its key property (replacing the one with the same key); a keyless record after the others of its scope. */
  put(record: StoredRecord, scope?: string): StoredRecord;
  /** Changes some fields of a stored record in place. */
  update(key: unknown, changes: StoredRecord, scope?: string): StoredRecord | undefined;
  delete(key: unknown, scope?: string): boolean;
  /** Every record of a scope removed (a parent deleted). */
  dropScope(scope: string): void;
  /** Scopes that hold records. */
  scopes(): string[];
  /** Records whose property equals a value, in every scope. */
  where(property: string, value: unknown): StoredRecord[];
  /**
   * The next integer key: one past the largest ever stored or allocated (in the scope, for keys
   * counted per parent: `collection.keyPerParent`), so a deleted key is never given again. Keys
   * counted per parent start from 1 again in a scope dropped. Undefined when no key is left at or
   * below 2^53 - 1 (`Number.MAX_SAFE_INTEGER`): a key past it would not be exact.
   */
  allocateInteger(scope?: string): number | undefined;
  /** The key a record is stored under (for keyless records, their place in their scope); the key property's value when absent. */
  keyOf?(record: StoredRecord): unknown;
  /** Every record of every scope removed, and the keys counted from the start again: the collection as new. */
  clear(): void;
  /** The records of every scope in list order, and the key sequences (`sequences` for keys counted per parent). */
  export(): CollectionSnapshot;
  /** Replaces the content with a snapshot (checked by the caller); keys go on past its `nextInteger`, its sequences and its records. */
  import(snapshot: CollectionSnapshot): void;
}

/**
 * What a collection may offer to be fast (the in-memory store offers all of them). None is needed:
 * without them lists walk the records, answers stringify them, and nothing computed from the
 * records is cached. Read them through speedups.ts, which supplies those defaults.
 */
export interface CollectionSpeedups {
  /** Bumped by every change: lets readers cache what they computed from the state. */
  readonly version: number;
  /** A stored record as JSON text (the in-memory store keeps it, so an answer does not stringify again). */
  json(record: StoredRecord): string;
  /** Whether lists may filter on the property through an index. */
  isIndexed(property: string): boolean;
  /** Keys of top-level records whose property has one of the values, in list order; undefined when it is not indexed. */
  keysWhere(property: string, values: string[]): Iterable<string> | undefined;
  countWhere(property: string, values: string[]): number;
}

/**
 * What a request's work may do to the state, by its method: a GET or HEAD only reads (`writes:
 * false`); anything else may write. A store shared between processes takes its lock for work that
 * may write and lets reads run beside one another; the in-memory store runs everything at once. A
 * read may still fill a collection seeded on first use (seed.ts): a shared store seeds at start.
 */
export interface TransactIntent {
  writes: boolean;
}

export interface StateStore {
  /** The collection's records; throws for a name the document does not have. */
  collection(name: string): RecordCollection;
  has(name: string): boolean;
  /** Why no more records can be stored (a bound reached), or undefined while there is room. */
  full(): string | undefined;
  /**
   * For a store that copies collections on its first write (a session's): why a write to
   * `collection` that adds `adding` records cannot be made room for (the copy included, after
   * other sessions were dropped), or undefined when it can. A store without it is asked `full()`
   * before a create, and nothing before other writes.
   */
  reserve?(collection: string, adding: number): string | undefined;
  /**
   * Runs one request's work on the state (see the file comment), told whether the request may
   * write, and gives back its result; an exception in the work reaches the caller, and the store
   * serves the next transaction. Transactions started together do not lose each other's writes.
   */
  transact<T>(work: () => T, intent?: TransactIntent): T | Promise<T>;
  /** A deep copy of every collection, as plain JSON. */
  export(): Record<string, CollectionSnapshot>;
  /** Record counts by collection. */
  counts(): Record<string, number>;
  /**
   * For a store that opens asynchronously (one in a database): resolves once it serves, seeded or
   * loaded; rejects with one sentence when it cannot. Transactions wait for it; a server waits for
   * it before it listens.
   */
  readonly ready?: Promise<void>;
  /**
   * A session's store dropped (reset, evicted): what it holds leaves the budget (and, for a store
   * shared between processes, the shared place too, so the session starts from the seed again
   * wherever its next request goes). Without it, every collection is cleared.
   */
  release?(): void;
}
