/**
 * The in-memory state store: one MemoryCollection (memory-collection.ts) per collection of the
 * document, every request's work run at once, and collections seeded on their first use.
 */
import type { Collection } from '../openapi/operations/collection.js';
import { StateBudget } from './budget.js';
import { MemoryCollection } from './memory-collection.js';
import type { CollectionSnapshot, StateStore } from './state-store.js';

/** All collections of a document, by name, in memory: every request's work runs at once (synchronously). */
export class MemoryStore implements StateStore {
  private readonly collections = new Map<string, MemoryCollection>();

  /** `budget`: the bound shared with the other stores of the mock (the sessions'); unbounded by default. */
  constructor(
    collections: readonly Collection[],
    readonly budget: StateBudget = new StateBudget({ maxRecords: Infinity, maxBytes: Infinity }),
  ) {
    for (const collection of collections) this.collections.set(collection.name, new MemoryCollection(collection, budget));
  }

  full(): string | undefined {
    return this.budget.full();
  }

  has(name: string): boolean {
    return this.collections.has(name);
  }

  names(): string[] {
    return [...this.collections.keys()];
  }

  transact<T>(work: () => T): T {
    return work();
  }

  collection(name: string): MemoryCollection {
    const state = this.collections.get(name);
    if (!state) throw new Error(`No collection named ${name}`);
    if (this.pending?.has(name)) this.seedPending!(name);
    return state;
  }

  /** Collections still to seed on first use (`seedOnFirstUse`, src/state/seed.ts), and what seeds one. */
  private pending?: Set<string>;
  private seedPending?: (name: string) => void;

  deferSeeding(names: readonly string[], seed: (name: string) => void): void {
    this.clearAll();
    this.pending = new Set(names);
    this.seedPending = seed;
  }

  takePending(name: string): boolean {
    return this.pending?.delete(name) ?? false;
  }

  /** Seeds every collection still waiting for its first use (an export, the counts, a measure of the whole seed). */
  seedAll(): void {
    for (const name of [...(this.pending ?? [])]) if (this.pending?.has(name)) this.seedPending!(name);
  }

  /** Every collection emptied, none seeded on first use any more (their records leave the budget). */
  clearAll(): void {
    this.pending = undefined;
    for (const collection of this.collections.values()) collection.clear();
  }

  /** The collections not seeded yet. */
  unseeded(): string[] {
    return [...(this.pending ?? [])];
  }

  /** A deep copy of every collection, as plain JSON. */
  export(): Record<string, CollectionSnapshot> {
    this.seedAll();
    return structuredClone(Object.fromEntries([...this.collections].map(([name, state]) => [name, state.export()])));
  }

  /** Record counts by collection, for the start-up banner. */
  counts(): Record<string, number> {
    this.seedAll();
    return Object.fromEntries([...this.collections].map(([name, state]) => [name, state.size]));
  }
}
