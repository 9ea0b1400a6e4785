/**
 * Sessions: a caller sending `X-Mock-Session: NAME` gets its own copy of the seeded state, so
 * parallel CI jobs or demo users never see each other's data. Sessions are created on first use
 * (sharing the seeded state until they write: src/state/copy-on-write.ts) and the least recently
 * used ones are dropped beyond a bound (100 by default), so a client cannot exhaust memory. A
 * dropped session is not lost silently: its next answer carries `X-Mock-Session-Restarted:
 * evicted`, the log says so, and the admin API lists it.
 */
import { ApiError } from '../respond/api-error.js';
import type { StateStore } from './state-store.js';

export const SESSION_HEADER = 'x-mock-session';
const NAME = /^[A-Za-z0-9._:-]{1,64}$/;

/** A dropped session's store gives its records back to the budget, when it can (a copy-on-write store). */
function release(store: StateStore): void {
  (store as { release?: () => void }).release?.();
}

/** The header on the first answer from a session re-created from the seed after it was evicted. */
export const SESSION_RESTARTED_HEADER = 'X-Mock-Session-Restarted';
/** How many evicted names are remembered (to tell a returning client its data is gone). */
const REMEMBERED = 10_000;

export class Sessions {
  private readonly stores = new Map<string, StateStore>();
  private readonly evicted = new Set<string>();
  private readonly restarted = new WeakSet<StateStore>();

  /** `onEvict`: told the name of each session dropped to make room (for the log). */
  constructor(
    private readonly create: () => StateStore,
    readonly max = 100,
    private readonly onEvict?: (name: string) => void,
  ) {}

  /** The session's store (created from the seed on first use), or a 400 for an invalid name. */
  get(name: string): StateStore | ApiError {
    if (!NAME.test(name)) {
      return new ApiError(400, 'INVALID_SESSION', `X-Mock-Session must be 1 to 64 letters, digits, ".", "_", ":" or "-".`);
    }
    let store = this.stores.get(name);
    if (store) {
      this.stores.delete(name); // re-inserted below: the Map's order is the order of last use
    } else {
      store = this.create();
      if (this.evicted.delete(name)) this.restarted.add(store);
      if (this.stores.size >= this.max) this.evict(this.stores.keys().next().value!);
    }
    this.stores.set(name, store);
    return store;
  }

  /** True (once) for a store re-created for a name that had been evicted: its client's records are gone. */
  takeRestart(store: StateStore): boolean {
    return this.restarted.delete(store);
  }

  names(): string[] {
    return [...this.stores.keys()];
  }

  /** Names evicted and not used since, oldest first. */
  evictedNames(): string[] {
    return [...this.evicted];
  }

  drop(name: string): boolean {
    const store = this.stores.get(name);
    if (store) release(store);
    return this.stores.delete(name);
  }

  private evict(name: string): void {
    release(this.stores.get(name)!);
    this.stores.delete(name);
    this.evicted.add(name);
    if (this.evicted.size > REMEMBERED) this.evicted.delete(this.evicted.values().next().value!);
    this.onEvict?.(name);
  }
}
