import { describe, expect, it } from 'vitest';
import { buildMock } from '../app.js';
import { loadDocument } from '../document/load-document.js';
import type { Collection } from '../operations/infer-collections.js';
import { caller, petstoreDocument, ROOT } from '../test-support/petstore.js';
import { AUTH } from '../test-support/petstore.js';
import { recordJson, indexOf, versionOf } from './speedups.js';
import { DeferredStore, PlainStore } from '../test-support/test-stores.js';

describe('StateStore', () => {
  it('needs none of the speed-ups: a store without them answers every list, filtered or not, as the in-memory store does', async () => {
    const document = await petstoreDocument();
    const fast = caller(buildMock(document, { seed: 7 }));
    const plainStores: PlainStore[] = [];
    const plain = caller(buildMock(document, { seed: 7, store: (collections, budget) => (plainStores.push(new PlainStore(collections, budget)), plainStores.at(-1)!) }));
    const shared = plainStores[0].collection('pets');
    expect([indexOf(shared), versionOf(shared)]).toEqual([undefined, undefined]);
    expect(recordJson(shared, { id: 1 })).toBe('{"id":1}');
    for (const call of [fast, plain]) {
      await call('POST', '/pets', { name: 'Rex', status: 'sold', categoryId: 1, price: 1 }, AUTH);
      await call('PATCH', '/pets/3', { status: 'sold' }, AUTH);
    }
    for (const query of ['', '?status=sold', '?status=sold&categoryId=1', '?status=available&status=pending&limit=5&offset=2', '?categoryId=2&status=sold']) {
      const [a, b] = [await fast('GET', `/pets${query}`, undefined, AUTH), await plain('GET', `/pets${query}`, undefined, AUTH)];
      expect([query, b.status]).toEqual([query, 200]);
      expect(b.body).toEqual(a.body);
    }
  });

  it('serves every request through a store whose transactions are asynchronous, reads after writes included', async () => {
    const stores: DeferredStore[] = [];
    const mock = buildMock(await loadDocument(`${ROOT}test/documents/notes-api.yaml`), {
      apiKeys: ['k-1'],
      counts: { default: 1 },
      store: (collections: readonly Collection[]) => {
        const store = new DeferredStore(collections);
        stores.push(store);
        return store;
      },
    });
    const headers = { 'X-API-Key': 'k-1', 'Content-Type': 'application/json' };
    const created = await mock.app.request('/api/notes', { method: 'POST', headers, body: JSON.stringify({ text: 'later' }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = await mock.app.request(`/api/notes/${id}`, { headers });
    expect([read.status, ((await read.json()) as { text: string }).text]).toEqual([200, 'later']);
    expect((await mock.app.request(`/api/notes/${id}`, { method: 'DELETE', headers })).status).toBe(204);
    expect((await mock.app.request(`/api/notes/${id}`, { headers })).status).toBe(404);
    // A session gets its own store from the same factory.
    const session = await mock.app.request('/api/notes', { headers: { ...headers, 'X-Mock-Session': 'a' } });
    expect(((await session.json()) as unknown[]).length).toBe(1);
    expect(stores.map((s) => s.transactions)).toEqual([4, 1]);
  });
});
