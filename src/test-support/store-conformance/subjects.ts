/**
 * The subjects of the store conformance suite: the documents whose collections it runs on, the
 * collections of each with a trait a rule is about, and the keys, scopes, records and texts it
 * puts in them; with the small helpers every topic uses to run work in a store's transaction and
 * read what it holds.
 */
import { expect, it } from 'vitest';
import { loadDocument } from '../../openapi/document/load-document.js';
import { buildOperations } from '../../openapi/operations/build-operations.js';
import { isIntegerKey, type Collection } from '../../openapi/operations/collection.js';
import { inferCollections } from '../../openapi/operations/infer-collections.js';
import type { CollectionSnapshot, RecordCollection, StateStore, StoredRecord } from '../../state/state-store.js';
import { ASCII, longText, MULTI_BYTE } from '../long-text.js';
import { ROOT, SPEC } from '../petstore.js';

/** The documents whose collections the store level runs on, with what each brings. */
export const DOCUMENTS = {
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
export type DocumentName = keyof typeof DOCUMENTS;

const collectionsOf = new Map<DocumentName, Promise<Collection[]>>();
/** The collections the mock infers from the document, as it hands them to a store. */
export function documentCollections(name: DocumentName): Promise<Collection[]> {
  let found = collectionsOf.get(name);
  if (!found) collectionsOf.set(name, (found = loadDocument(DOCUMENTS[name]).then((document) => inferCollections(buildOperations(document.api)).collections)));
  return found;
}

export interface Subject {
  document: DocumentName;
  collection: Collection;
  /** `numbered issues`: for the messages of failed assertions. */
  label: string;
}

/** Every collection of the documents that `has` the trait; at least one, or the check would pass on nothing. */
export async function subjects(has: (collection: Collection) => boolean): Promise<Subject[]> {
  const found: Subject[] = [];
  for (const document of Object.keys(DOCUMENTS) as DocumentName[]) {
    for (const collection of await documentCollections(document)) if (has(collection)) found.push({ document, collection, label: `${document} ${collection.name}` });
  }
  expect(found.length, 'no collection of the documents has the trait this test is about').toBeGreaterThan(0);
  return found;
}

export const keyed = (c: Collection) => !c.keyless;
export const nested = (c: Collection) => c.scopeParams.length > 0;
export const integerKeyed = (c: Collection) => !c.keyless && isIntegerKey(c);

/** The i-th key of a collection: the integer for integer keys, else text (`K3`). */
export function keyFor(collection: Collection, i: number): string | number {
  return isIntegerKey(collection) ? i : `K${i}`;
}

/** The i-th scope of a collection: `''` at the top, its parents' keys below (`3`, `3/4` two levels down). */
export function scopeFor(collection: Collection, i: number): string {
  return collection.scopeParams.map((_, level) => String(i + level)).join('/');
}

/** A record of the collection under the key (none for a keyless one), with the fields. */
export function recordFor(collection: Collection, key: unknown, fields: StoredRecord = {}): StoredRecord {
  return collection.keyless ? { ...fields } : { [collection.keyProperty]: key, ...fields };
}

/**
 * Values a record may hold, each of which a store must give back as it was given: JSON's types,
 * nesting, text beyond ASCII, and characters some storage refuses or changes (NUL, which
 * PostgreSQL's jsonb does not take; a lone surrogate is left out, JSON text cannot carry it).
 */
export const VALUES: StoredRecord = {
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
export const TEXTS = ['a\u0000b', '\u0000', '\u0001', '\u0001"x"', 'lone \ud800 high', 'lone \udfff low', '\udc00\ud800', '\\u0000 as text', '🐕 e\u0301\u0301'];

/** 3,000 bytes of ASCII: a key, another key that only a last character more tells from it, and the scope dropped. */
export const LONG_3K = longText(3_000, ASCII, 3);

/**
 * Keys and scopes longer than some storage indexes (a PostgreSQL index row holds about 2,700
 * bytes), each of which a store must keep as given: around 1 KiB (1,024 and 1,025 bytes), 3,000
 * bytes of ASCII and the same with one more character at its end, 10,000 bytes of multi-byte text,
 * and 60,000 bytes holding NULs. A request body (64 KiB) carries the longest; an import may bring
 * longer.
 */
export const LONG_TEXTS = [longText(1_024, ASCII, 1), longText(1_025, ASCII, 2), LONG_3K, `${LONG_3K}!`, longText(10_000, MULTI_BYTE, 4), longText(60_000, [...ASCII, '\u0000', '東'], 5)];

/** Runs the work in one transaction of the store and waits for it, whatever kind of store it is. */
export async function inTransaction<T>(store: StateStore, work: () => T): Promise<T> {
  return await store.transact(work);
}

/** The same on one collection, fetched inside the transaction. */
export function on<T>(store: StateStore, name: string, work: (records: RecordCollection) => T): Promise<T> {
  return inTransaction(store, () => work(store.collection(name)));
}

/** One scope's records, in list order, as plain data: `[key, record]` pairs. */
export function listed(records: RecordCollection, scope = ''): Array<[string, StoredRecord]> {
  return [...records.records(scope)].map(([key, record]) => [key, structuredClone(record)]);
}

/** A snapshot as it is compared: a scope with no records is the same as no scope. */
export function withoutEmptyScopes(snapshot: CollectionSnapshot): CollectionSnapshot {
  return { ...snapshot, scopes: Object.fromEntries(Object.entries(snapshot.scopes).filter(([, records]) => records.length > 0)) };
}

/** Sorted as JSON text: for comparing what has no order (`all()`, `where`). */
export function unordered(records: Iterable<StoredRecord>): string[] {
  return [...records].map((record) => JSON.stringify(record)).sort();
}

/** Every record the store holds, summed over its collections. */
export async function held(store: StateStore): Promise<number> {
  return Object.values(await inTransaction(store, () => store.counts())).reduce((a, b) => a + b, 0);
}
