/**
 * Mock control under `/__admin`, outside the document: reset to the seed, reseed, export and
 * import the state, read the last requests, and say how each operation is answered. Guarded by `--admin-token` (compared in constant
 * time); with no token configured it answers only on loopback. A petstore API key never opens
 * it, and the admin token never opens the petstore. `X-Mock-Session` picks the session it acts on.
 */
import { respondJson } from '../respond/security-headers.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { ApiError, errorResponse } from '../respond/api-error.js';
import { SESSION_HEADER } from '../state/sessions.js';
import type { StateSnapshot } from '../state/snapshot.js';
import type { StateStore } from '../state/state-store.js';
import type { RequestLog } from './request-log.js';

export interface AdminControls {
  storeFor: (session: string | null) => StateStore | ApiError;
  /** Back to the seed (the shared state, or one session). */
  reset: (session: string | null) => void;
  /** A new seed and/or counts, then a reset of everything. */
  reseed: (change: { seed?: number; counts?: Record<string, number> }) => { seed: number; counts: Record<string, number> };
  exportState: (store: StateStore) => StateSnapshot;
  /** Checks and applies a snapshot; a sentence when it is refused (nothing changed). */
  importState: (store: StateStore, data: unknown) => string | undefined;
  requests: RequestLog;
  /** Called after the shared state changed (for the state file). */
  changed: () => void;
  /** How each operation is answered (GET /__admin/operations): from state, or not, and why. */
  answers: unknown[];
}

export interface AdminOptions {
  /** The admin token; without one, only loopback callers are answered. */
  token?: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** @example app.route('/__admin', adminApi(controls, { token: 'secret' })) */
export function adminApi(controls: AdminControls, { token }: AdminOptions = {}): Hono {
  const admin = new Hono();
  const expected = token === undefined ? undefined : digest(token);

  admin.use('*', async function guard(c, next) {
    if (expected) {
      const given = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
      // Digests have equal lengths, so the comparison takes the same time whatever was sent.
      if (!timingSafeEqual(digest(given), expected)) {
        return errorResponse(new ApiError(401, 'ADMIN_UNAUTHORIZED', 'The admin API needs Authorization: Bearer <admin token>.', undefined, { 'WWW-Authenticate': 'Bearer realm="mock-admin"' }));
      }
    } else if (!isLoopback(c)) {
      return errorResponse(new ApiError(403, 'ADMIN_FORBIDDEN', 'Without --admin-token the admin API answers only on loopback.'));
    }
    await next();
  });

  const session = (c: Context) => c.req.header(SESSION_HEADER) ?? null;
  const withStore = (c: Context, act: (store: StateStore) => Response | Promise<Response>) => {
    const store = controls.storeFor(session(c));
    return store instanceof ApiError ? errorResponse(store) : act(store);
  };
  const json = (body: unknown, status = 200) => respondJson(body, status);
  const shared = (c: Context) => session(c) === null;

  admin.post('/reset', (c) =>
    withStore(c, (store) => {
      controls.reset(session(c));
      if (shared(c)) controls.changed();
      return json({ reset: session(c) ?? 'shared', counts: store.counts() });
    }),
  );

  admin.post('/seed', async (c) => {
    const body = await readJson(c);
    if (body instanceof ApiError) return errorResponse(body);
    const { seed, counts } = (body ?? {}) as { seed?: unknown; counts?: unknown };
    if (seed !== undefined && !(Number.isSafeInteger(seed) && (seed as number) >= 0)) return errorResponse(invalid('body.seed must be a non-negative integer'));
    if (counts !== undefined && !(counts && typeof counts === 'object' && Object.values(counts).every((n) => Number.isSafeInteger(n) && n >= 0 && n <= 1_000_000))) {
      return errorResponse(invalid('body.counts must map collection names to integers from 0 to 1000000'));
    }
    const applied = controls.reseed({ seed: seed as number | undefined, counts: counts as Record<string, number> | undefined });
    controls.changed();
    return json(applied);
  });

  admin.get('/state', (c) => withStore(c, (store) => json(controls.exportState(store))));

  admin.put('/state', async (c) => {
    const body = await readJson(c);
    if (body instanceof ApiError) return errorResponse(body);
    return withStore(c, (store) => {
      const refused = controls.importState(store, body);
      if (refused) return errorResponse(new ApiError(400, 'INVALID_STATE', `The state was not imported (nothing changed): ${refused}.`));
      if (shared(c)) controls.changed();
      return json({ imported: session(c) ?? 'shared', counts: store.counts() });
    });
  });

  admin.get('/requests', (c) => {
    const limit = Number(c.req.query('limit') ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) return errorResponse(invalid('query.limit must be an integer from 1 to 500'));
    return json({ requests: controls.requests.latest(limit) });
  });

  admin.get('/operations', () => json({ operations: controls.answers }));

  admin.notFound((c) => errorResponse(new ApiError(404, 'ROUTE_NOT_FOUND', `The admin API has no ${c.req.method} ${new URL(c.req.url).pathname}.`)));
  return admin;
}

function invalid(message: string): ApiError {
  return new ApiError(400, 'VALIDATION_FAILED', message);
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return new ApiError(400, 'INVALID_JSON', 'The request body is not valid JSON.');
  }
}

/** In-process requests (tests, app.request) have no socket: they are local by definition. */
function isLoopback(c: Context): boolean {
  try {
    const address = getConnInfo(c).remote.address;
    return address === undefined || LOOPBACK.test(address);
  } catch {
    return true;
  }
}
