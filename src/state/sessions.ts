/**
 * Sessions: a caller sending `X-Mock-Session: NAME` gets its own copy of the seeded state, so
 * parallel CI jobs or demo users never see each other's data. Sessions are created on first use
 * (sharing the seeded state until they write: src/state/copy-on-write.ts) and the least recently
 * used ones are dropped beyond a bound on their number (100 by default) and to make room, in their
 * share of the bound on records (src/state/budget.ts) or for the shared state, so a client cannot
 * exhaust memory or starve the shared state. A dropped session is not lost silently: its next
 * answer carries `X-Mock-Session-Restarted: evicted`, the log says so, and the admin API lists it.
 */
import { ApiError } from '../core/api-error.js';
import type { StateStore } from './state-store.js';

export const SESSION_HEADER = 'x-mock-session';
const NAME = /^[A-Za-z0-9._:-]{1,64}$/;

/** A dropped session's store gives its records back to the budget, when it can (a copy-on-write store). */
function releaseOwn(store: StateStore): void {
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

  /**
   * `create`: a new session's store, or an error when none can be made (507: no room for the seeded
   * copy it reads). `onEvict`: told the name of each session dropped, and why (for the log).
   * `release`: makes a dropped session's store give its records back to the budget.
   */
  constructor(
    private readonly create: (name: string) => StateStore | ApiError,
    readonly max = 100,
    private readonly onEvict?: (name: string, reason: string) => void,
    private readonly release: (store: StateStore) => void = releaseOwn,
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
      const made = this.create(name);
      if (made instanceof ApiError) return made;
      store = made;
      if (this.evicted.delete(name)) this.restarted.add(store);
      if (this.stores.size >= this.max) this.evict(this.stores.keys().next().value!, `${this.max} sessions at most, least recently used first`);
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
    if (store) this.release(store);
    return this.stores.delete(name);
  }

  get size(): number {
    return this.stores.size;
  }

  /**
   * Drops the least recently used session whose store `worth` says dropping it is worth it
   * (remembered as evicted, as when there are too many); false when there is none.
   */
  evictOldest(reason: string, worth: (store: StateStore) => boolean = () => true): boolean {
    for (const [name, store] of this.stores) {
      if (!worth(store)) continue;
      this.evict(name, reason);
      return true;
    }
    return false;
  }

  private evict(name: string, reason: string): void {
    this.release(this.stores.get(name)!);
    this.stores.delete(name);
    this.evicted.add(name);
    if (this.evicted.size > REMEMBERED) this.evicted.delete(this.evicted.values().next().value!);
    this.onEvict?.(name, reason);
  }
}
