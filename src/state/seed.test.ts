import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../mock/app.js';
import { FIXTURES, petstore, petstoreDocument, ROOT } from '../test-support/petstore.js';
import { FixtureError } from './load-fixtures.js';
import { loadDocument } from '../openapi/document/load-document.js';

const dump = (mock: Awaited<ReturnType<typeof petstore>>) =>
  Object.fromEntries(mock.collections.map(({ name }) => [name, [...mock.store.collection(name).all()]]));

function fixturesDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixtures-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function fixtureFailure(files: Record<string, string>): Promise<string> {
  const doc = await petstoreDocument();
  try {
    buildMock(doc, { fixtures: fixturesDir(files) });
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    return (error as Error).message;
  }
  throw new Error('the fixtures were accepted');
}

describe('seeding', () => {
  it('gives the same data for the same seed and different data for another', async () => {
    expect(dump(await petstore({ seed: 7 }))).toEqual(dump(await petstore({ seed: 7 })));
    expect(dump(await petstore({ seed: 7 })).pets).not.toEqual(dump(await petstore({ seed: 8 })).pets);
  });

  it('generates 20 records per collection by default, none for a collection with fixtures, one inventory item per pet', async () => {
    const { store } = await petstore();
    expect(store.counts()).toEqual({ pets: 20, categories: 6, orders: 20, inventory: 20 });
  });

  it('honours per-collection and default counts', async () => {
    const { store } = await petstore({ counts: { default: 3, pets: 50, categories: 2 } });
    expect(store.counts()).toEqual({ pets: 50, categories: 8, orders: 3, inventory: 50 });
  });

  it('generates records that reference existing records', async () => {
    const { store } = await petstore({ counts: { pets: 100, orders: 100 } });
    const categories = store.collection('categories');
    const pets = store.collection('pets');
    for (const pet of pets.all()) expect(categories.get(pet.categoryId), JSON.stringify(pet)).toBeDefined(); // categoryId is required
    for (const order of store.collection('orders').all()) expect(pets.get(order.petId)).toBeDefined();
  });

  it('generates realistic values: pet names, and statuses from the enum', async () => {
    const { store } = await petstore();
    for (const pet of store.collection('pets').all()) {
      expect(pet.name).toMatch(/^[A-Z][\w' -]+$/);
      expect(['available', 'pending', 'sold']).toContain(pet.status);
    }
  });

  it('loads the embedded category fixtures as written', async () => {
    const { store } = await petstore();
    expect(store.collection('categories').get(1)).toEqual({ id: 1, name: 'Dogs', description: 'Loyal companions of every size.' });
  });

  it('gives created records ids after the largest fixture id', async () => {
    const { call } = await petstore();
    expect((await call('POST', '/categories', { name: 'Ferrets' })).body.id).toBe(7);
  });

  it('stops on a fixture that breaks the schema, naming the file, the record and the field', async () => {
    const message = await fixtureFailure({ 'categories.json': '[{"id": 1, "name": "Dogs"}, {"id": 2, "name": 42}]' });
    expect(message).toMatch(/categories\.json: record 2 \(id 2\) does not match the schema: name: must be string\.$/);
  });

  it('stops on a fixture file that is not JSON, not an array, for no collection, or with a repeated id', async () => {
    expect(await fixtureFailure({ 'pets.json': '[{' })).toMatch(/pets\.json is not valid JSON/);
    expect(await fixtureFailure({ 'pets.json': '{}' })).toMatch(/pets\.json must contain a JSON array of pets records/);
    expect(await fixtureFailure({ 'dragons.json': '[]' })).toMatch(/no collection named "dragons" \(it has: pets, categories, orders, inventory\)/);
    expect(await fixtureFailure({ 'pets.json': '[{"id":1,"name":"a","categoryId":1},{"id":1,"name":"b","categoryId":1}]' })).toMatch(/record 2 \(id 1\) repeats id 1/);
    expect(await fixtureFailure({ 'pets.json': '[{"name":"a","categoryId":1}]' })).toMatch(/record 1 has no "id"/);
  });

  it('puts a nested collection\'s fixtures under the parent their parent\'s key names, the same key allowed under two parents', async () => {
    const document = await loadDocument(`${ROOT}test/documents/pathless-api.yaml`);
    const loan = (id: number, memberId: number) => ({ id, memberId, itemId: 9, due: '2027-01-15', returned: false });
    const fixtures = fixturesDir({
      'members.json': JSON.stringify([{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }]),
      'loans.json': JSON.stringify([loan(1, 1), loan(2, 1), loan(1, 2)]),
    });
    const mock = buildMock(document, { fixtures, counts: { default: 0 } });
    const list = async (member: number) => (await (await mock.app.request(`/members/${member}/loans`, { headers: { 'X-Key': DEMO_API_KEY } })).json()) as Array<{ id: number; memberId: number }>;
    expect((await list(1)).map((l) => [l.id, l.memberId])).toEqual([[1, 1], [2, 1]]);
    expect((await list(2)).map((l) => [l.id, l.memberId])).toEqual([[1, 2]]);
    // Twice under one member is still a repeat.
    expect(() => buildMock(document, { fixtures: fixturesDir({ 'members.json': '[{"id":1,"name":"Ada"}]', 'loans.json': JSON.stringify([loan(1, 1), loan(1, 1)]) }) })).toThrow(/loans\.json: record 2 \(id 1\) repeats id 1 under memberId 1\./);
  });

  it('refuses a fixtures path that does not exist', async () => {
    const doc = await petstoreDocument();
    expect(() => buildMock(doc, { fixtures: join(FIXTURES, 'nope') })).toThrow(/Cannot read the fixtures directory/);
    const file = fixturesDir({ 'x.txt': '' });
    mkdirSync(join(file, 'sub'));
    expect(() => buildMock(doc, { fixtures: join(file, 'x.txt') })).toThrow(/is not a directory/);
  });
});

describe('seeding the Petstore', () => {
  it('gives each seeded inventory item the status of its pet', async () => {
    const { store } = await petstore({ counts: { pets: 200 } });
    const inventory = store.collection('inventory');
    expect(inventory.size).toBe(200);
    for (const pet of store.collection('pets').all()) expect(inventory.get(pet.id)?.status, JSON.stringify(pet)).toBe(pet.status);
  });

  it('gives seeded orders a generated complete flag and no status of their own', async () => {
    const { store } = await petstore({ counts: { orders: 200 } });
    const orders = [...store.collection('orders').all()];
    for (const order of orders) {
      expect(order, JSON.stringify(order)).not.toHaveProperty('status');
      expect(typeof order.complete, JSON.stringify(order)).toBe('boolean');
    }
    expect(new Set(orders.map((order) => order.complete))).toEqual(new Set([true, false])); // generated, not fixed by the seed
  });

  it('stops, with a warning, when the key schema allows fewer records than asked (no endless start), and a create then gets 409', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'enum-keys-'));
    const color = { type: 'object', required: ['name'], properties: { name: { type: 'string', enum: ['red', 'green', 'blue'] }, hex: { type: 'string' } } };
    const json = (schema: object) => ({ 'application/json': { schema } });
    writeFileSync(
      join(dir, 'colors.json'),
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Colors', version: '1' },
        paths: {
          '/colors': {
            get: { operationId: 'listColors', responses: { 200: { description: 'ok', content: json({ type: 'array', items: color }) } } },
            post: { operationId: 'createColor', requestBody: { content: json(color) }, responses: { 201: { description: 'made', content: json(color) }, 409: { description: 'taken' } } },
          },
          '/colors/{name}': {
            parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
            get: { operationId: 'getColor', responses: { 200: { description: 'ok', content: json(color) }, 404: { description: 'none' } } },
          },
        },
      }),
    );
    const warnings: string[] = [];
    const mock = buildMock(await loadDocument(join(dir, 'colors.json')), { onWarning: (w) => warnings.push(w) });
    expect(mock.store.counts()).toEqual({ colors: 3 });
    expect(warnings).toContain('colors: 3 of 20 records seeded; the schema of name allows no other value.');
    const created = await mock.app.request('/colors', { method: 'POST', headers: { Authorization: 'Bearer petstore-demo-key', 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'red' }) });
    expect(created.status).toBe(409);
  });
});

describe('seeded names', () => {
  const names = (mock: Awaited<ReturnType<typeof petstore>>, collection: string, field = 'name') => [...mock.store.collection(collection).all()].map((record) => record[field] as string);

  it('are distinct in a collection where the generator has enough of them (20 pets of 42 pet names), the same for a seed', async () => {
    for (const seed of [1, 2, 3]) {
      const pets = names(await petstore({ seed }), 'pets');
      expect(pets, `seed ${seed}`).toHaveLength(20);
      expect(new Set(pets).size, `seed ${seed}: ${pets.join(', ')}`).toBe(20);
      expect(names(await petstore({ seed }), 'pets')).toEqual(pets);
    }
  });

  it('repeat only once the generator has no other: 60 pets from 42 names still seed, every name used', async () => {
    const pets = names(await petstore({ counts: { pets: 60 } }), 'pets');
    expect(pets).toHaveLength(60);
    expect(new Set(pets).size).toBeGreaterThanOrEqual(40);
  });

  it("keep to a nested collection's and a corpus document's own names: Train Travel's passengers", async () => {
    const mock = buildMock(await loadDocument(`${ROOT}test/corpus/bump-train-travel.yaml`), { counts: { default: 20 } });
    const passengers = [...mock.store.collection('bookings').all()].map((b) => b.passenger_name);
    expect(new Set(passengers).size).toBe(passengers.length);
    expect(mock.warnings.filter((w) => !w.includes('could not apply the query parameter'))).toEqual([]);
  });
});
