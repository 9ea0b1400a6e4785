/**
 * The conformance suite of a state store: what `StateStore` and `RecordCollection`
 * (src/state/state-store.ts) promise, checked against any implementation. As Hono runs one suite of
 * router tests against every router, `describeStoreConformance(name, factory)` declares the whole
 * suite for one store, and each store's test file calls it (the in-memory store and the test stores:
 * src/state/memory-store.conformance.test.ts); a new store calls it too, and passes it unchanged.
 *
 * Two levels:
 * - **the store**, on the collections real documents imply (the Petstore's; issues numbered per
 *   project, two levels of nesting; keys clients choose; records with no key at all), every call
 *   made inside `transact` and its result awaited, so a store whose transactions are asynchronous
 *   (one shared between processes) runs the same tests. Each rule is checked on every collection
 *   of those documents that has the trait it is about (and the suite fails if none has it);
 * - **the mock through it**: scripted walks sent both to a mock built on the store and to one on
 *   the in-memory store, every answer compared pairwise (status, headers, body) and checked against
 *   the document, the state exported by the admin API compared after every write. A walk also
 *   asserts what its answers must be, so that it fails on a store both mocks would share (the
 *   in-memory one), not only on a difference.
 *
 * Here, in test support, rather than beside the store: it builds mocks (src/app.ts, a layer above
 * the state) and declares vitest suites, which only tests and test support may do.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildMock, type BuildMockOptions, type Mock } from '../app.js';
import { loadDocument } from '../document/load-document.js';
import { buildOperations } from '../operations/build-operations.js';
import { isIntegerKey, type Collection } from '../operations/collection.js';
import { inferCollections } from '../operations/infer-collections.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import type { MockPlugin } from '../registries/extension.js';
import { StateBudget } from '../state/budget.js';
import type { CollectionSnapshot, RecordCollection, StateStore, StoredRecord } from '../state/state-store.js';
import { ASCII, longText, MULTI_BYTE } from './long-text.js';
import { AUTH, FIXTURES, ROOT, SPEC } from './petstore.js';
import { walk, type Answer, type WalkCall } from './walk.js';

/** A store to check, as the suite sees it. */
export interface StoreUnderTest {
  /**
   * Makes a new, empty store for the collections, counting its records in `budget`: what
   * `MockOptions.store` is given, and called as the mock calls it (the shared state, then one per
   * session). Two stores it made never share records.
   */
  make: (collections: readonly Collection[], budget: StateBudget) => StateStore;
  /**
   * For a store that keeps its state outside the process: a store reading what `store` (one that
   * `make` made) holds there, as another replica would, for the same collections. The suite then
   * also checks that what one store wrote reads back the same through another.
   */
  reopen?: (store: StateStore, collections: readonly Collection[], budget: StateBudget) => StateStore | Promise<StateStore>;
  /** Before each test: forgets what the stores of earlier tests left outside the process (a database's tables). */
  reset?: () => void | Promise<void>;
  /** After the suite: closes what the factory opened (a connection pool, a server it started). */
  cleanup?: () => void | Promise<void>;
}

/** Sets the store up once per suite (connects to its database, creates a schema), possibly asynchronously. */
export type StoreFactory = () => StoreUnderTest | Promise<StoreUnderTest>;

/** The documents whose collections the store level runs on, with what each brings. */
const DOCUMENTS = {
  /** Top-level collections with integer ids, filters the in-memory store indexes (status, categoryId, petId), and inventory keyed by its pet's id. */
  petstore: SPEC,
  /** Issues numbered per project (`keyPerParent`), and comments two levels down whose ids are global. */
  numbered: `${ROOT}test/documents/numbered-api.yaml`,
  /** Projects keyed by text the client chooses, and their issues numbered per project. */
  issues: `${ROOT}test/documents/issues-api.yaml`,
  /** Records with no key: an event log at the top, visits and tokens under members; loans listed and created under members. */
  pathless: `${ROOT}test/documents/pathless-api.yaml`,
  /** Pages keyed by a name the client chooses, tags under each keyed by text too (no maxLength on either), revisions numbered per page. */
  wiki: `${ROOT}test/documents/wiki-api.yaml`,
} as const;
type DocumentName = keyof typeof DOCUMENTS;

const collectionsOf = new Map<DocumentName, Promise<Collection[]>>();
/** The collections the mock infers from the document, as it hands them to a store. */
function documentCollections(name: DocumentName): Promise<Collection[]> {
  let found = collectionsOf.get(name);
  if (!found) collectionsOf.set(name, (found = loadDocument(DOCUMENTS[name]).then((document) => inferCollections(buildOperations(document.api)).collections)));
  return found;
}

interface Subject {
  document: DocumentName;
  collection: Collection;
  /** `numbered issues`: for the messages of failed assertions. */
  label: string;
}

/** Every collection of the documents that `has` the trait; at least one, or the check would pass on nothing. */
async function subjects(has: (collection: Collection) => boolean): Promise<Subject[]> {
  const found: Subject[] = [];
  for (const document of Object.keys(DOCUMENTS) as DocumentName[]) {
    for (const collection of await documentCollections(document)) if (has(collection)) found.push({ document, collection, label: `${document} ${collection.name}` });
  }
  expect(found.length, 'no collection of the documents has the trait this test is about').toBeGreaterThan(0);
  return found;
}

const keyed = (c: Collection) => !c.keyless;
const nested = (c: Collection) => c.scopeParams.length > 0;
const integerKeyed = (c: Collection) => !c.keyless && isIntegerKey(c);

/** The i-th key of a collection: the integer for integer keys, else text (`K3`). */
function keyFor(collection: Collection, i: number): string | number {
  return isIntegerKey(collection) ? i : `K${i}`;
}

/** The i-th scope of a collection: `''` at the top, its parents' keys below (`3`, `3/4` two levels down). */
function scopeFor(collection: Collection, i: number): string {
  return collection.scopeParams.map((_, level) => String(i + level)).join('/');
}

/** A record of the collection under the key (none for a keyless one), with the fields. */
function recordFor(collection: Collection, key: unknown, fields: StoredRecord = {}): StoredRecord {
  return collection.keyless ? { ...fields } : { [collection.keyProperty]: key, ...fields };
}

/**
 * Values a record may hold, each of which a store must give back as it was given: JSON's types,
 * nesting, text beyond ASCII, and characters some storage refuses or changes (NUL, which
 * PostgreSQL's jsonb does not take; a lone surrogate is left out, JSON text cannot carry it).
 */
const VALUES: StoredRecord = {
  text: 'Zoë – 東京 🐕 "quoted" back\\slash\nnew line',
  empty: '',
  nul: 'a\u0000b',
  zero: 0,
  negative: -17,
  fraction: 0.1,
  largest: Number.MAX_SAFE_INTEGER,
  yes: true,
  no: false,
  nothing: null,
  list: [1, 'two', { three: [3] }, [], null],
  nested: { deeper: { deepest: ['x'] }, emptyObject: {} },
};

/**
 * Text a JavaScript string may hold that some storage refuses or changes, each of which a store
 * must give back as it was given, in a key, a scope and a value: NUL (PostgreSQL's text refuses
 * it), U+0001 first, lone surrogates (not Unicode text: no UTF-8 holds them; a request cannot send
 * one, but a plugin or an import may store one), an escape written as text, astral characters and
 * combining marks.
 */
const TEXTS = ['a\u0000b', '\u0000', '\u0001', '\u0001"x"', 'lone \ud800 high', 'lone \udfff low', '\udc00\ud800', '\\u0000 as text', '🐕 e\u0301\u0301'];

/** 3,000 bytes of ASCII: a key, another key that only a last character more tells from it, and the scope dropped. */
const LONG_3K = longText(3_000, ASCII, 3);

/**
 * Keys and scopes longer than some storage indexes (a PostgreSQL index row holds about 2,700
 * bytes), each of which a store must keep as given: around 1 KiB (1,024 and 1,025 bytes), 3,000
 * bytes of ASCII and the same with one more character at its end, 10,000 bytes of multi-byte text,
 * and 60,000 bytes holding NULs. A request body (64 KiB) carries the longest; an import may bring
 * longer.
 */
const LONG_TEXTS = [longText(1_024, ASCII, 1), longText(1_025, ASCII, 2), LONG_3K, `${LONG_3K}!`, longText(10_000, MULTI_BYTE, 4), longText(60_000, [...ASCII, '\u0000', '東'], 5)];

/** Runs the work in one transaction of the store and waits for it, whatever kind of store it is. */
async function inTransaction<T>(store: StateStore, work: () => T): Promise<T> {
  return await store.transact(work);
}

/** The same on one collection, fetched inside the transaction. */
function on<T>(store: StateStore, name: string, work: (records: RecordCollection) => T): Promise<T> {
  return inTransaction(store, () => work(store.collection(name)));
}

/** One scope's records, in list order, as plain data: `[key, record]` pairs. */
function listed(records: RecordCollection, scope = ''): Array<[string, StoredRecord]> {
  return [...records.records(scope)].map(([key, record]) => [key, structuredClone(record)]);
}

/** A snapshot as it is compared: a scope with no records is the same as no scope. */
function withoutEmptyScopes(snapshot: CollectionSnapshot): CollectionSnapshot {
  return { ...snapshot, scopes: Object.fromEntries(Object.entries(snapshot.scopes).filter(([, records]) => records.length > 0)) };
}

/** Sorted as JSON text: for comparing what has no order (`all()`, `where`). */
function unordered(records: Iterable<StoredRecord>): string[] {
  return [...records].map((record) => JSON.stringify(record)).sort();
}

/** Every record the store holds, summed over its collections. */
async function held(store: StateStore): Promise<number> {
  return Object.values(await inTransaction(store, () => store.counts())).reduce((a, b) => a + b, 0);
}

/**
 * A plugin with a seed hook that does nothing. The mock seeds the in-memory store one collection
 * at a time, on its first use, unless a plugin's seed hooks need the whole state, and seeds any
 * other store whole at start, from one Faker stream: with a seed hook both are seeded whole, and the
 * same seed gives both mocks the same records.
 */
const SEED_WHOLE: MockPlugin = { name: 'seed-whole', mock: (parts) => (parts.seedHooks.push(() => undefined), true) };

/** The headers compared between the two mocks' answers: all of them but the clock's. */
function comparedHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => name !== 'date'));
}

/** An answer as compared: parsed JSON where it is JSON (property order is not the store's to keep), else its text. */
function compared(answer: Answer): { status: number; headers: Record<string, string>; body: unknown } {
  return { status: answer.status, headers: comparedHeaders(answer.headers), body: answer.body === undefined ? answer.text : answer.body };
}

export function describeStoreConformance(name: string, factory: StoreFactory): void {
  describe(`${name}: the StateStore contract`, () => {
    let under: StoreUnderTest;
    beforeAll(async () => {
      under = await factory();
    });
    afterAll(async () => {
      await under?.cleanup?.();
    });
    beforeEach(async () => {
      await under.reset?.();
    });

    /** A new, empty store for a document's collections, unbounded unless a budget is given. */
    const fresh = async (document: DocumentName, budget = new StateBudget({ maxRecords: Infinity, maxBytes: Infinity })) => under.make(await documentCollections(document), budget);

    describe('the store', () => {
      it("has the document's collections, and only those", async () => {
        for (const document of Object.keys(DOCUMENTS) as DocumentName[]) {
          const names = (await documentCollections(document)).map((c) => c.name);
          const store = await fresh(document);
          await inTransaction(store, () => {
            for (const name of names) {
              expect(store.has(name), `${document} ${name}`).toBe(true);
              expect(store.collection(name).collection.name).toBe(name);
            }
            expect(store.has('no-such-collection')).toBe(false);
            expect(() => store.collection('no-such-collection')).toThrow();
            // A fresh store is empty: every collection counted, at 0, and exported with no records.
            expect(store.counts()).toEqual(Object.fromEntries(names.map((name) => [name, 0])));
            const exported = store.export();
            expect(Object.keys(exported).sort()).toEqual([...names].sort());
            for (const name of names) expect(Object.values(exported[name].scopes).flat(), `${document} ${name}`).toEqual([]);
          });
        }
      });

      it('puts, gets, replaces, updates and deletes records by key, in their scope only', async () => {
        for (const { document, collection, label } of await subjects(keyed)) {
          const store = await fresh(document);
          const scope = scopeFor(collection, 1);
          const other = scopeFor(collection, 2);
          const [k1, k2, k3] = [keyFor(collection, 1), keyFor(collection, 2), keyFor(collection, 3)];
          await on(store, collection.name, (records) => {
            const given = recordFor(collection, k1, { title: 'one', ...VALUES });
            expect(records.put(given, scope), label).toEqual(given);
            records.put(recordFor(collection, k2, { title: 'two' }), scope);
            records.put(recordFor(collection, k3, { title: 'three' }), scope);
          });
          await on(store, collection.name, (records) => {
            expect(records.get(k1, scope), label).toEqual(recordFor(collection, k1, { title: 'one', ...VALUES }));
            // Keys are matched by their text, as the map of a scope holds them (a path's parameters and scopes are text).
            expect(records.get(String(k2), scope), label).toEqual(recordFor(collection, k2, { title: 'two' }));
            expect(records.get(keyFor(collection, 9), scope), label).toBeUndefined();
            if (nested(collection)) expect(records.get(k1, other), `${label}: another scope`).toBeUndefined();
            expect(records.size, label).toBe(3);
          });
          // The same key again replaces the record, in its place in the list.
          await on(store, collection.name, (records) => records.put(recordFor(collection, k2, { title: 'TWO' }), scope));
          await on(store, collection.name, (records) => {
            expect(listed(records, scope), label).toEqual([
              [String(k1), recordFor(collection, k1, { title: 'one', ...VALUES })],
              [String(k2), recordFor(collection, k2, { title: 'TWO' })],
              [String(k3), recordFor(collection, k3, { title: 'three' })],
            ]);
            expect(records.size, label).toBe(3);
          });
          // An update changes the fields it names, keeps the others, and changes the record in place.
          await on(store, collection.name, (records) => {
            const before = records.get(k3, scope)!;
            const updated = records.update(k3, { title: 'THREE', added: [1] }, scope);
            expect(updated, label).toEqual(recordFor(collection, k3, { title: 'THREE', added: [1] }));
            expect(before, `${label}: the record read before the update, in the same transaction`).toEqual(updated);
            expect(records.update(keyFor(collection, 9), { title: 'nobody' }, scope), label).toBeUndefined();
            if (nested(collection)) expect(records.update(k3, { title: 'elsewhere' }, other), label).toBeUndefined();
          });
          await on(store, collection.name, (records) => {
            expect(records.get(k3, scope), label).toEqual(recordFor(collection, k3, { title: 'THREE', added: [1] }));
            expect(records.get(keyFor(collection, 9), scope), `${label}: an update of nothing makes nothing`).toBeUndefined();
          });
          await on(store, collection.name, (records) => {
            if (nested(collection)) expect(records.delete(k1, other), `${label}: delete in another scope`).toBe(false);
            expect(records.delete(k1, scope), label).toBe(true);
            expect(records.delete(k1, scope), `${label}: deleted twice`).toBe(false);
          });
          await on(store, collection.name, (records) => {
            expect(records.get(k1, scope), label).toBeUndefined();
            expect([records.size, listed(records, scope).map(([key]) => key)], label).toEqual([2, [String(k2), String(k3)]]);
          });
        }
      });

      it('keeps any text a string holds, in keys, scopes and values, as given (NUL, lone surrogates, U+0001...), read back the same by another store of the same state', async () => {
        for (const { document, collection, label } of await subjects(keyed)) {
          const store = await fresh(document);
          const scopes = nested(collection) ? TEXTS : [''];
          const keyOf = (i: number) => (integerKeyed(collection) ? i + 1 : TEXTS[i]);
          const given = (i: number, scope: string) => recordFor(collection, keyOf(i), { text: TEXTS[i], scope, [TEXTS[i]]: [TEXTS[i]] });
          await on(store, collection.name, (records) => {
            for (const scope of scopes) TEXTS.forEach((_, i) => records.put(given(i, scope), scope));
          });
          // Replaced and deleted by those keys, in those scopes.
          await on(store, collection.name, (records) => {
            for (const scope of scopes) {
              records.put({ ...given(0, scope), replaced: true }, scope);
              expect(records.delete(keyOf(1), scope), `${label} ${JSON.stringify(scope)}`).toBe(true);
            }
          });
          const expected = (scope: string) => TEXTS.flatMap((_, i) => (i === 1 ? [] : [[String(keyOf(i)), i === 0 ? { ...given(0, scope), replaced: true } : given(i, scope)]]));
          for (const scope of scopes) {
            expect(await on(store, collection.name, (records) => listed(records, scope)), `${label} ${JSON.stringify(scope)}`).toEqual(expected(scope));
            expect(await on(store, collection.name, (records) => records.get(keyOf(2), scope)), `${label} ${JSON.stringify(scope)}`).toEqual(given(2, scope));
          }
          if (!under.reopen) continue;
          const collections = await documentCollections(document);
          const other = await under.reopen(store, collections, new StateBudget({ maxRecords: Infinity, maxBytes: Infinity }));
          await inTransaction(other, () => undefined); // opened, and caught up
          for (const scope of scopes) {
            expect(await on(other, collection.name, (records) => listed(records, scope)), `${label} ${JSON.stringify(scope)}, read by another store`).toEqual(expected(scope));
          }
          const exported = await inTransaction(store, () => store.export());
          expect(await inTransaction(other, () => other.export()), `${label}, read by another store`).toEqual(exported);
        }
      });

      it('keeps keys and scopes of any length (1 KiB to 60,000 bytes, multi-byte, NUL): put, replaced, deleted, dropped with their parent, counted per parent, read back the same by other stores of the same state', async () => {
        for (const { document, collection, label } of await subjects(keyed)) {
          const unbounded = () => new StateBudget({ maxRecords: Infinity, maxBytes: Infinity });
          const collections = await documentCollections(document);
          const store = under.make(collections, unbounded());
          await inTransaction(store, () => undefined);
          // Where the state is kept outside the process: one store opened before the writes (it follows them), one after (it loads them).
          const follower = under.reopen ? await under.reopen(store, collections, unbounded()) : undefined;
          if (follower) await inTransaction(follower, () => undefined);
          const scopes = nested(collection) ? [...LONG_TEXTS, scopeFor(collection, 1)] : [''];
          const keys = integerKeyed(collection) ? LONG_TEXTS.map((_, i) => i + 1).concat(LONG_TEXTS.length + 1) : [...LONG_TEXTS, String(keyFor(collection, 1))];
          // The 3,000-byte scope: its records dropped, as when their parent is deleted.
          const dropped = nested(collection) ? LONG_3K : undefined;
          const given = (i: number, scope: string) => recordFor(collection, keys[i], { i, long: scope.length });
          await on(store, collection.name, (records) => {
            for (const scope of scopes) keys.forEach((_, i) => records.put(given(i, scope), scope));
          });
          await on(store, collection.name, (records) => {
            for (const scope of scopes) {
              records.put({ ...given(0, scope), replaced: true }, scope);
              expect(records.delete(keys[1], scope), `${label}: a delete by a long key`).toBe(true);
            }
          });
          if (dropped !== undefined) await on(store, collection.name, (records) => records.dropScope(dropped));
          const expected = (scope: string) => (scope === dropped ? [] : keys.flatMap((key, i) => (i === 1 ? [] : [[String(key), i === 0 ? { ...given(0, scope), replaced: true } : given(i, scope)]])));
          const late = under.reopen ? await under.reopen(store, collections, unbounded()) : undefined;
          const readers = [
            ['the store that wrote', store],
            ['a store that followed the writes', follower],
            ['a store opened after them', late],
          ].filter((reader): reader is [string, StateStore] => reader[1] !== undefined);
          for (const [who, reader] of readers) {
            const where = (scope: string) => `${label}, ${who}: scope of ${scope.length} characters`;
            for (const scope of scopes) {
              expect(await on(reader, collection.name, (records) => listed(records, scope)), where(scope)).toEqual(expected(scope));
              expect(await on(reader, collection.name, (records) => [records.get(keys[4], scope), records.get(keys[1], scope)]), where(scope)).toEqual([scope === dropped ? undefined : given(4, scope), undefined]);
            }
            if (nested(collection)) expect(await on(reader, collection.name, (records) => records.scopes().sort()), `${label}, ${who}`).toEqual(scopes.filter((scope) => scope !== dropped).sort());
            expect(await inTransaction(reader, () => reader.export()), `${label}, ${who}`).toEqual(await inTransaction(store, () => store.export()));
          }
          if (!collection.keyPerParent) continue;
          // Each reader in turn creates a record under the next number of every scope: past the keys put, from 1 again in the dropped one.
          for (const [turn, [who, reader]] of readers.entries()) {
            const numbers = await on(reader, collection.name, (records) =>
              scopes.map((scope) => {
                const number = records.allocateInteger(scope);
                records.put(recordFor(collection, number), scope);
                return number;
              }),
            );
            expect(numbers, `${label}, ${who}: the next numbers`).toEqual(scopes.map((scope) => (scope === dropped ? 1 : keys.length + 1) + turn));
          }
        }
      });

      it('lists a scope in the order records were first put: a replaced one keeps its place, one deleted and put again goes last', async () => {
        for (const { document, collection, label } of await subjects(keyed)) {
          const store = await fresh(document);
          const scope = scopeFor(collection, 1);
          // Keys out of order: the list is in the order they came, not sorted.
          const keys = [5, 2, 9, 1].map((i) => keyFor(collection, i));
          await on(store, collection.name, (records) => {
            for (const key of keys) records.put(recordFor(collection, key, { n: String(key) }), scope);
          });
          await on(store, collection.name, (records) => records.put(recordFor(collection, keys[1], { n: 'replaced' }), scope));
          await on(store, collection.name, (records) => records.delete(keys[0], scope));
          await on(store, collection.name, (records) => records.put(recordFor(collection, keys[0], { n: 'again' }), scope));
          await on(store, collection.name, (records) => {
            expect(listed(records, scope), label).toEqual([
              [String(keys[1]), recordFor(collection, keys[1], { n: 'replaced' })],
              [String(keys[2]), recordFor(collection, keys[2], { n: String(keys[2]) })],
              [String(keys[3]), recordFor(collection, keys[3], { n: String(keys[3]) })],
              [String(keys[0]), recordFor(collection, keys[0], { n: 'again' })],
            ]);
          });
        }
      });

      it('keeps each scope apart: all(), size and scopes() see every scope, and a scope emptied leaves scopes()', async () => {
        for (const { document, collection, label } of await subjects((c) => keyed(c) && nested(c))) {
          const store = await fresh(document);
          const [a, b, c] = [scopeFor(collection, 1), scopeFor(collection, 2), scopeFor(collection, 3)];
          await on(store, collection.name, (records) => {
            // The same keys in two scopes are two records.
            for (const scope of [a, b]) for (const i of [1, 2]) records.put(recordFor(collection, keyFor(collection, i), { scope, i }), scope);
            records.put(recordFor(collection, keyFor(collection, 1), { scope: c, i: 1 }), c);
          });
          await on(store, collection.name, (records) => {
            expect(records.size, label).toBe(5);
            expect([...records.scopes()].sort(), label).toEqual([a, b, c].sort());
            expect(unordered(records.all()), label).toEqual(unordered([a, b, c].flatMap((scope) => [...records.records(scope).values()])));
            expect([...records.records(b).values()].map((r) => r.scope), label).toEqual([b, b]);
            expect(records.records(scopeFor(collection, 7)).size, `${label}: a scope never used`).toBe(0);
            records.delete(keyFor(collection, 1), c);
          });
          await on(store, collection.name, (records) => {
            expect([...records.scopes()].sort(), label).toEqual([a, b].sort());
            expect(records.size, label).toBe(4);
          });
        }
      });

      it('drops a scope whole, and no other', async () => {
        for (const { document, collection, label } of await subjects(nested)) {
          const store = await fresh(document);
          const [a, b] = [scopeFor(collection, 1), scopeFor(collection, 2)];
          await on(store, collection.name, (records) => {
            for (const scope of [a, b]) for (const i of [1, 2, 3]) records.put(recordFor(collection, keyFor(collection, i), { scope, i }), scope);
          });
          await on(store, collection.name, (records) => records.dropScope(a));
          await on(store, collection.name, (records) => {
            expect(records.records(a).size, label).toBe(0);
            expect(records.scopes(), label).toEqual([b]);
            expect(records.size, label).toBe(3);
            expect(unordered(records.all()), label).toEqual(unordered([1, 2, 3].map((i) => recordFor(collection, keyFor(collection, i), { scope: b, i }))));
            if (keyed(collection)) expect(records.get(keyFor(collection, 1), a), label).toBeUndefined();
          });
          // The dropped scope takes records again.
          await on(store, collection.name, (records) => records.put(recordFor(collection, keyFor(collection, 1), { scope: a, i: 1 }), a));
          await on(store, collection.name, (records) => expect([records.records(a).size, records.size], label).toEqual([1, 4]));
        }
      });

      it('finds the records whose property equals a value, in every scope, after any change', async () => {
        for (const { document, collection, label } of await subjects(() => true)) {
          const store = await fresh(document);
          const scopes = nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2)] : [''];
          // The properties lists filter on (the in-memory store indexes them), and others.
          const properties = [...new Set([...collection.indexed, 'colour', 'weight', 'open'])].filter((p) => p !== collection.keyProperty);
          const valueOf = (property: string, i: number): unknown => (property === 'colour' ? ['red', 'blue'][i % 2] : property === 'open' ? i % 3 === 0 : (i % 3) + 1);
          let n = 0;
          await on(store, collection.name, (records) => {
            for (const scope of scopes) {
              for (let i = 0; i < 6; i++) {
                n++;
                records.put(recordFor(collection, keyFor(collection, n), Object.fromEntries(properties.map((p) => [p, valueOf(p, i)]))), scope);
              }
            }
          });
          const check = (step: string) =>
            on(store, collection.name, (records) => {
              for (const property of properties) {
                for (const value of new Set([...records.all()].map((record) => record[property]))) {
                  const expected = [...records.all()].filter((record) => record[property] === value);
                  expect(unordered(records.where(property, value)), `${label} ${step}: where(${property}, ${JSON.stringify(value)})`).toEqual(unordered(expected));
                }
                expect(records.where(property, 'no such value'), `${label} ${step}: where(${property}, none)`).toEqual([]);
              }
            });
          await check('as put');
          // Values moved, records deleted and put again: what was found before must not be found still.
          await on(store, collection.name, (records) => {
            for (const scope of scopes) {
              const keys = [...records.records(scope).keys()];
              const record = (i: number) => records.records(scope).get(keys[i])!;
              for (const property of properties) records.update(keys[0], { [property]: valueOf(property, 1) }, scope);
              const gone = { ...record(2) };
              records.delete(keys[2], scope);
              if (!collection.keyless) records.put({ ...gone, ...Object.fromEntries(properties.map((p) => [p, valueOf(p, 0)])) }, scope);
              records.delete(keys[3], scope);
            }
          });
          await check('after changes');
        }
      });

      it('offers speed-ups, where it offers them, that agree with what they stand for', async () => {
        for (const { document, collection, label } of await subjects((c) => c.indexed.length > 0)) {
          const store = await fresh(document);
          const properties = collection.indexed.filter((p) => p !== collection.keyProperty);
          const valueOf = (i: number) => ['x', 'y', 'z'][i % 3];
          await on(store, collection.name, (records) => {
            for (let i = 1; i <= 9; i++) records.put(recordFor(collection, keyFor(collection, 10 - i), Object.fromEntries(properties.map((p) => [p, valueOf(i)]))));
          });
          const versions: unknown[] = [];
          const agree = (step: string) =>
            on(store, collection.name, (records) => {
              versions.push(records.version);
              for (const record of records.all()) if (records.json) expect(JSON.parse(records.json(record)), `${label} ${step}: json()`).toEqual(record);
              if (!records.isIndexed || !records.keysWhere || !records.countWhere) return;
              for (const property of properties) {
                expect(records.isIndexed(property), `${label}: ${property} is a filter`).toBe(true);
                for (const values of [['x'], ['y', 'z'], ['none']]) {
                  const expected = listed(records).filter(([, record]) => values.includes(String(record[property]))).map(([key]) => key);
                  expect([...(records.keysWhere(property, values) ?? [])], `${label} ${step}: keysWhere(${property}, ${values})`).toEqual(expected);
                  expect(records.countWhere(property, values), `${label} ${step}: countWhere(${property}, ${values})`).toBe(expected.length);
                }
              }
            });
          await agree('as put');
          await on(store, collection.name, (records) => {
            const keys = [...records.records().keys()];
            for (const property of properties) records.update(keys[0], { [property]: 'z' });
            records.delete(keys[1]);
          });
          await agree('after an update and a delete');
          await on(store, collection.name, (records) => records.put(recordFor(collection, keyFor(collection, 1), Object.fromEntries(properties.map((p) => [p, 'x'])))));
          await agree('after a replace');
          // Every change moves the version, where there is one (readers cache what they computed from it).
          if (versions[0] !== undefined) expect(new Set(versions).size, `${label}: a version per state`).toBe(versions.length);
        }
      });

      it('allocates integer keys one past the largest ever stored, never one deleted, across scopes unless counted per parent', async () => {
        for (const { document, collection, label } of await subjects((c) => integerKeyed(c) && !c.keyPerParent)) {
          const store = await fresh(document);
          const [a, b] = [scopeFor(collection, 1), scopeFor(collection, 2)];
          const allocate = (scope = a) => on(store, collection.name, (records) => records.allocateInteger(scope));
          expect(await allocate(), `${label}: the first key`).toBe(1);
          // An allocated key is taken even before a record holds it.
          expect(await allocate(), label).toBe(2);
          await on(store, collection.name, (records) => records.put(recordFor(collection, 10), a));
          expect(await allocate(), `${label}: past a key put`).toBe(11);
          await on(store, collection.name, (records) => records.put(recordFor(collection, 5), a));
          expect(await allocate(), `${label}: a smaller key put moves nothing back`).toBe(12);
          await on(store, collection.name, (records) => {
            records.put(recordFor(collection, 12), a);
            records.delete(12, a);
            records.delete(10, a);
          });
          expect(await allocate(), `${label}: deleted keys are not given again`).toBe(13);
          if (nested(collection)) {
            // Keys that are not counted per parent are one sequence for every scope (a comment's global id).
            await on(store, collection.name, (records) => records.put(recordFor(collection, 40), b));
            expect(await allocate(a), `${label}: a key put in another scope`).toBe(41);
          }
        }
      });

      it('counts keys per parent: from 1 in each scope, never again after a delete, past a key put, from 1 again once the scope is dropped', async () => {
        for (const { document, collection, label } of await subjects((c) => Boolean(c.keyPerParent))) {
          const store = await fresh(document);
          const [a, b, c] = [scopeFor(collection, 1), scopeFor(collection, 2), scopeFor(collection, 3)];
          const make = (scope: string) =>
            on(store, collection.name, (records) => {
              const key = records.allocateInteger(scope);
              records.put(recordFor(collection, key), scope);
              return key;
            });
          expect([await make(a), await make(a), await make(b), await make(a)], label).toEqual([1, 2, 1, 3]);
          await on(store, collection.name, (records) => records.delete(3, a));
          expect(await make(a), `${label}: a deleted number is not given again`).toBe(4);
          await on(store, collection.name, (records) => records.put(recordFor(collection, 10), b));
          expect(await make(b), `${label}: past a key put in the scope`).toBe(11);
          expect(await make(c), `${label}: another scope is not moved by it`).toBe(1);
          // Every record of a scope deleted: its numbers are still taken.
          await on(store, collection.name, (records) => {
            records.delete(1, c);
          });
          expect(await make(c), `${label}: a scope emptied by deletes`).toBe(2);
          // The parent gone (its scope dropped): a new one under the same key counts from 1.
          await on(store, collection.name, (records) => records.dropScope(a));
          expect(await make(a), `${label}: a dropped scope`).toBe(1);
          expect(await make(b), `${label}: the other scopes go on`).toBe(12);
        }
      });

      it('keeps records with no key in order, twins included, each under its place in its scope', async () => {
        for (const { document, collection, label } of await subjects((c) => Boolean(c.keyless))) {
          const store = await fresh(document);
          const scope = scopeFor(collection, 1);
          const twin = { message: 'same', at: '2031-01-01T00:00:00Z' };
          await on(store, collection.name, (records) => {
            records.put({ ...twin }, scope);
            records.put({ ...twin }, scope);
          });
          await on(store, collection.name, (records) => records.put({ message: 'other' }, scope));
          await on(store, collection.name, (records) => {
            // Numbered by their place: 1, 2, 3 in a scope that had none.
            expect(listed(records, scope), label).toEqual([
              ['1', twin],
              ['2', twin],
              ['3', { message: 'other' }],
            ]);
            expect(records.size, label).toBe(3);
            // Where a store says what key a record is stored under, it is the record's place.
            if (records.keyOf) for (const [key, record] of records.records(scope)) expect(records.keyOf(record), label).toBe(key);
            expect(records.delete('2', scope), label).toBe(true);
          });
          await on(store, collection.name, (records) => records.put({ ...twin }, scope));
          await on(store, collection.name, (records) => {
            const after = listed(records, scope);
            expect(after.map(([, record]) => record), `${label}: a record put after a delete goes last`).toEqual([twin, { message: 'other' }, twin]);
            expect(new Set(after.map(([key]) => key)).size, `${label}: places stay distinct`).toBe(3);
            expect(records.export().scopes[scope], label).toEqual([twin, { message: 'other' }, twin]);
          });
        }
      });

      it("says a keyed record's key is its key property, where it says so at all", async () => {
        for (const { document, collection, label } of await subjects(keyed)) {
          const store = await fresh(document);
          await on(store, collection.name, (records) => {
            const record = records.put(recordFor(collection, keyFor(collection, 4)), scopeFor(collection, 1));
            if (records.keyOf) expect(records.keyOf(record), label).toEqual(keyFor(collection, 4));
          });
        }
      });

      it('clears a collection back to new: no records, no scopes, keys counted from 1 again', async () => {
        for (const { document, collection, label } of await subjects(() => true)) {
          const store = await fresh(document);
          const scopes = nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2)] : [''];
          await on(store, collection.name, (records) => {
            for (const scope of scopes) for (const i of [3, 7]) records.put(recordFor(collection, keyFor(collection, i), { i }), scope);
            if (isIntegerKey(collection)) records.allocateInteger(scopes[0]);
          });
          await on(store, collection.name, (records) => records.clear());
          await on(store, collection.name, (records) => {
            expect([records.size, records.scopes(), [...records.all()]], label).toEqual([0, [], []]);
            for (const scope of scopes) expect(records.records(scope).size, label).toBe(0);
            if (integerKeyed(collection)) expect(records.allocateInteger(scopes[0]), label).toBe(1);
          });
          expect((await inTransaction(store, () => store.counts()))[collection.name], label).toBe(0);
        }
      });

      it('exports what import restores: records in list order, values as given, the key sequences (per parent too)', async () => {
        for (const document of Object.keys(DOCUMENTS) as DocumentName[]) {
          const collections = await documentCollections(document);
          const store = await fresh(document);
          // Every collection filled: two scopes of the nested ones, keys past the ones still held
          // (the last of each scope deleted), sequences per parent moved past their records.
          await inTransaction(store, () => {
            for (const collection of collections) {
              const records = store.collection(collection.name);
              const scopes = nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2)] : [''];
              for (const [s, scope] of scopes.entries()) {
                for (let i = 1; i <= 3; i++) {
                  const key = integerKeyed(collection) ? records.allocateInteger(scope) : keyFor(collection, 10 * s + i);
                  records.put(recordFor(collection, key, { i, ...VALUES }), scope);
                }
                const last = [...records.records(scope).keys()].at(-1)!;
                records.delete(collection.keyless ? last : records.records(scope).get(last)![collection.keyProperty], scope);
              }
            }
          });
          const exported = await inTransaction(store, () => store.export());
          // Plain JSON, and a copy: changing it changes nothing stored.
          expect(JSON.parse(JSON.stringify(exported)), document).toEqual(exported);
          for (const collection of collections.filter(keyed)) {
            const [scope, records] = Object.entries(exported[collection.name].scopes).find(([, list]) => list.length > 0)!;
            const key = records[0][collection.keyProperty];
            records[0].i = 'changed';
            expect((await on(store, collection.name, (state) => state.get(key, scope)))?.i, `${document} ${collection.name}`).toBe(1);
            records[0].i = 1;
          }
          for (const collection of collections.filter((c) => c.keyPerParent)) {
            expect(exported[collection.name].sequences, `${document} ${collection.name}: the sequences per parent`).toEqual({ [scopeFor(collection, 1)]: 4, [scopeFor(collection, 2)]: 4 });
          }

          // Imported into another store (over records it held), then exported again: the same.
          const copy = await fresh(document);
          await inTransaction(copy, () => {
            for (const collection of collections) copy.collection(collection.name).put(recordFor(collection, keyFor(collection, 99), { stale: true }), scopeFor(collection, 1));
          });
          await inTransaction(copy, () => {
            for (const collection of collections) copy.collection(collection.name).import(structuredClone(exported[collection.name]));
          });
          const again = await inTransaction(copy, () => copy.export());
          for (const collection of collections) {
            const label = `${document} ${collection.name}`;
            expect(withoutEmptyScopes(again[collection.name]), label).toEqual(withoutEmptyScopes(exported[collection.name]));
            for (const scope of Object.keys(exported[collection.name].scopes)) {
              expect(await on(copy, collection.name, (records) => listed(records, scope)), `${label} ${scope}`).toEqual(await on(store, collection.name, (records) => listed(records, scope)));
            }
          }
          expect(await inTransaction(copy, () => copy.counts()), document).toEqual(await inTransaction(store, () => store.counts()));
          // Both go on with the same keys: deleted ones stay given, in each scope for keys counted per parent.
          for (const collection of collections.filter(integerKeyed)) {
            for (const scope of nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2), scopeFor(collection, 3)] : ['']) {
              const next = await on(store, collection.name, (records) => records.allocateInteger(scope));
              expect(await on(copy, collection.name, (records) => records.allocateInteger(scope)), `${document} ${collection.name} ${scope}`).toBe(next);
            }
          }
        }
      });

      it('imports a snapshot whose nextInteger is behind its records: keys go on past the records', async () => {
        for (const { document, collection, label } of await subjects((c) => integerKeyed(c) && !c.keyPerParent)) {
          const store = await fresh(document);
          const scope = scopeFor(collection, 1);
          await on(store, collection.name, (records) => records.import({ nextInteger: 1, scopes: { [scope]: [recordFor(collection, 7), recordFor(collection, 3)] } }));
          expect(await on(store, collection.name, (records) => [listed(records, scope).map(([key]) => key), records.allocateInteger(scope)]), label).toEqual([['7', '3'], 8]);
          await on(store, collection.name, (records) => records.import({ nextInteger: 50, scopes: {} }));
          expect(await on(store, collection.name, (records) => [records.size, records.allocateInteger(scope)]), `${label}: a nextInteger ahead`).toEqual([0, 50]);
        }
        for (const { document, collection, label } of await subjects((c) => Boolean(c.keyPerParent))) {
          const store = await fresh(document);
          const [a, b] = [scopeFor(collection, 1), scopeFor(collection, 2)];
          // Scope a: its sequence ahead of its records; scope b: records, and no sequence said.
          await on(store, collection.name, (records) => records.import({ nextInteger: 1, scopes: { [a]: [recordFor(collection, 2)], [b]: [recordFor(collection, 5)] }, sequences: { [a]: 9 } }));
          expect(await on(store, collection.name, (records) => [records.allocateInteger(a), records.allocateInteger(b), records.allocateInteger(scopeFor(collection, 3))]), label).toEqual([9, 6, 1]);
        }
      });

      it('counts the records of every collection, every scope included', async () => {
        for (const document of Object.keys(DOCUMENTS) as DocumentName[]) {
          const collections = await documentCollections(document);
          const store = await fresh(document);
          await inTransaction(store, () => {
            for (const [n, collection] of collections.entries()) {
              const scopes = nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2)] : [''];
              for (const scope of scopes) for (let i = 1; i <= n + 1; i++) store.collection(collection.name).put(recordFor(collection, keyFor(collection, i), { i }), scope);
            }
          });
          const counts = await inTransaction(store, () => store.counts());
          expect(counts, document).toEqual(Object.fromEntries(collections.map((c, n) => [c.name, (n + 1) * (nested(c) ? 2 : 1)])));
          expect(counts, document).toEqual(Object.fromEntries(await Promise.all(collections.map(async (c) => [c.name, await on(store, c.name, (records) => records.size)]))));
        }
      });

      it("runs a request's work in transact: its result given back, an exception thrown through, the store usable after", async () => {
        const store = await fresh('petstore');
        const result = { answer: 42 };
        expect(await store.transact(() => result)).toBe(result);
        expect(await store.transact(() => undefined)).toBeUndefined();
        await on(store, 'pets', (pets) => pets.put({ id: 1, name: 'Rex' }));
        const failure = new Error('the work failed');
        await expect((async () => store.transact(() => { throw failure; }))()).rejects.toBe(failure);
        // A transaction that failed leaves the store to the next one (no lock kept), with what was stored before.
        expect(await on(store, 'pets', (pets) => pets.get(1))).toEqual({ id: 1, name: 'Rex' });
      });

      it('runs transactions started together one after another: none loses what another wrote, no key is given twice', async () => {
        const store = await fresh('petstore');
        await on(store, 'pets', (pets) => pets.put({ id: 1, name: 'Counter', hits: 0 }));
        const many = 25;
        await Promise.all(
          Array.from({ length: many }, () =>
            on(store, 'pets', (pets) => {
              const hits = pets.get(1)!.hits as number;
              pets.update(1, { hits: hits + 1 });
            }),
          ),
        );
        expect((await on(store, 'pets', (pets) => pets.get(1)))?.hits).toBe(many);
        const keys = await Promise.all(
          Array.from({ length: many }, (_, i) =>
            on(store, 'pets', (pets) => {
              const id = pets.allocateInteger();
              pets.put({ id, name: `Pet ${i}` });
              return id;
            }),
          ),
        );
        expect(new Set(keys).size).toBe(many);
        expect(await on(store, 'pets', (pets) => pets.size)).toBe(many + 1);
      });

      it('keeps two stores it made apart (the shared state and a session)', async () => {
        const [one, two] = [await fresh('numbered'), await fresh('numbered')];
        await on(one, 'projects', (projects) => projects.put({ id: 1, name: 'One' }));
        await on(one, 'issues', (issues) => issues.put({ number: issues.allocateInteger('1'), title: 'First' }, '1'));
        expect(await inTransaction(two, () => two.counts())).toEqual({ projects: 0, issues: 0, comments: 0 });
        expect(await on(two, 'issues', (issues) => issues.allocateInteger('1'))).toBe(1);
        await on(two, 'projects', (projects) => projects.put({ id: 1, name: 'Two' }));
        expect(await on(one, 'projects', (projects) => projects.get(1))).toEqual({ id: 1, name: 'One' });
      });

      it('counts its records in the budget it was given, whatever changes them', async () => {
        for (const document of Object.keys(DOCUMENTS) as DocumentName[]) {
          const collections = await documentCollections(document);
          const budget = new StateBudget({ maxRecords: Infinity, maxBytes: Infinity });
          const store = await fresh(document, budget);
          const agrees = async (step: string) => {
            expect(budget.records, `${document}: ${step}`).toBe(await held(store));
            expect(budget.bytes > 0, `${document}: ${step}, bytes counted while records are held`).toBe(budget.records > 0);
          };
          await inTransaction(store, () => {
            for (const collection of collections) {
              for (const scope of nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2)] : ['']) {
                for (let i = 1; i <= 3; i++) store.collection(collection.name).put(recordFor(collection, keyFor(collection, i), { i, ...VALUES }), scope);
              }
            }
          });
          await agrees('put');
          const bytes = budget.bytes;
          await inTransaction(store, () => {
            for (const collection of collections.filter(keyed)) {
              const records = store.collection(collection.name);
              const scope = nested(collection) ? scopeFor(collection, 1) : '';
              records.put(recordFor(collection, keyFor(collection, 1), { i: 1, longer: 'x'.repeat(1000) }), scope);
              records.update(keyFor(collection, 2), { longer: 'y'.repeat(1000) }, scope);
            }
          });
          await agrees('replaced and updated');
          if (collections.some(keyed)) expect(budget.bytes, `${document}: longer records are counted longer`).toBeGreaterThan(bytes);
          await inTransaction(store, () => {
            for (const collection of collections) {
              const records = store.collection(collection.name);
              const scope = nested(collection) ? scopeFor(collection, 1) : '';
              records.delete(collection.keyless ? '3' : keyFor(collection, 3), scope);
              if (nested(collection)) records.dropScope(scopeFor(collection, 2));
            }
          });
          await agrees('deleted and dropped');
          const snapshot = await inTransaction(store, () => store.export());
          await inTransaction(store, () => {
            for (const collection of collections) store.collection(collection.name).clear();
          });
          await agrees('cleared');
          expect(budget.bytes, `${document}: cleared`).toBe(0);
          await inTransaction(store, () => {
            for (const collection of collections) store.collection(collection.name).import(snapshot[collection.name]);
          });
          await agrees('imported');
        }
      });

      it('is full at the bound on records or bytes of the budget it was given, shared with the stores of the same budget', async () => {
        const budget = new StateBudget({ maxRecords: 4 });
        const store = await fresh('petstore', budget);
        await on(store, 'pets', (pets) => [1, 2, 3].map((id) => pets.put({ id, name: `Pet ${id}` })));
        expect(await inTransaction(store, () => store.full())).toBeUndefined();
        await on(store, 'categories', (categories) => categories.put({ id: 1, name: 'Dogs' }));
        expect(await inTransaction(store, () => store.full()), 'four records, the bound').toEqual(expect.any(String));
        await on(store, 'pets', (pets) => pets.delete(3));
        expect(await inTransaction(store, () => store.full()), 'room again after a delete').toBeUndefined();
        // A session's store counts in a part of the same budget: together they reach the bound.
        const session = await fresh('petstore', budget.sessions.part());
        await on(session, 'orders', (orders) => orders.put({ id: 1, petId: 1, quantity: 1 }));
        expect([budget.records, await inTransaction(store, () => store.full()), await inTransaction(session, () => session.full())]).toEqual([4, expect.any(String), expect.any(String)]);
        await on(session, 'orders', (orders) => orders.clear());
        expect(await inTransaction(store, () => store.full())).toBeUndefined();

        const small = await fresh('petstore', new StateBudget({ maxBytes: 4096 }));
        await on(small, 'pets', (pets) => pets.put({ id: 1, name: 'Rex' }));
        expect(await inTransaction(small, () => small.full())).toBeUndefined();
        await on(small, 'pets', (pets) => pets.put({ id: 2, name: 'Long', notes: 'x'.repeat(8192) }));
        expect(await inTransaction(small, () => small.full()), 'past the bound on bytes').toEqual(expect.any(String));
        await on(small, 'pets', (pets) => pets.update(2, { notes: '' }));
        expect(await inTransaction(small, () => small.full()), 'room again after the record shrank').toBeUndefined();
      });
    });

    describe('the mock through it', () => {
      /**
       * The same document served twice, from the same seed: on the store, and on the in-memory
       * store. `send` sends a request to both, compares the answers, and gives back the in-memory
       * store's; after a write, the states the admin API exports are compared too (the session's
       * for a request in one).
       */
      async function twoMocks(file: string, options: BuildMockOptions, headers: Record<string, string> = {}, { checked = true } = {}) {
        const shared: BuildMockOptions = { seed: 11, now: () => new Date('2026-05-06T07:08:09.000Z'), ...options, plugins: [...(options.plugins ?? []), SEED_WHOLE] };
        const serve = (options: BuildMockOptions) => (checked ? walk(file, options, headers) : unchecked(file, options, headers));
        const reference = await serve(shared);
        const subject = await serve({ ...shared, store: (collections, budget) => under.make(collections, budget) });
        const sameState = async (session?: string) => {
          const sessionHeader: Record<string, string> = session ? { 'X-Mock-Session': session } : {};
          const [a, b] = [await reference.call('GET', '/__admin/state', undefined, sessionHeader), await subject.call('GET', '/__admin/state', undefined, sessionHeader)];
          expect(a.status).toBe(200);
          const normal = (answer: Answer) => Object.fromEntries(Object.entries(answer.body.collections as Record<string, CollectionSnapshot>).map(([name, snapshot]) => [name, withoutEmptyScopes(snapshot)]));
          expect(normal(b), `the state${session ? ` of session ${session}` : ''}`).toEqual(normal(a));
          // The shared state's records (sessions are held otherwise by the in-memory store: copied on their first write).
          const sharedRecords = (mock: Mock) => mock.budget.records - mock.budget.sessions.records;
          expect(sharedRecords(subject), 'the records the shared state counts in the budget').toBe(sharedRecords(reference));
          return a.body;
        };
        const send: WalkCall = async (method, path, body, more = {}) => {
          const a = await reference.call(method, path, body, more);
          const b = await subject.call(method, path, body, more);
          expect(compared(b), `${method} ${path}`).toEqual(compared(a));
          if (method !== 'GET') await sameState(more['X-Mock-Session']);
          return a;
        };
        return { send, sameState, reference: reference as Mock, subject: subject as Mock };
      }
      const statusOf = (answer: Answer) => answer.status;

      /** A mock and its `call`, as `walk` makes them, but with answers the document does not declare let through (a 507). */
      async function unchecked(file: string, options: BuildMockOptions, headers: Record<string, string>): Promise<Mock & { call: WalkCall }> {
        const mock = buildMock(await loadDocument(file), options);
        const call: WalkCall = async (method, path, body, more = {}) => {
          const init: RequestInit = { method, headers: { ...headers, ...more } };
          if (body !== undefined) {
            init.body = JSON.stringify(body);
            (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
          }
          const response = await mock.app.request(path, init);
          const text = await response.text();
          return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
        };
        return { ...mock, call };
      }

      it('answers a walk through the Petstore as the in-memory store does: lists filtered and paged, creates, updates, deletes, the business rules, sessions, reset, export and import', async () => {
        const { send, sameState } = await twoMocks(SPEC, { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS }, AUTH);
        await sameState();
        const lists = ['', '?limit=5', '?status=sold', '?status=sold&categoryId=1', '?status=available&status=pending&limit=5&offset=2', '?categoryId=2&status=sold', '?id=3&id=4'];
        for (const query of lists) expect(statusOf(await send('GET', `/pets${query}`)), query).toBe(200);
        const created = await send('POST', '/pets', { name: 'Rex', categoryId: 1 });
        expect(created.status).toBe(201);
        const id = created.body.id as number;
        expect((await send('GET', created.headers.get('location')!)).body).toEqual(created.body);
        expect(statusOf(await send('PATCH', '/pets/3', { status: 'sold' }))).toBe(200);
        expect(statusOf(await send('PUT', '/pets/4', { name: 'Max', categoryId: 2, status: 'pending' }))).toBe(200);
        const gone = (await send('POST', '/pets', { name: 'Gone', categoryId: 2, status: 'sold' })).body.id as number;
        expect(statusOf(await send('DELETE', `/pets/${gone}`))).toBe(204);
        expect(statusOf(await send('GET', `/pets/${gone}`))).toBe(404);
        for (const query of lists) await send('GET', `/pets${query}`);
        // A deleted id is not given again; the new pet is listed last.
        const next = await send('POST', '/pets', { name: 'Bella', categoryId: 3 });
        expect(next.body.id).toBe(gone + 1);
        expect((await send('GET', '/pets?limit=100')).body.at(-1)).toEqual(next.body);
        // The business rules read and change several collections in one request.
        expect(statusOf(await send('PUT', `/store/inventory/${id}`, { quantity: 1 }))).toBe(200);
        const order = await send('POST', '/store/orders', { petId: id, quantity: 1 });
        expect(order.status).toBe(201);
        expect((await send('GET', `/store/inventory/${id}`)).body.quantity).toBe(0);
        await send('PATCH', `/store/orders/${order.body.id}`, { complete: true });
        await send('GET', `/store/orders?petId=${id}`);
        await send('GET', '/store/orders?complete=true&limit=3');
        await send('DELETE', '/categories/6');
        await send('GET', '/store/inventory?limit=50');

        // A session: its own records, the shared state untouched, back to the seed on its reset.
        const session = { 'X-Mock-Session': 'conformance' };
        const mine = await send('POST', '/pets', { name: 'Mine', categoryId: 1 }, session);
        expect(mine.status).toBe(201);
        await send('DELETE', '/pets/1', undefined, session);
        expect((await send('GET', '/pets?limit=100', undefined, session)).body).toContainEqual(mine.body);
        expect((await send('GET', '/pets?limit=100')).body).not.toContainEqual(mine.body);
        expect(statusOf(await send('GET', '/pets/1'))).toBe(200);
        expect(statusOf(await send('POST', '/__admin/reset', undefined, session))).toBe(200);
        expect((await send('GET', '/pets?limit=100', undefined, session)).body).not.toContainEqual(mine.body);

        // Export, then import a changed state: what it holds is served, and keys go on past it.
        const exported = await sameState();
        const pets = exported.collections.pets as CollectionSnapshot;
        const kept = pets.scopes[''].slice(0, 3);
        expect(statusOf(await send('PUT', '/__admin/state', { format: exported.format, collections: { pets: { ...pets, scopes: { '': kept } } } }))).toBe(200);
        expect((await send('GET', '/pets?limit=100')).body).toEqual(kept);
        expect((await send('POST', '/pets', { name: 'After', categoryId: 1 })).body.id).toBe(pets.nextInteger);
        // A state that is not one is refused whole.
        expect(statusOf(await send('PUT', '/__admin/state', { format: exported.format, collections: { pets: { nextInteger: 1, scopes: { '': [{ name: 'No id' }] } } } }))).toBe(400);
        await send('GET', '/pets?limit=100');

        // Reset: the seed again, as at the start.
        expect(statusOf(await send('POST', '/__admin/reset'))).toBe(200);
        for (const query of lists) await send('GET', `/pets${query}`);
      });

      it('answers a walk through nested collections as the in-memory store does: numbers counted per project, comments two levels down, children gone with their parent', async () => {
        const { send, sameState } = await twoMocks(`${ROOT}test/documents/numbered-api.yaml`, { counts: { projects: 3, issues: 6, comments: 6 } });
        await sameState();
        const project = await send('POST', '/projects', { name: 'New' });
        expect(project.status).toBe(201);
        const p = project.body.id as number;
        const numbers: number[] = [];
        for (const title of ['First', 'Second']) numbers.push((await send('POST', `/projects/${p}/issues`, { title })).body.number);
        expect(numbers).toEqual([1, 2]);
        expect((await send('DELETE', `/projects/${p}/issues/2`)).body).toEqual({});
        expect((await send('POST', `/projects/${p}/issues`, { title: 'Third' })).body.number).toBe(3);
        const seeded = (await send('GET', '/projects/1/issues')).body.map((issue: { number: number }) => issue.number);
        expect((await send('POST', '/projects/1/issues', { title: 'Next' })).body.number).toBe(Math.max(...seeded) + 1);
        const comment = await send('POST', `/projects/${p}/issues/1/comments`, { body: 'a' });
        expect(comment.status).toBe(201);
        await send('POST', `/projects/${p}/issues/1/comments`, { body: 'b' });
        await send('POST', '/projects/1/issues/1/comments', { body: 'c' });
        await send('GET', `/projects/${p}/issues/1/comments`);
        expect((await send('GET', `/projects/${p}/issues/1/comments/${comment.body.id}`)).body).toEqual(comment.body);
        expect((await send('DELETE', `/projects/${p}/issues/1/comments/${comment.body.id}`)).body).toEqual({ deleted: true, id: comment.body.id });
        // Deleting an issue takes its comments.
        expect(statusOf(await send('DELETE', `/projects/${p}/issues/1`))).toBe(200);
        expect(statusOf(await send('GET', `/projects/${p}/issues/1/comments`))).toBe(404);
        const comments = (await sameState()).collections.comments as CollectionSnapshot;
        expect(comments.scopes[`${p}/1`] ?? [], 'the comments of the deleted issue, in the state').toEqual([]);
        expect(statusOf(await send('GET', '/projects/99/issues'))).toBe(404);
        for (const path of ['/projects', '/projects/1/issues', '/projects/2/issues', `/projects/${p}/issues`]) await send('GET', path);

        // Export and import keep each project's count, even of a project whose issues are all gone.
        const exported = await sameState();
        const issues = exported.collections.issues as CollectionSnapshot;
        expect(issues.sequences?.[String(p)], 'the export holds the count of each project').toBe(4);
        const emptied = { ...issues, scopes: { ...issues.scopes, [String(p)]: [] } };
        expect(statusOf(await send('PUT', '/__admin/state', { format: exported.format, collections: { issues: emptied } }))).toBe(200);
        expect((await send('GET', `/projects/${p}/issues`)).body).toEqual([]);
        expect((await send('POST', `/projects/${p}/issues`, { title: 'Fourth' })).body.number).toBe(4);

        // A session counts on its own.
        const session = { 'X-Mock-Session': 'nested' };
        expect((await send('POST', '/projects/1/issues', { title: 'In a session' }, session)).body.number).toBe(Math.max(...seeded) + 1);
        expect(statusOf(await send('POST', '/__admin/reset'))).toBe(200);
        for (const path of ['/projects', '/projects/1/issues', '/projects/1/issues/1/comments']) await send('GET', path);
      });

      it('answers a walk through keys clients choose as the in-memory store does: listed in the order created, a key taken refused, a new parent under an old key counting from 1', async () => {
        const { send, sameState } = await twoMocks(`${ROOT}test/documents/issues-api.yaml`, { counts: { projects: 2, issues: 3 } });
        await sameState();
        for (const key of ['ZZ', 'AA', 'MM']) expect(statusOf(await send('POST', '/projects', { key, name: `Project ${key}` })), key).toBe(201);
        expect((await send('GET', '/projects')).body.slice(-3).map((project: { key: string }) => project.key)).toEqual(['ZZ', 'AA', 'MM']);
        expect(statusOf(await send('POST', '/projects', { key: 'AA', name: 'Again' }))).toBe(409);
        expect((await send('POST', '/projects/ZZ/issues', { title: 'One' })).body.number).toBe(1);
        expect((await send('POST', '/projects/ZZ/issues', { title: 'Two' })).body.number).toBe(2);
        expect((await send('PATCH', '/projects/ZZ/issues/1', { title: 'One, changed' })).body.title).toBe('One, changed');
        await send('GET', '/projects/ZZ/issues');
        expect(statusOf(await send('DELETE', '/projects/ZZ'))).toBe(204);
        expect(statusOf(await send('GET', '/projects/ZZ/issues'))).toBe(404);
        expect(statusOf(await send('POST', '/projects', { key: 'ZZ', name: 'Back' }))).toBe(201);
        expect((await send('POST', '/projects/ZZ/issues', { title: 'Fresh' })).body.number).toBe(1);
        for (const path of ['/projects', '/projects/ZZ/issues', '/projects/AA/issues']) await send('GET', path);
        const exported = await sameState();
        expect(statusOf(await send('PUT', '/__admin/state', exported))).toBe(200);
        await send('GET', '/projects');
      });

      it('answers a walk through records with no key and collections with no item path as the in-memory store does', async () => {
        const { send, sameState } = await twoMocks(`${ROOT}test/documents/pathless-api.yaml`, { counts: { default: 2 }, apiKeys: ['k-1'] }, { 'X-Key': 'k-1' });
        await sameState();
        const member = await send('POST', '/members', { name: 'Ada' });
        expect(member.status).toBe(201);
        const m = member.body.id as number;
        const loans = [await send('POST', `/members/${m}/loans`, { itemId: 3, due: '2027-01-15' }), await send('POST', `/members/${m}/loans`, { itemId: 4, due: '2027-02-01' })];
        expect((await send('GET', `/members/${m}/loans`)).body).toEqual(loans.map((loan) => loan.body));
        // Twins kept, in order; filtered and paged like any list.
        const before = (await send('GET', '/events?limit=100')).body.length as number;
        for (const event of [{ type: 'note', message: 'Hello' }, { type: 'opened', message: 'Door' }, { type: 'note', message: 'Hello' }]) expect(statusOf(await send('POST', '/events', event))).toBe(201);
        const events = (await send('GET', '/events?limit=100')).body;
        expect(events.slice(before).map((event: { message: string }) => event.message)).toEqual(['Hello', 'Door', 'Hello']);
        await send('GET', '/events?type=note');
        await send('GET', '/events?limit=2&offset=1');
        // A create nothing lists is held all the same (the admin API's export shows it).
        expect(statusOf(await send('POST', `/members/${m}/tokens`, { ttl: 120 }))).toBe(201);
        expect(((await sameState()).collections.tokens as CollectionSnapshot).scopes[String(m)]).toHaveLength(1);
        await send('GET', `/members/${m}/visits`);
        await send('GET', '/reports/daily');
        expect(statusOf(await send('DELETE', `/members/${m}`))).toBe(200);
        expect(statusOf(await send('GET', `/members/${m}/loans`))).toBe(404);
        const exported = await sameState();
        for (const name of ['loans', 'tokens', 'visits']) expect((exported.collections[name] as CollectionSnapshot).scopes[String(m)] ?? [], `the ${name} of the deleted member, in the state`).toEqual([]);
        expect(statusOf(await send('POST', '/__admin/reset'))).toBe(200);
        expect(statusOf(await send('PUT', '/__admin/state', exported))).toBe(200);
        expect((await send('GET', '/events?limit=100')).body).toEqual(events);
      });

      it('refuses creates past the bound on records as the in-memory store does, for the shared state and for sessions', async () => {
        // Nothing seeded; at most 6 records, 3 of them in sessions. The document declares no 507: the answers are compared, not checked against it.
        const { send } = await twoMocks(`${ROOT}test/documents/pathless-api.yaml`, { counts: { default: 0 }, limits: { maxRecords: 6 }, apiKeys: ['k-1'] }, { 'X-Key': 'k-1' }, { checked: false });
        const session = { 'X-Mock-Session': 'small' };
        const creates = async (times: number, headers: Record<string, string> = {}) => {
          const statuses: number[] = [];
          for (let i = 0; i < times; i++) statuses.push(statusOf(await send('POST', '/members', { name: `M${i}` }, headers)));
          return statuses;
        };
        expect(await creates(4, session), 'a session: its share').toEqual([201, 201, 201, 507]);
        // The shared state keeps its room: the session holding records is dropped to make it.
        expect(await creates(8), 'the shared state: the whole bound').toEqual([201, 201, 201, 201, 201, 201, 507, 507]);
        expect((await send('GET', '/members', undefined, session)).body, 'the session dropped: from the seed again').toEqual([]);
        expect(statusOf(await send('DELETE', '/members/1'))).toBe(200);
        expect(await creates(2), 'room again after a delete').toEqual([201, 507]);
      });
    });
  });
}
