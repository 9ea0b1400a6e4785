/**
 * Watches the shared store for the journal: every change to a record (put, update, delete, a scope
 * dropped, a collection cleared or imported) becomes one JSON object (an entry), handed to `emit` as
 * it happens; the journal writes the entries of one turn of the event loop as one line (journal.ts).
 * The collections' methods are wrapped on the instances (and put back by `detach`), so the
 * store stays the plain in-memory one, sessions keep their copy-on-write stores, and seeding, the
 * admin API and the rules are journaled without knowing it.
 *
 * Entries (`s`, the scope, is left out for top-level records):
 *   {"op":"put","c":"pets","s":"","k":21,"r":{...}}   a record stored or changed (the whole record)
 *   {"op":"del","c":"pets","k":21}                    a record deleted
 *   {"op":"drop","c":"posts","s":"7"}                 every record of a scope removed
 *   {"op":"clear","c":"pets"}                         the collection emptied (reset, reseed, import)
 *   {"op":"next","c":"pets","n":230}                  the key sequence moved (after an import)
 */
import type { CollectionSnapshot, RecordCollection, StateStore, StoredRecord } from './state-store.js';
import { recordJson } from './speedups.js';

export interface ObservedStore {
  /** Puts the collections' own methods back. */
  detach: () => void;
  /** The next integer key of a collection: one past the largest ever stored or allocated. */
  nextInteger: (name: string) => number;
}

type Wrapped = 'put' | 'update' | 'delete' | 'dropScope' | 'clear' | 'import' | 'allocateInteger';
const WRAPPED: Wrapped[] = ['put', 'update', 'delete', 'dropScope', 'clear', 'import', 'allocateInteger'];

export function observeStore(store: StateStore, names: readonly string[], emit: (entry: string) => void): ObservedStore {
  const restores: Array<() => void> = [];
  const next = new Map<string, number>();
  for (const name of names) {
    const collection = store.collection(name);
    const keyProperty = collection.collection.keyProperty;
    const c = JSON.stringify(name);
    // The sequence is not part of the collection's interface; export() says where it stands, once.
    let sequence = collection.export().nextInteger;
    next.set(name, sequence);
    const moved = (key: unknown) => {
      if (typeof key === 'number' && key >= sequence) next.set(name, (sequence = key + 1));
    };
    const scoped = (scope: string | undefined) => (scope ? `,"s":${JSON.stringify(scope)}` : '');
    const own = Object.fromEntries(WRAPPED.map((method) => [method, Object.getOwnPropertyDescriptor(collection, method)]));
    const original = Object.fromEntries(WRAPPED.map((method) => [method, (collection[method] as (...args: unknown[]) => unknown).bind(collection)])) as {
      [M in Wrapped]: RecordCollection[M];
    };
    const wrappers: { [M in Wrapped]: RecordCollection[M] } = {
      put(record: StoredRecord, scope?: string) {
        const stored = original.put(record, scope);
        const key = stored[keyProperty];
        moved(key);
        // The store keeps each record's JSON for the answers that send it: usually no new stringify here.
        emit(`{"op":"put","c":${c}${scoped(scope)},"k":${JSON.stringify(key ?? null)},"r":${recordJson(collection, stored)}}`);
        return stored;
      },
      update(key: unknown, changes: StoredRecord, scope?: string) {
        const changed = original.update(key, changes, scope);
        if (changed) emit(`{"op":"put","c":${c}${scoped(scope)},"k":${JSON.stringify(changed[keyProperty] ?? null)},"r":${recordJson(collection, changed)}}`);
        return changed;
      },
      delete(key: unknown, scope?: string) {
        const deleted = original.delete(key, scope);
        if (deleted) emit(`{"op":"del","c":${c}${scoped(scope)},"k":${JSON.stringify(key ?? null)}}`);
        return deleted;
      },
      dropScope(scope: string) {
        // The top-level scope is a clear, which tells itself.
        if (scope === '') return original.dropScope(scope);
        original.dropScope(scope);
        emit(`{"op":"drop","c":${c},"s":${JSON.stringify(scope)}}`);
      },
      clear() {
        original.clear();
        next.set(name, (sequence = 1));
        emit(`{"op":"clear","c":${c}}`);
      },
      import(snapshot: CollectionSnapshot) {
        // Goes through the wrapped clear and put; only the sequence is left to tell.
        original.import(snapshot);
        if (snapshot.nextInteger > sequence) {
          next.set(name, (sequence = snapshot.nextInteger));
          emit(`{"op":"next","c":${c},"n":${sequence}}`);
        }
      },
      allocateInteger() {
        const key = original.allocateInteger();
        moved(key); // not journaled: a key reaches a client only with the record stored under it
        return key;
      },
    };
    for (const method of WRAPPED) Object.defineProperty(collection, method, { value: wrappers[method], configurable: true, writable: true });
    restores.push(() => {
      for (const method of WRAPPED) {
        if (own[method]) Object.defineProperty(collection, method, own[method]!);
        else delete (collection as unknown as Record<string, unknown>)[method];
      }
    });
  }
  return {
    detach: () => restores.splice(0).forEach((restore) => restore()),
    nextInteger: (name) => next.get(name) ?? 1,
  };
}
