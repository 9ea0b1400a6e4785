import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { petstore } from '../test-support/petstore.js';
import type { Collection } from '../openapi/operations/collection.js';
import type { StateStore } from './state-store.js';
import { MemoryCollection } from './memory-collection.js';

/** The in-memory store's own collection, with its speed-ups (the mock's default store). */
function memoryCollection(store: StateStore, name: string): MemoryCollection {
  const collection = store.collection(name);
  expect(collection).toBeInstanceOf(MemoryCollection);
  return collection as MemoryCollection;
}

describe('indexed filters', () => {
  it('list exactly what a scan of the collection would, in id order, after any sequence of changes', async () => {
    const { call, store } = await petstore({ counts: { pets: 30 } });
    const pets = memoryCollection(store, 'pets');
    const statuses = ['available', 'pending', 'sold'];
    const change = fc.oneof(
      fc.record({ kind: fc.constant('status' as const), id: fc.integer({ min: 1, max: 40 }), status: fc.constantFrom(...statuses) }),
      fc.record({ kind: fc.constant('category' as const), id: fc.integer({ min: 1, max: 40 }), categoryId: fc.integer({ min: 1, max: 6 }) }),
      fc.record({ kind: fc.constant('create' as const), status: fc.constantFrom(...statuses), categoryId: fc.integer({ min: 1, max: 6 }) }),
      fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 1, max: 40 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(change, { maxLength: 25 }), fc.subarray(statuses, { minLength: 1 }), fc.integer({ min: 1, max: 6 }), async (changes, wanted, categoryId) => {
        for (const c of changes) {
          if (c.kind === 'status') await call('PATCH', `/pets/${c.id}`, { status: c.status });
          if (c.kind === 'category') await call('PATCH', `/pets/${c.id}`, { categoryId: c.categoryId });
          if (c.kind === 'create') await call('POST', '/pets', { name: 'New', status: c.status, categoryId: c.categoryId });
          if (c.kind === 'delete') await call('DELETE', `/pets/${c.id}`);
        }
        const scan = [...pets.all()].filter((p) => wanted.includes(String(p.status)) && p.categoryId === categoryId).map((p) => p.id);
        const query = `${wanted.map((s) => `status=${s}`).join('&')}&categoryId=${categoryId}&limit=100`;
        const listed = await call('GET', `/pets?${query}`);
        expect(listed.body.map((p: { id: number }) => p.id)).toEqual(scan);
        expect(listed.headers.get('X-Total-Count')).toBe(String(scan.length));
        expect(pets.where('categoryId', categoryId).map((p) => p.id)).toEqual([...pets.all()].filter((p) => p.categoryId === categoryId).map((p) => p.id));
      }),
      { numRuns: 40, seed: 11 },
    );
  });

  it('forgets deleted records and rebuilds on import', async () => {
    const { store } = await petstore();
    const pets = memoryCollection(store, 'pets');
    const first = [...pets.all()][0];
    pets.delete(first.id);
    expect(pets.where('status', first.status).some((p) => p.id === first.id)).toBe(false);
    const snapshot = store.export();
    pets.clear();
    pets.import(snapshot.pets);
    expect(pets.where('categoryId', 1).map((p) => p.id)).toEqual([...pets.all()].filter((p) => p.categoryId === 1).map((p) => p.id));
  });

  it('stay exact through thousands of moves of the same records (stale keys skipped, then compacted)', async () => {
    const { store } = await petstore({ counts: { pets: 300 } });
    const pets = memoryCollection(store, 'pets');
    const statuses = ['available', 'pending', 'sold'];
    let state = 7;
    const next = (n: number) => {
      // mulberry32: a small seeded generator, so the sequence is the same every run
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const scan = (status: string) => [...pets.all()].filter((p) => p.status === status).map((p) => p.id);
    for (let i = 0; i < 5000; i++) {
      const id = 1 + next(300);
      if (next(50) === 0 && pets.get(id)) pets.delete(id);
      else if (!pets.get(id)) pets.put({ id, name: 'Back', categoryId: 1, status: statuses[next(3)] });
      else pets.update(id, { status: statuses[next(3)] });
      if (i % 2500 === 0) for (const status of statuses) expect(pets.where('status', status).map((p) => p.id)).toEqual(scan(status));
    }
    for (const status of statuses) {
      expect(pets.where('status', status).map((p) => p.id)).toEqual(scan(status));
      expect(pets.countWhere('status', [status])).toBe(scan(status).length);
    }
  });

  it('keep list order for a key deleted and made again while stale in a posting', async () => {
    const { store } = await petstore();
    const pets = memoryCollection(store, 'pets');
    const first = [...pets.all()].find((p) => p.status === 'available')!;
    pets.update(first.id, { status: 'sold' }); // stale in "available"
    pets.delete(first.id);
    pets.put({ ...first, status: 'available' }); // made again: last in the list
    const scan = [...pets.all()].filter((p) => p.status === 'available').map((p) => p.id);
    expect(scan[scan.length - 1]).toBe(first.id);
    expect(pets.where('status', 'available').map((p) => p.id)).toEqual(scan);
  });

  it('serve a record\'s JSON text until the record changes', async () => {
    const { store, call } = await petstore();
    const pets = memoryCollection(store, 'pets');
    const pet = pets.get(1)!;
    expect(JSON.parse(pets.json(pet))).toEqual(pet);
    expect(pets.json(pet)).toBe(pets.json(pet)); // the same text, not serialised again
    pets.update(1, { status: 'sold', name: 'Changed' });
    expect(JSON.parse(pets.json(pet))).toMatchObject({ id: 1, status: 'sold', name: 'Changed' });
    // Through the API: a read, a change by a business rule (ordering its last unit makes the pet pending), a read.
    pets.update(2, { status: 'available' });
    store.collection('inventory').update(2, { quantity: 1 });
    expect((await call('GET', '/pets?limit=5')).body.find((p: { id: number }) => p.id === 2).status).toBe('available');
    expect((await call('POST', '/store/orders', { petId: 2, quantity: 1 })).status).toBe(201);
    expect((await call('GET', '/pets?limit=5')).body.find((p: { id: number }) => p.id === 2).status).toBe('pending');
  });
});

describe('records keyed otherwise than by an id of their own', () => {
  const collection = (extra: Partial<Collection>): Collection => ({
    name: 'things', path: '/things', itemPath: '', keyParam: '', keyProperty: 'number', keySchema: { type: 'integer' }, scopeParams: ['parentId'],
    schema: { type: 'object' }, references: [], creatable: true, listed: true, indexed: [], children: [], notFoundDeclared: false, ...extra,
  });

  it('counts keys per parent: from 1 in each scope, never again after a delete, from 1 again once the scope is dropped, and exported', () => {
    const things = new MemoryCollection(collection({ keyPerParent: true }));
    const make = (scope: string) => things.put({ number: things.allocateInteger(scope) }, scope).number;
    expect([make('1'), make('1'), make('2')]).toEqual([1, 2, 1]);
    things.delete(2, '1');
    expect(make('1')).toBe(3);
    things.put({ number: 10 }, '2'); // a key chosen by a client moves its scope's sequence past it
    expect(make('2')).toBe(11);
    const snapshot = things.export();
    expect(snapshot.sequences).toEqual({ '1': 4, '2': 12 });
    things.dropScope('1');
    expect(make('1')).toBe(1);
    const copy = new MemoryCollection(collection({ keyPerParent: true }));
    copy.import(snapshot);
    expect([copy.allocateInteger('1'), copy.allocateInteger('3')]).toEqual([4, 1]);
  });

  it('keeps keyless records in order, twins included, each under its place in its scope', () => {
    const events = new MemoryCollection(collection({ keyless: true, keyProperty: '' }));
    const twin = { text: 'same' };
    events.put({ ...twin }, '1');
    events.put({ ...twin }, '1');
    const third = events.put({ text: 'other' }, '1');
    expect([...events.records('1').keys()]).toEqual(['1', '2', '3']);
    expect([events.keyOf(third), events.size]).toEqual(['3', 3]);
    events.put(third, '1'); // stored again as it is: still one record, in its place
    expect([...events.records('1').values()]).toEqual([twin, twin, { text: 'other' }]);
    expect(events.export().scopes['1']).toHaveLength(3);
  });
});
