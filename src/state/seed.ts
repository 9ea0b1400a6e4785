/**
 * Seeding: fixtures first, then Faker-generated records, collection by collection in the order
 * their references need (categories before the pets that point at them). Everything random
 * comes from one Faker seeded with `seed`, so the same seed gives the same data.
 */
import { fnv1a, seeded } from '../core/fnv.js';
import type { Faker } from '@faker-js/faker';
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../openapi/document/schema.js';
import { own } from '../openapi/generate/helpers.js';
import type { GenerateHints } from '../openapi/generate/strings.js';
import { isIntegerKey, type Collection } from '../openapi/operations/collection.js';
import { requiredSet } from '../openapi/operations/schema-properties.js';
import type { RecordCollection, StateStore, StoredRecord } from './state-store.js';
import { versionOf } from './speedups.js';
import { SeededValues } from './seeded-values.js';

export interface SeedOptions {
  faker: Faker;
  generate: (schema: SchemaObject, hints?: GenerateHints) => unknown;
  /** Generated records per collection: `default` and per-name overrides. */
  counts: { default: number } & Record<string, number>;
  fixtures: Record<string, StoredRecord[]>;
  validatorFor: (collection: Collection) => ValidateFunction | undefined;
  /** The validator of any schema (a property's, for its examples). */
  validatorOf?: (schema: SchemaObject) => ValidateFunction | undefined;
  warn: (message: string) => void;
  /** Writes a generated record's links to itself (`uri`, `links.self`) once its key and scope are known (src/openapi/operations/record-links.ts). */
  ownLinks?: (collection: Collection, record: StoredRecord, scope: string) => void;
}

const ATTEMPTS = 5;

/** @example seedStore(store, collections, { faker, generate, counts: { default: 20 }, fixtures: {}, ... }) */
export function seedStore(store: StateStore, collections: Collection[], options: SeedOptions): void {
  for (const collection of dependencyOrder(collections)) seedCollection(store, collection, options);
}

/** A store that can seed each collection when it is first used (the in-memory store: `MemoryStore.deferSeeding`). */
export interface DeferredSeeding {
  deferSeeding(names: readonly string[], seed: (name: string) => void): void;
  /** Takes a name off the list of collections still to seed; false when it was not on it. */
  takePending(name: string): boolean;
}

/**
 * Seeding on first use: nothing is generated at start, and a collection is seeded when a request
 * (or the banner, an export...) first reads or writes it, so a document of 2,000 operations answers
 * its first request without generating the records of the other 399 collections. A collection is
 * seeded with the collections it refers to or lives under (all that are not seeded yet, in the
 * order references need), each from a Faker seeded for it by name: what a collection holds does
 * not depend on which was used first.
 */
export function seedOnFirstUse(store: StateStore & DeferredSeeding, collections: Collection[], options: SeedOptions, seed: number, seeded?: (names: string[]) => void): void {
  const order = dependencyOrder(collections);
  const rank = new Map(order.map((collection, index) => [collection.name, index]));
  const byName = new Map(collections.map((collection) => [collection.name, collection]));
  const closure = (name: string): Collection[] => {
    const found = new Set<Collection>();
    const visit = (collection: Collection | undefined) => {
      if (!collection || found.has(collection)) return;
      found.add(collection);
      for (const target of [...collection.references.map((r) => r.collection), ...(collection.parent ? [collection.parent] : [])]) visit(byName.get(target));
    };
    visit(byName.get(name));
    return [...found].sort((a, b) => rank.get(a.name)! - rank.get(b.name)!);
  };
  store.deferSeeding(
    order.map((collection) => collection.name),
    (name) => {
      // Every collection of the closure leaves the list before any is seeded: in a reference cycle,
      // the one seeded first finds the other empty, whichever was asked for.
      const due = closure(name).filter((collection) => store.takePending(collection.name));
      for (const collection of due) {
        options.faker.seed(seedFor(seed, collection.name));
        seedCollection(store, collection, options);
      }
      if (due.length) seeded?.(due.map((collection) => collection.name));
    },
  );
}

/**
 * The records a seed will hold, by collection, without generating them: fixtures, then the counts
 * (a nested collection's only when its parent has records, one per owner for a collection keyed by
 * another's key). A key schema with fewer free values than asked makes the seed smaller than this.
 */
export function plannedRecords(collections: Collection[], options: Pick<SeedOptions, 'counts' | 'fixtures'>): Record<string, number> {
  const planned: Record<string, number> = {};
  for (const collection of dependencyOrder(collections)) {
    const fixtures = own(options.fixtures, collection.name)?.length ?? 0;
    const parent = keyedBy(collection);
    let generated: number;
    if (collection.scopeParams.length) {
      const given = own(options.counts, collection.name) ?? (collection.listed ? options.counts.default : 0);
      generated = collection.parent && !fixtures && (own(planned, collection.parent) ?? 0) > 0 ? given : 0;
    } else if (parent) {
      generated = Math.max(0, (own(planned, parent.collection) ?? 0) - fixtures);
    } else {
      generated = own(options.counts, collection.name) ?? (fixtures || !collection.listed ? 0 : options.counts.default);
    }
    planned[collection.name] = fixtures + generated;
  }
  return planned;
}

/** A collection's own seed: the mock's seed mixed with its name (FNV-1a). */
function seedFor(seed: number, name: string): number {
  return fnv1a(name, seeded(seed));
}

/** Fixtures first, then generated records: nested ones dealt to their parents, keyed ones one per owner, the rest by count. */
function seedCollection(store: StateStore, collection: Collection, options: SeedOptions): void {
  const state = store.collection(collection.name);
  state.clear();
  // A collection may be named like an Object property (`/constructor`): own entries only.
  const fixtures = own(options.fixtures, collection.name) ?? [];
  const sorted = [...fixtures].sort((a, b) => compareKeys(a[collection.keyProperty], b[collection.keyProperty]));
  const scopeOf = fixtureScopes(store, collection);
  for (const record of sorted) state.put(structuredClone(record), scopeOf(record));
  // The document's examples first, and names distinct where the generator has enough (the fixtures' included).
  const names = SeededValues.of(collection, options.validatorOf);
  for (const record of sorted) names?.remember(record, false);
  if (collection.scopeParams.length) {
    if (collection.parent && !fixtures.length) seedChildren(store, collection, options, names);
    return;
  }

  const parent = keyedBy(collection);
  if (parent) {
    // A sub-resource keyed by another collection's key (`/store/inventory/{petId}`): one per parent.
    const owners = store.collection(parent.collection);
    for (const owner of owners.all()) {
      const key = owner[owners.collection.keyProperty];
      if (!state.get(key)) state.put(linked(generateRecord(collection, state, store, options, key, names), collection, options));
    }
    return;
  }
  const count = own(options.counts, collection.name) ?? (fixtures.length || !collection.listed ? 0 : options.counts.default);
  for (let i = 0; i < count; i++) {
    const key = collection.keyless ? undefined : newKey(collection, state, options);
    if (key === undefined && !collection.keyless) {
      options.warn(`${collection.name}: ${state.size} of ${count} records seeded; the schema of ${collection.keyProperty} allows no other value.`);
      break;
    }
    state.put(linked(generateRecord(collection, state, store, options, key, names), collection, options));
  }
}

/** A generated record with its links to itself written. */
function linked(record: StoredRecord, collection: Collection, options: SeedOptions, scope = ''): StoredRecord {
  options.ownLinks?.(collection, record, scope);
  return record;
}

/**
 * Where a fixture of a nested collection goes: under the parent record its `parentProperty` names
 * (found in whichever scope the parent is), so it is listed and read under that parent; at the top
 * when it names none, or a parent that is not there. The parent is seeded first.
 */
function fixtureScopes(store: StateStore, collection: Collection): (record: StoredRecord) => string | undefined {
  const property = collection.parentProperty;
  if (!collection.parent || property === undefined || !store.has(collection.parent)) return () => undefined;
  const parents = store.collection(collection.parent);
  const scopes = new Map<string, string>();
  for (const scope of parents.scopes()) {
    for (const record of parents.records(scope).values()) {
      const key = String(record[parents.collection.keyProperty]);
      if (!scopes.has(key)) scopes.set(key, scope ? `${scope}/${key}` : key);
    }
  }
  return (record) => (record[property] === undefined ? undefined : scopes.get(String(record[property])));
}

/**
 * A nested collection's records, dealt in turn to the parent records (`--count loans=40` over 20
 * members gives each two), each carrying its parent's key where its schema has a place for it.
 * Records nothing lists (a create with no list) are not seeded unless their count is given.
 */
function seedChildren(store: StateStore, collection: Collection, options: SeedOptions, names?: SeededValues): void {
  const parents = store.collection(collection.parent!);
  const owners = parents.scopes().flatMap((scope) =>
    [...parents.records(scope).values()].map((record) => {
      const key = record[parents.collection.keyProperty];
      return { scope: scope ? `${scope}/${String(key)}` : String(key), key };
    }),
  );
  const count = own(options.counts, collection.name) ?? (collection.listed ? options.counts.default : 0);
  const state = store.collection(collection.name);
  for (let i = 0; i < count && owners.length > 0; i++) {
    const owner = owners[i % owners.length];
    const key = collection.keyless ? undefined : newKey(collection, state, options, owner.scope);
    if (key === undefined && !collection.keyless) break;
    const record = generateRecord(collection, state, store, options, key, names);
    if (collection.parentProperty) record[collection.parentProperty] = owner.key;
    state.put(linked(record, collection, options, owner.scope), owner.scope);
  }
}

/** A generated record that satisfies the schema, with a fresh key, references to existing records, and (given `names`) the examples due and names no earlier record has. */
export function generateRecord(collection: Collection, state: RecordCollection, store: StateStore, options: SeedOptions, key?: unknown, names?: SeededValues): StoredRecord {
  const validate = options.validatorFor(collection);
  const recordKey = collection.keyless ? undefined : (key ?? newKey(collection, state, options));
  let record: StoredRecord = {};
  const required = requiredSet(collection.schema);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    record = asObject(options.generate(collection.schema, { collection: collection.name }));
    if (!collection.keyless) record[collection.keyProperty] = recordKey;
    for (const reference of collection.references) {
      if (reference.property === collection.keyProperty) continue;
      const target = store.has(reference.collection) ? store.collection(reference.collection) : undefined;
      const records = target ? recordsOf(target) : [];
      if (records.length) {
        const picked = options.faker.helpers.arrayElement(records);
        record[reference.property] = picked[target!.collection.keyProperty];
      } else if (!required.has(reference.property)) {
        delete record[reference.property]; // nothing to point at: left out where the schema allows it, else kept as generated
      }
    }
    const unsettle = names?.settle(record, (name, schema) => options.generate(schema, { propertyName: name, collection: collection.name }));
    // Examples that fit their properties but not the record together are taken back out.
    if (validate && unsettle && !validate(record)) unsettle();
    if (!validate || validate(record)) {
      names?.remember(record);
      return record;
    }
  }
  options.warn(`${collection.name}: generated records do not satisfy the schema; check it for contradictions.`);
  return record;
}

/**
 * The records of a collection, listed once per version of it (not once per generated record). Every
 * change bumps the version, so a listed record is the one stored under its key: no lookup by key.
 */
const recordLists = new WeakMap<RecordCollection, { version: number; records: StoredRecord[] }>();
function recordsOf(state: RecordCollection): StoredRecord[] {
  const version = versionOf(state);
  const cached = recordLists.get(state);
  if (cached && cached.version === version && version !== undefined) return cached.records;
  const records = [...state.records().values()];
  if (version !== undefined) recordLists.set(state, { version, records });
  return records;
}

/** Draws before deciding that a key schema has no free value left (an enum of 7 values asked for 20 records). */
const KEY_ATTEMPTS = 100;

/** A key no record has yet (in `scope`, for keys counted per parent), or undefined when none could be found. */
export function newKey(collection: Collection, state: RecordCollection, options: Pick<SeedOptions, 'generate'>, scope?: string): unknown {
  if (isIntegerKey(collection)) return state.allocateInteger(scope);
  for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
    // Drawn like the record's own property (its examples in the document): the key schema is a copy.
    const key = options.generate(collection.keySchema, { propertyName: collection.keyProperty, examplesOf: collection.schema.properties?.[collection.keyProperty] });
    if (!state.get(key)) return key;
  }
  return undefined;
}

function asObject(value: unknown): StoredRecord {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as StoredRecord) : {};
}

/** The collection this one is keyed by, when its key property is a reference (`petId` -> pets). */
function keyedBy(collection: Collection) {
  return collection.references.find((r) => r.property === collection.keyProperty && r.collection !== collection.name);
}

function dependencyOrder(collections: Collection[]): Collection[] {
  const ordered: Collection[] = [];
  const visiting = new Set<Collection>();
  const visit = (c: Collection) => {
    if (ordered.includes(c) || visiting.has(c)) return; // a reference cycle is broken arbitrarily
    visiting.add(c);
    for (const name of [...c.references.map((r) => r.collection), ...(c.parent ? [c.parent] : [])]) {
      const target = collections.find((t) => t.name === name);
      if (target && target !== c) visit(target);
    }
    ordered.push(c);
  };
  collections.forEach(visit);
  return ordered;
}

function compareKeys(a: unknown, b: unknown): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}
