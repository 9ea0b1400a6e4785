/**
 * What the library hands back from `createMock`, on Node and in a browser alike: the mock answers
 * `fetch` calls in-process (no socket, no port), and exposes its Hono app, its store and the
 * controls of the admin API (reset, seed, snapshot, restore) as plain methods.
 */
import type { Hono } from 'hono';
import { buildMock, type BuildMockOptions, type Mock, type OperationAnswer } from '../mock/app.js';
import type { LoadedDocument } from '../openapi/document/document.js';
import type { OpenAPIDocument } from '../openapi/document/openapi.js';
import { templateMatcher } from '../openapi/operations/path-template.js';
import { serverBasePath } from '../openapi/operations/server-base-path.js';
import { exportSnapshot, type StateSnapshot } from '../state/snapshot.js';
import type { StateStore } from '../state/state-store.js';
import type { SelfCheckCounts } from '../mock/respond/self-check.js';

/** A mock answering in-process. */
export interface InProcessMock {
  /**
   * Answers a request as the server would, without a socket. Takes what `fetch` takes; a relative
   * URL (`/pets`) is read against `http://localhost`. Routing looks at the path only.
   *
   * @example const pets = await (await mock.fetch('/pets', { headers: { Authorization: 'Bearer petstore-demo-key' } })).json();
   */
  fetch(input: Request | URL | string, init?: RequestInit): Promise<Response>;
  /** The Hono app behind `fetch` (mount it in your own server: `app.mount('/api', mock.app.fetch)`). */
  readonly app: Hono;
  /** The shared state (requests without `X-Mock-Session`). */
  readonly store: StateStore;
  /** The document served: `api` dereferenced, `raw` as written. */
  readonly document: { readonly api: OpenAPIDocument; readonly raw: OpenAPIDocument; readonly dialect: '3.0' | '3.1' };
  /** How each operation is answered: from a collection's state, or from examples (and why). */
  readonly operations: readonly OperationAnswer[];
  /** What the mock noticed about the document at start (schemas it could not compile...). */
  readonly warnings: readonly string[];
  /** The names of the plugins that serve the document (`['petstore']`). */
  readonly plugins: readonly string[];
  /** With `selfCheck: true`, what the self-check has seen so far (updated as requests are answered); undefined without it. */
  readonly selfCheck?: Readonly<SelfCheckCounts>;
  /** Puts the seeded state back: same seed, same data. Sessions are dropped. */
  reset(): void;
  /**
   * Seeds again with another seed and/or record counts, then resets everything.
   * @throws Error when the counts would pass the bound on records (nothing changed).
   */
  seed(change?: { seed?: number; counts?: Record<string, number> }): { seed: number; counts: Record<string, number> };
  /** A deep copy of the shared state, as `GET /__admin/state` returns it. */
  snapshot(): StateSnapshot;
  /**
   * Replaces the shared state with a snapshot (from `snapshot()` or a state file).
   * @throws Error saying what is wrong when the snapshot does not fit the document (nothing changed).
   */
  restore(snapshot: StateSnapshot): void;
  /** Whether the document defines the path of `url` (under its base path), whatever the method. */
  handles(url: URL | string): boolean;
}

/** Where relative URLs given to `fetch` are read from. */
const LOCAL = 'http://localhost';

/** Builds the pipeline for a loaded document and wraps it (the entries add document loading and, on Node, `listen`). */
export function inProcessMock(document: LoadedDocument, options: BuildMockOptions): { mock: InProcessMock; built: Mock } {
  const built = buildMock(document, options);
  const basePath = serverBasePath(document.api);
  const known = [...new Set(built.operations.map((op) => op.path))].map((template) => templateMatcher(template, basePath));
  const mock: InProcessMock = {
    fetch: async (input, init) => {
      const request = input instanceof Request && init === undefined ? input : new Request(typeof input === 'string' ? new URL(input, LOCAL) : input, init);
      return built.app.fetch(request);
    },
    app: built.app,
    store: built.store,
    document: { api: document.api as OpenAPIDocument, raw: document.raw as OpenAPIDocument, dialect: document.dialect },
    operations: built.answers,
    warnings: built.warnings,
    plugins: built.plugins,
    selfCheck: built.selfCheck,
    reset: () => {
      built.reset();
      for (const name of built.sessions.names()) built.sessions.drop(name);
    },
    seed: (change = {}) => {
      const result = built.reseed(change);
      if (typeof result === 'string') throw new Error(result);
      return result;
    },
    snapshot: () => exportSnapshot(built.store),
    restore: (snapshot) => {
      const checked = built.checkState(snapshot);
      if (typeof checked === 'string') throw new Error(`The snapshot does not fit the document: ${checked}`);
      const full = built.importState(built.store, checked);
      if (full) throw new Error(`The snapshot was not restored (nothing changed): ${full}.`);
    },
    handles: (url) => {
      const path = new URL(url, LOCAL).pathname;
      return known.some((matches) => matches(path) !== undefined);
    },
  };
  return { mock, built };
}
