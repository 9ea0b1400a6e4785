/**
 * The mock's state: the shared store and the sessions' stores, all filled from one seed
 * (fixtures, then Faker records, then the extensions' seed hooks), and the helpers the actions
 * use to make records the way seeding does (a new key, the fields a create left out, a record
 * that an item path names but nobody stored).
 */
import type { ValidateFunction } from 'ajv';
import type { CrudOptions } from '../actions/crud.js';
import type { SchemaObject } from '../document/schema.js';
import { createFaker } from '../generate/create-faker.js';
import { createGenerator } from '../generate/from-schema.js';
import { own } from '../generate/helpers.js';
import { isIntegerKey, type Collection } from '../operations/infer-collections.js';
import type { SeedHook } from '../registries/extension.js';
import type { ApiError } from '../respond/api-error.js';
import { loadFixtures } from '../state/load-fixtures.js';
import { generateRecord, newKey, seedStore, type SeedOptions } from '../state/seed.js';
import { Sessions } from '../state/sessions.js';
import { checkSnapshot, type StateSnapshot } from '../state/snapshot.js';
import type { StateStore, StoredRecord } from '../state/state-store.js';
import { fillServerFields } from '../state/server-fields.js';
import { MemoryStore } from '../state/store.js';
import { StateBudget, type StateLimits } from '../state/budget.js';
import { CopyOnWriteStore } from '../state/copy-on-write.js';

export interface StateOptions {
  collections: readonly Collection[];
  seed: number;
  /** Generated records per collection: `{ default: 20, pets: 100 }`. */
  counts: { default: number } & Record<string, number>;
  fixtures?: string | Record<string, StoredRecord[]>;
  seedHooks: readonly SeedHook[];
  /** Makes an empty store (default: in memory); it counts its records in `budget`. */
  makeStore?: (collections: readonly Collection[], budget: StateBudget) => StateStore;
  /** Bounds on the records held by all stores together. */
  limits?: StateLimits;
  maxSessions?: number;
  /** The clock, for the timestamps a server fills (milliseconds). */
  now: () => number;
  responseValidator: (schema: SchemaObject) => ValidateFunction | undefined;
  warn: (message: string) => void;
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
  /** A new seed and/or counts, then everything (sessions included) back to the seed. */
  reseed: (change: { seed?: number; counts?: Record<string, number> }) => { seed: number; counts: Record<string, number> } | string;
  checkState: (data: unknown) => StateSnapshot | string;
  /** Generates values from schemas with the seeding Faker (re-seeded by `reseedGenerator`). */
  generate: SeedOptions['generate'];
  /** Puts the seeding Faker back at the seed: what is generated next does not depend on what came before. */
  reseedGenerator: () => void;
  /** How the actions make records: keys, missing required fields, records named by a path. */
  records: Pick<CrudOptions, 'newKey' | 'complete' | 'materialise'>;
}

export function createState(options: StateOptions): MockState {
  const { collections, warn, responseValidator } = options;
  let seed = options.seed;
  const validatorFor = (collection: Collection) => responseValidator(collection.schema);
  const faker = createFaker();
  const generate = createGenerator(faker);
  const fixtures = typeof options.fixtures === 'string' ? loadFixtures(options.fixtures, [...collections], validatorFor) : (options.fixtures ?? {});
  const seedOptions: SeedOptions = { faker, generate, counts: { ...options.counts }, fixtures, validatorFor, warn };
  const budget = new StateBudget(options.limits);
  const seedInto = <S extends StateStore>(target: S): S => {
    faker.seed(seed);
    seedStore(target, [...collections], seedOptions);
    for (const hook of options.seedHooks) hook(target);
    return target;
  };
  const store = seedInto(options.makeStore?.(collections, budget) ?? new MemoryStore(collections, budget));
  // Sessions share one pristine seeded copy (made on the first session) until they write.
  let template: MemoryStore | undefined;
  const sessionStore = options.makeStore
    ? () => seedInto(options.makeStore!(collections, budget))
    : () => new CopyOnWriteStore((template ??= seedInto(new MemoryStore(collections, budget))), budget);
  const sessions = new Sessions(sessionStore, options.maxSessions, (name) =>
    warn(`session ${name} was evicted (${options.maxSessions ?? 100} sessions at most, least recently used first); its next request starts from the seed.`),
  );
  const reset = () => void seedInto(store);
  const dropTemplate = () => {
    template?.names().forEach((name) => template!.collection(name).clear()); // its records leave the budget
    template = undefined;
  };

  return {
    store,
    sessions,
    budget,
    storeFor: (session) => (session === null ? store : sessions.get(session)),
    reset,
    reseed: (change) => {
      // Checked before seeding: seeding past the bound would be the crash the bound is there to prevent.
      const counts = { ...seedOptions.counts, ...change.counts };
      const asked = collections.reduce((total, c) => total + (own(counts, c.name) ?? counts.default), 0);
      if (asked > budget.maxRecords) return `The counts ask for ${asked} records, more than the mock holds (--max-records ${budget.maxRecords}). Nothing changed.`;
      seed = change.seed ?? seed;
      Object.assign(seedOptions.counts, change.counts);
      reset();
      for (const name of sessions.names()) sessions.drop(name);
      dropTemplate();
      return { seed, counts: store.counts() };
    },
    checkState: (data) => checkSnapshot(data, [...collections], validatorFor),
    generate,
    reseedGenerator: () => void faker.seed(seed),
    records: {
      newKey: (collection, target) => newKey(collection, target.collection(collection.name), { generate }),
      complete: (collection, record, target, change) =>
        fillServerFields(collection.schema, record, change, {
          now: options.now,
          // References in generated fields point at existing records, as in seeded ones.
          generate: (branch) => generateRecord({ ...collection, schema: branch }, target.collection(collection.name), target, seedOptions, record[collection.keyProperty]),
        }),
      materialise: (collection, key, target) => {
        // A path value is a string; the record's key may be a number, and must fit its schema.
        const typed = isIntegerKey(collection) && /^-?\d+$/.test(String(key)) ? Number(key) : key;
        const fits = responseValidator(collection.keySchema);
        return !fits || fits(typed) ? generateRecord(collection, target.collection(collection.name), target, seedOptions, typed) : undefined;
      },
    },
  };
}
