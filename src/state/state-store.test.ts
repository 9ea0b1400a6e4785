import { describe, expect, it } from 'vitest';
import { buildMock } from '../app.js';
import { loadDocument } from '../document/load-document.js';
import type { Collection } from '../operations/infer-collections.js';
import { ROOT } from '../test-support/petstore.js';
import { MemoryStore } from './store.js';

/**
 * A store whose work completes later, as one shared between processes would (load, lock, run,
 * write back): the pipeline must wait for it, and nothing else changes.
 */
class DeferredStore extends MemoryStore {
  transactions = 0;
  override transact<T>(work: () => T): T {
    this.transactions++;
    return new Promise<T>((resolve) => setTimeout(() => resolve(work()), 5)) as unknown as T;
  }
}

describe('StateStore', () => {
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
