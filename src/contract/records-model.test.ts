/**
 * The suite's model of a server's records, on a headless CMS's shape (cms-api.yaml): records in a
 * `{"data": ...}` envelope, 403 for an unknown id, a text key the client must choose though the
 * document leaves it optional, item paths ending with a slash, a create that takes an array. The
 * suite reaches the record operations, sends no key it does not have, and leaves nothing behind.
 */
import { describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { ROOT } from '../test-support/petstore.js';
import { cmsServer, type CmsServer } from '../test-support/contract-servers/cms-server.js';
import { describeFinding } from './case.js';
import { formatReport } from './report/console.js';
import type { ContractReport } from './contract-report.js';
import { runContract } from './run-contract.js';

const inProcess = (handler: (request: Request) => Promise<Response>) => (url: string, init: RequestInit) => handler(new Request(url, init));

/** The single-record operations of cms-api.yaml, and the pattern of their paths as the server receives them. */
const ITEM_OPERATIONS: Array<[string, string, RegExp]> = [
  ['readRole', 'GET', /^\/roles\/[^/?]+/],
  ['updateRole', 'PATCH', /^\/roles\/[^/?]+/],
  ['deleteRole', 'DELETE', /^\/roles\/[^/?]+/],
  ['readCollection', 'GET', /^\/collections\/[^/?]+\/?(\?|$)/],
  ['updateCollection', 'PATCH', /^\/collections\/[^/?]+\/?(\?|$)/],
  ['deleteCollection', 'DELETE', /^\/collections\/[^/?]+\/?(\?|$)/],
];

async function run(server: CmsServer): Promise<ContractReport> {
  const document = await loadDocument(`${ROOT}test/documents/cms-api.yaml`);
  const statuses = new Map<string, number[]>();
  const spy = async (request: Request) => {
    const response = await server.fetch(request);
    const path = new URL(request.url).pathname;
    for (const [id, method, pattern] of ITEM_OPERATIONS) {
      if (request.method === method && pattern.test(path)) statuses.set(id, [...(statuses.get(id) ?? []), response.status]);
    }
    return response;
  };
  const report = await runContract({ document, baseUrl: 'http://cms.test', fetch: inProcess(spy) });
  (report as ContractReport & { statuses: typeof statuses }).statuses = statuses;
  return report;
}

describe('the records of a headless CMS: envelopes, 403 for unknown ids, a key the client chooses', () => {
  it('reaches nearly every single-record operation, with 0 failures, and leaves the server as it was', async () => {
    const server = cmsServer();
    const before = JSON.stringify([[...server.roles], [...server.collections]]);
    const report = await run(server);
    process.stdout.write(formatReport(report));
    expect(report.failures.map(describeFinding)).toEqual([]);
    // Reach, from what the server received: every single-record operation requested, and answered 2xx.
    const statuses = (report as ContractReport & { statuses: Map<string, number[]> }).statuses;
    const requested = ITEM_OPERATIONS.filter(([id]) => statuses.has(id));
    const succeeded = ITEM_OPERATIONS.filter(([id]) => statuses.get(id)?.some((s) => s >= 200 && s < 300));
    expect(requested.length / ITEM_OPERATIONS.length).toBeGreaterThanOrEqual(0.9);
    expect(succeeded.length / ITEM_OPERATIONS.length).toBeGreaterThanOrEqual(0.9);
    // The report says the same.
    expect(report.reach).toEqual({ singleRecord: { total: 6, requested: requested.length, succeeded: succeeded.length }, neverRequested: [] });
    expect(formatReport(report)).toContain(`single-record operations: ${requested.length} requested, ${succeeded.length} answered 2xx, of 6`);
    // No key the suite did not have: no empty path segment, no `undefined`, no `null`.
    expect(server.seen.filter((line) => /\/\/|undefined|null|\/(roles|collections)\/(\?|$)/.test(line.split(' ')[1]))).toEqual([]);
    // The key the client must choose: in every create that carried an object (the invalid ones too), never twice.
    expect(server.collectionKeys.length).toBeGreaterThan(3);
    expect(server.collectionKeys.filter((key) => typeof key !== 'string')).toEqual([]);
    expect(new Set(server.collectionKeys).size).toBe(server.collectionKeys.length);
    // The lifecycle ran through the envelope: read back, update, delete.
    const ran = (check: string) => report.outcomes.filter((o) => o.check === check && o.passed > 0).map((o) => o.operationId).sort();
    expect(ran('create_read_back')).toEqual(['createRole', 'readCollection', 'readRole']);
    // The create that takes an array was sent one, and each role it made was deleted (below).
    expect(server.arrayCreates).toBeGreaterThan(0);
    expect(ran('update_persists')).toEqual(['readCollection', 'readRole', 'updateCollection', 'updateRole']);
    expect(ran('use_after_delete')).toEqual(['deleteCollection', 'deleteRole', 'readCollection', 'readRole']);
    expect(ran('list_contains_created')).toEqual(['listCollections', 'listRoles']);
    expect(ran('filter_conformance')).toEqual(['listRoles']);
    // Nothing left behind, the server's own records as they were.
    expect(report.leftBehind).toEqual([]);
    expect(JSON.stringify([[...server.roles], [...server.collections]])).toBe(before);
  });

  it('counts and deletes every role a create made, from an array, and the blank role made of a body without Content-Type', async () => {
    const server = cmsServer({ blankWithoutContentType: true });
    const before = JSON.stringify([[...server.roles], [...server.collections]]);
    const report = await run(server);
    // A real finding: a body without Content-Type accepted where the operation declares 400.
    expect(new Set(report.failures.map((f) => `${f.check} ${f.operationId}`))).toEqual(new Set(['negative_data_rejection createRole']));
    expect(server.arrayCreates).toBeGreaterThan(0);
    expect(report.leftBehind).toEqual([]);
    expect(JSON.stringify([[...server.roles], [...server.collections]])).toBe(before);
  });

  it('never sends a request for a record whose key it does not have: it says why, and finds the record by its marker to delete it', async () => {
    const server = cmsServer({ keylessAnswers: true });
    const before = JSON.stringify([[...server.roles], [...server.collections]]);
    const report = await run(server);
    // A real finding: the create's answer lacks the required id.
    expect(report.failures.filter((f) => f.operationId !== 'createRole').map(describeFinding)).toEqual([]);
    expect(server.seen.filter((line) => /\/\/|undefined|null|\/roles\/(\?|$)/.test(line.split(' ')[1]))).toEqual([]);
    const reasons = report.outcomes.filter((o) => o.operationId === 'readRole').flatMap((o) => o.skipped);
    expect(reasons.some((r) => r.includes('no value for its path parameter `id`'))).toBe(true);
    expect(report.leftBehind).toEqual([]);
    expect(JSON.stringify([[...server.roles], [...server.collections]])).toBe(before);
  });

  it('the mock serving the same document stores the record inside the envelope and answers in it: the suite reaches every single-record operation and passes', async () => {
    const document = await loadDocument(`${ROOT}test/documents/cms-api.yaml`);
    const mock = buildMock(document, { counts: { default: 3 } });
    const read = await mock.app.fetch(new Request('http://mock.test/roles/1'));
    const body = (await read.json()) as { data?: { id?: unknown } };
    expect(body.data?.id).toBe(1);
    const report = await runContract({ document, baseUrl: 'http://mock.test', fetch: async (url, init) => mock.app.fetch(new Request(url, init)) });
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(report.reach?.singleRecord).toEqual({ total: 6, requested: 6, succeeded: 6 });
  });

  it('says in one line why each operation was never requested, never "not applicable"', async () => {
    const server = cmsServer();
    const document = await loadDocument(`${ROOT}test/documents/cms-api.yaml`);
    const report = await runContract({ document, baseUrl: 'http://cms.test', fetch: inProcess(server.fetch), readOnly: true });
    const never = report.reach!.neverRequested;
    expect(never.map((n) => n.operationId).sort()).toEqual(['createCollection', 'createRole', 'deleteCollection', 'deleteRole', 'updateCollection', 'updateRole']);
    for (const { reason } of never) expect(reason).toMatch(/read-only/);
    const text = formatReport(report);
    expect(text).toContain('single-record operations: 2 requested, 2 answered 2xx, of 6');
    expect(text).toMatch(/Never requested \(6\):\n  · POST \/roles \(createRole\): --read-only/);
    // No check of an operation never requested is skipped for a check's scope.
    const skipped = report.outcomes.filter((o) => never.some((n) => n.operationId === o.operationId)).flatMap((o) => o.skipped);
    expect(skipped.filter((r) => r.startsWith('not applicable'))).toEqual([]);
  });
});
