/// <reference path="./yaml-module.d.ts" />
/**
 * `petstore-mock-kit/browser`: `createMock` for a page, a Storybook or a dev build, answering in
 * the browser (pair it with `petstore-mock-kit/msw` and MSW's `setupWorker`). The bundled Petstore
 * document and fixtures are built in, so nothing is fetched by default. No `listen` (there is no
 * socket to listen on), no fixtures directory, no Swagger 2.0 conversion: those need Node.
 */
import petstoreDocument from '../spec/openapi.yaml';
import categories from '../fixtures/categories.json' with { type: 'json' };
import { dereferenceLocal } from './openapi/document/dereference-local.js';
import { DocumentLoadError, prepareDocument } from './openapi/document/document.js';
import { parseText } from './openapi/document/parse-text.js';
import { DEFAULT_PLUGINS } from './plugins/index.js';
import { inProcessMock, type InProcessMock } from './library/in-process-mock.js';
import type { BrowserMockOptions } from './mock/mock-options.js';

/**
 * @example
 * import { createMock } from 'petstore-mock-kit/browser';
 * import { mswHandlers } from 'petstore-mock-kit/msw';
 * import { setupWorker } from 'msw/browser';
 * const mock = await createMock();
 * await setupWorker(...mswHandlers(mock)).start();
 * @throws DocumentLoadError when the document cannot be served (one sentence saying why).
 */
export async function createMock(options: BrowserMockOptions = {}): Promise<InProcessMock> {
  const { spec, fixtures, plugins, ...rest } = options;
  const bundled = spec === undefined;
  const url = typeof spec === 'string' || spec instanceof URL ? new URL(spec, (globalThis as { location?: { href: string } }).location?.href).href : undefined;
  const raw = bundled ? petstoreDocument : url ? await fetchDocument(url) : spec;
  const document = await prepareDocument(structuredClone(raw), { name: url ?? (bundled ? 'the bundled Petstore document' : 'the document given'), file: url, dereference: dereferenceLocal });
  return inProcessMock(document, {
    ...rest,
    fixtures: fixtures ?? (bundled ? { categories } : undefined),
    plugins: plugins ?? DEFAULT_PLUGINS,
  }).mock;
}

async function fetchDocument(url: string): Promise<unknown> {
  let text: string;
  try {
    const response = await fetch(url, { headers: { Accept: 'application/yaml, application/json, text/yaml, */*' } });
    if (!response.ok) throw new DocumentLoadError(`Cannot fetch the OpenAPI document ${url}: it answered ${response.status}.`);
    text = await response.text();
  } catch (error) {
    if (error instanceof DocumentLoadError) throw error;
    throw new DocumentLoadError(`Cannot fetch the OpenAPI document ${url}: ${(error as Error).message}.`);
  }
  return parseText(url, text);
}

export * from './library/in-process-exports.js';
export type { BrowserMockOptions } from './mock/mock-options.js';
