/**
 * Sessions: a caller sending `X-Mock-Session: NAME` gets its own copy of the seeded state, so
 * parallel CI jobs or demo users never see each other's data. Sessions are created on first use
 * and the least recently used ones are dropped beyond a bound, so a client cannot exhaust memory.
 */
import { ApiError } from '../respond/api-error.js';
import type { StateStore } from './state-store.js';

export const SESSION_HEADER = 'x-mock-session';
const NAME = /^[A-Za-z0-9._:-]{1,64}$/;

export class Sessions {
  private readonly stores = new Map<string, StateStore>();

  constructor(
    private readonly create: () => StateStore,
    private readonly max = 100,
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
      if (this.stores.size >= this.max) this.stores.delete(this.stores.keys().next().value!);
    }
    this.stores.set(name, store);
    return store;
  }

  names(): string[] {
    return [...this.stores.keys()];
  }

  drop(name: string): boolean {
    return this.stores.delete(name);
  }
}
