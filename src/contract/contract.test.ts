/**
 * The contract suite against the mock, three ways: in-process, over a real socket against the
 * started CLI, and behind `prism proxy --errors` (Prism validating every request and response).
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../server.js';
import { petstore, petstoreDocument, ROOT } from '../test-support/petstore.js';
import { startCli, startProcess, freePort, track } from '../test-support/processes.js';
import { describeFinding, type Exchange } from './case.js';
import { judgedCounts } from '../test-support/contract-servers/judged-counts.js';
import { FAULTS } from '../test-support/contract-servers/faults.js';
import { formatReport } from './report/console.js';
import { ContractSetupError, runContract, type RunOptions } from './run-contract.js';
import { petstoreContract } from '../plugins/petstore/contract.js';

const document = await petstoreDocument();
const TOKEN = 'petstore-demo-key';
/** The suite as the CLI runs it on the bundled document: with the Petstore plugin. */
const petstoreRun = (options: Omit<RunOptions, 'document' | 'plugins'>) => runContract({ document, plugins: [{ name: 'petstore', part: petstoreContract }], ...options });
const inProcess = (handler: (request: Request) => Promise<Response> | Response) => (url: string, init: RequestInit) => Promise.resolve(handler(new Request(url, init)));
const stop: Array<() => unknown> = [];
afterAll(async () => {
  for (const s of stop.reverse()) await s();
});

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

  it('passes over a real socket against the started CLI', async () => {
    const cli = await startCli([]);
    stop.push(() => cli.child.kill('SIGKILL'));
    const report = await petstoreRun({ baseUrl: cli.url, token: TOKEN });
    expect(report.failures.map(describeFinding)).toEqual([]);
  });

  it('passes behind prism proxy --errors, and Prism reports no violation', async () => {
    const cli = await startCli([]);
    stop.push(() => cli.child.kill('SIGKILL'));
    const port = await freePort();
    const prism = await startProcess(join(ROOT, 'node_modules/.bin/prism'), ['proxy', join(ROOT, 'spec/openapi.yaml'), cli.url, '--errors', '--port', String(port), '--host', '127.0.0.1'], /Prism is listening/);
    stop.push(() => prism.child.kill('SIGKILL'));
    // Prism refuses invalid requests itself, so only checks whose requests are valid go through it.
    const only = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance', 'response_headers_conformance', 'error_shape', 'unknown_resource', 'create_read_back', 'update_persists', 'list_contains_created', 'filter_conformance', 'pagination_conformance', 'use_after_delete', 'repeated_delete', 'referential_integrity', 'state_transitions'] as const;
    const report = await petstoreRun({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, only: [...only] });
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(report.requests).toBeGreaterThan(100);
    expect(prism.output()).toMatch(/Forwarding "get" request/);
    expect(prism.output()).not.toMatch(/violation|Violation|✖/);
  });

  it('fails behind Prism when the upstream breaks the document (Prism sees it too)', async () => {
    const mock = await petstore();
    const broken = FAULTS.find((f) => f.name === 'pet-without-name')!.wrap(mock);
    const upstream = await startServer({ fetch: broken }, { port: 0, host: '127.0.0.1' });
    stop.push(() => upstream.close());
    const port = await freePort();
    const prism = await startProcess(join(ROOT, 'node_modules/.bin/prism'), ['proxy', join(ROOT, 'spec/openapi.yaml'), upstream.url, '--errors', '--port', String(port), '--host', '127.0.0.1'], /Prism is listening/);
    stop.push(() => prism.child.kill('SIGKILL'));
    const report = await petstoreRun({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, only: ['not_a_server_error', 'response_schema_conformance'] });
    expect(report.failures.length).toBeGreaterThan(0);
    expect(prism.output()).toMatch(/VIOLATIONS: Request\/Response not valid/);
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

  it('carry a curl that sends the same request again, the token written as $TOKEN', async () => {
    const mock = await petstore();
    const upstream = await startServer({ fetch: FAULTS.find((f) => f.name === 'pet-without-name')!.wrap(mock) }, { port: 0, host: '127.0.0.1' });
    stop.push(() => upstream.close());
    const report = await petstoreRun({ baseUrl: upstream.url, token: TOKEN, only: ['response_schema_conformance'] });
    const put = report.failures.find((f) => f.request.startsWith('PUT '))!;
    expect(put.repro).toMatch(/^curl -sS -i -X PUT '.+' -H "Authorization: Bearer \$TOKEN" -H 'Content-Type: application\/json' --data-raw '\{.+\}'$/);
    // A finding on data the suite did not create (the seeded pets of a list) reproduces after the run.
    const finding = report.failures.find((f) => f.operationId === 'listPets')!;
    expect(finding.repro).not.toContain(TOKEN);
    const { stdout } = await promisify(execFile)('bash', ['-c', finding.repro!], { env: { ...process.env, TOKEN } });
    expect(stdout).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(stdout).not.toMatch(/"name"/); // the fault again: a pet without its name
    expect(finding.response).toMatch(/^200 \[\{"categoryId"/);
  });
});

describe('petstore-mock-kit contract (npm run contract)', () => {
  const run = (args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = track(spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'contract', ...args], { cwd: mkdtempSync(join(tmpdir(), 'contract-')) }));
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (out += c));
      child.on('exit', (code) => resolve({ code, out }));
    });

  it('exits 0 against the mock and writes JUnit XML and the coverage JSON', async () => {
    const cli = await startCli([]);
    stop.push(() => cli.child.kill('SIGKILL'));
    const dir = mkdtempSync(join(tmpdir(), 'junit-'));
    const result = await run(['--base-url', cli.url, '--token', TOKEN, '--junit', join(dir, 'junit.xml'), '--coverage', join(dir, 'coverage.json')]);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(/PASS: the implementation conforms \(\d+ requests; 21 checks: 21 passed; [\d.]+ s\)/);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<testsuites name="contract" tests="\d+" failures="0"/);
    expect(JSON.parse(readFileSync(join(dir, 'coverage.json'), 'utf8'))[0]).toEqual({ operationId: 'listPets', operation: 'GET /pets', status: '200', exercised: true });
  });

  it('exits 1 against a broken server, listing what is wrong, with failures in the JUnit XML', async () => {
    const mock = await petstore();
    const upstream = await startServer({ fetch: FAULTS.find((f) => f.name === 'pet-without-name')!.wrap(mock) }, { port: 0, host: '127.0.0.1' });
    stop.push(() => upstream.close());
    const dir = mkdtempSync(join(tmpdir(), 'junit-'));
    const result = await run(['--base-url', upstream.url, '--token', TOKEN, '--junit', join(dir, 'junit.xml')]);
    expect(result.code).toBe(1);
    expect(result.out).toContain('[response_schema_conformance] GET /pets/{petId}: received 200 without body.name, documented 200 requires field `name`');
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<failure message="GET \/pets\/\{petId\}: received 200 without body.name/);
  });

  it('shows a progress line on a terminal (run under script(1)), and none when its output is piped', async () => {
    const cli = await startCli([]);
    stop.push(() => cli.child.kill('SIGKILL'));
    const command = `${process.execPath} ${join(ROOT, 'dist/cli.js')} contract --base-url ${cli.url} --token ${TOKEN} --coverage ${join(mkdtempSync(join(tmpdir(), 'tty-')), 'c.json')}`;
    const { stdout } = await promisify(execFile)('script', ['-qc', command, '/dev/null']);
    expect(stdout).toMatch(/\r\x1b\[K {2}\d+ requests {2}(GET|POST|PUT|PATCH|DELETE) \//);
    expect(stdout).toMatch(/PASS: the implementation conforms/);
    expect((await run(['--base-url', cli.url, '--token', TOKEN])).out).not.toContain('\x1b[K');
  });

  it('--dry-run lists the requests a run would send, and sends none to the base URL (nothing listens there)', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const result = await run(['--base-url', nobody, '--dry-run']);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(/^GET {4}\/pets {2}# listPets: check that the token is accepted$/m);
    expect(result.out).toMatch(/^DELETE \/pets\/\d+ {2}# deletePet: clean-up$/m);
    expect(result.out).toMatch(new RegExp(`^\\d{3} requests would be sent to ${nobody.replace(/\./g, '\\.')} \\(played here against the built-in mock`, 'm'));
  });

  it('exits 2 with a sentence for a refused token, an unreachable server or a bad flag', async () => {
    const cli = await startCli([]);
    stop.push(() => cli.child.kill('SIGKILL'));
    expect(await run(['--base-url', cli.url, '--token', 'wrong'])).toMatchObject({ code: 2, out: expect.stringMatching(/refused the credentials: GET \/pets answered 401/) });
    const nobody = await freePort();
    expect(await run(['--base-url', `http://127.0.0.1:${nobody}`, '--token', TOKEN])).toMatchObject({ code: 2, out: expect.stringMatching(new RegExp(`Cannot talk to http://127\\.0\\.0\\.1:${nobody}: ECONNREFUSED`)) });
    expect(await run(['--base-url', cli.url, '--only', 'nope'])).toMatchObject({ code: 2, out: expect.stringMatching(/^Unknown check nope; the checks are: response_received, not_a_server_error, .*state_transitions\.\n$/) });
    expect(await run(['--base-url', cli.url, '--operation', 'listPetz'])).toMatchObject({ code: 2, out: expect.stringMatching(/^Unknown operation listPetz; the document's operations are: listPets, /) });
    expect(await run(['--base-url', cli.url, '--profile', 'petstor'])).toMatchObject({ code: 2, out: expect.stringMatching(/^Unknown profile petstor; the profiles are: petstore \(or none\)\.\n$/) });
  });
});
