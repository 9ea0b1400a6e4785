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
 *   {"op":"next","c":"issues","s":"7","n":4}          a scope's sequence moved (keys counted per parent)
 *
 * A keyless record's `k` is its place in its scope (the store numbers them so).
 */
import type { CollectionSnapshot, RecordCollection, StateStore, StoredRecord } from './state-store.js';
import { recordJson } from './speedups.js';

/** One entry, parsed back (state-file.ts replays the journal's; the PostgreSQL store follows its log's). */
export interface JournalEntry {
  op: 'put' | 'del' | 'drop' | 'clear' | 'next';
  c: string;
  s?: string;
  k?: unknown;
  r?: StoredRecord;
  n?: number;
}

export interface ObservedStore {
  /** Puts the collections' own methods back. */
  detach: () => void;
  /** The next integer key of a collection: one past the largest ever stored or allocated. */
  nextInteger: (name: string) => number;
  /** For keys counted per parent: each scope's next key (undefined for other collections). */
  sequences: (name: string) => Record<string, number> | undefined;
}

type Wrapped = 'put' | 'update' | 'delete' | 'dropScope' | 'clear' | 'import' | 'allocateInteger';
const WRAPPED: Wrapped[] = ['put', 'update', 'delete', 'dropScope', 'clear', 'import', 'allocateInteger'];

export function observeStore(store: StateStore, names: readonly string[], emit: (entry: string) => void): ObservedStore {
  const restores: Array<() => void> = [];
  const next = new Map<string, number>();
  const perScope = new Map<string, Map<string, number>>();
  for (const name of names) {
    const collection = store.collection(name);
    const { keyProperty, keyless, keyPerParent } = collection.collection;
    const keyOf = (record: StoredRecord) => (keyless ? collection.keyOf?.(record) : record[keyProperty]);
    const c = JSON.stringify(name);
    // The sequence is not part of the collection's interface; export() says where it stands, once.
    const exported = collection.export();
    let sequence = exported.nextInteger;
    next.set(name, sequence);
    const scopes = new Map(Object.entries(exported.sequences ?? {}));
    if (keyPerParent) perScope.set(name, scopes);
    const moved = (key: unknown, scope = '') => {
      if (typeof key !== 'number') return;
      if (key >= sequence) next.set(name, (sequence = key + 1));
      if (keyPerParent && key >= (scopes.get(scope) ?? 1)) scopes.set(scope, key + 1);
    };
    const scoped = (scope: string | undefined) => (scope ? `,"s":${JSON.stringify(scope)}` : '');
    const own = Object.fromEntries(WRAPPED.map((method) => [method, Object.getOwnPropertyDescriptor(collection, method)]));
    const original = Object.fromEntries(WRAPPED.map((method) => [method, (collection[method] as (...args: unknown[]) => unknown).bind(collection)])) as {
      [M in Wrapped]: RecordCollection[M];
    };
    const wrappers: { [M in Wrapped]: RecordCollection[M] } = {
      put(record: StoredRecord, scope?: string) {
        const stored = original.put(record, scope);
        const key = keyOf(stored);
        moved(key, scope);
        // The store keeps each record's JSON for the answers that send it: usually no new stringify here.
        emit(`{"op":"put","c":${c}${scoped(scope)},"k":${JSON.stringify(key ?? null)},"r":${recordJson(collection, stored)}}`);
        return stored;
      },
      update(key: unknown, changes: StoredRecord, scope?: string) {
        const changed = original.update(key, changes, scope);
        if (changed) emit(`{"op":"put","c":${c}${scoped(scope)},"k":${JSON.stringify(keyOf(changed) ?? null)},"r":${recordJson(collection, changed)}}`);
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
        scopes.delete(scope);
        emit(`{"op":"drop","c":${c},"s":${JSON.stringify(scope)}}`);
      },
      clear() {
        original.clear();
        next.set(name, (sequence = 1));
        scopes.clear();
        emit(`{"op":"clear","c":${c}}`);
      },
      import(snapshot: CollectionSnapshot) {
        // Goes through the wrapped clear and put; only the sequences are left to tell.
        original.import(snapshot);
        if (snapshot.nextInteger > sequence) {
          next.set(name, (sequence = snapshot.nextInteger));
          emit(`{"op":"next","c":${c},"n":${sequence}}`);
        }
        if (!keyPerParent) return;
        for (const [scope, n] of Object.entries(snapshot.sequences ?? {})) {
          if (n <= (scopes.get(scope) ?? 1)) continue;
          scopes.set(scope, n);
          emit(`{"op":"next","c":${c},"s":${JSON.stringify(scope)},"n":${n}}`);
        }
      },
      allocateInteger(scope?: string) {
        const key = original.allocateInteger(scope);
        moved(key, scope); // not journaled: a key reaches a client only with the record stored under it
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
    sequences: (name) => {
      const scopes = perScope.get(name);
      return scopes && Object.fromEntries(scopes);
    },
  };
}
