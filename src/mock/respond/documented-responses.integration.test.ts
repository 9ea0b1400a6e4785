/**
 * Every status the document declares for every operation is produced by the mock, and every
 * response validates against the document (status, media type, body schema, required headers).
 * The list of (operation, status) pairs comes from the document: a status added to the document
 * without a way to produce it here fails this test.
 */
import { describe, expect, it } from 'vitest';
import { AUTH, petstore, petstoreDocument } from '../../test-support/petstore.js';
import { responseCheckerFor } from '../../test-support/response-checker.js';

type Mock = Awaited<ReturnType<typeof petstore>>;
type Scenario = (mock: Mock) => Response | Promise<Response>;

const document = await petstoreDocument();
const check = responseCheckerFor(document);

const send = (mock: Mock, method: string, path: string, body?: unknown, headers: Record<string, string> = AUTH) =>
  mock.app.request(path, {
    method,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

/** A new pet with some stock, and (optionally) an open order for it. */
async function petWithStock(mock: Mock, quantity = 5) {
  const pet = (await mock.call('POST', '/pets', { name: 'Bella', categoryId: 1 })).body;
  await mock.call('PUT', `/store/inventory/${pet.id}`, { quantity });
  return pet;
}
async function openOrder(mock: Mock) {
  const pet = await petWithStock(mock);
  return (await mock.call('POST', '/store/orders', { petId: pet.id, quantity: 1 })).body;
}

/** A valid body per operation that takes one. */
const validBody: Record<string, unknown> = {
  createPet: { name: 'Rex', categoryId: 1, status: 'available' },
  replacePet: { name: 'Rex', categoryId: 1, status: 'pending' },
  updatePet: { name: 'Good boy' },
  createCategory: { name: 'Rabbits' },
  replaceCategory: { name: 'Dogs and puppies' },
  placeOrder: { petId: 1, quantity: 1 },
  updateOrder: { complete: true },
  updateInventoryItem: { quantity: 7 },
};

/** Requests that need a state or an input only a person can pick. */
const special: Record<string, Scenario> = {
  'deletePet 204': async (m) => send(m, 'DELETE', `/pets/${(await petWithStock(m)).id}`),
  'deletePet 409': async (m) => send(m, 'DELETE', `/pets/${(await openOrder(m)).petId}`),
  'deleteCategory 204': async (m) => send(m, 'DELETE', `/categories/${(await m.call('POST', '/categories', { name: 'Empty' })).body.id}`),
  'deleteCategory 409': async (m) => {
    await m.call('POST', '/pets', { name: 'Rex', categoryId: 1 });
    return send(m, 'DELETE', '/categories/1');
  },
  'placeOrder 201': async (m) => send(m, 'POST', '/store/orders', { petId: (await petWithStock(m)).id, quantity: 2 }),
  'placeOrder 409': async (m) => send(m, 'POST', '/store/orders', { petId: (await petWithStock(m, 0)).id, quantity: 1 }),
  'placeOrder 422': (m) => send(m, 'POST', '/store/orders', { petId: 999_999, quantity: 1 }),
  'updateOrder 200': async (m) => send(m, 'PATCH', `/store/orders/${(await openOrder(m)).id}`, { complete: true }),
  'updateOrder 409': async (m) => {
    const order = await openOrder(m);
    await m.call('PATCH', `/store/orders/${order.id}`, { complete: true });
    return send(m, 'PATCH', `/store/orders/${order.id}`, { complete: false });
  },
  'createPet 422': (m) => send(m, 'POST', '/pets', { name: 'Rex', categoryId: 999 }),
  'replacePet 422': (m) => send(m, 'PUT', '/pets/1', { name: 'Rex', categoryId: 999 }),
  'updatePet 422': (m) => send(m, 'PATCH', '/pets/1', { categoryId: 999 }),
  'getPet 410': async () => {
    const late = await petstore({ now: () => new Date('2027-07-01T00:00:00Z') });
    return send(late, 'GET', '/pets/1');
  },
};

/** The request that produces a status, derived from the operation where a rule of thumb fits. */
function scenario(op: (typeof operations)[number], status: string): Scenario | undefined {
  const key = `${op.id} ${status}`;
  if (special[key]) return special[key];
  const path = (id: string) => op.path.replace(/\{[^}]+\}/g, id);
  const method = op.method.toUpperCase();
  switch (status) {
    case '200':
    case '201':
    case '204':
      return (m) => send(m, method, path('1'), validBody[op.id]);
    case '400':
      return op.requestBody ? (m) => send(m, method, path('1'), '{"truncated": ') : op.path.includes('{') ? (m) => send(m, method, path('abc')) : (m) => send(m, method, `${op.path}?limit=0`);
    case '401':
      return (m) => send(m, method, path('1'), validBody[op.id], {});
    case '404':
      return (m) => send(m, method, path('999999'), validBody[op.id]);
    case '413':
      return (m) => send(m, method, path('1'), { name: 'x'.repeat(70_000) });
    default:
      return undefined;
  }
}

const operations = (await petstore()).operations;
const pairs = operations.flatMap((op) => op.responses.map((r) => ({ op, status: r.status })));

describe('every documented response', () => {
  it('covers all operations and statuses of the document', () => {
    expect(operations).toHaveLength(19);
    expect(pairs.filter(({ op, status }) => !scenario(op, status)).map(({ op, status }) => `${op.id} ${status}`)).toEqual([]);
  });

  for (const { op, status } of pairs) {
    it(`${op.id} answers ${status} as documented`, async () => {
      const response = await scenario(op, status)!(await petstore());
      const text = await response.text();
      expect(response.status, text).toBe(Number(status));
      expect(check(op, { status: response.status, headers: response.headers, text })).toEqual([]);
      if (response.status >= 400) expect(JSON.parse(text).status).toBe(response.status);
    });
  }
});
