/**
 * The mock's state: the shared store and the sessions' stores, all filled from one seed
 * (fixtures, then Faker records, then the plugins' seed hooks), and the helpers the actions
 * use to make records the way seeding does (a new key, the fields a create left out, a record
 * that an item path names but nobody stored).
 */
import type { ValidateFunction } from 'ajv';
import type { CrudOptions } from '../actions/crud.js';
import type { SchemaObject } from '../../openapi/document/schema.js';
import { createFaker } from '../../openapi/generate/create-faker.js';
import { createGenerator } from '../../openapi/generate/from-schema.js';
import { own } from '../../openapi/generate/helpers.js';
import { isIntegerKey, type Collection } from '../../openapi/operations/collection.js';
import { recordLinksOf, type LinkServer, type RecordLinks } from '../../openapi/operations/record-links.js';
import { firstServerUrl, serverBasePath } from '../../openapi/operations/server-base-path.js';
import type { SeedHook } from '../registries/extension.js';
import { ApiError } from '../../core/api-error.js';
import { loadFixtures } from '../../state/load-fixtures.js';
import { generateRecord, newKey, plannedRecords, seedOnFirstUse, seedStore, type SeedOptions } from '../../state/seed.js';
import { Sessions } from '../../state/sessions.js';
import { applySnapshot, checkSnapshot, type StateSnapshot } from '../../state/snapshot.js';
import type { StateStore, StoredRecord } from '../../state/state-store.js';
import { fillServerFields } from '../../state/server-fields.js';
import { jsonSize } from '../../state/json-size.js';
import { MemoryCollection } from '../../state/memory-collection.js';
import { MemoryStore } from '../../state/memory-store.js';
import { mib, StateBudget, StateLimitError, type StateLimits } from '../../state/budget.js';
import { CopyOnWriteStore } from '../../state/copy-on-write.js';

export interface StateOptions {
  collections: readonly Collection[];
  seed: number;
  /** Generated records per collection: `{ default: 20, pets: 100 }`. */
  counts: { default: number } & Record<string, number>;
  fixtures?: string | Record<string, StoredRecord[]>;
  seedHooks: readonly SeedHook[];
  /** Makes an empty store (default: in memory); it counts its records in `budget`. `session`: the session's name, for a session's store. */
  makeStore?: (collections: readonly Collection[], budget: StateBudget, session?: string) => StateStore;
  /** Bounds on the records held by all stores together. */
  limits?: StateLimits;
  maxSessions?: number;
  /** The clock, for the timestamps a server fills (milliseconds). */
  now: () => number;
  responseValidator: (schema: SchemaObject) => ValidateFunction | undefined;
  warn: (message: string) => void;
  /** The dereferenced document: its examples shape generated values (see GeneratorOptions). */
  document?: unknown;
}

export interface MockState {
  /** The shared state (requests without X-Mock-Session). */
  store: StateStore;
  sessions: Sessions;
  /** The bound every store counts its records in. */
  budget: StateBudget;
  /** The store of a request's session, or a 400 for an invalid session name. */
  storeFor: (session: string | null) => StateStore | ApiError;
  /** The shared state back to the seed. */
  reset: () => void;
  /** Records by collection, without seeding any: a collection not seeded yet counts what its seed will make. */
  counts: () => Record<string, number>;
  /** A new seed and/or counts, then everything (sessions included) back to the seed. */
  reseed: (change: { seed?: number; counts?: Record<string, number> }) => { seed: number; counts: Record<string, number> } | string;
  checkState: (data: unknown) => StateSnapshot | string;
  /**
   * Applies a checked snapshot to a store (the shared one, or a session's) when what it leaves
   * there fits the bounds (sessions dropped first for the shared state, other sessions for a
   * session's); a sentence saying how many records or bytes against which limit when it does not
   * (nothing changed).
   */
  importState: (target: StateStore, snapshot: StateSnapshot) => string | undefined;
  /** Generates values from schemas with the seeding Faker (re-seeded by `reseedGenerator`). */
  generate: SeedOptions['generate'];
  /** Puts the seeding Faker back at the seed: what is generated next does not depend on what came before. */
  reseedGenerator: () => void;
  /** How the actions make records: keys, missing required fields, records named by a path, their links to themselves. */
  records: Pick<CrudOptions, 'newKey' | 'complete' | 'materialise' | 'links'>;
}

export function createState(options: StateOptions): MockState {
  const { collections, warn, responseValidator } = options;
  let seed = options.seed;
  const validatorFor = (collection: Collection) => responseValidator(collection.schema);
  const faker = createFaker();
  const generate = createGenerator(faker, { document: options.document });
  const fixtures = typeof options.fixtures === 'string' ? loadFixtures(options.fixtures, [...collections], validatorFor) : (options.fixtures ?? {});
  const linksOf = ownLinks(options.document);
  const seedOptions: SeedOptions = { faker, generate, counts: { ...options.counts }, fixtures, validatorFor, validatorOf: responseValidator, warn, ownLinks: (collection, record, scope) => linksOf(collection)?.fill(record, scope) };
  const budget = new StateBudget(options.limits);
  // Fixtures past a bound are refused before they are copied into the store, the whole seed once seeded.
  const fixtureSize = sizeOf(Object.values(fixtures));
  /** `holds`: what holds them, with its verb (`The fixtures hold`). */
  const tooBig = (holds: string, size: { records: number; bytes: number }) =>
    size.records > budget.maxRecords
      ? `${holds} ${size.records} records, more than the mock holds (--max-records ${budget.maxRecords})`
      : size.bytes > budget.maxBytes
        ? `${holds} ${mib(size.bytes)} of records, more than the mock holds (--max-state-mb ${budget.maxMiB})`
        : undefined;
  const fixturesRefused = tooBig('The fixtures hold', fixtureSize);
  if (fixturesRefused) throw new StateLimitError(`${fixturesRefused}.`);
  // The in-memory store seeds each collection on its first use, unless a plugin's seed hooks work
  // on the whole seeded state (the Petstore's: an inventory item per pet), or a store of one's own
  // is given: those are seeded whole at once, from one Faker stream, as before.
  const onFirstUse = options.seedHooks.length === 0;
  let warnedOver = false;
  const seedInto = <S extends StateStore>(target: S): S => {
    if (onFirstUse && target instanceof MemoryStore) {
      seedOnFirstUse(target, [...collections], seedOptions, seed, (names) => {
        // Bytes are known only once records are made: a seed past --max-state-mb is told, and the
        // store, full, refuses creates with 507 (the records the request asked for are there).
        const over = tooBig(`Seeded on first use, ${names.join(', ')} left the state holding`, sharedSize());
        if (over && !warnedOver) warn(`${over}; creates are refused until records are deleted or the state reset.`);
        warnedOver ||= over !== undefined;
      });
      return target;
    }
    faker.seed(seed);
    seedStore(target, [...collections], seedOptions);
    for (const hook of options.seedHooks) hook(target);
    return target;
  };
  const store = seedInto(options.makeStore?.(collections, budget) ?? new MemoryStore(collections, budget));
  /** What the shared state holds: everything but the sessions' records. */
  const sharedSize = () => ({ records: budget.records - budget.sessions.records, bytes: budget.bytes - budget.sessions.bytes });
  /** Records by collection: what a seeded collection holds, what the seed will make for one not seeded yet. */
  const recordCounts = (): Record<string, number> => {
    const waiting = new Set(store instanceof MemoryStore ? store.unseeded() : []);
    const planned = waiting.size ? plannedRecords([...collections], seedOptions) : {};
    return Object.fromEntries(collections.map((c) => [c.name, waiting.has(c.name) ? planned[c.name] : store.collection(c.name).size]));
  };
  /**
   * The size of the seeded state: what the pristine copy sessions read (or each session's full copy)
   * costs. Seeded on first use, its records are known from the plan and its bytes as it is seeded.
   */
  const measured = () => {
    const size = sharedSize();
    return onFirstUse && store instanceof MemoryStore ? { records: Math.max(size.records, Object.values(recordCounts()).reduce((a, b) => a + b, 0)), bytes: size.bytes } : size;
  };
  let seeded = measured();
  const seedRefused = tooBig('The seeded state (fixtures and generated records) holds', seeded);
  if (seedRefused) throw new StateLimitError(`${seedRefused}.`);

  // Sessions share one pristine seeded copy (made on the first session) until they write.
  let template: MemoryStore | undefined;
  /** Each session's part of the budget: what it holds of its own. */
  const parts = new WeakMap<StateStore, StateBudget>();
  const holds = (session: StateStore) => (parts.get(session)?.records ?? 0) > 0 || (parts.get(session)?.bytes ?? 0) > 0;
  /** Room in the sessions' share for `records` and `bytes` more, made by dropping sessions other than `writer` that hold records (least recently used first). */
  const makeRoom = (writer: StateStore | undefined, records: number, bytes: number): string | undefined => {
    // Nobody is dropped for a write that would be refused anyway: what it needs, less all that other sessions hold.
    const mine = writer && parts.get(writer);
    const others = {
      records: budget.sessions.records - (template?.budget.records ?? 0) - (mine?.records ?? 0),
      bytes: budget.sessions.bytes - (template?.budget.bytes ?? 0) - (mine?.bytes ?? 0),
    };
    const alone = budget.sessionsFull(records - others.records, bytes - others.bytes);
    if (alone) return alone;
    const reason = `sessions together hold at most ${budget.sessionMaxRecords} records and ${mib(budget.sessionMaxBytes)}, half of --max-records and --max-state-mb; least recently used first`;
    while (budget.sessionsFull(records, bytes, false) && sessions.evictOldest(reason, (other) => other !== writer && holds(other))) {
      // one dropped; look again
    }
    return budget.sessionsFull(records, bytes);
  };
  const noSession = (refused: string) =>
    new ApiError(507, 'STORAGE_FULL', `No session can be started: it reads a copy of the seeded state (${seeded.records} records, ${mib(seeded.bytes)}), and ${refused}.`);
  const sessionStore = (name: string): StateStore | ApiError => {
    if (options.makeStore) {
      // A store of one's own is seeded whole for each session.
      const refused = makeRoom(undefined, seeded.records, seeded.bytes);
      if (refused) return noSession(refused);
      const part = budget.sessions.part(() => makeRoom(made, 1, 1));
      const made: StateStore = seedInto(options.makeStore(collections, part, name));
      parts.set(made, part);
      return made;
    }
    if (!template) {
      const refused = makeRoom(undefined, seeded.records, seeded.bytes);
      if (refused) return noSession(refused);
      template = seedInto(new MemoryStore(collections, budget.sessions.part()));
    }
    const made = new CopyOnWriteStore(template, budget.sessions.part(), makeRoom);
    parts.set(made, made.budget);
    return made;
  };
  /**
   * A dropped session's records leave the budget with it: a copy-on-write store's copies, every
   * record of a store of one's own (nothing else would ever take them out of the count).
   */
  const release = (session: StateStore) => {
    if (session.release) session.release();
    else for (const collection of collections) session.collection(collection.name).clear();
  };
  const sessions = new Sessions(sessionStore, options.maxSessions, (name, reason) => warn(`session ${name} was evicted (${reason}); its next request starts from the seed.`), release);
  const reset = () => {
    seedInto(store);
    seeded = measured();
  };
  const dropTemplate = () => {
    template?.clearAll(); // its records leave the budget
    template = undefined;
  };
  // The shared state keeps its room: a write of its own that finds the mock full drops the sessions
  // that hold records first, then (all sessions then go) the seeded copy they read.
  budget.reclaim = () => {
    const reason = 'the shared state needed the room; least recently used first';
    if (sessions.evictOldest(reason, holds)) return true;
    if (!template || (template.budget.records === 0 && template.budget.bytes === 0)) return false;
    while (sessions.evictOldest(reason)) {
      // they read the copy dropped next
    }
    dropTemplate();
    return true;
  };
  const heldIn = (target: StateStore, name: string): { records: number; bytes: number } => {
    if (target instanceof CopyOnWriteStore) return target.held(name);
    const collection = target.collection(name);
    return collection instanceof MemoryCollection ? collection.counted : { records: collection.size, bytes: 0 };
  };
  const importState = (target: StateStore, snapshot: StateSnapshot): string | undefined => {
    const given = sizeOf(Object.values(snapshot.collections).flatMap((collection) => Object.values(collection.scopes)));
    const replaced = Object.keys(snapshot.collections).reduce(
      (sum, name) => {
        const held = heldIn(target, name);
        return { records: sum.records + held.records, bytes: sum.bytes + held.bytes };
      },
      { records: 0, bytes: 0 },
    );
    const has = `it has ${given.records} records (${mib(given.bytes)})`;
    if (target === store) {
      const shared = sharedSize();
      const after = { records: shared.records - replaced.records + given.records, bytes: shared.bytes - replaced.bytes + given.bytes };
      if (after.records > budget.maxRecords) return `${has}, and the shared state would then hold ${after.records} records, more than the mock holds (--max-records ${budget.maxRecords})`;
      if (after.bytes > budget.maxBytes) return `${has}, and the shared state would then hold ${mib(after.bytes)} of records, more than the mock holds (--max-state-mb ${budget.maxMiB})`;
      const over = () => budget.records - replaced.records + given.records > budget.maxRecords || budget.bytes - replaced.bytes + given.bytes > budget.maxBytes;
      while (over() && budget.reclaim!()) {
        // sessions dropped to make the shared state's room
      }
    } else {
      const records = Math.max(0, given.records - replaced.records);
      const bytes = Math.max(0, given.bytes - replaced.bytes);
      const refused = records || bytes ? makeRoom(target, records, bytes) : undefined;
      if (refused) return `${has}, and for this session ${refused}`;
    }
    applySnapshot(target, snapshot);
    return undefined;
  };

  return {
    store,
    sessions,
    budget,
    storeFor: (session) => (session === null ? store : sessions.get(session)),
    reset,
    counts: recordCounts,
    reseed: (change) => {
      // Checked before seeding: seeding past the bound would be the crash the bound is there to prevent.
      const counts = { ...seedOptions.counts, ...change.counts };
      const generated = collections.reduce((total, c) => total + (own(counts, c.name) ?? counts.default), 0);
      const asked = generated + fixtureSize.records;
      const withFixtures = fixtureSize.records ? `, ${fixtureSize.records} of them fixtures` : '';
      if (asked > budget.maxRecords) return `The counts ask for ${asked} records, more than the mock holds (--max-records ${budget.maxRecords})${withFixtures}. Nothing changed.`;
      // What the counts ask for is a floor: seed hooks add records of their own (an inventory item
      // per pet). The seed is made once apart, within that floor, and measured whole.
      const previous = { seed, counts: { ...seedOptions.counts } };
      seed = change.seed ?? seed;
      Object.assign(seedOptions.counts, change.counts);
      const trial = seedInto(new MemoryStore(collections));
      trial.seedAll();
      const refused = tooBig('The counts make a seed that holds', { records: trial.budget.records, bytes: trial.budget.bytes });
      trial.clearAll();
      if (refused) {
        seed = previous.seed;
        for (const key of Object.keys(seedOptions.counts)) delete seedOptions.counts[key];
        Object.assign(seedOptions.counts, previous.counts);
        return `${refused}. Nothing changed.`;
      }
      for (const name of sessions.names()) sessions.drop(name);
      dropTemplate();
      reset();
      return { seed, counts: recordCounts() };
    },
    checkState: (data) => checkSnapshot(data, [...collections], validatorFor),
    importState,
    generate,
    reseedGenerator: () => void faker.seed(seed),
    records: {
      links: linksOf,
      newKey: (collection, target) => newKey(collection, target.collection(collection.name), { generate }),
      complete: (collection, record, target, change, clientFields) =>
        fillServerFields(
          collection.schema,
          record,
          change,
          {
            now: options.now,
            // References in generated fields point at existing records, as in seeded ones.
            generate: (branch) => generateRecord({ ...collection, schema: branch }, target.collection(collection.name), target, seedOptions, record[collection.keyProperty]),
          },
          clientFields,
        ),
      materialise: (collection, key, target) => {
        // A path value is a string; the record's key may be a number, and must fit its schema.
        const typed = isIntegerKey(collection) && /^-?\d+$/.test(String(key)) ? Number(key) : key;
        const fits = responseValidator(collection.keySchema);
        return !fits || fits(typed) ? generateRecord(collection, target.collection(collection.name), target, seedOptions, typed) : undefined;
      },
    },
  };
}

/**
 * The links each collection's records hold to themselves, made once per collection, written
 * against the document's first server (its origin when absolute, else `http://localhost`).
 */
function ownLinks(document: unknown): (collection: Collection) => RecordLinks | undefined {
  const api = (document && typeof document === 'object' ? document : {}) as Parameters<typeof firstServerUrl>[0];
  const url = firstServerUrl(api);
  const server: LinkServer = { origin: url && /^https?:\/\/[^/]/i.test(url) ? new URL(url).origin : 'http://localhost', basePath: serverBasePath(api) };
  const made = new Map<string, RecordLinks | undefined>();
  return (collection) => {
    if (!made.has(collection.name)) made.set(collection.name, recordLinksOf(collection, server));
    return made.get(collection.name);
  };
}

/** How many records a list of record lists holds, and their size as JSON (estimated as the store counts it). */
function sizeOf(lists: Iterable<readonly StoredRecord[]>): { records: number; bytes: number } {
  let records = 0;
  let bytes = 0;
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    records += list.length;
    for (const record of list) bytes += jsonSize(record);
  }
  return { records, bytes };
}
