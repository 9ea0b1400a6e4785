/**
 * Concurrency: many requests at once over a real socket (127.0.0.1, a free port), through a
 * keep-alive agent of 64 connections. Creates get distinct ids, concurrent writes to one record
 * never mix two bodies, stock is never oversold, and references stay consistent while records
 * are created and deleted across collections. No request gets a 5xx.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/serve.js';
import { AUTH, petstore } from '../test-support/petstore.js';

let server: RunningServer;
let agent: Agent;

beforeAll(async () => {
  const mock = await petstore();
  server = await startServer(mock.app, { port: 0, host: '127.0.0.1' });
});
afterAll(() => server.close());
// A fresh pool per test: no test reuses a connection the server may have closed as idle.
beforeEach(() => void (agent = new Agent({ keepAlive: true, maxSockets: 64 })));
afterEach(() => agent.destroy());

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** One request with the demo key: JSON in, parsed JSON out. */
function send(method: string, path: string, body?: unknown): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string | number> = { ...AUTH };
  if (payload !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: keep the text, the status assertion will tell
        }
        resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
      });
    });
    req.setTimeout(120_000, () => req.destroy(new Error(`${method} ${path}: no answer in 120 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A small seeded generator, so a failing interleaving can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function shuffle<T>(items: T[], seed: number): T[] {
  const next = random(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function totalPets(): Promise<number> {
  const reply = await send('GET', '/pets?limit=1');
  expect(reply.status).toBe(200);
  return Number(reply.headers['x-total-count']);
}

/** Every record of a list, page by page (100 at a time). */
async function listAll(path: string): Promise<any[]> {
  const records: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const reply = await send('GET', `${path}${path.includes('?') ? '&' : '?'}limit=100&offset=${offset}`);
    expect(reply.status).toBe(200);
    records.push(...reply.body);
    if (reply.body.length < 100) return records;
  }
}

async function createPet(body: Record<string, unknown> = { name: 'Racer', categoryId: 1 }): Promise<number> {
  const reply = await send('POST', '/pets', body);
  expect(reply.status).toBe(201);
  return reply.body.id;
}

async function stockedPet(quantity: number): Promise<number> {
  const id = await createPet({ name: 'Stocked', categoryId: 1 });
  expect((await send('PUT', `/store/inventory/${id}`, { quantity })).status).toBe(200);
  return id;
}

async function stockOf(petId: number): Promise<number> {
  const reply = await send('GET', `/store/inventory/${petId}`);
  expect(reply.status).toBe(200);
  return reply.body.quantity;
}

async function petById(id: number): Promise<any> {
  const reply = await send('GET', `/pets?id=${id}`);
  expect(reply.status).toBe(200);
  return reply.body[0];
}

/** Statuses that do not belong to the allowed set, named with their request, for a readable failure. */
function unexpected(results: Array<{ what: string; allowed: number[]; reply: Reply }>): string[] {
  return results.filter((r) => !r.allowed.includes(r.reply.status)).map((r) => `${r.what} -> ${r.reply.status} ${JSON.stringify(r.reply.body)}`);
}

describe('concurrent creates', () => {
  it('1,000 concurrent creates get 1,000 distinct ids, all 201, and the total grows by exactly 1,000', async () => {
    const before = await totalPets();
    const replies = await Promise.all(Array.from({ length: 1_000 }, (_, i) => send('POST', '/pets', { name: `Concurrent ${i}`, categoryId: 1 + (i % 6) })));

    expect(replies.filter((r) => r.status !== 201).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
    const ids = replies.map((r) => r.body.id);
    expect(new Set(ids).size).toBe(1_000);
    replies.forEach((reply, i) => {
      // each answer carries its own body, under its own Location
      expect(reply.body).toEqual({ name: `Concurrent ${i}`, categoryId: 1 + (i % 6), status: 'available', id: reply.body.id });
      expect(reply.headers.location).toBe(`/pets/${reply.body.id}`);
    });
    expect(await totalPets()).toBe(before + 1_000);
  });
});

describe('concurrent writes to one record', () => {
  const STATUSES = ['available', 'pending', 'sold'];
  /** A full body: every property of NewPet, so a PATCH with it leaves nothing of the previous record. */
  const fullBody = (kind: string, i: number) => ({
    name: `${kind} ${i}`,
    categoryId: 1 + (i % 6),
    status: STATUSES[i % 3],
  });

  /** Sends the writes all at once; returns each request with its reply. */
  async function race(id: number, writes: Array<{ method: string; body?: Record<string, unknown> }>) {
    return Promise.all(writes.map(async (w) => ({ ...w, what: `${w.method} /pets/${id}`, reply: await send(w.method, `/pets/${id}`, w.body) })));
  }

  it('50 concurrent PUTs and 10 full-body PATCHes of one pet leave it exactly equal to one of the bodies sent, never a mix', async () => {
    const id = await createPet();
    const writes = shuffle(
      [
        ...Array.from({ length: 50 }, (_, i) => ({ method: 'PUT', body: fullBody('put', i) })),
        ...Array.from({ length: 10 }, (_, i) => ({ method: 'PATCH', body: fullBody('patch', i) })),
      ],
      1,
    );
    const results = await race(id, writes);

    expect(unexpected(results.map((r) => ({ ...r, allowed: [200] })))).toEqual([]);
    // each answer is the record as its own request left it
    for (const { body, reply } of results) expect(reply.body).toEqual({ ...body, id });
    const final = await send('GET', `/pets/${id}`);
    expect(final.status).toBe(200);
    expect(writes.map((w) => ({ ...w.body, id }))).toContainEqual(final.body);
    expect(await petById(id)).toEqual(final.body);
  });

  it('concurrent PUTs, PATCHes and DELETEs of one pet answer only 200, 204 or 404, exactly one DELETE wins, and the pet ends gone with its inventory item', async () => {
    for (const seed of [2, 3, 4]) {
      const id = await createPet();
      const writes = shuffle(
        [
          ...Array.from({ length: 50 }, (_, i) => ({ method: 'PUT', body: fullBody('put', i) })),
          ...Array.from({ length: 8 }, (_, i) => ({ method: 'PATCH', body: fullBody('patch', i) })),
          ...Array.from({ length: 3 }, () => ({ method: 'DELETE' })),
        ],
        seed,
      );
      const results = await race(id, writes);

      expect(unexpected(results.map((r) => ({ ...r, allowed: r.method === 'DELETE' ? [204, 404] : [200, 404] })))).toEqual([]);
      for (const { body, reply } of results) if (reply.status === 200) expect(reply.body).toEqual({ ...body, id });
      // the pet has no orders, so exactly one DELETE wins; nothing recreates it (PUT is not an upsert)
      expect(results.filter((r) => r.method === 'DELETE' && r.reply.status === 204)).toHaveLength(1);
      expect((await send('GET', `/pets/${id}`)).status).toBe(404);
      // its inventory item went with it
      expect((await send('GET', `/store/inventory/${id}`)).status).toBe(404);
    }
  });
});

describe('concurrent orders against one pet', () => {
  it('stock 10 and 50 concurrent orders of 1: exactly 10 are placed, 40 get 409, the stock ends at 0 and the pet is pending', async () => {
    const petId = await stockedPet(10);
    const replies = await Promise.all(Array.from({ length: 50 }, () => send('POST', '/store/orders', { petId, quantity: 1 })));

    expect(replies.filter((r) => r.status === 201)).toHaveLength(10);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(40);
    for (const r of replies.filter((r) => r.status === 409)) expect(['INSUFFICIENT_STOCK', 'PET_NOT_AVAILABLE']).toContain(r.body.code);
    expect(new Set(replies.filter((r) => r.status === 201).map((r) => r.body.id)).size).toBe(10);
    expect(await stockOf(petId)).toBe(0);
    expect((await petById(petId)).status).toBe('pending');
    const orders = await send('GET', `/store/orders?petId=${petId}&limit=100`);
    expect(orders.headers['x-total-count']).toBe('10');
    expect(orders.body.every((o: any) => o.complete === false && o.quantity === 1)).toBe(true);
  });

  it('orders of 1 to 3 units never accept more than the stock, and the final stock is the initial stock minus what was accepted', async () => {
    for (const [seed, initial] of [[11, 10], [12, 10], [13, 17], [14, 25], [15, 7]] as const) {
      const petId = await stockedPet(initial);
      const next = random(seed);
      const quantities = Array.from({ length: 40 }, () => 1 + Math.floor(next() * 3));
      const replies = await Promise.all(quantities.map((quantity) => send('POST', '/store/orders', { petId, quantity })));

      expect(replies.filter((r) => r.status !== 201 && r.status !== 409).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
      const accepted = quantities.filter((_, i) => replies[i].status === 201).reduce((sum, q) => sum + q, 0);
      const stock = await stockOf(petId);
      expect(accepted).toBeLessThanOrEqual(initial);
      expect(stock).toBe(initial - accepted);
      expect(stock).toBeGreaterThanOrEqual(0);
      // stock only goes down, so every order refused for stock asked for more than what is left
      quantities.forEach((quantity, i) => {
        if (replies[i].body?.code === 'INSUFFICIENT_STOCK') expect(quantity).toBeGreaterThan(stock);
        if (replies[i].body?.code === 'PET_NOT_AVAILABLE') expect(stock).toBe(0);
      });
      expect((await petById(petId)).status).toBe(stock === 0 ? 'pending' : 'available');
      const orders = await listAll(`/store/orders?petId=${petId}`);
      expect(orders.reduce((sum, o) => sum + o.quantity, 0)).toBe(accepted);
    }
  });
});

describe('concurrent creates and deletes across collections', () => {
  const INITIAL_STOCK = 5;
  type Op = { what: string; method: string; path: string; body?: unknown; allowed: number[] };

  /**
   * Our own records: 8 categories (0-3 used by 24 pets, 4-7 empty), each pet stocked, and the even
   * pets with an open order. Then requests that race on the same record go out side by side: a
   * category deleted while a pet is created in it or moved to it, a pet deleted while it is
   * ordered, a pet deleted while its open order is completed or cancelled (deleted).
   */
  async function race(seed: number) {
    const categories = await Promise.all(Array.from({ length: 8 }, async (_, i) => (await send('POST', '/categories', { name: `Race ${seed}.${i}` })).body.id as number));
    const pets = await Promise.all(Array.from({ length: 24 }, (_, j) => createPet({ name: `Racer ${seed}.${j}`, categoryId: categories[j % 4] })));
    await Promise.all(pets.map(async (id) => expect((await send('PUT', `/store/inventory/${id}`, { quantity: INITIAL_STOCK })).status).toBe(200)));
    const orders = new Map<number, number>();
    for (const petId of pets.filter((_, j) => j % 2 === 0)) {
      const reply = await send('POST', '/store/orders', { petId, quantity: 1 });
      expect(reply.status).toBe(201);
      orders.set(petId, reply.body.id);
    }

    const deleteCategory = (id: number): Op => ({ what: 'delete a category', method: 'DELETE', path: `/categories/${id}`, allowed: [204, 404, 409] });
    const createPetIn = (id: number, k: number): Op => ({ what: 'create a pet', method: 'POST', path: '/pets', body: { name: `Newcomer ${seed}.${k}`, categoryId: id }, allowed: [201, 422] });
    const movePet = (petId: number, categoryId: number): Op => ({ what: 'move a pet', method: 'PATCH', path: `/pets/${petId}`, body: { categoryId }, allowed: [200, 404, 422] });
    const deletePet = (petId: number): Op => ({ what: 'delete a pet', method: 'DELETE', path: `/pets/${petId}`, allowed: [204, 404, 409] });
    const placeOrder = (petId: number): Op => ({ what: 'place an order', method: 'POST', path: '/store/orders', body: { petId, quantity: 1 }, allowed: [201, 409, 422] });
    const groups: Op[][] = [
      ...categories.slice(4).map((id, i) => [deleteCategory(id), createPetIn(id, i), movePet(pets[i], id)]),
      ...categories.slice(0, 4).map((id) => [deleteCategory(id), deleteCategory(id)]),
      ...pets.map((petId, j) => {
        const orderId = orders.get(petId);
        if (orderId === undefined) return [deletePet(petId), placeOrder(petId), movePet(petId, categories[4 + (j % 4)])];
        return [
          deletePet(petId),
          { what: 'complete an order', method: 'PATCH', path: `/store/orders/${orderId}`, body: { complete: true }, allowed: [200, 404] },
          { what: 'cancel an order', method: 'DELETE', path: `/store/orders/${orderId}`, allowed: [204, 404] },
          placeOrder(petId),
        ];
      }),
      ...categories.map((id, i) => [{ what: 'replace a category', method: 'PUT', path: `/categories/${id}`, body: { name: `Renamed ${seed}.${i}` }, allowed: [200, 404] }]),
      ...Array.from({ length: 4 }, (_, i) => [{ what: 'create a category', method: 'POST', path: '/categories', body: { name: `Late ${seed}.${i}` }, allowed: [201] }]),
    ];
    // Groups in a shuffled order, each group's requests side by side, rotated so no request always goes first.
    const ops = shuffle(groups, seed).flatMap((group, g) => [...group.slice(g % group.length), ...group.slice(0, g % group.length)]);
    const results = await Promise.all(ops.map(async (op) => ({ ...op, what: `${op.what}: ${op.method} ${op.path}`, reply: await send(op.method, op.path, op.body) })));
    return { pets, results };
  }

  it('creating and deleting categories, pets and orders at once never gives a 5xx and leaves every reference consistent', async () => {
    const runs = [];
    for (const seed of [21, 22, 23]) runs.push(await race(seed));
    const results = runs.flatMap((run) => run.results);
    const ours = runs.flatMap((run) => run.pets);

    expect(results.filter((r) => r.reply.status >= 500).map((r) => r.what)).toEqual([]);
    expect(unexpected(results)).toEqual([]);

    const allCategories = new Set((await listAll('/categories')).map((c) => c.id));
    const allPets = await listAll('/pets');
    const petIds = new Set(allPets.map((p) => p.id));
    const allOrders = await listAll('/store/orders');
    const inventory = await listAll('/store/inventory');
    const deleted = (prefix: string) => results.filter((r) => r.method === 'DELETE' && r.path.startsWith(prefix) && r.reply.status === 204).map((r) => Number(r.path.split('/').pop()));

    // every pet's category exists, and a category that answered 204 is gone
    expect(allPets.filter((p) => p.categoryId !== undefined && !allCategories.has(p.categoryId)).map((p) => `pet ${p.id} -> category ${p.categoryId}`)).toEqual([]);
    expect(deleted('/categories/').filter((id) => allCategories.has(id))).toEqual([]);
    // a pet that answered 204 is gone, and every open order is for a pet that exists
    expect(deleted('/pets/').filter((id) => petIds.has(id))).toEqual([]);
    expect(allOrders.filter((o) => o.complete === false && !petIds.has(o.petId)).map((o) => `order ${o.id} -> pet ${o.petId}`)).toEqual([]);
    // each pet has exactly one inventory item, showing the pet's status, and no item outlives its pet
    expect(inventory.map((i) => i.petId).sort((a, b) => a - b)).toEqual([...petIds].sort((a, b) => a - b));
    expect(inventory.filter((i) => i.status !== allPets.find((p) => p.id === i.petId).status).map((i) => `inventory item ${i.petId} is ${i.status}`)).toEqual([]);
    // an order answered 200 to `complete: true` was completed (a 404 means it had been cancelled first): its units stay sold,
    // even when the order was deleted afterwards
    const completed = results.filter((r) => r.method === 'PATCH' && r.path.startsWith('/store/orders/') && r.reply.status === 200).map((r) => r.reply.body);
    expect(completed.filter((o) => o.complete !== true).map((o) => `order ${o.id} answered complete=${o.complete}`)).toEqual([]);
    // for our pets still there: stock = initial - what their open and completed orders hold, and the status follows the stock
    for (const petId of ours.filter((id) => petIds.has(id))) {
      const held = allOrders.filter((o) => o.petId === petId && o.complete === false).reduce((sum, o) => sum + o.quantity, 0);
      const sold = completed.filter((o) => o.petId === petId).reduce((sum, o) => sum + o.quantity, 0);
      const stock = inventory.find((i) => i.petId === petId).quantity;
      expect({ petId, stock }).toEqual({ petId, stock: INITIAL_STOCK - held - sold });
      expect({ petId, status: allPets.find((p) => p.id === petId).status }).toEqual({ petId, status: stock > 0 ? 'available' : 'pending' });
    }
  });
});
