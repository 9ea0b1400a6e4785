/**
 * What the store conformance suite (../store-conformance.ts) is given to check a store, and what
 * each of its topics is handed: the store under test, and a fresh empty store per check.
 */
import type { Collection } from '../../openapi/operations/collection.js';
import type { StateBudget } from '../../state/budget.js';
import type { StateStore } from '../../state/state-store.js';
import type { DocumentName } from './subjects.js';

/** A store to check, as the suite sees it. */
export interface StoreUnderTest {
  /**
   * Makes a new, empty store for the collections, counting its records in `budget`: what
   * `MockOptions.store` is given, and called as the mock calls it (the shared state, then one per
   * session). Two stores it made never share records.
   */
  make: (collections: readonly Collection[], budget: StateBudget) => StateStore;
  /**
   * For a store that keeps its state outside the process: a store reading what `store` (one that
   * `make` made) holds there, as another replica would, for the same collections. The suite then
   * also checks that what one store wrote reads back the same through another.
   */
  reopen?: (store: StateStore, collections: readonly Collection[], budget: StateBudget) => StateStore | Promise<StateStore>;
  /** Before each test: forgets what the stores of earlier tests left outside the process (a database's tables). */
  reset?: () => void | Promise<void>;
  /** After the suite: closes what the factory opened (a connection pool, a server it started). */
  cleanup?: () => void | Promise<void>;
}

/** Sets the store up once per suite (connects to its database, creates a schema), possibly asynchronously. */
export type StoreFactory = () => StoreUnderTest | Promise<StoreUnderTest>;

/** What every topic of the suite is handed: the store under test (set once the suite has started) and a new, empty store of it. */
export interface ConformanceSuite {
  /** The store under test, as the factory made it (read inside tests only: it is set in `beforeAll`). */
  readonly under: StoreUnderTest;
  /** A new, empty store for a document's collections, unbounded unless a budget is given. */
  fresh: (document: DocumentName, budget?: StateBudget) => Promise<StateStore>;
}
