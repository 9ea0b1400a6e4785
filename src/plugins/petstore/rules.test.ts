import { describe, expect, it } from 'vitest';
import { CORPUS, petstore as petstoreMock } from '../../test-support/petstore.js';
import { petstore } from './index.js';

/** A pet with a known stock and status, created through the API. */
async function setUp(stock = 3) {
  const mock = await petstoreMock();
  const pet = (await mock.call('POST', '/pets', { name: 'Bella', categoryId: 2 })).body;
  await mock.call('PUT', `/store/inventory/${pet.id}`, { quantity: stock });
  const stockOf = async () => (await mock.call('GET', `/store/inventory/${pet.id}`)).body.quantity;
  const statusOf = async () => (await mock.call('GET', `/pets?id=${pet.id}`)).body[0].status;
  const inventoryStatusOf = async () => (await mock.call('GET', `/store/inventory/${pet.id}`)).body.status;
  return { ...mock, pet, stockOf, statusOf, inventoryStatusOf };
}

describe('Petstore rules', () => {
  it('creates an inventory item with quantity 0 and the pet\'s status for a new pet, and removes it with the pet', async () => {
    const { call } = await petstoreMock();
    const pet = (await call('POST', '/pets', { name: 'Nemo', categoryId: 4 })).body;
    expect((await call('GET', `/store/inventory/${pet.id}`)).body).toEqual({ petId: pet.id, quantity: 0, status: 'available' });
    expect((await call('DELETE', `/pets/${pet.id}`)).status).toBe(204);
    expect((await call('GET', `/store/inventory/${pet.id}`)).status).toBe(404);
  });

  it('keeps an inventory item\'s status equal to its pet\'s, whatever changes the pet (PUT, PATCH) or its stock', async () => {
    const { call, pet, inventoryStatusOf } = await setUp(1);
    await call('PATCH', `/pets/${pet.id}`, { status: 'sold' });
    expect(await inventoryStatusOf()).toBe('sold');
    await call('PUT', `/pets/${pet.id}`, { name: 'Bella', categoryId: 2, status: 'pending' });
    expect(await inventoryStatusOf()).toBe('pending');
    await call('PUT', `/pets/${pet.id}`, { name: 'Bella', categoryId: 2 }); // status left out: back to the default
    expect(await inventoryStatusOf()).toBe('available');
    const stocked = await call('PUT', `/store/inventory/${pet.id}`, { quantity: 5, status: 'sold' }); // the item's status is not the client's to set
    expect(stocked.body).toEqual({ petId: pet.id, quantity: 5, status: 'available' });
  });

  it('makes a seeded inventory item show the status of its pet', async () => {
    const { store } = await petstoreMock();
    const pets = [...store.collection('pets').all()];
    expect(pets.length).toBeGreaterThan(0);
    expect(new Set(pets.map((p) => p.status)).size).toBeGreaterThan(1); // the seed has pets of several statuses
    for (const pet of pets) expect(store.collection('inventory').get(pet.id)?.status, `pet ${pet.id}`).toBe(pet.status);
  });

  it('refuses a pet whose category does not exist with 422 CATEGORY_NOT_FOUND, on create, replace and update', async () => {
    const { call } = await petstoreMock();
    for (const [method, path] of [['POST', '/pets'], ['PUT', '/pets/1'], ['PATCH', '/pets/1']]) {
      const { status, body } = await call(method, path, { name: 'Ghost', categoryId: 999 });
      expect({ method, status, code: body.code }).toEqual({ method, status: 422, code: 'CATEGORY_NOT_FOUND' });
    }
  });

  it('refuses a pet without a category with 400 VALIDATION_FAILED naming categoryId, on create and replace', async () => {
    const { call } = await petstoreMock();
    for (const [method, path] of [['POST', '/pets'], ['PUT', '/pets/1']]) {
      const { status, body } = await call(method, path, { name: 'Nobody' });
      expect({ method, status, code: body.code, paths: body.details.map((d: { path: string }) => d.path) }).toEqual({ method, status: 400, code: 'VALIDATION_FAILED', paths: ['body.categoryId'] });
    }
  });

  it('refuses to delete a category that pets use (409 CATEGORY_IN_USE) and deletes it once unused', async () => {
    const { call } = await petstoreMock();
    const category = (await call('POST', '/categories', { name: 'Ferrets' })).body;
    const pet = (await call('POST', '/pets', { name: 'Slinky', categoryId: category.id })).body;
    const refused = await call('DELETE', `/categories/${category.id}`);
    expect([refused.status, refused.body.code]).toEqual([409, 'CATEGORY_IN_USE']);
    await call('PATCH', `/pets/${pet.id}`, { categoryId: 1 });
    expect((await call('DELETE', `/categories/${category.id}`)).status).toBe(204);
  });

  it('places an order: stock goes down, the order is open whatever the client sent, the pet stays available while stock remains', async () => {
    const { call, pet, stockOf, statusOf } = await setUp(3);
    const order = await call('POST', '/store/orders', { petId: pet.id, quantity: 2, complete: true, status: 'completed' });
    expect(order.status).toBe(201);
    expect(order.body).toEqual({ id: order.body.id, petId: pet.id, quantity: 2, shipDate: expect.any(String), complete: false });
    expect(order.headers.get('Location')).toBe(`/store/orders/${order.body.id}`);
    expect(await stockOf()).toBe(1);
    expect(await statusOf()).toBe('available');
  });

  it('makes the pet and its inventory item pending when an order takes its last stock, and refuses further orders', async () => {
    const { call, pet, stockOf, statusOf, inventoryStatusOf } = await setUp(2);
    await call('POST', '/store/orders', { petId: pet.id, quantity: 2 });
    expect([await stockOf(), await statusOf(), await inventoryStatusOf()]).toEqual([0, 'pending', 'pending']);
    const refused = await call('POST', '/store/orders', { petId: pet.id, quantity: 1 });
    expect([refused.status, refused.body.code]).toEqual([409, 'PET_NOT_AVAILABLE']);
  });

  it('refuses an order larger than the stock (409 INSUFFICIENT_STOCK) and for a missing pet (422 PET_NOT_FOUND)', async () => {
    const { call, pet, stockOf } = await setUp(2);
    const tooMany = await call('POST', '/store/orders', { petId: pet.id, quantity: 3 });
    expect([tooMany.status, tooMany.body.code, tooMany.body.message]).toEqual([409, 'INSUFFICIENT_STOCK', `Pet ${pet.id} has 2 in stock; the order asks for 3.`]);
    expect(await stockOf()).toBe(2);
    const missing = await call('POST', '/store/orders', { petId: 99999, quantity: 1 });
    expect([missing.status, missing.body.code]).toEqual([422, 'PET_NOT_FOUND']);
  });

  it('completing the last open order of a pet without stock makes it (and its inventory item) sold', async () => {
    const { call, pet, statusOf, inventoryStatusOf } = await setUp(2);
    const a = (await call('POST', '/store/orders', { petId: pet.id, quantity: 1 })).body;
    const b = (await call('POST', '/store/orders', { petId: pet.id, quantity: 1 })).body;
    expect((await call('PATCH', `/store/orders/${a.id}`, { complete: true })).body).toEqual({ ...a, complete: true });
    expect(await statusOf()).toBe('pending'); // order b is still open
    await call('PATCH', `/store/orders/${b.id}`, { complete: true });
    expect([await statusOf(), await inventoryStatusOf()]).toEqual(['sold', 'sold']);
  });

  it('cancelling an open order (deleting it) puts the stock back and makes the pet available again', async () => {
    const { call, pet, stockOf, statusOf, inventoryStatusOf } = await setUp(1);
    const order = (await call('POST', '/store/orders', { petId: pet.id, quantity: 1 })).body;
    expect(await statusOf()).toBe('pending');
    expect((await call('DELETE', `/store/orders/${order.id}`)).status).toBe(204);
    expect([await stockOf(), await statusOf(), await inventoryStatusOf()]).toEqual([1, 'available', 'available']);
    expect((await call('GET', `/store/orders/${order.id}`)).status).toBe(404);
  });

  it('never reopens a complete order (409 ORDER_TRANSITION_NOT_ALLOWED); sending the value an order has changes nothing', async () => {
    const { call, pet, stockOf } = await setUp(3);
    const order = (await call('POST', '/store/orders', { petId: pet.id, quantity: 1 })).body;
    expect((await call('PATCH', `/store/orders/${order.id}`, { complete: false })).body).toEqual(order); // open stays open
    const completed = (await call('PATCH', `/store/orders/${order.id}`, { complete: true })).body;
    const refused = await call('PATCH', `/store/orders/${order.id}`, { complete: false });
    expect([refused.status, refused.body.code]).toEqual([409, 'ORDER_TRANSITION_NOT_ALLOWED']);
    expect((await call('PATCH', `/store/orders/${order.id}`, { complete: true })).body).toEqual(completed);
    expect((await call('GET', `/store/orders/${order.id}`)).body).toEqual(completed);
    expect(await stockOf()).toBe(2); // taken once, never given back
    expect((await call('PATCH', `/store/orders/${order.id}`, { status: 'placed' })).status).toBe(400); // complete is required; status is no field of an order
  });

  it('deleting an open order restocks; deleting a complete one keeps the stock', async () => {
    const { call, pet, stockOf } = await setUp(3);
    const open = (await call('POST', '/store/orders', { petId: pet.id, quantity: 2 })).body;
    expect(await stockOf()).toBe(1);
    expect((await call('DELETE', `/store/orders/${open.id}`)).status).toBe(204);
    expect(await stockOf()).toBe(3);
    const done = (await call('POST', '/store/orders', { petId: pet.id, quantity: 1 })).body;
    await call('PATCH', `/store/orders/${done.id}`, { complete: true });
    expect((await call('DELETE', `/store/orders/${done.id}`)).status).toBe(204);
    expect(await stockOf()).toBe(2);
  });

  it('ships an order three days from the mock\'s clock, which --now moves, not from the system time', async () => {
    const mock = await petstoreMock({ now: () => new Date('2030-01-01T00:00:00Z') });
    const pet = (await mock.call('POST', '/pets', { name: 'Later', categoryId: 1 })).body;
    await mock.call('PUT', `/store/inventory/${pet.id}`, { quantity: 1 });
    expect((await mock.call('POST', '/store/orders', { petId: pet.id, quantity: 1 })).body.shipDate).toBe('2030-01-04T00:00:00.000Z');
  });

  it('filters orders by complete', async () => {
    const { call, pet } = await setUp(3);
    const open = (await call('POST', '/store/orders', { petId: pet.id, quantity: 1 })).body;
    const done = (await call('POST', '/store/orders', { petId: pet.id, quantity: 1 })).body;
    await call('PATCH', `/store/orders/${done.id}`, { complete: true });
    expect((await call('GET', `/store/orders?petId=${pet.id}&complete=false`)).body.map((o: { id: number }) => o.id)).toEqual([open.id]);
    expect((await call('GET', `/store/orders?petId=${pet.id}&complete=true`)).body.map((o: { id: number }) => o.id)).toEqual([done.id]);
  });

  it('refuses to delete a pet with open orders (409 PET_HAS_OPEN_ORDERS)', async () => {
    const { call, pet } = await setUp(3);
    const order = (await call('POST', '/store/orders', { petId: pet.id, quantity: 1 })).body;
    const refused = await call('DELETE', `/pets/${pet.id}`);
    expect([refused.status, refused.body.code]).toEqual([409, 'PET_HAS_OPEN_ORDERS']);
    await call('PATCH', `/store/orders/${order.id}`, { complete: true });
    expect((await call('DELETE', `/pets/${pet.id}`)).status).toBe(204);
  });

  it('restocking a sold pet makes it available', async () => {
    const { call, pet, statusOf, inventoryStatusOf } = await setUp(0);
    await call('PATCH', `/pets/${pet.id}`, { status: 'sold' });
    await call('PUT', `/store/inventory/${pet.id}`, { quantity: 4 });
    expect([await statusOf(), await inventoryStatusOf()]).toEqual(['available', 'available']);
  });

  it('defaults a new pet to available', async () => {
    const { call } = await petstoreMock();
    expect((await call('POST', '/pets', { name: 'Rex', categoryId: 1 })).body.status).toBe('available');
  });

  it('stays off for another document, even one with a placeOrder operation', async () => {
    const { buildMock } = await import('../../mock/app.js');
    const { loadDocument } = await import('../../openapi/document/load-document.js');
    const mock = buildMock(await loadDocument(`${CORPUS}/swagger-petstore3.yaml`), { plugins: [petstore] });
    expect(mock.plugins).toEqual([]);
    expect(mock.operations.some((op) => op.id === 'placeOrder')).toBe(true);
    const response = await mock.app.request('/api/v3/store/order', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', api_key: 'petstore-demo-key' },
      body: JSON.stringify({ petId: 1, quantity: 1 }),
    });
    expect(response.status).toBe(200);
  });
});
