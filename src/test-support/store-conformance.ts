/**
 * The conformance suite of a state store: what `StateStore` and `RecordCollection`
 * (src/state/state-store.ts) promise, checked against any implementation. As Hono runs one suite of
 * router tests against every router, `describeStoreConformance(name, factory)` declares the whole
 * suite for one store, and each store's test file calls it (the in-memory store and the test stores:
 * src/state/memory-store.conformance.test.ts); a new store calls it too, and passes it unchanged.
 *
 * Two levels:
 * - **the store**, on the collections real documents imply (the Petstore's; issues numbered per
 *   project, two levels of nesting; keys clients choose; records with no key at all), every call
 *   made inside `transact` and its result awaited, so a store whose transactions are asynchronous
 *   (one shared between processes) runs the same tests. Each rule is checked on every collection
 *   of those documents that has the trait it is about (and the suite fails if none has it);
 * - **the mock through it**: scripted walks sent both to a mock built on the store and to one on
 *   the in-memory store, every answer compared pairwise (status, headers, body) and checked against
 *   the document, the state exported by the admin API compared after every write. A walk also
 *   asserts what its answers must be, so that it fails on a store both mocks would share (the
 *   in-memory one), not only on a difference.
 *
 * Here, in test support, rather than beside the store: it builds mocks (src/mock/app.ts, a layer above
 * the state) and declares vitest suites, which only tests and test support may do.
 */
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import { StateBudget } from '../state/budget.js';
import { describeKeysAndPlaces } from './store-conformance/keys-and-places.js';
import { describeMockThroughStore } from './store-conformance/mock-through-store.js';
import { describeRecordsByKey } from './store-conformance/records-by-key.js';
import { describeSnapshotsAndTransactions } from './store-conformance/snapshots-and-transactions.js';
import type { ConformanceSuite, StoreFactory, StoreUnderTest } from './store-conformance/store-under-test.js';
import { documentCollections, type DocumentName } from './store-conformance/subjects.js';

export type { StoreFactory, StoreUnderTest } from './store-conformance/store-under-test.js';

/** Declares the whole suite for one store: its topics (store-conformance/), in one `describe`, on one store set up by `factory`. */
export function describeStoreConformance(name: string, factory: StoreFactory): void {
  describe(`${name}: the StateStore contract`, () => {
    let under: StoreUnderTest;
    beforeAll(async () => {
      under = await factory();
    });
    afterAll(async () => {
      await under?.cleanup?.();
    });
    beforeEach(async () => {
      await under.reset?.();
    });

    const suite: ConformanceSuite = {
      get under() {
        return under;
      },
      fresh: async (document: DocumentName, budget = new StateBudget({ maxRecords: Infinity, maxBytes: Infinity })) => under.make(await documentCollections(document), budget),
    };

    describe('the store', () => {
      describeRecordsByKey(suite);
      describeKeysAndPlaces(suite);
      describeSnapshotsAndTransactions(suite);
    });

    describe('the mock through it', () => {
      describeMockThroughStore(suite);
    });
  });
}
