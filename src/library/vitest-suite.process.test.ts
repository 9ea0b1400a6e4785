/**
 * contract-tests/ run as users run it: `vitest run --config contract-tests/vitest.config.ts` in a
 * child process against the mock and against a broken mock, each served on loopback from this
 * process. The suite passes the mock, fails the broken one on the same (operation, check) pairs
 * as runContract with the same seed, splits with `--shard` into disjoint halves that together run
 * every test, writes JUnit with `-t`, and without CONTRACT_BASE_URL says what to set, once.
 * Exploration is off (CONTRACT_EXPLORE=0): the fixed checks are enough to compare verdicts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../mock/app.js';
import { runContract } from './run-contract.js';
import { sliceOperations } from '../contract/slice-operations.js';
import { buildOperations } from '../openapi/operations/build-operations.js';
import { startServer, type RunningServer } from '../server/serve.js';
import { FAULTS } from '../test-support/contract-servers/faults.js';
import { FIXTURES, petstoreDocument, ROOT } from '../test-support/petstore.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { track } from '../test-support/processes.js';

const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const SLICES = 4;
const FAULT = 'pet-without-name';

interface JsonReport {
  testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[]; title: string; fullName: string; status: string; failureMessages: string[] }> }>;
}

let dir: string;
let mock: RunningServer;
let broken: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'contract-vitest-'));
  const document = await petstoreDocument();
  mock = await startServer(buildMock(document, { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS }).app, { port: 0, host: '127.0.0.1' });
  const fault = FAULTS.find((f) => f.name === FAULT)!;
  broken = await startServer({ fetch: fault.wrap(buildMock(document, { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS })) }, { port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await mock?.close();
  await broken?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `vitest run` of contract-tests/ with the environment and arguments given; its exit code and output. */
function vitest(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; output: string }> {
  // The child is a vitest of its own: nothing of the vitest running this test may reach it.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(VITEST|TEST$|NODE_OPTIONS$|CONTRACT_)/.test(key)));
  const child = track(spawn(process.execPath, [VITEST, 'run', '--config', 'contract-tests/vitest.config.ts', ...args], { cwd: ROOT, env: { ...inherited, CONTRACT_EXPLORE: '0', ...env } }));
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

/** The suite's JSON report against `url`: exit code, every test by its full name (`contract 1/4 > createPet > positive_data_acceptance`) with its status, the failure messages. */
async function suiteRun(url: string, name: string, args: string[] = []): Promise<{ code: number | null; output: string; tests: Map<string, string>; messages: string }> {
  const file = join(dir, `${name}.json`);
  const { code, output } = await vitest({ CONTRACT_BASE_URL: url, CONTRACT_TOKEN: DEMO_API_KEY }, ['--reporter=json', `--outputFile=${file}`, ...args]);
  const report = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
  const results = report.testResults.flatMap((file) => file.assertionResults);
  const tests = new Map(results.map((t) => [[...t.ancestorTitles, t.title].join(' > '), t.status] as const));
  return { code, output, tests, messages: results.flatMap((t) => t.failureMessages).join('\n') };
}

/** The (operation > check) pairs runContract fails on `url`, slice by slice as the suite's files run them, with the same seed. */
async function failingPairs(url: string): Promise<string[]> {
  const operations = buildOperations((await petstoreDocument()).api);
  const pairs: string[] = [];
  for (let k = 1; k <= SLICES; k++) {
    const report = await runContract({ baseUrl: url, token: DEMO_API_KEY, seed: 1, explore: false, operations: sliceOperations(operations, [k, SLICES]) });
    pairs.push(...report.outcomes.filter((o) => o.failed > 0).map((o) => `${o.operationId} > ${o.check}`));
  }
  return pairs.sort();
}

/** The failed tests as `operation > check` (their slice's describe left out). */
/** The same, for one run of every operation (the CLI's `contract` with the same seed and --no-explore). */
async function wholeFailingPairs(url: string): Promise<string[]> {
  const report = await runContract({ baseUrl: url, token: DEMO_API_KEY, seed: 1, explore: false });
  return report.outcomes.filter((o) => o.failed > 0).map((o) => `${o.operationId} > ${o.check}`).sort();
}

const failed = (tests: Map<string, string>) => [...tests].filter(([, status]) => status === 'failed').map(([name]) => name.replace(/^contract \d+\/\d+ > /, '')).sort();
const status = (tests: Map<string, string>, pair: string) => [...tests].find(([name]) => name.endsWith(` > ${pair}`))?.[1];

describe('contract-tests/ as a vitest suite', () => {
  let whole: Map<string, string>;

  it('passes the mock, with a test per operation and check, some skipped with their reason', async () => {
    const run = await suiteRun(mock.url, 'mock');
    expect(run.code, run.output).toBe(0);
    whole = run.tests;
    expect(status(whole, 'createPet > positive_data_acceptance')).toBe('passed');
    expect([...whole.values()]).toContain('skipped');
    expect(failed(whole)).toEqual(await failingPairs(mock.url));
  });

  it('fails a broken server on the same operations and checks as runContract with the same seed', async () => {
    const run = await suiteRun(broken.url, 'broken');
    expect(run.code).toBe(1);
    const failing = failed(run.tests);
    expect(failing).toContain('getPet > response_schema_conformance');
    expect(failing).toEqual(await failingPairs(broken.url));
    expect(failing).toEqual(await wholeFailingPairs(broken.url));
    // The failure says what was received and documented, and how to send the request again.
    expect(run.messages).toMatch(/GET \/pets\/\{petId\}: response_schema_conformance, \d+ findings?\n- .*: received .*, documented /);
    expect(run.messages).toContain('repro: curl');
  });

  it('splits over --shard 1/2 and 2/2 into disjoint halves that together run every test', async () => {
    const first = await suiteRun(mock.url, 'shard-1', ['--shard', '1/2']);
    const second = await suiteRun(mock.url, 'shard-2', ['--shard', '2/2']);
    expect(first.code, first.output).toBe(0);
    expect(second.code, second.output).toBe(0);
    const a = [...first.tests.keys()];
    const b = [...second.tests.keys()];
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(a.filter((name) => b.includes(name))).toEqual([]);
    expect([...a, ...b].sort()).toEqual([...whole.keys()].sort());
  });

  it('writes JUnit with -t: the tests it names run, the others are skipped', async () => {
    const file = join(dir, 'junit.xml');
    const { code, output } = await vitest({ CONTRACT_BASE_URL: mock.url, CONTRACT_TOKEN: DEMO_API_KEY }, ['--reporter=junit', `--outputFile=${file}`, '-t', 'createPet']);
    expect(code, output).toBe(0);
    const xml = readFileSync(file, 'utf8');
    const cases = [...xml.matchAll(/<testcase classname="[^"]*" name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => ({ name: m[1], skipped: (m[3] ?? '').includes('<skipped') }));
    const named = cases.filter((c) => c.name.includes('createPet &gt; positive_data_acceptance'));
    expect(named, xml.slice(0, 2000)).toHaveLength(1);
    expect(named[0].skipped).toBe(false);
    expect(cases.find((c) => c.name.includes('listPets &gt; status_code_conformance'))?.skipped).toBe(true);
  });

  it('without CONTRACT_BASE_URL, says what to set, once', async () => {
    const { code, output } = await vitest({});
    expect(code).not.toBe(0);
    expect(output.match(/set CONTRACT_BASE_URL/g)).toHaveLength(1);
  });
});
