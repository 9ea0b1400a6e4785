/**
 * The store conformance suite (src/test-support/store-conformance.ts) run against the in-memory
 * store, the mock's default, and against the two test stores built on it: one with none of the
 * optional speed-ups, one whose transactions complete later, as a store shared between processes.
 */
import { describeStoreConformance } from '../test-support/store-conformance.js';
import { DeferredStore, PlainStore } from '../test-support/test-stores.js';
import { MemoryStore } from './memory-store.js';

describeStoreConformance('MemoryStore', () => ({ make: (collections, budget) => new MemoryStore(collections, budget) }));
describeStoreConformance('PlainStore (no speed-ups)', () => ({ make: (collections, budget) => new PlainStore(collections, budget) }));
describeStoreConformance('DeferredStore (asynchronous transactions)', () => ({ make: (collections, budget) => new DeferredStore(collections, budget) }));
