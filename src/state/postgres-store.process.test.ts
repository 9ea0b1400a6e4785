/**
 * The store conformance suite (src/test-support/store-conformance.ts) run against the PostgreSQL
 * store, on a real PostgreSQL server from Debian's packages started for this file: the same
 * tests the in-memory store passes (src/state/memory-store.conformance.test.ts). Every store the
 * suite makes gets a namespace of its own, as the shared state and each session do in a mock, and
 * what it holds is read back through another replica's connections where the suite asks.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { buildOperations } from '../openapi/operations/build-operations.js';
import { inferCollections } from '../openapi/operations/infer-collections.js';
import { ROOT } from '../test-support/petstore.js';
import { describeStoreConformance } from '../test-support/store-conformance.js';
import { startPostgres } from '../test-support/postgres.js';
import { StateBudget } from './budget.js';
import type { PostgresStore } from './postgres-store.js';
import { connectPostgres, type PostgresStores } from './postgres-stores.js';
import type { StateStore } from './state-store.js';

describeStoreConformance('PostgresStore', async () => {
  const server = await startPostgres();
  const stores = await connectPostgres({ url: server.url, namespace: 'conformance' });
  // Another replica's connections, for stores that read what one of the first made holds.
  const replica = await connectPostgres({ url: server.url, namespace: 'conformance' });
  const sessions = new WeakMap<StateStore, string>();
  let made = 0;
  return {
    make: (collections, budget) => {
      const store = stores.make(collections, budget, `store-${++made}`);
      sessions.set(store, `store-${made}`);
      return store;
    },
    reopen: (store, collections, budget) => replica.make(collections, budget, sessions.get(store)),
    cleanup: async () => {
      await replica.close();
      await stores.close();
      await server.stop();
    },
  };
});

/**
 * What only a shared store has: a replica that loads the namespace (its records and key sequences
 * from the tables) and one that followed the log must go on exactly as the replica that wrote:
 * the same records in the same order, and the same next keys, per collection and per parent,
 * after deletes of the largest keys, a scope dropped and a collection cleared in one transaction.
 */
describe('PostgresStore: replicas that follow the log or load the tables go on as the writer', () => {
  it('gives the same records in order and the same next keys through the writer, a follower and a replica started after', async () => {
    const server = await startPostgres();
    const opened: PostgresStores[] = [];
    try {
      const collections = inferCollections(buildOperations((await loadDocument(`${ROOT}test/documents/numbered-api.yaml`)).api)).collections;
      const replica = async () => {
        const stores = await connectPostgres({ url: server.url, namespace: 'sequences' });
        opened.push(stores);
        const store = stores.make(collections, new StateBudget({ maxRecords: Infinity, maxBytes: Infinity }));
        await store.ready;
        return store;
      };
      const [writer, follower] = [await replica(), await replica()];
      const write = (work: () => void) => writer.transact(work, { writes: true });
      await write(() => {
        const projects = writer.collection('projects');
        const issues = writer.collection('issues');
        for (let id = 1; id <= 4; id++) projects.put({ id, name: `P${id}` });
        for (const scope of ['1', '2', '3']) for (let i = 0; i < 3; i++) issues.put({ number: issues.allocateInteger(scope), title: `${scope}.${i}` }, scope);
      });
      await write(() => {
        const projects = writer.collection('projects');
        const issues = writer.collection('issues');
        projects.delete(4); // the largest key: never given again
        issues.delete(3, '1'); // the largest of its scope: never given again in it
        issues.dropScope('2'); // its numbers start from 1 again
        projects.put({ id: 2, name: 'P2 again' }); // replaced: keeps its place
      });
      await write(() => {
        // Cleared and refilled in one transaction: the keys counted from 1 again, then past what was put.
        const comments = writer.collection('comments');
        comments.put({ id: 7, body: 'before' }, '1/1');
        comments.clear();
        comments.put({ id: 2, body: 'after' }, '1/1');
      });
      const late = await replica();
      const state = (store: PostgresStore) => store.transact(() => store.export(), { writes: false });
      const expected = await state(writer);
      expect(await state(follower)).toEqual(expected);
      expect(await state(late)).toEqual(expected);
      const nextKeys = (store: PostgresStore) =>
        store.transact(
          () => ({
            projects: store.collection('projects').allocateInteger(),
            issues: ['1', '2', '3', '4'].map((scope) => store.collection('issues').allocateInteger(scope)),
            comments: store.collection('comments').allocateInteger('1/1'),
          }),
          { writes: false },
        );
      const keys = await nextKeys(writer);
      expect(keys).toEqual({ projects: 5, issues: [4, 1, 4, 1], comments: 3 });
      expect(await nextKeys(follower)).toEqual(keys);
      expect(await nextKeys(late)).toEqual(keys);
    } finally {
      for (const stores of opened) await stores.close();
      await server.stop();
    }
  });

  it('loads the tables again when it fell behind what is left of the trimmed log', async () => {
    const server = await startPostgres();
    const opened: PostgresStores[] = [];
    try {
      const collections = inferCollections(buildOperations((await loadDocument(`${ROOT}test/documents/numbered-api.yaml`)).api)).collections;
      const replica = async () => {
        const stores = await connectPostgres({ url: server.url, namespace: 'trimmed' });
        opened.push(stores);
        const store = stores.make(collections, new StateBudget({ maxRecords: Infinity, maxBytes: Infinity }));
        await store.ready;
        return store;
      };
      const [writer, follower] = [await replica(), await replica()];
      // More units than the log keeps (4,096), one write transaction each, while the follower reads nothing.
      for (let id = 1; id <= 4_500; id++) await writer.transact(() => writer.collection('projects').put({ id, name: `P${id}` }), { writes: true });
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        const { rows } = await client.query("SELECT count(*)::int AS units FROM mock_changes WHERE ns = 'trimmed'");
        expect(rows[0].units).toBeLessThan(4_500);
      } finally {
        await client.end();
      }
      const state = (store: PostgresStore) => store.transact(() => store.export(), { writes: false });
      const expected = await state(writer);
      expect(expected.projects.scopes['']).toHaveLength(4_500);
      expect(await state(follower)).toEqual(expected);
    } finally {
      for (const stores of opened) await stores.close();
      await server.stop();
    }
  });
});
