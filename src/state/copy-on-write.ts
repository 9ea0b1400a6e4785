/**
 * A session's store: the seeded state, shared until the session writes. Each collection reads
 * from the pristine seeded copy (the template) until the session first changes it; then that
 * collection alone is copied. A new session costs nothing up front (with 200,000 pets, seeding a
 * full copy per session stalled the event loop 1.4 s and took 128 MB), and a copy it makes counts
 * against the same bound as every other record.
 */
import type { CollectionSnapshot, RecordCollection, StateStore, StoredRecord } from './state-store.js';
import type { StateBudget } from './budget.js';
import { MemoryCollection, type MemoryStore } from './store.js';

/** Versions of a copied collection start here, so no cache keyed by the template's version is taken for the copy's. */
const COPIED = 2 ** 40;

export class CopyOnWriteStore implements StateStore {
  private readonly collections = new Map<string, CopyOnWriteCollection>();

  constructor(
    template: MemoryStore,
    readonly budget: StateBudget,
  ) {
    for (const name of template.names()) this.collections.set(name, new CopyOnWriteCollection(template.collection(name), budget));
  }

  has(name: string): boolean {
    return this.collections.has(name);
  }

  collection(name: string): RecordCollection {
    const state = this.collections.get(name);
    if (!state) throw new Error(`No collection named ${name}`);
    return state;
  }

  full(): string | undefined {
    return this.budget.full();
  }

  transact<T>(work: () => T): T {
    return work();
  }

  export(): Record<string, CollectionSnapshot> {
    return structuredClone(Object.fromEntries([...this.collections].map(([name, state]) => [name, state.export()])));
  }

  counts(): Record<string, number> {
    return Object.fromEntries([...this.collections].map(([name, state]) => [name, state.size]));
  }

  /** Gives the session's copies back to the budget (the session was dropped). */
  release(): void {
    for (const state of this.collections.values()) state.release();
  }
}

class CopyOnWriteCollection implements RecordCollection {
  private own?: MemoryCollection;

  constructor(
    private readonly template: MemoryCollection,
    private readonly budget: StateBudget,
  ) {}

  get collection() {
    return this.template.collection;
  }

  private get reading(): MemoryCollection {
    return this.own ?? this.template;
  }

  /** The session's own copy, made on its first write. */
  private writing(): MemoryCollection {
    if (!this.own) {
      const own = new MemoryCollection(this.template.collection, this.budget);
      own.import(this.template.export());
      this.own = own;
    }
    return this.own;
  }

  release(): void {
    this.own?.clear();
    this.own = undefined;
  }

  get version(): number {
    return this.own ? COPIED + this.own.version : this.template.version;
  }

  get size(): number {
    return this.reading.size;
  }

  records(scope?: string): ReadonlyMap<string, StoredRecord> {
    return this.reading.records(scope);
  }
  all(): IterableIterator<StoredRecord> {
    return this.reading.all();
  }
  get(key: unknown, scope?: string): StoredRecord | undefined {
    return this.reading.get(key, scope);
  }
  scopes(): string[] {
    return this.reading.scopes();
  }
  json(record: StoredRecord): string {
    return this.reading.json(record);
  }
  isIndexed(property: string): boolean {
    return this.reading.isIndexed(property);
  }
  keysWhere(property: string, values: string[]): Iterable<string> | undefined {
    return this.reading.keysWhere(property, values);
  }
  countWhere(property: string, values: string[]): number {
    return this.reading.countWhere(property, values);
  }
  where(property: string, value: unknown): StoredRecord[] {
    return this.reading.where(property, value);
  }
  export(): CollectionSnapshot {
    return this.reading.export();
  }

  put(record: StoredRecord, scope?: string): StoredRecord {
    return this.writing().put(record, scope);
  }
  update(key: unknown, changes: StoredRecord, scope?: string): StoredRecord | undefined {
    // Nothing to copy for a record that is not there.
    return this.reading.get(key, scope) ? this.writing().update(key, changes, scope) : undefined;
  }
  delete(key: unknown, scope?: string): boolean {
    return this.reading.get(key, scope) ? this.writing().delete(key, scope) : false;
  }
  dropScope(scope: string): void {
    if (this.reading.records(scope).size > 0) this.writing().dropScope(scope);
  }
  allocateInteger(): number {
    return this.writing().allocateInteger();
  }
  clear(): void {
    this.writing().clear();
  }
  import(snapshot: CollectionSnapshot): void {
    this.writing().import(snapshot);
  }
}
