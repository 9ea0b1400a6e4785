/**
 * A session's store: the seeded state, shared until the session writes. Each collection reads
 * from the pristine seeded copy (the template) until the session first changes it; then that
 * collection alone is copied. A new session costs nothing up front (with 200,000 pets, seeding a
 * full copy per session stalled the event loop 1.4 s and took 128 MB), and a copy it makes counts
 * against the same bound as every other record, in the sessions' share of it: before a copy is
 * made, `room` drops other sessions as needed (src/mock/assembly/create-state.ts).
 */
import type { CollectionSnapshot, RecordCollection, StateStore, StoredRecord } from './state-store.js';
import type { StateBudget } from './budget.js';
import { MemoryCollection } from './memory-collection.js';
import type { MemoryStore } from './memory-store.js';

/** Versions of a copied collection start here, so no cache keyed by the template's version is taken for the copy's. */
const COPIED = 2 ** 40;

/**
 * Makes room for `records` more records and `bytes` more bytes held by the sessions (`writer`'s
 * own included), dropping other sessions as needed: why it cannot, or undefined once it has.
 */
export type SessionRoom = (writer: StateStore, records: number, bytes: number) => string | undefined;

export class CopyOnWriteStore implements StateStore {
  private readonly collections = new Map<string, CopyOnWriteCollection>();

  /** `budget`: this session's part of the sessions' budget; `room`: makes room in the sessions' share. */
  constructor(
    template: MemoryStore,
    readonly budget: StateBudget,
    private readonly room: SessionRoom = () => budget.full(),
  ) {
    const copying = (collection: MemoryCollection) => {
      const { records, bytes } = collection.counted;
      room(this, records, bytes); // never refused here: a write's side effects are not undone
    };
    for (const name of template.names()) this.collections.set(name, new CopyOnWriteCollection(template.collection(name), budget, copying));
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
    return this.room(this, 1, 1);
  }

  reserve(collection: string, adding: number): string | undefined {
    const { records, bytes } = this.collections.get(collection)?.toCopy() ?? { records: 0, bytes: 0 };
    return records + adding === 0 ? undefined : this.room(this, records + adding, bytes + adding);
  }

  /** The records and bytes this session holds of its own, by collection. */
  held(name: string): { records: number; bytes: number } {
    return this.collections.get(name)?.held() ?? { records: 0, bytes: 0 };
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
    /** Told before the template is copied. */
    private readonly copying: (template: MemoryCollection) => void,
  ) {}

  get collection() {
    return this.template.collection;
  }

  private get reading(): MemoryCollection {
    return this.own ?? this.template;
  }

  /** What the first write would copy (nothing once copied). */
  toCopy(): { records: number; bytes: number } {
    return this.own ? { records: 0, bytes: 0 } : this.template.counted;
  }

  /** What the session holds of its own. */
  held(): { records: number; bytes: number } {
    return this.own?.counted ?? { records: 0, bytes: 0 };
  }

  /** The session's own copy, made on its first write. */
  private writing(): MemoryCollection {
    if (!this.own) {
      this.copying(this.template);
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
    // A scope's key sequence goes with it too (keys counted per parent).
    if (this.reading.records(scope).size > 0 || this.collection.keyPerParent) this.writing().dropScope(scope);
  }
  allocateInteger(scope?: string): number | undefined {
    return this.writing().allocateInteger(scope);
  }
  keyOf(record: StoredRecord): unknown {
    return this.reading.keyOf(record);
  }
  clear(): void {
    this.writing().clear();
  }
  import(snapshot: CollectionSnapshot): void {
    // Replaced whole: nothing to copy first.
    this.own ??= new MemoryCollection(this.template.collection, this.budget);
    this.own.import(snapshot);
  }
}
