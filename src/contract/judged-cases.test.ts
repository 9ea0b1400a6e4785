/**
 * Every case is judged by the document's own request validator before it is sent. The shapes that
 * made the suite call cases what they were not, each a false failure of a correct server (a bound
 * only one branch of a `oneOf` states, a PATCH that takes only merge-patch, an `int32` key), with
 * the mock serving them; and a JSON-encoded `filter` parameter, exercised on a real server that
 * breaks its document through it and on the mock, which keeps it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { ROOT } from '../test-support/petstore.js';
import { describeFinding, type Exchange } from './case.js';
import { judgedCounts } from '../test-support/contract-servers/judged-counts.js';
import { todosServer } from '../test-support/contract-servers/todos-filter-server.js';
import type { ContractReport } from './contract-report.js';
import { runContract } from './run-contract.js';

const library = await loadDocument(`${ROOT}test/documents/library-judged-api.yaml`);
const todos = await loadDocument(`${ROOT}test/documents/todos-filter-api.yaml`);
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.closeAllConnections?.() ?? s.close()));

/** A run against the mock serving a document, with every exchange it sent. */
async function againstMock(document: typeof library, seed = 1): Promise<{ report: ContractReport; sent: Exchange[] }> {
  const mock = buildMock(document, { counts: { default: 5 } });
  const sent: Exchange[] = [];
  const report = await runContract({ document, seed, baseUrl: 'http://mock.test', fetch: async (url, init) => mock.app.fetch(new Request(url, init)), onExchange: (exchange) => sent.push(exchange) });
  return { report, sent };
}

const bodyOf = (exchange: Exchange | undefined) => JSON.parse(Buffer.from(exchange?.case.body ?? '').toString()) as Record<string, unknown>;
const labelled = (sent: Exchange[], label: string | RegExp, method?: string) => sent.filter((ex) => (typeof label === 'string' ? ex.case.label === label : label.test(ex.case.label)) && (!method || ex.case.method === method));

describe('cases the document\'s validator confirms before they are sent, against the mock', () => {
  it('breaks pages past its maximum on a Book, never on an Audiobook (which bounds no pages), even starting from an Audiobook', async () => {
    // The negative phase starts from one valid body (the one sent without Content-Type shows it); with some seed it is an Audiobook.
    for (let seed = 1; seed <= 10; seed++) {
      const { report, sent } = await againstMock(library, seed);
      expect(report.failures.map(describeFinding)).toEqual([]);
      const pages = labelled(sent, 'body.pages beyond its maximum 5000', 'POST');
      expect(pages.map((ex) => [bodyOf(ex).kind, bodyOf(ex).pages, ex.status])).toEqual([['book', 5001, 400]]);
      if (bodyOf(labelled(sent, 'a body without Content-Type', 'POST')[0]).kind === 'audiobook') return;
    }
    expect.fail('no seed from 1 to 10 started the negative phase from an Audiobook');
  });

  it('sends a PATCH that takes only application/merge-patch+json as that, and the mock accepts and keeps it', async () => {
    const { report, sent } = await againstMock(library);
    const merge = labelled(sent, 'merge the record', 'PATCH');
    expect(merge.map((ex) => [ex.case.headers['Content-Type'], ex.status])).toEqual([['application/merge-patch+json', 200]]);
    expect(report.outcomes.find((o) => o.check === 'update_persists' && o.operationId === 'getBook')?.passed).toBeGreaterThan(0);
    // Without its media type, the same body is refused with the declared 415.
    expect(labelled(sent, 'a body without Content-Type', 'PATCH').map((ex) => ex.status)).toEqual([415]);
  });

  it('aims at an int32 key no record has, within 2147483647, and gets the 404 the document declares', async () => {
    const { report, sent } = await againstMock(library);
    const unknown = labelled(sent, /which no record has$/);
    expect(unknown.length).toBe(3);
    for (const ex of unknown) {
      const key = Number(/\/books\/(\d+)/.exec(ex.case.path)?.[1]);
      expect(key).toBeGreaterThan(2_147_483_647 - 1001);
      expect(key).toBeLessThanOrEqual(2_147_483_647);
      expect(ex.status).toBe(404);
    }
    expect(report.outcomes.filter((o) => o.check === 'unknown_resource' && o.passed > 0).map((o) => o.operationId)).toEqual(['getBook', 'deleteBook', 'updateBook']);
  });

  it('counts every case it sent as confirmed valid, confirmed invalid, or unjudged (clean-up and edge probes), and sends none it could not confirm', async () => {
    const { report, sent } = await againstMock(library);
    expect(report.confirmed).toEqual({ ...judgedCounts(sent), unconfirmed: 0 });
    expect(report.confirmed.valid + report.confirmed.invalid + report.confirmed.unjudged).toBe(report.requests);
    expect(report.confirmed.invalid).toBeGreaterThan(15);
  });
});

describe('a JSON-encoded filter parameter (content: application/json, as LoopBack\'s)', () => {
  async function serveTodos(): Promise<{ url: string; server: ReturnType<typeof todosServer> }> {
    const server = todosServer([{ title: 'theirs', desc: 'written before the run' }]);
    const http = createServer(server.listener);
    servers.push(http);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, server };
  }

  it('fails a real server that honours filter.fields by leaving out the required title, naming the request', async () => {
    const { url, server } = await serveTodos();
    const report = await runContract({ document: todos, baseUrl: url });
    expect(report.failures.map((f) => `${f.check}: ${describeFinding(f)} (${f.label})`)).toEqual([
      'response_schema_conformance: GET /todos: received 200 without body.0.title, documented 200 requires field `title` (a valid request with query.filter)',
    ]);
    const [failure] = report.failures;
    const filter = JSON.parse(new URL(failure.request.split(' ')[1], url).searchParams.get('filter') ?? '');
    expect(filter.fields).not.toContain('title');
    expect(failure.repro).toContain(`${url}/todos?filter=`);
    expect([...server.todos.values()].map((t) => t.title)).toEqual(['theirs']);
  });

  it('sends valid filters (a few draws) and invalid ones: not JSON, JSON of the wrong type, a property breaking its schema', async () => {
    const { url } = await serveTodos();
    const sent: Exchange[] = [];
    const report = await runContract({ document: todos, baseUrl: url, onExchange: (ex) => sent.push(ex) });
    expect(labelled(sent, 'a valid request with query.filter').length).toBe(3);
    const invalid = labelled(sent, /^query\.filter /).map((ex) => `${ex.case.label}: ${ex.status}`);
    expect(invalid).toEqual(expect.arrayContaining(['query.filter not JSON: 400', 'query.filter JSON of the wrong type: 400', 'query.filter with limit beyond its maximum 100: 400', 'query.filter with fields of the wrong type: 400']));
    expect(report.outcomes.find((o) => o.check === 'negative_data_rejection' && o.operationId === 'listTodos')).toMatchObject({ passed: invalid.length, failed: 0 });
  });

  it('passes the mock serving the same document: it parses the filter as JSON and refuses what its schema refuses', async () => {
    const { report, sent } = await againstMock(todos);
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(labelled(sent, /^query\.filter /).every((ex) => ex.status === 400)).toBe(true);
    expect(labelled(sent, 'a valid request with query.filter').map((ex) => ex.status)).toEqual([200, 200, 200]);
  });
});
