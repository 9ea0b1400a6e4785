/**
 * The contract suite against the mock as a process: over a real socket against the started CLI,
 * behind `prism proxy --errors` (Prism validating every request and response), a finding's curl
 * run with bash, and the CLI's `contract` command (dist/cli.js: `npm run build` first). In-process:
 * contract.test.ts.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../server/serve.js';
import { petstore, petstoreDocument, ROOT } from '../test-support/petstore.js';
import { startCli, startProcess, freePort, track } from '../test-support/processes.js';
import { describeFinding } from './case.js';
import { FAULTS } from '../test-support/contract-servers/faults.js';
import { SHELF, SHELF_TOKEN, shelfServer } from '../test-support/contract-servers/shelf-server.js';
import { runContract } from './run-contract.js';
import type { RunOptions } from './run-options.js';
import { petstoreContract } from '../plugins/petstore/contract.js';

const document = await petstoreDocument();
const TOKEN = 'petstore-demo-key';
/** The suite as the CLI runs it on the bundled document: with the Petstore plugin. */
const petstoreRun = (options: Omit<RunOptions, 'document' | 'plugins'>) => runContract({ document, plugins: [{ name: 'petstore', part: petstoreContract }], ...options });
const stop: Array<() => unknown> = [];
afterAll(async () => {
  for (const s of stop.reverse()) await s();
});

describe('the contract suite against the mock as a process', () => {
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
});

describe('findings', () => {
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
      // 'close', not 'exit': the pipes may still hold output when the process has exited.
      child.on('close', (code) => resolve({ code, out }));
    });

  it('exits 0 against the mock and writes JUnit XML and the coverage JSON', async () => {
    const cli = await startCli([]);
    stop.push(() => cli.child.kill('SIGKILL'));
    const dir = mkdtempSync(join(tmpdir(), 'junit-'));
    const result = await run(['--base-url', cli.url, '--token', TOKEN, '--junit', join(dir, 'junit.xml'), '--coverage', join(dir, 'coverage.json')]);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(/PASS: the implementation conforms \(\d+ requests; 21 checks: 21 passed; seed \d+; [\d.]+ s\)/);
    // Its output is piped: no progress line (the next test shows one on a terminal).
    expect(result.out).not.toContain('\x1b[K');
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
    // One line for the cause, the operations under it (getPet among them).
    expect(result.out).toMatch(/\n✗ \[response_schema_conformance\] received (\d{3}, )*200(, \d{3})* without body\.name, documented (\d{3}, )*200(, \d{3})* requires field `name`\n {4}\d+ time\(s\) on \d+ operation\(s\): [^\n]*GET \/pets\/\{petId\} \(getPet\) \d+/);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<failure message="GET \/pets\/\{petId\}: received 200 without body.name/);
  });

  it('shows a progress line on a terminal (run under script(1)); none when piped is checked on the run above', async () => {
    const cli = await startCli([]);
    stop.push(() => cli.child.kill('SIGKILL'));
    const command = `${process.execPath} ${join(ROOT, 'dist/cli.js')} contract --base-url ${cli.url} --token ${TOKEN} --coverage ${join(mkdtempSync(join(tmpdir(), 'tty-')), 'c.json')}`;
    const { stdout } = await promisify(execFile)('script', ['-qc', command, '/dev/null']);
    expect(stdout).toMatch(/\r\x1b\[K {2}\d+ requests {2}(GET|POST|PUT|PATCH|DELETE) \//);
    expect(stdout).toMatch(/PASS: the implementation conforms/);
  });

  it('--dry-run lists the requests a run would send, and sends none to the base URL (nothing listens there)', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const result = await run(['--base-url', nobody, '--dry-run']);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(/^GET {4}\/pets {2}# listPets: check that the token is accepted$/m);
    expect(result.out).toMatch(/^DELETE \/pets\/\d+ {2}# deletePet: clean-up$/m);
    expect(result.out).toMatch(new RegExp(`^\\d{3} requests would be sent to ${nobody.replace(/\./g, '\\.')} \\(played here against the built-in mock`, 'm'));
  });

  it('exits 2 with one sentence at a wrong base URL or with a refused token, and still writes the JUnit file with that error', async () => {
    const cli = await startCli([]);
    stop.push(() => cli.child.kill('SIGKILL'));
    const dir = mkdtempSync(join(tmpdir(), 'junit-'));
    const wrong = await run(['--base-url', `${cli.url}/v2`, '--token', TOKEN, '--junit', join(dir, 'wrong.xml')]);
    expect(wrong.code, wrong.out).toBe(2);
    expect(wrong.out.trim().split('\n').slice(1)).toEqual([`Every path of the document the suite tried at ${cli.url}/v2 answered 404 (GET /pets, GET /categories, GET /store/orders): is the base URL right (--base-url, with any base path)? Nothing was checked.`]);
    expect(readFileSync(join(dir, 'wrong.xml'), 'utf8')).toMatch(/<testsuites name="contract" tests="1" failures="0" errors="1"[^]*<error message="Every path of the document/);
    const refused = await run(['--base-url', cli.url, '--token', 'wrong-token', '--junit', join(dir, 'refused.xml')]);
    expect(refused.code).toBe(2);
    expect(readFileSync(join(dir, 'refused.xml'), 'utf8')).toMatch(/<error message="The server refused the credentials: GET \/pets answered 401 to the token \(--token\) sent as the document&apos;s scheme `[^`]+` says, as `Authorization: Bearer &lt;token&gt;`; check that the token/);
    expect(readFileSync(join(dir, 'refused.xml'), 'utf8')).not.toContain('wrong-token');
  });

  it('exits 4 when it leaves records of its own behind, naming them; --allow-leftovers makes it a warning', async () => {
    const shelf = shelfServer({ refuseDelete: true });
    const upstream = await startServer({ fetch: shelf.fetch }, { port: 0, host: '127.0.0.1' });
    stop.push(() => upstream.close());
    const dir = mkdtempSync(join(tmpdir(), 'shelf-'));
    stop.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'shelf.json'), JSON.stringify(SHELF));
    const args = ['--base-url', upstream.url, '--spec', join(dir, 'shelf.json'), '--token', SHELF_TOKEN, '--only', 'create_read_back'];
    const left = await run([...args, '--junit', join(dir, 'junit.xml')]);
    expect(left.code, left.out).toBe(4);
    expect(left.out).toMatch(/\nLEFT BEHIND: 1 record\(s\) the suite created, or may have, and could not delete \(this fails the run; --allow-leftovers makes it a warning\):\n {2}✗ POST \/books answered 201, key 2: not deleted, its DELETE answered 409\n/);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<failure message="left behind: POST /books answered 201, key 2: not deleted, its DELETE answered 409" type="left_behind"/>');
    const allowed = await run([...args, '--allow-leftovers']);
    expect(allowed.code, allowed.out).toBe(0);
    expect(allowed.out).toMatch(/Left behind \(allowed with --allow-leftovers; delete them yourself\):\n {2}- POST \/books answered 201, key 3: not deleted/);
  });

  it('exits 2 with a sentence for a refused token, an unreachable server or a bad flag', async () => {
    const cli = await startCli([]);
    stop.push(() => cli.child.kill('SIGKILL'));
    expect(await run(['--base-url', cli.url, '--token', 'wrong'])).toMatchObject({ code: 2, out: expect.stringMatching(/refused the credentials: GET \/pets answered 401/) });
    const nobody = await freePort();
    expect(await run(['--base-url', `http://127.0.0.1:${nobody}`, '--token', TOKEN])).toMatchObject({ code: 2, out: expect.stringMatching(new RegExp(`Cannot talk to http://127\\.0\\.0\\.1:${nobody}: ECONNREFUSED`)) });
    expect(await run(['--base-url', cli.url, '--only', 'nope'])).toMatchObject({ code: 2, out: expect.stringMatching(/^Unknown check nope; the checks are: response_received, not_a_server_error, .*state_transitions\.\n$/) });
    expect(await run(['--base-url', cli.url, '--operation', 'listPetz'])).toMatchObject({ code: 2, out: expect.stringMatching(/^Unknown operation listPetz; the document's operations are: listPets, /) });
    expect(await run(['--base-url', cli.url, '--plugin', 'petstor'])).toMatchObject({ code: 2, out: expect.stringMatching(/^Unknown plugin petstor; the plugins are: petstore \(or none\)\.\n$/) });
  });
});
