/**
 * The in-memory state: one map of records per collection (and per scope, for nested collections
 * such as `/users/{userId}/posts`). Maps keep insertion order, and integer keys are allocated in
 * increasing order, so a list is already in key order without sorting per request.
 *
 * Properties that lists filter on (and references) are indexed: value -> keys, so a filtered page
 * or a lookup (`orders of pet 7`) costs what it returns, not the size of the collection. Every
 * change goes through `put`, `update` or `delete`, which keep the indexes right.
 */
import type { Collection } from '../operations/infer-collections.js';

export type StoredRecord = Record<string, unknown>;

export interface CollectionSnapshot {
  nextInteger: number;
  scopes: Record<string, StoredRecord[]>;
}

/** Keys having one value of one property, in list order (sorted lazily after out-of-order inserts). */
interface Posting {
  keys: Set<string>;
  sorted: boolean;
  last: number;
}

export class CollectionState {
  private readonly scopes = new Map<string, Map<string, StoredRecord>>();
  private nextInteger = 1;
  /** property -> value -> keys; only for the top-level scope. */
  private readonly indexes = new Map<string, Map<string, Posting>>();
  /** key -> its position in the list (first insertion), to keep index postings in list order. */
  private readonly position = new Map<string, number>();
  private positions = 0;
  /** Bumped by every change: lets readers cache what they computed from the state. */
  version = 0;

  constructor(readonly collection: Collection) {
    for (const property of collection.indexed ?? []) this.indexes.set(property, new Map());
  }

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
    const id = String(key);
    const records = this.records(scope);
    this.version++;
    if (scope === '') {
      const previous = records.get(id);
      if (previous) this.unindex(previous, id);
      else if (!this.position.has(id)) this.position.set(id, this.positions++);
      this.index(record, id);
    }
    records.set(id, record);
    return record;
  }

  /** Changes some fields of a stored record in place (references to it stay valid). */
  update(key: unknown, changes: StoredRecord, scope = ''): StoredRecord | undefined {
    const record = this.get(key, scope);
    if (!record) return undefined;
    const id = String(key);
    this.version++;
    if (scope === '') this.unindex(record, id);
    Object.assign(record, changes);
    if (scope === '') this.index(record, id);
    return record;
  }

  delete(key: unknown, scope = ''): boolean {
    const id = String(key);
    const records = this.scopes.get(scope);
    const record = records?.get(id);
    if (!record) return false;
    this.version++;
    if (scope === '') {
      this.unindex(record, id);
      this.position.delete(id);
    }
    return records!.delete(id);
  }

  isIndexed(property: string): boolean {
    return this.indexes.has(property);
  }

  /**
   * Keys of top-level records whose property has one of the values, in list order; undefined when
   * the property is not indexed.
   */
  keysWhere(property: string, values: string[]): Iterable<string> | undefined {
    const index = this.indexes.get(property);
    if (!index) return undefined;
    const postings = [...new Set(values)].map((v) => index.get(v)).filter((p): p is Posting => Boolean(p && p.keys.size));
    if (postings.length === 0) return [];
    if (postings.length === 1) return this.inOrder(postings[0]).keys;
    // Several values: their postings are disjoint and each in list order; merged lazily, so a page
    // reads only as far as it needs.
    return this.merge(postings.map((p) => this.inOrder(p).keys[Symbol.iterator]()));
  }

  private *merge(iterators: Array<Iterator<string>>): Generator<string> {
    const heads = iterators.map((it) => it.next());
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        if (!heads[i].done && (best < 0 || this.position.get(heads[i].value)! < this.position.get(heads[best].value)!)) best = i;
      }
      if (best < 0) return;
      yield heads[best].value;
      heads[best] = iterators[best].next();
    }
  }

  /** How many top-level records have one of the values (without listing them). */
  countWhere(property: string, values: string[]): number {
    const index = this.indexes.get(property);
    return index ? [...new Set(values)].reduce((n, v) => n + (index.get(v)?.keys.size ?? 0), 0) : 0;
  }

  /** Records whose property equals a value: by the index when there is one, else by a scan. */
  where(property: string, value: unknown): StoredRecord[] {
    const keys = this.keysWhere(property, [String(value)]);
    if (keys) return [...keys].map((k) => this.records().get(k)!);
    return [...this.all()].filter((record) => record[property] === value);
  }

  /** The next integer key: one past the largest ever stored, never reused after a delete. */
  allocateInteger(): number {
    return this.nextInteger++;
  }

  clear(): void {
    this.version++;
    this.scopes.clear();
    this.nextInteger = 1;
    this.position.clear();
    this.positions = 0;
    for (const index of this.indexes.values()) index.clear();
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

  private index(record: StoredRecord, id: string): void {
    if (this.indexes.size === 0) return;
    const at = this.position.get(id)!;
    for (const [property, index] of this.indexes) {
      const value = record[property];
      if (value === undefined || value === null || typeof value === 'object') continue;
      const name = typeof value === 'string' ? value : String(value);
      let posting = index.get(name);
      if (!posting) index.set(name, (posting = { keys: new Set(), sorted: true, last: -1 }));
      if (at < posting.last) posting.sorted = false;
      else posting.last = at;
      posting.keys.add(id);
    }
  }

  private unindex(record: StoredRecord, id: string): void {
    for (const [property, index] of this.indexes) {
      const value = record[property];
      if (value === undefined || value === null || typeof value === 'object') continue;
      index.get(String(value))?.keys.delete(id);
    }
  }

  /** A posting whose keys went in out of order is sorted once, when it is next read. */
  private inOrder(posting: Posting): Posting {
    if (!posting.sorted) {
      const keys = [...posting.keys].sort((a, b) => this.position.get(a)! - this.position.get(b)!);
      posting.keys = new Set(keys);
      posting.sorted = true;
      posting.last = keys.length ? this.position.get(keys[keys.length - 1])! : -1;
    }
    return posting;
  }
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
