import { describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { buildOperations } from '../openapi/operations/build-operations.js';
import type { Collection } from '../openapi/operations/collection.js';
import { inferCollections } from '../openapi/operations/infer-collections.js';
import { petstoreDocument, ROOT } from '../test-support/petstore.js';
import { DeferredStore, PlainStore } from '../test-support/test-stores.js';
import { recordJson, indexOf, versionOf } from './speedups.js';
import { MemoryStore } from './memory-store.js';

describe('StateStore', () => {
  // That a store with none of the speed-ups answers every list as the in-memory store does is the
  // conformance suite's to show (src/state/memory-store.conformance.test.ts runs it on PlainStore).
  it('has readers stand in for each speed-up a store lacks: no index, no version (nothing cached), the JSON text made when asked', async () => {
    const { collections } = inferCollections(buildOperations((await petstoreDocument()).api));
    const plain = new PlainStore(collections).collection('pets');
    expect([indexOf(plain), versionOf(plain)]).toEqual([undefined, undefined]);
    expect(recordJson(plain, { id: 1, name: 'Rex' })).toBe('{"id":1,"name":"Rex"}');
    const memory = new MemoryStore(collections).collection('pets');
    expect([indexOf(memory), versionOf(memory)]).toEqual([memory, memory.version]);
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
