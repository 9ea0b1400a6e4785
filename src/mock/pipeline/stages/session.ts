/**
 * Stage `session`: the store the request acts on (the shared one, or its `X-Mock-Session`'s; 400
 * for an invalid session name), a write to the shared state refused while it cannot be saved
 * (503), and the headers telling a client its session was made anew.
 */
import { ApiError } from '../../../core/api-error.js';
import { SESSION_HEADER } from '../../../state/sessions.js';
import type { StateStore } from '../../../state/state-store.js';
import type { Fail } from './fail.js';
import type { Stage } from './stage.js';

export interface SessionParts {
  storeFor: (session: string | null) => StateStore | ApiError;
  /** Consulted before a write acts on the shared state (absent for a read, or when nothing is saved). */
  writable?: () => ApiError | undefined;
  sessionNotice?: (store: StateStore) => Record<string, string> | undefined;
}

/** Finds the request's store, keeping it on the request for `act`. */
export function session({ storeFor, writable, sessionNotice }: SessionParts, fail: Fail): Stage {
  return {
    name: 'session',
    run(request) {
      const name = request.header(SESSION_HEADER) ?? null;
      const store = storeFor(name);
      if (store instanceof ApiError) return fail(request, store);
      const refused = writable && name === null ? writable() : undefined; // sessions are not saved: never refused
      if (refused) return fail(request, refused);
      const notice = sessionNotice?.(store);
      if (notice) request.extra = { ...request.extra, ...notice };
      request.store = store;
      return undefined;
    },
  };
}
