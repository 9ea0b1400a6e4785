/**
 * The suite reaches a record's operations past rules the document does not state, and judges the
 * document as written: on a server whose database refuses a priority outside 1..3 and a slug or
 * e-mail already taken (constraints-server.ts), a refused valid create or update is reported once,
 * as a gap, and other values the document allows are tried until one is taken; a null where the
 * document says `nullable: true` beside a oneOf is no finding, nor a body the document does not
 * describe; and a broken promise is one finding at its place, not one per branch.
 */
import { describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { ROOT } from '../test-support/petstore.js';
import { constraintsServer } from '../test-support/contract-servers/constraints-server.js';
import { describeFinding } from './case.js';
import { runContract } from './run-contract.js';

const inProcess = (handler: (request: Request) => Promise<Response>) => (url: string, init: RequestInit) => handler(new Request(url, init));
const SEED = [{ id: 1, title: 'Theirs', slug: 'hello-world', authorEmail: 'ann@example.com', priority: 2, summary: null }];

describe('a server holding constraints its document does not state', async () => {
  const document = await loadDocument(`${ROOT}test/documents/constraints-api.yaml`);
  const run = async (options: { broken?: boolean; explore?: boolean } = {}) => {
    const server = constraintsServer(SEED, options);
    const report = await runContract({ document, baseUrl: 'http://constraints.test', fetch: inProcess(server.fetch), explore: options.explore });
    return { server, report };
  };

  it('reports a refused valid create once, as a rule the document does not state, then reaches every operation of the record', async () => {
    const { server, report } = await run();
    expect(report.failures.map(describeFinding)).toEqual([]);
    const refusals = report.gaps.filter((g) => g.check === 'positive_data_acceptance' && g.operationId === 'createArticle');
    expect(refusals).toHaveLength(1);
    expect(refusals[0].documented).toMatch(/accepted with another valid body \(priority = \d, the field the server's answer names\): the server holds a rule the document does not state$/);
    // Each operation on the record was requested and answered 2xx.
    for (const operation of [/^POST \/articles -> 201$/, /^GET \/articles\/\d+ -> 200$/, /^PUT \/articles\/\d+ -> 200$/, /^DELETE \/articles\/\d+ -> 200$/]) {
      expect(server.calls.some((call) => operation.test(call)), String(operation)).toBe(true);
    }
    const passed = (check: string) => report.outcomes.filter((o) => o.check === check && o.passed > 0).map((o) => o.operationId);
    expect(passed('create_read_back')).toContain('getArticle');
    expect(passed('update_persists')).toEqual(expect.arrayContaining(['replaceArticle']));
    expect(passed('use_after_delete')).toContain('deleteArticle');
    // A null summary (nullable beside a oneOf) and a DELETE's undeclared body are no findings at all.
    expect([...report.failures, ...report.gaps].filter((f) => /summary|body/.test(`${f.path ?? ''} ${f.documented}`) && f.check.includes('schema'))).toEqual([]);
    expect(report.leftBehind).toEqual([]);
    expect(server.articles).toEqual(SEED);
  });

  it('never sends a slug or an e-mail twice, an example included: none is refused as taken', async () => {
    const { server, report } = await run();
    expect(server.calls.filter((call) => / -> 422 priority /.test(call)).length).toBeGreaterThan(0); // the priority rule was met
    expect(server.calls.filter((call, i) => /must be unique/.test(call) || /must be unique/.test(server.calls[i + 1] ?? ""))).toEqual([]);
    expect(report.failures).toEqual([]);
  });

  it('on a server that breaks a promise (a summary of 42), reports each problem once, at its place', async () => {
    // The fixed checks: exploration's answers hold back a red the run already reports, so they are not counted here.
    const { server, report } = await run({ broken: true, explore: false });
    const wrong = report.failures.filter((f) => f.check === 'response_schema_conformance');
    for (const finding of wrong) expect(finding.documented).toMatch(/^body\.(\d+\.)?summary must be null or string or object$/);
    // One finding per answer that carried one record: not one per branch of the oneOf, and one more for the keyword.
    const records = server.calls.filter((call) => /^(GET \/articles\/\d+ -> 200|PUT \/articles\/\d+ -> 200|POST \/articles -> 201)$/.test(call));
    expect(records.length).toBeGreaterThan(3);
    expect(wrong.filter((f) => f.path === 'body.summary')).toHaveLength(records.length);
    // The only other broken promise: the summary sent does not read back.
    expect(report.failures.filter((f) => f.check !== 'response_schema_conformance' && !/summary = 42 instead of /.test(f.received)).map(describeFinding)).toEqual([]);
  });

  it('the mock serving the same document takes a null summary (nullable beside a oneOf) and passes the suite', async () => {
    const mock = buildMock(document, { counts: { default: 3 } });
    const created = await mock.app.request('/articles', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ title: 'T', slug: 's', priority: 7, summary: null }) });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { summary: unknown }).summary).toBeNull();
    const refused = await mock.app.request('/articles', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ title: 'T', slug: 's', priority: 7, summary: 5 }) });
    expect(refused.status).toBe(400);
    const report = await runContract({ document, baseUrl: 'http://mock.test', fetch: async (url, init) => mock.app.fetch(new Request(url, init)) });
    expect(report.failures.map(describeFinding)).toEqual([]);
  });
});
