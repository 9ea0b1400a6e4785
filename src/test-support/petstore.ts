/**
 * Test helpers: the Petstore document loaded once per test file, a mock built from it in one
 * line, and requests with the demo key.
 */
import { buildMock, DEMO_API_KEY, type Mock, type BuildMockOptions } from '../app.js';
import { loadDocument, type LoadedDocument } from '../document/load-document.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { PACKAGE_ROOT } from '../core/package-root.js';

/** The checkout, with a trailing slash. */
export const ROOT = `${PACKAGE_ROOT}/`;
export const SPEC = `${ROOT}spec/openapi.yaml`;
export const FIXTURES = `${ROOT}fixtures`;
/** Third-party OpenAPI documents, with their sources and licences (test/corpus/SOURCES.md). */
export const CORPUS = `${ROOT}test/corpus`;
export const AUTH = { Authorization: `Bearer ${DEMO_API_KEY}` };

let document: Promise<LoadedDocument> | undefined;
export function petstoreDocument(): Promise<LoadedDocument> {
  return (document ??= loadDocument(SPEC));
}

/** A fresh Petstore mock with the embedded fixtures and the CLI's plugins (options override). */
export async function petstore(options: BuildMockOptions = {}): Promise<Mock & { call: Call }> {
  const mock = buildMock(await petstoreDocument(), { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS, ...options });
  return { ...mock, call: caller(mock) };
}

export type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; headers: Headers; body: any }>;

/** `call('POST', '/pets', { name: 'Rex' })`: JSON in, parsed JSON out, demo key included. */
export function caller(mock: Mock): Call {
  return callerFor(async (path, init) => mock.app.request(path, init));
}

/** The same over HTTP, for a mock (or any server) at `baseUrl`. */
export function httpCaller(baseUrl: string): Call {
  return callerFor((path, init) => fetch(`${baseUrl}${path}`, init));
}

function callerFor(send: (path: string, init: RequestInit) => Promise<Response>): Call {
  return async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...AUTH, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
    }
    const response = await send(path, init);
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
}
