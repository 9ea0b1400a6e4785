/**
 * The contract suite against the mock, in-process: it passes, catches each broken implementation,
 * and its findings carry typed facts. Over a real socket against the started CLI, behind
 * `prism proxy --errors`, and the CLI's `contract` command: contract.process.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { petstore, petstoreDocument } from '../test-support/petstore.js';
import { describeFinding, type Exchange } from './case.js';
import { judgedCounts } from '../test-support/contract-servers/judged-counts.js';
import { FAULTS } from '../test-support/contract-servers/faults.js';
import { formatReport } from './report/console.js';
import { ContractSetupError, runContract } from './run-contract.js';
import type { RunOptions } from './run-options.js';
import { petstoreContract } from '../plugins/petstore/contract.js';

const document = await petstoreDocument();
const TOKEN = 'petstore-demo-key';
/** The suite as the CLI runs it on the bundled document: with the Petstore plugin. */
const petstoreRun = (options: Omit<RunOptions, 'document' | 'plugins'>) => runContract({ document, plugins: [{ name: 'petstore', part: petstoreContract }], ...options });
const inProcess = (handler: (request: Request) => Promise<Response> | Response) => (url: string, init: RequestInit) => Promise.resolve(handler(new Request(url, init)));

describe('the contract suite against the mock', () => {
  it('passes in-process, exercises every declared status but the sunset 410, and leaves no data behind', async () => {
    const mock = await petstore();
    const before = JSON.stringify(mock.store.counts());
    const sent: Exchange[] = [];
    const report = await petstoreRun({ baseUrl: 'http://mock.test', token: TOKEN, fetch: inProcess(mock.app.fetch), onExchange: (exchange) => sent.push(exchange) });
    process.stdout.write(formatReport(report));
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(report.requests).toBeGreaterThan(300);
    // Every case judged by the document's validator before it was sent, and every one confirmed.
    expect(report.confirmed).toEqual({ ...judgedCounts(sent), unconfirmed: 0 });
    expect(report.confirmed.invalid).toBeGreaterThan(100);
    expect(report.coverage.filter((r) => !r.exercised).map((r) => `${r.operationId} ${r.status}`)).toEqual(['getPet 410']);
    expect(JSON.stringify(mock.store.counts())).toBe(before);
  });

  it('stops, rather than passing, when the server refuses its token', async () => {
    const mock = await petstore();
    await expect(petstoreRun({ baseUrl: 'http://mock.test', token: 'wrong', fetch: inProcess(mock.app.fetch) })).rejects.toThrow(ContractSetupError);
  });

  it('narrows to one check and one operation, and sends nothing that changes state with readOnly', async () => {
    const mock = await petstore();
    const requests: string[] = [];
    const spy = (r: Request) => (requests.push(r.method), mock.app.fetch(r));
    const only = await petstoreRun({ baseUrl: 'http://mock.test', token: TOKEN, fetch: inProcess(spy), only: ['auth_enforced'], operations: ['listPets'] });
    expect(only.checks).toEqual(['auth_enforced']);
    expect(only.coverage.map((r) => r.operationId)).toEqual(['listPets', 'listPets', 'listPets']);
    requests.length = 0;
    const readOnly = await petstoreRun({ baseUrl: 'http://mock.test', token: TOKEN, fetch: inProcess(spy), readOnly: true });
    expect(readOnly.failures).toEqual([]);
    expect(new Set(requests)).toEqual(new Set(['GET']));
  });
});

describe('proof of strength: broken implementations', () => {
  const killed: string[] = [];
  afterAll(() => {
    process.stdout.write(`kill rate: ${killed.length}/${FAULTS.length} faults caught\n`);
  });

  for (const fault of FAULTS) {
    it(`catches ${fault.name} (${fault.breaks}) with ${fault.caughtBy}`, async () => {
      const mock = await petstore();
      const report = await petstoreRun({ baseUrl: 'http://mock.test', token: TOKEN, fetch: inProcess(fault.wrap(mock)) });
      const caught = report.failures.filter((f) => f.check === fault.caughtBy);
      expect(caught.length, `${fault.name} was not caught by ${fault.caughtBy}; failures: ${report.failures.map((f) => f.check).join(', ') || 'none'}`).toBeGreaterThan(0);
      expect(describeFinding(caught[0])).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/\S*: received .+, documented .+/);
      killed.push(fault.name);
    });
  }
});

describe('the one status rule', () => {
  it('fails a server that refuses missing credentials with 403 where the document declares only 401, and files no gap for it', async () => {
    const mock = await petstore();
    const report = await petstoreRun({ baseUrl: 'http://mock.test', token: TOKEN, fetch: inProcess(FAULTS.find((f) => f.name === 'forbidden-for-no-credentials')!.wrap(mock)), operations: ['getPet'] });
    expect(report.gaps).toEqual([]);
    expect(new Set(report.failures.map((f) => `${f.check}: received ${f.received}, documented ${f.documented}`))).toEqual(new Set([
      'auth_enforced: received 403 for no credentials, documented 401 (a 401 with WWW-Authenticate) for no credentials',
      'auth_enforced: received 403 for an unknown key, documented 401 (a 401 with WWW-Authenticate) for an unknown key',
      'auth_enforced: received 403 for another scheme (Basic), documented 401 (a 401 with WWW-Authenticate) for another scheme (Basic)',
      'status_code_conformance: received 403, documented 401 for no credentials, as the operation declares',
      'status_code_conformance: received 403, documented 401 for an unknown key, as the operation declares',
      'status_code_conformance: received 403, documented 401 for another scheme (Basic), as the operation declares',
    ]));
    expect(report.failures.find((f) => f.check === 'status_code_conformance')).toMatchObject({ status: 403, expected: ['401'], declared: expect.arrayContaining(['200', '401', '404']) });
  });
});

describe('findings', () => {
  const findingsOf = async (fault: string, only: RunOptions['only']) => {
    const mock = await petstore();
    return (await petstoreRun({ baseUrl: 'http://mock.test', token: TOKEN, fetch: inProcess(FAULTS.find((f) => f.name === fault)!.wrap(mock)), only })).failures;
  };

  it('carry typed facts straight from the validator: the status, what is declared, the path, the keyword and its place in the schema', async () => {
    const [status] = await findingsOf('created-with-200', ['status_code_conformance']);
    expect(status).toMatchObject({ check: 'status_code_conformance', status: 200, path: 'status', rule: 'declared', declared: expect.arrayContaining(['201', '400', '401']) });
    expect(status.declared).not.toContain('200');
    const [media] = await findingsOf('wrong-content-type', ['content_type_conformance']);
    expect(media).toMatchObject({ path: 'header.Content-Type', rule: 'declared', declared: ['application/json'] });
    const body = (await findingsOf('pet-without-name', ['response_schema_conformance'])).find((f) => f.operationId === 'getPet');
    expect(body).toMatchObject({ status: 200, path: 'body.name', rule: 'required', schemaPath: expect.stringMatching(/^#.*\/required$/) });
    const [unknown] = await findingsOf('repeated-delete-succeeds', ['repeated_delete']);
    expect(unknown).toMatchObject({ status: 204, expected: ['404'], received: '204 for delete again', documented: '404 for a second DELETE' });
  });
});
