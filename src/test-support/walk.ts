/**
 * A stateful walk over a mock of any document, its self-check on: each call is sent with `app.request()`, and every
 * answer is checked against the operation the path and method name in the document (declared
 * status, media type, body schema, required headers). A test then asserts reads after writes.
 */
import { expect } from 'vitest';
import { buildMock, type Mock, type BuildMockOptions } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import type { Operation } from '../openapi/operations/operation.js';
import { templateFinder } from '../openapi/operations/path-template.js';
import { serverBasePath } from '../openapi/operations/server-base-path.js';
import { createAjv } from '../openapi/validation/ajv-instance.js';
import { SchemaConverter } from '../openapi/validation/to-json-schema.js';
import { createResponseChecker } from '../openapi/validation/validate-response.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON when it is JSON. */
  body: any;
}

export type WalkCall = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>;

/** `call('POST', '/members', {...})`: JSON unless a Content-Type says otherwise, and the answer checked against the document. */
export async function walk(file: string, options: BuildMockOptions = {}, defaults: Record<string, string> = {}): Promise<Mock & { call: WalkCall }> {
  const document = await loadDocument(file);
  const mock = buildMock(document, { selfCheck: true, ...options });
  const ajv = createAjv(document.dialect);
  const check = createResponseChecker(ajv, new SchemaConverter(document.api, ajv, document.dialect));
  const basePath = serverBasePath(document.api);
  // The operations of each method, ranked and compiled once.
  const finders = new Map<string, (pathname: string) => { item: Operation } | undefined>();
  const operationOf = (method: string, path: string): Operation | undefined => {
    const wanted = method.toLowerCase();
    let find = finders.get(wanted);
    if (!find) finders.set(wanted, (find = templateFinder(mock.operations.filter((op) => op.method === wanted), basePath, (op) => op.path)));
    return find(path.split('?')[0])?.item;
  };

  const call: WalkCall = async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...defaults, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
    }
    const response = await mock.app.request(path, init);
    const text = await response.text();
    const operation = operationOf(method, path);
    if (operation) expect(check(operation, { status: response.status, headers: response.headers, text }), `${method} ${path} -> ${response.status} ${text.slice(0, 200)}`).toEqual([]);
    // The mock's own self-check agrees, and found nothing either.
    expect(mock.warnings.filter((w) => w.startsWith('Self-check')), `${method} ${path}`).toEqual([]);
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  };
  return { ...mock, call };
}
