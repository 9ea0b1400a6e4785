/**
 * Stores for tests: the in-memory store changed in one way each, to show the mock asks of a store
 * only what `StateStore` and `RecordCollection` state. Run through the store conformance suite
 * (src/state/memory-store.conformance.test.ts) and the pipeline's own tests.
 */
import type { RecordCollection } from '../state/state-store.js';
import { MemoryStore } from '../state/memory-store.js';

/**
 * A store whose work completes later, as one shared between processes would (load, lock, run,
 * write back): the pipeline must wait for it, and nothing else changes.
 */
export class DeferredStore extends MemoryStore {
  transactions = 0;
  override transact<T>(work: () => T): T {
    this.transactions++;
    return new Promise<T>((resolve, reject) =>
      setTimeout(() => {
        try {
          resolve(work());
        } catch (error) {
          reject(error);
        }
      }, 1),
    ) as unknown as T;
  }
}

/** The in-memory store with none of the optional speed-ups: only what `RecordCollection` requires. */
export class PlainStore extends MemoryStore {
  private readonly plain = new Map<string, RecordCollection>();
  override collection(name: string) {
    const inner = super.collection(name);
    let plain = this.plain.get(name);
    if (!plain) {
      plain = {
        collection: inner.collection,
        get size() {
          return inner.size;
        },
        records: (scope) => inner.records(scope),
        all: () => inner.all(),
        get: (key, scope) => inner.get(key, scope),
        put: (record, scope) => inner.put(record, scope),
        update: (key, changes, scope) => inner.update(key, changes, scope),
        delete: (key, scope) => inner.delete(key, scope),
        dropScope: (scope) => inner.dropScope(scope),
        scopes: () => inner.scopes(),
        where: (property, value) => inner.where(property, value),
        allocateInteger: (scope) => inner.allocateInteger(scope),
        clear: () => inner.clear(),
        export: () => inner.export(),
        import: (snapshot) => inner.import(snapshot),
      };
      this.plain.set(name, plain);
    }
    return plain as ReturnType<MemoryStore['collection']>;
  }
}
