/**
 * Issue 38's proof in one place: on each server shaped like the real ones the suite met (a headless
 * CMS's envelopes, chosen keys and 403s; references named after the model and parents named in the
 * path; rules the document does not state; a nullable oneOf) and on the project's mock, the suite
 * requests and gets a 2xx from at least 90% of the single-record operations, reports no failure,
 * names everything it leaves behind, and sends no write aimed at a record it did not create.
 * Each shape's own test (records-model, references, reach-past-refusals) shows what failed before.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument, type LoadedDocument } from '../openapi/document/load-document.js';
import { petstoreContract } from '../plugins/petstore/contract.js';
import { cmsServer } from '../test-support/contract-servers/cms-server.js';
import { constraintsServer } from '../test-support/contract-servers/constraints-server.js';
import { foldersServer } from '../test-support/contract-servers/folders-server.js';
import { petstore, petstoreDocument, ROOT } from '../test-support/petstore.js';
import { describeFinding } from './case.js';
import type { ContractReport } from './contract-report.js';
import { runContract } from './run-contract.js';
import type { RunOptions } from './run-options.js';

type Handler = (request: Request) => Promise<Response> | Response;

/** Runs the suite in-process, keeping every request the server received as `METHOD /path`. */
async function run(document: LoadedDocument, handler: Handler, options: Partial<RunOptions> = {}): Promise<{ report: ContractReport; calls: string[] }> {
  const calls: string[] = [];
  const fetch = (url: string, init: RequestInit) => {
    const request = new Request(url, init);
    calls.push(`${request.method} ${new URL(request.url).pathname}`);
    return Promise.resolve(handler(request));
  };
  return { report: await runContract({ document, baseUrl: 'http://server.test', fetch, ...options }), calls };
}

function expectTrustworthy({ report, calls }: { report: ContractReport; calls: string[] }): void {
  expect(report.failures.map(describeFinding)).toEqual([]);
  const { total, succeeded } = report.reach!.singleRecord;
  expect(total).toBeGreaterThan(0);
  expect(succeeded / total).toBeGreaterThanOrEqual(0.9);
  // A key the suite did not have is never written as an empty segment.
  expect(calls.filter((call) => /\/\/|\/undefined(\/|$)/.test(call))).toEqual([]);
}

describe('the suite on servers shaped like real ones, and on the mock', () => {
  it('a headless CMS: records in {data}, 403 for unknown ids, chosen text keys, item paths with a slash, array creates', async () => {
    const server = cmsServer();
    const state = () => JSON.stringify([[...server.roles.values()].filter((r) => r.id === 1), [...server.collections.values()].filter((c) => c.collection === 'authors')]);
    const before = state();
    const result = await run(await loadDocument(`${ROOT}test/documents/cms-api.yaml`), server.fetch);
    expectTrustworthy(result);
    expect(result.report.leftBehind).toEqual([]);
    expect(state()).toBe(before);
    expect(server.roles.size + server.collections.size).toBe(2); // its own only: the suite's are gone
  });

  it('references named after the model, parents named in the path, fields and sort of the records themselves', async () => {
    const server = foldersServer();
    const snapshot = () => JSON.stringify([server.roles, server.folders, server.collections, server.comments], (_, value) => (value instanceof Map ? [...value] : value));
    const before = snapshot();
    const result = await run(await loadDocument(`${ROOT}test/documents/folders-api.yaml`), server.fetch);
    expectTrustworthy(result);
    expect(result.report.leftBehind).toEqual([]);
    expect(snapshot()).toBe(before);
  });

  it('rules the document does not state, unique fields, a nullable oneOf', async () => {
    const seed = [{ id: 1, title: 'Theirs', slug: 'hello-world', authorEmail: 'ann@example.com', priority: 2, summary: null }];
    const server = constraintsServer(structuredClone(seed));
    const result = await run(await loadDocument(`${ROOT}test/documents/constraints-api.yaml`), server.fetch);
    expectTrustworthy(result);
    expect(result.report.leftBehind).toEqual([]);
    expect(server.articles).toEqual(seed);
  });

  it('the project\'s mock', async () => {
    const mock = await petstore();
    const before = JSON.stringify(mock.store.counts());
    const result = await run(await petstoreDocument(), mock.app.fetch, { token: 'petstore-demo-key', plugins: [{ name: 'petstore', part: petstoreContract }] });
    expectTrustworthy(result);
    expect(result.report.leftBehind).toEqual([]);
    expect(JSON.stringify(mock.store.counts())).toBe(before);
  });
});
