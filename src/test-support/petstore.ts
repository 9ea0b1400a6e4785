/**
 * Test helpers: the Petstore document loaded once per test file, a mock built from it in one
 * line, and requests with the demo key.
 */
import { buildMock, DEMO_API_KEY, type Mock, type BuildMockOptions } from '../mock/app.js';
import { loadDocument, type LoadedDocument } from '../openapi/document/load-document.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { PACKAGE_ROOT } from '../core/package-root.js';
import { expect } from 'vitest';

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

/**
 * A fresh Petstore mock with the embedded fixtures and the CLI's plugins (options override), its
 * self-check on: `call` fails a test on any answer the self-check finds against the document.
 */
export async function petstore(options: BuildMockOptions = {}): Promise<Mock & { call: Call }> {
  const mock = buildMock(await petstoreDocument(), { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS, selfCheck: true, ...options });
  const call = caller(mock);
  return {
    ...mock,
    call: async (...args) => {
      const answer = await call(...args);
      expect(mock.warnings.filter((w) => w.startsWith('Self-check')), `${args[0]} ${args[1]}`).toEqual([]);
      return answer;
    },
  };
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
