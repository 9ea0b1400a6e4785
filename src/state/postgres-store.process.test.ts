/**
 * The store conformance suite (src/test-support/store-conformance.ts) run against the PostgreSQL
 * store, on a real PostgreSQL server from Debian's packages started for this file: the same
 * tests the in-memory store passes (src/state/memory-store.conformance.test.ts). Every store the
 * suite makes gets a namespace of its own, as the shared state and each session do in a mock.
 */
import { describeStoreConformance } from '../test-support/store-conformance.js';
import { startPostgres } from '../test-support/postgres.js';
import { connectPostgres } from './postgres-store.js';

describeStoreConformance('PostgresStore', async () => {
  const server = await startPostgres();
  const stores = await connectPostgres({ url: server.url, namespace: 'conformance' });
  let made = 0;
  return {
    make: (collections, budget) => stores.make(collections, budget, `store-${++made}`),
    cleanup: async () => {
      await stores.close();
      await server.stop();
    },
  };
});
