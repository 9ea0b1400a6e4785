/**
 * `petstore-mock-kit/msw`: MSW request handlers answered by the stateful mock, in-process, for
 * `setupServer` (Node: vitest, jest) and `setupWorker` (the browser: Storybook, a dev build).
 * Requests under `baseUrl` to a path the document defines are answered by the mock (its state is
 * kept between requests); every other request falls through to your other handlers, or to MSW's
 * `onUnhandledRequest`.
 */
import { http, type HttpHandler } from 'msw';
import type { InProcessMock } from './library/in-process-mock.js';
import { firstServerUrl, serverBasePath } from './openapi/operations/server-base-path.js';
import { MOUNT_ENV, type MountPoint } from './mock/pipeline/client-base.js';

export interface MswHandlerOptions {
  /**
   * Where your application sends its API calls: an absolute URL (`https://api.example.com/v1`)
   * or a path on any origin (`/api`). The part after it is served under the document's own base
   * path, so an app calling `/api/pets` reaches the document's `/v1/pets`. Default: the
   * document's first server URL (the Petstore's is `http://localhost:4010`).
   */
  baseUrl?: string;
}

/** The mock's own endpoints, served at its root whatever the document's base path (its authorization server's too: a front end gets its tokens through MSW as well). */
const MOCK_ENDPOINTS = /^\/__(admin|health|spec|oauth)(\/|$|\.)/;

/**
 * @example
 * import { setupServer } from 'msw/node';
 * import { createMock } from 'petstore-mock-kit';
 * import { mswHandlers } from 'petstore-mock-kit/msw';
 * const mock = await createMock();
 * const server = setupServer(...mswHandlers(mock, { baseUrl: 'https://api.example.com' }));
 * server.listen(); // afterEach: mock.reset()
 */
export function mswHandlers(mock: InProcessMock, options: MswHandlerOptions = {}): HttpHandler[] {
  const { target, mount } = targetPath(mock, options.baseUrl);
  // The mock writes its URLs (`Location`, `Link`, records' own links) under the base the app calls.
  const env = { [MOUNT_ENV]: mount };
  return [
    http.all(
      ({ request }) => target(new URL(request.url)) !== undefined,
      async ({ request }) => {
        const url = new URL(request.url);
        const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
        const forwarded = new Request(new URL(`${target(url)}${url.search}`, url.origin), {
          method: request.method,
          headers: request.headers,
          body: hasBody ? await request.arrayBuffer() : undefined,
        });
        return mock.app.fetch(forwarded, env);
      },
    ),
  ];
}

/** The mock's path for a URL under `baseUrl` (undefined when the mock does not serve it), and where `baseUrl` puts the mock's paths. */
function targetPath(mock: InProcessMock, baseUrl: string | undefined): { target: (url: URL) => string | undefined; mount: MountPoint } {
  const given = baseUrl ?? firstServerUrl(mock.document.api) ?? '/';
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(given);
  const base = new URL(given, 'http://any.origin');
  const origin = absolute ? base.origin : undefined;
  const prefix = base.pathname.replace(/\/+$/, '');
  const basePath = serverBasePath(mock.document.api);
  const target = (url: URL) => {
    if (origin !== undefined && url.origin !== origin) return undefined;
    if (prefix && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return undefined;
    const rest = url.pathname.slice(prefix.length) || '/';
    if (MOCK_ENDPOINTS.test(rest)) return rest;
    const path = `${basePath}${rest}`;
    return mock.handles(path) ? path : undefined;
  };
  // The mock's own endpoints are under the prefix, the document's paths under it in place of the document's base path.
  return { target, mount: { prefix, basePath: prefix } };
}
