/**
 * `createProxy`: the validating proxy as a function, in front of any upstream a `fetch` reaches
 * (a server on a port, or an app in the same process), answering in-process, and `listen` to put
 * it on a port as `petstore-mock-kit proxy` does.
 */
import { BUNDLED_FIXTURES, BUNDLED_SPEC } from '../core/bundled.js';
import { loadContractParts } from '../contract/plugin.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { errorResponse } from '../core/api-error.js';
import { allowedHostsFor, hostCheck, isLoopbackAddress } from '../mock/middleware/host-guard.js';
import type { MockOptions } from '../mock/mock-options.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import type { UpstreamFetch } from '../proxy/forward.js';
import type { Violation } from '../proxy/inspect.js';
import { buildProxy, type ProxyExchange } from '../proxy/proxy.js';
import { createRecorder, type RecordingSummary } from '../proxy/record.js';
import { compileDocument } from '../openapi/validation/compiled-document.js';
import type { ViolationCounts } from '../proxy/violations.js';
import { startServer } from '../server/serve.js';
import { NODE_REQUESTS } from '../server/node-requests.js';
import type { ListeningMock } from './create-mock.js';

/** The proxy's options as the package publishes them (the assembly's `ProxyOptions` holds more, internal parts). */
export interface CreateProxyOptions {
  /** The real server's base URL; a request's path and query are appended to it. */
  upstream: string;
  /** Answer a request that breaks the document with its error instead of forwarding it, and name what an answer breaks in X-Proxy-Violations. */
  errors?: boolean;
  /** `mock`: the mock answers an operation the upstream does not implement (404, 405 or 501 that is not the operation's own answer, or no answer at all). */
  fallback?: 'mock';
  /** Operations (by operationId) the mock always answers. */
  mockOperations?: readonly string[];
  /** How long the upstream has for its whole answer (headers, and a body read to be checked: else 504), in milliseconds; a body streamed unchecked is cut after as long a silence (default 30,000). */
  timeoutMs?: number;
  /** Told of each exchange: who answered, and what it broke. */
  onExchange?: (entry: ProxyExchange) => void;
  /** The document (a file, an http(s) URL or the document itself; default: the bundled Petstore). */
  spec?: string | URL | object;
  allowRemoteRefs?: boolean;
  /** How requests reach the upstream (default: the global fetch): `(url, init) => app.request(url, init)` puts the checker in front of an app in this process. */
  fetch?: UpstreamFetch;
  /** Write what the upstream answers as fixtures in this directory (for `fixtures` of a mock, `serve --fixtures`). */
  record?: string;
  /** The mock behind the own endpoints and the fallback (as createMock's options; `spec` is the proxy's). */
  mock?: Omit<MockOptions, 'spec' | 'allowRemoteRefs' | 'docs' | 'store' | 'storeNamespace'>;
}

export interface ProxyInstance {
  /** Answers a request as the proxy does: `await proxy.fetch('/pets/1', { headers })`, a path or a whole URL. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The latest violations, newest first. */
  violations(limit?: number): Violation[];
  counts(): ViolationCounts;
  /** The summary's lines, as the CLI prints them at exit. */
  summary(): string[];
  /** JUnit XML of the violations: a test case per check and operation. */
  junit(): string;
  /** Serves the proxy over HTTP (default port 0: any free one), as the CLI does. */
  listen(port?: number, host?: string): Promise<ListeningMock>;
  /** Closes the connections kept to the upstream, and writes the recording (with `record`: what it wrote). */
  close(): Promise<RecordingSummary | undefined>;
}

/**
 * @example
 * import { createProxy } from 'petstore-mock-kit';
 * const proxy = await createProxy({ upstream: 'http://127.0.0.1:3000' });
 * await proxy.fetch('/pets/1', { headers: { Authorization: 'Bearer my-token' } });
 * proxy.counts().total // violations seen so far
 * @throws DocumentLoadError when the document cannot be served; Error for an upstream that is not an http(s) URL, or an unknown operation in `mockOperations`.
 */
export async function createProxy(options: CreateProxyOptions): Promise<ProxyInstance> {
  const { spec, allowRemoteRefs, record, mock = {}, ...proxyOptions } = options;
  const bundled = spec === undefined;
  const document = await loadDocument(bundled ? BUNDLED_SPEC : spec instanceof URL ? spec.href : spec, { allowRemoteRefs });
  // One compiled document for the proxy's mock, its inspector and the recorder.
  const compiled = compileDocument(document);
  const recorder = record === undefined ? undefined : createRecorder({ dir: record, document, warn: mock.onWarning, compiled });
  const proxy = buildProxy(document, {
    compiled,
    ...proxyOptions,
    contractPlugins: bundled ? await loadContractParts(DEFAULT_PLUGINS) : [],
    mock: { ...mock, fixtures: mock.fixtures ?? (bundled ? BUNDLED_FIXTURES : undefined), plugins: mock.plugins ?? DEFAULT_PLUGINS, requestReader: NODE_REQUESTS },
    onAnswer: recorder && ((answer) => recorder.observe(answer)),
  });
  return {
    fetch: (input, init) => proxy.fetch(input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init)),
    violations: (limit = 100) => proxy.violations.latest(limit),
    counts: () => proxy.violations.counts(),
    summary: () => proxy.violations.summary(),
    junit: () => proxy.violations.junit(proxy.operations, proxy.checks),
    listen: async (port = 0, host = '127.0.0.1') => {
      if (!isLoopbackAddress(host) && mock.admin !== false && mock.adminToken === undefined) {
        throw new Error(`Refusing to listen on ${host}: other machines could reach the admin API; set mock.adminToken, or mock.admin: false.`);
      }
      const check = hostCheck(allowedHostsFor(host));
      const fetch = (request: Request, env?: unknown) => {
        const refused = check?.(request.url);
        return refused ? errorResponse(refused) : proxy.fetch(request, env);
      };
      const running = await startServer({ fetch }, { port, host });
      return { url: running.url, port: running.port, close: running.close };
    },
    close: async () => {
      await proxy.close();
      return recorder?.close();
    },
  };
}

export type { ProxyExchange, Violation, ViolationCounts, RecordingSummary, UpstreamFetch };
