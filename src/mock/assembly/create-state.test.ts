/**
 * The mock's state, made by createState from the Petstore's collections: seeding (counts, fixtures,
 * the seed hooks, the same records for the same seed), the bounds that refuse a start, reseeding,
 * and the sessions' stores (their own records, the shared state untouched).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/api-error.js';
import { buildOperations } from '../../openapi/operations/build-operations.js';
import { inferCollections } from '../../openapi/operations/infer-collections.js';
import { StateLimitError } from '../../state/budget.js';
import type { StateStore } from '../../state/state-store.js';
import { MemoryStore } from '../../state/memory-store.js';
import { petstoreDocument } from '../../test-support/petstore.js';
import { createAjv } from '../../openapi/validation/ajv-instance.js';
import { schemaCompiler } from '../../openapi/validation/compile-schema.js';
import { SchemaConverter } from '../../openapi/validation/to-json-schema.js';
import { createState, type StateOptions } from './create-state.js';

/** The options buildMock would pass for the Petstore (3 records per collection, seed 1, no fixtures), changed by `change`. */
async function petstoreOptions(change: Partial<StateOptions> = {}): Promise<StateOptions & { warnings: string[] }> {
  const document = await petstoreDocument();
  const { collections } = inferCollections(buildOperations(document.api));
  const ajv = createAjv(document.dialect);
  const responseValidator = schemaCompiler(ajv, new SchemaConverter(document.api, ajv, document.dialect), 'response');
  const warnings: string[] = [];
  return { collections, seed: 1, counts: { default: 3 }, seedHooks: [], now: () => 0, responseValidator, warn: (message) => warnings.push(message), warnings, ...change };
}

/** The error createState throws for these options (a StateLimitError). */
async function startFailure(change: Partial<StateOptions>): Promise<Error> {
  const options = await petstoreOptions(change);
  try {
    createState(options);
  } catch (error) {
    expect(error).toBeInstanceOf(StateLimitError);
    return error as Error;
  }
  throw new Error('the state started');
}

const records = (store: StateStore, name: string) => [...store.collection(name).all()];
const petIds = (store: StateStore) => records(store, 'pets').map((pet) => pet.id);

describe('createState', () => {
  it('seeds each collection with its count, records that keep to their schema, all counted in the budget', async () => {
    const options = await petstoreOptions({ counts: { default: 3, pets: 5 } });
    const { store, budget } = createState(options);
    // Inventory items are keyed by their pet: one per pet, whatever the default.
    expect(store.counts()).toEqual({ pets: 5, categories: 3, orders: 3, inventory: 5 });
    expect(budget.records).toBe(16);
    for (const collection of options.collections) {
      const valid = options.responseValidator(collection.schema)!;
      for (const record of records(store, collection.name)) expect(valid(record), `${collection.name} ${JSON.stringify(record)}`).toBe(true);
    }
    const categoryIds = new Set(records(store, 'categories').map((category) => category.id));
    for (const pet of records(store, 'pets')) expect(categoryIds.has(pet.categoryId), JSON.stringify(pet)).toBe(true);
  });

  it('gives the same records for the same seed, others for another, and reset puts the seed back', async () => {
    const seven = createState(await petstoreOptions({ seed: 7 }));
    expect(createState(await petstoreOptions({ seed: 7 })).store.export()).toEqual(seven.store.export());
    expect(records(createState(await petstoreOptions({ seed: 8 })).store, 'pets')).not.toEqual(records(seven.store, 'pets'));

    const seeded = seven.store.export();
    seven.store.collection('pets').delete(1);
    seven.store.collection('categories').put({ id: 50, name: 'Added' });
    expect(seven.store.export()).not.toEqual(seeded);
    seven.reset();
    expect(seven.store.export()).toEqual(seeded);
  });

  it('takes fixtures instead of generated records, and runs the seed hooks on every freshly seeded store', async () => {
    const hook = (store: StateStore) => void store.collection('orders').clear();
    const state = createState(await petstoreOptions({ fixtures: { categories: [{ id: 1, name: 'Dogs' }, { id: 2, name: 'Cats' }] }, seedHooks: [hook] }));
    expect(records(state.store, 'categories')).toEqual([{ id: 1, name: 'Dogs' }, { id: 2, name: 'Cats' }]);
    for (const pet of records(state.store, 'pets')) expect([1, 2]).toContain(pet.categoryId); // generated references point at the fixtures
    // The hook emptied the orders: in the shared store, in a session's, and after a reset.
    const session = state.storeFor('hooked') as StateStore;
    state.store.collection('orders').put({ id: 1, petId: 1, quantity: 1 });
    state.reset();
    expect([state.store.counts().orders, session.counts().orders]).toEqual([0, 0]);
  });

  it('refuses to start, with a StateLimitError, when the fixtures or the seeded state pass a bound', async () => {
    const fixtures = { categories: [{ id: 1, name: 'Dogs' }, { id: 2, name: 'Cats' }] };
    expect((await startFailure({ fixtures, limits: { maxRecords: 1 } })).message).toBe('The fixtures hold 2 records, more than the mock holds (--max-records 1).');
    // 3 pets, 3 categories, 3 orders and 3 inventory items: 12 records.
    expect((await startFailure({ limits: { maxRecords: 11 } })).message).toBe('The seeded state (fixtures and generated records) holds 12 records, more than the mock holds (--max-records 11).');
    const atBound = createState(await petstoreOptions({ limits: { maxRecords: 12 } })); // exactly at the bound starts
    expect(Object.values(atBound.counts()).reduce((a, b) => a + b, 0)).toBe(12);
    // Seeded whole at start (a seed hook works on the whole state), the bytes are known at start too.
    const hooks: Partial<StateOptions> = { seedHooks: [() => undefined], limits: { maxBytes: 200 } };
    expect((await startFailure(hooks)).message).toMatch(/^The seeded state \(fixtures and generated records\) holds 0\.\d MiB of records, .*--max-state-mb 0\)\.$/);
  });

  it('seeds each collection on its first use, the same records whichever is used first, and tells a seed past --max-state-mb then', async () => {
    const first = createState(await petstoreOptions());
    expect(first.budget.records).toBe(0); // nothing generated at start
    first.store.collection('pets'); // pets refer to categories: both are seeded, nothing else
    expect(first.budget.records).toBe(6);
    const other = createState(await petstoreOptions());
    other.store.collection('orders');
    other.store.collection('categories');
    expect(first.store.export()).toEqual(other.store.export());
    expect(first.counts()).toEqual({ pets: 3, categories: 3, orders: 3, inventory: 3 });

    const small = await petstoreOptions({ limits: { maxBytes: 200 } });
    const state = createState(small);
    state.store.collection('pets');
    expect(small.warnings.join('\n')).toMatch(/^Seeded on first use, categories, pets left the state holding 0\.\d MiB of records, more than the mock holds \(--max-state-mb 0\); creates are refused/);
    expect(state.store.full()).toMatch(/--max-state-mb/);
  });

  it('reseeds with a new seed and counts, dropping the sessions; refuses counts past the bound and changes nothing', async () => {
    const state = createState(await petstoreOptions({ limits: { maxRecords: 100 } }));
    state.storeFor('a');
    const before = state.store.export();
    expect(state.reseed({ counts: { pets: 200 } })).toMatch(/^The counts ask for 209 records, more than the mock holds \(--max-records 100\)\. Nothing changed\.$/);
    expect(state.store.export()).toEqual(before);
    expect(state.sessions.names()).toEqual(['a']);

    expect(state.reseed({ seed: 9, counts: { orders: 5 } })).toEqual({ seed: 9, counts: { pets: 3, categories: 3, orders: 5, inventory: 3 } });
    expect(state.sessions.names()).toEqual([]);
    const fresh = createState(await petstoreOptions({ seed: 9, counts: { default: 3, orders: 5 } }));
    expect(state.store.export()).toEqual(fresh.store.export());
    state.reset(); // a reset keeps the new seed and counts
    expect(state.store.export()).toEqual(fresh.store.export());
  });

  it('refuses a reseed whose seed passes the bound once seed hooks add their records, though the counts alone fit', async () => {
    // A hook that adds an order per pet: the counts are then a floor of what the seed holds.
    const seedHooks: StateOptions['seedHooks'] = [
      (store) => {
        for (const pet of [...store.collection('pets').all()]) store.collection('orders').put({ id: 1000 + Number(pet.id), petId: pet.id, quantity: 1 });
      },
    ];
    const whole = createState(await petstoreOptions({ seedHooks, counts: { default: 3, pets: 50 } })).budget.records;
    const state = createState(await petstoreOptions({ seedHooks, limits: { maxRecords: whole - 1 } }));
    const before = state.store.export();
    expect(state.reseed({ counts: { pets: 50 } })).toBe(`The counts make a seed that holds ${whole} records, more than the mock holds (--max-records ${whole - 1}). Nothing changed.`);
    expect(state.store.export()).toEqual(before);
    state.reset(); // the refused counts were not kept
    expect(state.store.export()).toEqual(before);
    expect(state.reseed({ counts: { pets: 40 } })).toMatchObject({ counts: { pets: 40 } });
  });

  it('gives each session a store of its own, seeded like the shared one, whose writes stay its own', async () => {
    const state = createState(await petstoreOptions());
    expect(state.storeFor(null)).toBe(state.store);
    const a = state.storeFor('a') as StateStore;
    expect(a).not.toBe(state.store);
    expect(state.storeFor('a')).toBe(a);
    expect(a.export()).toEqual(state.store.export());

    a.collection('pets').delete(1);
    expect(petIds(a)).not.toContain(1);
    expect(petIds(state.store)).toContain(1);
    expect(petIds(state.storeFor('b') as StateStore)).toContain(1);
    state.store.collection('pets').delete(2);
    expect(petIds(a)).toContain(2); // and the shared state's writes do not reach a session

    const invalid = state.storeFor('not a name!');
    expect(invalid).toBeInstanceOf(ApiError);
    expect((invalid as ApiError).status).toBe(400);
  });

  it('drops the least recently used session past maxSessions, and says so', async () => {
    const options = await petstoreOptions({ maxSessions: 1 });
    const state = createState(options);
    state.storeFor('a');
    state.storeFor('b');
    expect(state.sessions.names()).toEqual(['b']);
    expect(state.sessions.evictedNames()).toEqual(['a']);
    expect(options.warnings).toEqual([expect.stringMatching(/^session a was evicted \(1 sessions at most/)]);
  });

  it('seeds a store of its own (makeStore) for the shared state and, whole, for each session', async () => {
    const made: MemoryStore[] = [];
    const state = createState(await petstoreOptions({ makeStore: (collections, budget) => (made[made.length] = new MemoryStore(collections, budget)) }));
    expect(made).toHaveLength(1);
    expect(state.store).toBe(made[0]);
    const session = state.storeFor('a');
    expect(made).toHaveLength(2);
    expect(session).toBe(made[1]);
    expect(made[1].export()).toEqual(made[0].export());
    expect(state.budget.records).toBe(24); // the session's copy counts in the bound too
  });

  it('makes records the way seeding does: a free key, and a record an item path names if the key fits its schema', async () => {
    const options = await petstoreOptions();
    const state = createState(options);
    const pets = options.collections.find((collection) => collection.name === 'pets')!;
    expect(state.records.newKey(pets, state.store)).toBe(4); // one past the seeded 1..3
    const named = state.records.materialise(pets, '42', state.store);
    expect(named?.id).toBe(42); // the path's string, typed as the integer key
    expect(options.responseValidator(pets.schema)!(named)).toBe(true);
    expect(state.records.materialise(pets, 'abc', state.store)).toBeUndefined();
  });
});
