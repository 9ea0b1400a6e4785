/**
 * `createMock` on Node: the document from a file, a URL or an object (the bundled Petstore by
 * default, with its fixtures and its rules, exactly as `petstore-mock-kit serve` starts), answered
 * in-process, and `listen` to serve it over HTTP as the CLI does.
 */
import { BUNDLED_FIXTURES, BUNDLED_SPEC } from '../core/bundled.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { packageDocsAssets } from '../mock/docs/docs-assets.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { allowedHostsFor, hostCheck, isLoopbackAddress } from '../mock/middleware/host-guard.js';
import { errorResponse } from '../core/api-error.js';
import { startServer } from '../server/serve.js';
import { NODE_REQUESTS } from '../server/node-requests.js';
import { inProcessMock, type InProcessMock } from './in-process-mock.js';
import type { MockOptions } from '../mock/mock-options.js';
import { connectPostgres } from '../state/postgres-stores.js';

export { BUNDLED_FIXTURES, BUNDLED_SPEC };

export interface ListenOptions {
  /** Interface to listen on (default 127.0.0.1). Beyond loopback, `adminToken` or `admin: false` is required. */
  host?: string;
  /** Host names answered besides loopback ones (others get 421; see `--allowed-host`). */
  allowedHosts?: string[];
}

export interface ListeningMock {
  /** `http://127.0.0.1:4010` */
  url: string;
  port: number;
  /** Stops accepting connections and resolves once in-flight requests are answered. */
  close(): Promise<void>;
}

export interface MockInstance extends InProcessMock {
  /**
   * Serves the mock over HTTP, as the CLI does (timeouts, the Host check, graceful close).
   * @param port default 0: any free port (read it from the result)
   * @throws Error when the port is taken, or when `host` goes beyond loopback with the admin API open and no token.
   */
  listen(port?: number, options?: ListenOptions): Promise<ListeningMock>;
  /** Ends what the mock holds open: the connections to PostgreSQL (with `store: 'postgres://…'`), once its writes are committed. */
  close(): Promise<void>;
}

/**
 * @example
 * import { createMock } from 'petstore-mock-kit';
 * const mock = await createMock();                       // the bundled Petstore, seed 1
 * const res = await mock.fetch('/pets?limit=2', { headers: { Authorization: 'Bearer petstore-demo-key' } });
 * const server = await mock.listen(4010);                // or serve it
 * await server.close();
 * @throws DocumentLoadError when the document cannot be served (one sentence saying why), FixtureError for a bad fixture, StoreStartError when a PostgreSQL `store` cannot be used.
 */
export async function createMock(options: MockOptions = {}): Promise<MockInstance> {
  const { spec, fixtures, plugins, docs, allowRemoteRefs, store, storeNamespace, ...rest } = options;
  const bundled = spec === undefined;
  const document = await loadDocument(bundled ? BUNDLED_SPEC : spec instanceof URL ? spec.href : spec, { allowRemoteRefs });
  // The state in PostgreSQL: connected first (a StoreStartError says why it cannot be), then seeded or loaded.
  const stores = typeof store === 'string' ? await connectPostgres({ url: store, namespace: storeNamespace, onEvent: options.onWarning, maxSessions: options.maxSessions }) : undefined;
  const { mock, built } = inProcessMock(document, {
    ...rest,
    store: stores?.make ?? (typeof store === 'string' ? undefined : store),
    persistence: stores && (() => stores.health()),
    fixtures: fixtures ?? (bundled ? BUNDLED_FIXTURES : undefined),
    plugins: plugins ?? DEFAULT_PLUGINS,
    docs: docs === false ? undefined : packageDocsAssets(),
    requestReader: NODE_REQUESTS,
  });
  try {
    await stores?.ready();
  } catch (error) {
    await stores?.close();
    throw error;
  }
  return {
    ...mock,
    close: async () => stores?.close(),
    listen: async (port = 0, { host = '127.0.0.1', allowedHosts }: ListenOptions = {}) => {
      if (!isLoopbackAddress(host) && options.admin !== false && options.adminToken === undefined) {
        throw new Error(`Refusing to listen on ${host}: other machines could reach the admin API; set adminToken, or admin: false.`);
      }
      const check = hostCheck(allowedHostsFor(host, allowedHosts));
      const fetch = (request: Request, env?: unknown) => {
        const refused = check?.(request.url);
        return refused ? errorResponse(refused) : built.app.fetch(request, env);
      };
      const running = await startServer({ fetch }, { port, host });
      return { url: running.url, port: running.port, close: running.close };
    },
  };
}
