/**
 * `npm run bench`: the mock beside Prism's mock (silent and with its default logging), Mockoon's
 * CLI and a bare Hono server, on this machine, in one run. Targets are loaded alternately with
 * autocannon at fixed connections and duration, each measurement repeated (3 times by default), and
 * the medians reported: requests/s, p50 and p99 latency, peak RSS, start to first answer, and the
 * ratios mock/Prism, mock/Mockoon and mock/bare Hono. A scenario a target does not answer as the
 * scenario means (Mockoon validates no request and checks no credentials) is not loaded on it: the
 * status it answers is recorded instead. Then the mock alone: start and memory with 100,000 pets,
 * and the cost of a list page with 1,000 and 1,000,000 records. Then large documents, the mock
 * beside Prism, Mockoon and Scalar's mock server (bench/scalar-mock.ts): seconds from spawn to the
 * first answer and peak RSS for a generated document of 2,000 operations over `$ref` chains of 50,
 * the same with one chain of 500, and GitHub's REST API description (@octokit/openapi) when it is
 * installed. Then the validating proxy (issue 29): one upstream (the mock serving the bundled Petstore)
 * loaded directly, through `petstore-mock-kit proxy` and through `prism proxy`, alternately, with the
 * CPU each process spent per request. Then replicas on PostgreSQL (`--store`): a PostgreSQL of the
 * bench's own (src/test-support/postgres.ts), the mock in memory beside one replica on the store and
 * two behind examples/balancer.mjs, each on a database of its own, alternately, with the CPU of each
 * process (PostgreSQL's too) per request. Results go to bench/results/latest.{json,md}.
 *
 * Flags: --duration S (default 5), --connections N (default 50), --repeat N (default 3), --quick
 * (1 s, 1 repetition, no million-record run, small documents: for checking the script itself),
 * --only large (only the large documents; the other results in latest.json are kept), --only proxy
 * (only the proxy's section, the same way), --only throughput (only the mock beside its peers, the same way), --only replicas (only the PostgreSQL replicas' section, the same way), --limit S
 * (how long a target may take to answer a large document, default 120), --document FILE (one more
 * large document; it must answer GET /), --baseline DIR (a built checkout of an earlier commit: its
 * mock is measured beside this one, as one more target, so a change is judged in one run).
 * Then the contract suite (issue 39, bench/contract-bench.ts): its requests per second against the
 * mock beside the mock's ceiling, and the time to the first failure for each fault class; --only
 * contract for that section alone (the other results kept), with --quick one run and one seed.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { PACKAGE_ROOT } from '../src/core/package-root.js';
import { findPostgres, startPostgres, type RunningPostgres } from '../src/test-support/postgres.js';
import { stopAll as stopTracked } from '../src/test-support/processes.js';
import { writeLargeDocument, type LargeDocumentOptions } from './large-document.js';
import { contractMarkdown, contractSection } from './contract-bench.js';

const ROOT = `${PACKAGE_ROOT}/`;
const { values } = parseArgs({
  options: {
    duration: { type: 'string' },
    connections: { type: 'string' },
    repeat: { type: 'string' },
    quick: { type: 'boolean' },
    only: { type: 'string' },
    limit: { type: 'string' },
    document: { type: 'string' },
    baseline: { type: 'string' },
  },
});
const quick = values.quick ?? false;
const DURATION = Number(values.duration ?? (quick ? 1 : 5));
const CONNECTIONS = Number(values.connections ?? 50);
const REPEAT = Number(values.repeat ?? (quick ? 1 : 3));
const AUTH = { Authorization: 'Bearer petstore-demo-key' };
const ONLY_LARGE = values.only === 'large';
const ONLY_PROXY = values.only === 'proxy';
const ONLY_REPLICAS = values.only === 'replicas';
const ONLY_CONTRACT = values.only === 'contract';
const ONLY_THROUGHPUT = values.only === 'throughput';
if (values.only !== undefined && !ONLY_LARGE && !ONLY_PROXY && !ONLY_REPLICAS && !ONLY_CONTRACT && !ONLY_THROUGHPUT) throw new Error(`--only ${values.only}: only "throughput", "large", "proxy", "replicas" and "contract" are known`);
const LIMIT_MS = Number(values.limit ?? 120) * 1000;

interface Target {
  name: string;
  command: string[];
  /** Set in the target's environment, on top of the bench's. */
  env?: Record<string, string>;
  /**
   * The scenarios (by name) this target does not answer as the scenario means, with the reason:
   * not loaded on it, shown as n/a with the status it answered.
   */
  notApplicable?: Record<string, string>;
}
const prism = (spec: string) => [`${ROOT}node_modules/.bin/prism`, 'mock', spec, '-p', 'PORT', '-h', '127.0.0.1'];
/**
 * Mockoon's CLI (@mockoon/cli) on an OpenAPI document, which it imports as it starts. Its log file
 * is off (it has no quieter setting: each request is still a JSON line on stdout, discarded here),
 * and its home is a temporary folder, removed at the end: it creates `~/.mockoon-cli/logs` on every
 * start, file or not.
 */
const mockoon = (spec: string) => [`${ROOT}node_modules/.bin/mockoon-cli`, 'start', '--data', spec, '--port', 'PORT', '--hostname', '127.0.0.1', '--disable-log-to-file'];
const MOCKOON_HOME = mkdtempSync(join(tmpdir(), 'bench-mockoon-home-'));
const MOCKOON_ENV = { HOME: MOCKOON_HOME };
const TARGETS: Target[] = [
  { name: 'mock', command: [process.execPath, `${ROOT}dist/cli.js`, 'serve', '--port', 'PORT'] },
  { name: 'prism (-v silent)', command: [...prism(`${ROOT}spec/openapi.yaml`), '-v', 'silent'] },
  { name: 'prism (default logging)', command: prism(`${ROOT}spec/openapi.yaml`) },
  {
    name: 'mockoon',
    command: mockoon(`${ROOT}spec/openapi.yaml`),
    env: MOCKOON_ENV,
    notApplicable: {
      'POST /pets (invalid, 400)': 'Mockoon validates no request body',
      'GET /pets without credentials (401)': 'Mockoon checks no credentials',
    },
  },
  { name: 'bare hono', command: [process.execPath, `${ROOT}dist/bench/bare-hono.js`, 'PORT'] },
  // The same, with the mock's way of writing answers (src/server.ts answerInBatches): the ceiling for that transport.
  { name: 'bare hono, in batches', command: [process.execPath, `${ROOT}dist/bench/bare-hono.js`, 'PORT', '--batches'] },
];
// --baseline DIR: another build of the mock (a checkout of an earlier commit, built), measured beside this one in the same run.
if (values.baseline) TARGETS.splice(1, 0, { name: 'mock (baseline)', command: [process.execPath, `${values.baseline.replace(/\/$/, '')}/dist/cli.js`, 'serve', '--port', 'PORT'] });

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The status the mock must answer (checked, so a fast wrong answer does not count). */
  expect: number;
}
const json = { ...AUTH, 'Content-Type': 'application/json' };
const SCENARIOS: Scenario[] = [
  { name: 'GET /pets/{petId}', method: 'GET', path: '/pets/1', headers: AUTH, expect: 200 },
  { name: 'GET /pets (page of 20)', method: 'GET', path: '/pets?limit=20', headers: AUTH, expect: 200 },
  { name: 'POST /pets (valid)', method: 'POST', path: '/pets', headers: json, body: JSON.stringify({ name: 'Rex', categoryId: 1 }), expect: 201 },
  { name: 'POST /pets (invalid, 400)', method: 'POST', path: '/pets', headers: json, body: JSON.stringify({ name: 5 }), expect: 400 },
  { name: 'GET /pets without credentials (401)', method: 'GET', path: '/pets', headers: {}, expect: 401 },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let nextPort = 4600;

/** The directory of the bench's PostgreSQL while it runs (the replicas' section), removed if the bench ends early. */
let postgresDirectory: string | undefined;

/** The process groups still running, stopped if the bench itself ends early (Ctrl-C, an error). */
const groups = new Set<number>();
const stopAll = () => groups.forEach((pid) => void tryKill(-pid, 'SIGKILL'));
process.once('exit', () => {
  stopAll();
  // The bench's PostgreSQL (a child the test support tracks), killed, and its directory removed, when the bench ends early.
  stopTracked();
  if (postgresDirectory) rmSync(postgresDirectory, { recursive: true, force: true });
  rmSync(MOCKOON_HOME, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

function tryKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

interface Running {
  child: ChildProcess;
  url: string;
  startMs: number;
  /** False when the time limit passed first (startMs is then the limit). */
  answered: boolean;
  /** The status of the first answer. */
  status?: number;
}

/** The request that tells a target has started, and how long it may take to answer it (default: no limit). */
interface Probe {
  path: string;
  limitMs?: number;
}

/** Starts a target and measures the time from spawn to its first answered request. */
async function start(target: Target, extra: string[] = [], probe: Probe = { path: '/pets/1' }): Promise<Running> {
  const port = nextPort++;
  const [command, ...args] = target.command.map((part) => part.replace('PORT', String(port)));
  const started = performance.now();
  // In a process group of its own, so a stop reaches what a wrapper (npm, Prism's shell) started.
  const env = target.env ? { ...process.env, ...target.env } : undefined;
  const child = spawn(command, [...args, ...extra], { stdio: 'ignore', cwd: ROOT, detached: true, env });
  groups.add(child.pid!);
  child.once('exit', () => groups.delete(child.pid!));
  const url = `http://127.0.0.1:${port}`;
  const limit = probe.limitMs ?? Infinity;
  for (;;) {
    const left = limit - (performance.now() - started);
    if (left <= 0) return { child, url, startMs: limit, answered: false };
    try {
      // A server that accepts the connection but is still busy counts only once it answers, within the limit.
      const response = await fetch(`${url}${probe.path}`, { headers: AUTH, signal: Number.isFinite(left) ? AbortSignal.timeout(Math.ceil(left)) : undefined });
      await response.arrayBuffer();
      return { child, url, startMs: performance.now() - started, answered: true, status: response.status };
    } catch {
      if (child.exitCode !== null) throw new Error(`${target.name} exited with ${child.exitCode}`);
      await sleep(2);
    }
  }
}

async function stop(running: Running): Promise<void> {
  const exited = new Promise((r) => running.child.once('exit', r));
  tryKill(-running.child.pid!, 'SIGTERM');
  await Promise.race([exited, sleep(3000)]);
  tryKill(-running.child.pid!, 'SIGKILL');
}

/** Resident memory of a process and its children (Prism runs node under a shell wrapper). */
function memory(pid: number): { rss: number; peak: number } {
  const pids = [pid, ...childrenOf(pid)];
  let rss = 0;
  let peak = 0;
  for (const p of pids) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      peak += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {
      // gone
    }
  }
  return { rss, peak };
}

function childrenOf(pid: number): number[] {
  try {
    const direct = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return direct.flatMap((c) => [c, ...childrenOf(c)]);
  } catch {
    return [];
  }
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  statusOk: boolean;
  /** Requests answered (any status), for the CPU per request. */
  requests: number;
  /** Count by status, when some were not the expected one. */
  statuses?: Record<string, number>;
  /** Connection errors and timeouts (not answers). */
  errors: number;
}

/** One answer of a target to a scenario, for the record: its status, size, and its length when it is a list. */
interface Answer {
  status: number;
  bytes: number;
  items?: number;
}

async function answerTo(url: string, scenario: Scenario): Promise<Answer> {
  const response = await fetch(`${url}${scenario.path}`, { method: scenario.method, headers: scenario.headers, body: scenario.body });
  const text = await response.text();
  let items: number | undefined;
  try {
    const body: unknown = JSON.parse(text);
    if (Array.isArray(body)) items = body.length;
  } catch {
    // not JSON
  }
  return { status: response.status, bytes: Buffer.byteLength(text), ...(items === undefined ? {} : { items }) };
}

const applies = (target: Target, scenario: Scenario) => target.notApplicable?.[scenario.name] === undefined;

async function load(url: string, scenario: Scenario, duration = DURATION): Promise<Measurement> {
  const result = await autocannon({ url: `${url}${scenario.path}`, method: scenario.method, headers: scenario.headers, body: scenario.body, connections: CONNECTIONS, duration });
  const statuses = result.statusCodeStats as unknown as Record<string, { count: number }> | undefined;
  const total = Object.values(statuses ?? {}).reduce((n, s) => n + s.count, 0);
  const statusOk = total > 0 && (statuses?.[String(scenario.expect)]?.count ?? 0) === total;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statusOk,
    requests: total,
    ...(statusOk ? {} : { statuses: Object.fromEntries(Object.entries(statuses ?? {}).map(([status, s]) => [status, s.count])) }),
    errors: result.errors + result.timeouts,
  };
}

async function main() {
  const results = `${ROOT}bench/results/latest.json`;
  // --only large and --only proxy keep the other figures of the last run.
  const only = values.only !== undefined;
  const earlier = only && existsSync(results) ? JSON.parse(readFileSync(results, 'utf8')) : {};
  const report = only && !ONLY_THROUGHPUT ? { ...earlier } : { ...earlier, ...(await throughput()) };
  if (!only || ONLY_PROXY) {
    report.proxy = await proxySection({ scenarios: PROXY_SCENARIOS });
    // An upstream that does work of its own (20 ms an answer, as a server reading a database does): what a proxy in front of one costs.
    report.proxyWorkingUpstream = await proxySection({ delayMs: WORKING_UPSTREAM_MS, scenarios: PROXY_SCENARIOS.filter((s) => s.name === 'GET /pets/{petId}' || s.name === 'POST /pets (valid)') });
  }
  if (!only || ONLY_REPLICAS) report.replicas = await replicasSection();
  if (!only || ONLY_CONTRACT) {
    // The mock's ceiling at CONNECTIONS is the throughput section's when it ran in this run.
    const ceilingFromThroughput = only ? undefined : Object.fromEntries(report.rows.map((r: any) => [r.scenario, r.mock.rps]));
    report.contract = await contractSection({ root: ROOT, machine: machine(), repeat: REPEAT, durationS: DURATION, connections: CONNECTIONS, seeds: quick ? [1] : [1, 2, 3], ceilingFromThroughput });
  }
  if (!only || ONLY_LARGE) report.largeDocuments = await largeDocuments();
  mkdirSync(`${ROOT}bench/results`, { recursive: true });
  writeFileSync(results, `${JSON.stringify(report, null, 2)}\n`);
  const markdown = toMarkdown(report);
  writeFileSync(`${ROOT}bench/results/latest.md`, markdown);
  console.log(`\n${markdown}`);
}

const machine = () => ({ cpu: cpus()[0]?.model, cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version });

/** The Petstore under load, start-up and memory of each target, and the mock alone with many records. */
async function throughput(): Promise<Record<string, any>> {
  console.log(`bench: ${CONNECTIONS} connections, ${DURATION} s per measurement, ${REPEAT} repetitions, targets alternated\n`);
  const running = new Map<string, Running>();
  const starts = new Map<string, number[]>();
  const idle = new Map<string, number>();
  for (const target of TARGETS) {
    // Start each target 5 times for the start-up figure; keep the last one running.
    const times: number[] = [];
    const startCount = quick ? 1 : 5;
    for (let i = 0; i < startCount; i++) {
      const r = await start(target);
      times.push(r.startMs);
      if (i < startCount - 1) await stop(r);
      else running.set(target.name, r);
    }
    starts.set(target.name, times);
    await sleep(300);
    idle.set(target.name, memory(running.get(target.name)!.child.pid!).rss);
  }
  // `npm start` as a reader runs it on a built tree: npm's own start on top of the mock's.
  const npmStart: Target = { name: 'mock via npm start', command: ['npm', 'start', '--', '--port', 'PORT'] };
  const npmStarts: number[] = [];
  for (let i = 0; i < (quick ? 1 : 5); i++) {
    const r = await start(npmStart);
    npmStarts.push(r.startMs);
    await stop(r);
  }
  // One answer of every target to every scenario, kept in the results (what was compared, and what the n/a targets answer).
  const answers = new Map<string, Answer>();
  for (const scenario of SCENARIOS) for (const target of TARGETS) answers.set(`${scenario.name}|${target.name}`, await answerTo(running.get(target.name)!.url, scenario));
  // Warm up every target on every scenario (the JIT) before measuring.
  for (const scenario of SCENARIOS) for (const target of TARGETS) if (applies(target, scenario)) await load(running.get(target.name)!.url, scenario, 1);

  const results = new Map<string, Measurement[]>();
  for (let rep = 0; rep < REPEAT; rep++) {
    for (const scenario of SCENARIOS) {
      for (const target of TARGETS) {
        if (!applies(target, scenario)) continue;
        const m = await load(running.get(target.name)!.url, scenario);
        const key = `${scenario.name}|${target.name}`;
        results.set(key, [...(results.get(key) ?? []), m]);
        process.stdout.write(`  ${rep + 1}/${REPEAT} ${scenario.name.padEnd(38)} ${target.name.padEnd(24)} ${m.rps.toFixed(0).padStart(7)} req/s  p99 ${m.p99} ms\n`);
      }
    }
  }
  const peak = new Map(TARGETS.map((t) => [t.name, memory(running.get(t.name)!.child.pid!).peak]));
  for (const r of running.values()) await stop(r);

  // The mock alone: 100,000 pets, and a list page with 1,000 and 1,000,000 records.
  const mock = TARGETS[0];
  const big: number[] = [];
  let bigIdle = 0;
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    const r = await start(mock, ['--count', 'pets=100000']);
    big.push(r.startMs);
    await sleep(300);
    bigIdle = memory(r.child.pid!).rss;
    await stop(r);
  }
  // Both sizes run at once and are loaded alternately, like the targets above.
  const page = SCENARIOS[1];
  const sizes = quick ? [1_000, 100_000] : [1_000, 1_000_000];
  // Each pet has its inventory item: a million pets are two million records, past the default --max-records.
  const lists = await Promise.all(sizes.map((count) => start(mock, ['--count', `pets=${count}`, '--max-records', String(4 * count)])));
  for (const r of lists) await load(r.url, page, 1);
  const listRps = sizes.map((): number[] => []);
  for (let rep = 0; rep < REPEAT; rep++) for (const [i, r] of lists.entries()) listRps[i].push((await load(r.url, page)).rps);
  for (const r of lists) await stop(r);
  const listCost: Record<string, number> = Object.fromEntries(sizes.map((count, i) => [count, median(listRps[i])]));

  const rows = SCENARIOS.map((scenario) => {
    const of = (target: string) => {
      const ms = results.get(`${scenario.name}|${target}`)!;
      return { rps: median(ms.map((m) => m.rps)), p50: median(ms.map((m) => m.p50)), p99: median(ms.map((m) => m.p99)), statusOk: ms.every((m) => m.statusOk) };
    };
    const m = of('mock');
    const silent = of('prism (-v silent)');
    const logging = of('prism (default logging)');
    const bare = of('bare hono');
    const bareBatched = of('bare hono, in batches');
    const mockoonTarget = TARGETS.find((t) => t.name === 'mockoon')!;
    const mockoonFigure = applies(mockoonTarget, scenario) ? of('mockoon') : undefined;
    return {
      scenario: scenario.name,
      expect: scenario.expect,
      mock: m,
      prismSilent: silent,
      prismLogging: logging,
      // Not measured when it does not apply: the reason and the status Mockoon answered instead.
      mockoon: mockoonFigure ?? { notApplicable: mockoonTarget.notApplicable![scenario.name] },
      bareHono: bare,
      bareHonoInBatches: bareBatched,
      vsPrismSilent: m.rps / silent.rps,
      vsPrismLogging: m.rps / logging.rps,
      vsMockoon: mockoonFigure ? m.rps / mockoonFigure.rps : undefined,
      vsBareHono: m.rps / bare.rps,
      vsBareHonoInBatches: m.rps / bareBatched.rps,
      answers: Object.fromEntries(TARGETS.map((t) => [t.name, answers.get(`${scenario.name}|${t.name}`)])),
    };
  });
  return {
    date: new Date().toISOString(),
    machine: machine(),
    settings: { connections: CONNECTIONS, durationS: DURATION, repeat: REPEAT },
    rows,
    startup: Object.fromEntries(TARGETS.map((t) => [t.name, { startMs: median(starts.get(t.name)!), idleRssMB: idle.get(t.name), peakRssMB: peak.get(t.name) }])),
    mockViaNpmStart: { startMs: median(npmStarts) },
    mock100kPets: { startMs: median(big), idleRssMB: bigIdle },
    listPage: { records: listCost, ratio: Math.max(...Object.values(listCost)) / Math.min(...Object.values(listCost)) },
  };
}

/** Clock ticks per second, the unit of a process's CPU times in /proc/PID/stat. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds (user plus system) a process and its children have used so far. */
function cpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of [pid, ...childrenOf(pid)]) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      // The fields after the command's name, from the third (state): utime and stime are the 14th and 15th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / CLOCK_TICKS;
}

/** The pets an upstream holds (its X-Total-Count). */
async function petCount(url: string): Promise<number | undefined> {
  const response = await fetch(`${url}/pets?limit=1`, { headers: AUTH });
  await response.arrayBuffer();
  const total = response.headers.get('x-total-count');
  return total === null ? undefined : Number(total);
}

/** The proxy's scenarios: the throughput section's, the invalid POST (a violation on every request) and the 401 included. */
const PROXY_SCENARIOS = SCENARIOS;
/** How long the working upstream takes to answer (`serve --delay`). */
const WORKING_UPSTREAM_MS = 20;
/** The upstream keeps every pet the valid POSTs create (two records each, with its inventory item): room for all of them. */
const UPSTREAM_MAX_RECORDS = 20_000_000;
/** How the three targets of the proxy's section are named in the results and the table. */
const PROXY_TARGET_NAMES = { direct: 'direct', proxy: 'proxy', prismProxy: 'Prism proxy' } as const;
type ProxyTargetKey = keyof typeof PROXY_TARGET_NAMES;

/** CPU per request (µs) of the upstream, of the process in the middle (none when direct) and of the load generator (this process). */
interface CpuPerRequest {
  upstreamUs: number;
  middleUs?: number;
  clientUs: number;
}

/**
 * The validating proxy (issue 29): one upstream, the mock serving the bundled Petstore, started
 * once for the section, loaded directly, through `petstore-mock-kit proxy` and through `prism
 * proxy`, alternately, on the same scenarios. Neither proxy refuses an invalid request (`--errors`
 * off): both forward it and report the violation. Each target first answers each scenario once;
 * one that does not answer the expected status is not loaded on it, and its answer is reported.
 * Besides rates and latencies, the CPU each process spent per request, from /proc.
 */
async function proxySection({ delayMs, scenarios }: { delayMs?: number; scenarios: Scenario[] }): Promise<Record<string, any>> {
  console.log(`\nvalidating proxy${delayMs ? `, upstream answering in ${delayMs} ms` : ''}: ${CONNECTIONS} connections, ${DURATION} s per measurement, ${REPEAT} repetitions, direct, proxy and Prism's proxy alternated\n`);
  const upstream = await start({
    name: 'upstream',
    command: [process.execPath, `${ROOT}dist/cli.js`, 'serve', '--port', 'PORT', '--log-level', 'silent', '--max-records', String(UPSTREAM_MAX_RECORDS), ...(delayMs ? ['--delay', String(delayMs)] : [])],
  });
  const middles: Record<Exclude<ProxyTargetKey, 'direct'>, Target> = {
    proxy: { name: 'proxy', command: [process.execPath, `${ROOT}dist/cli.js`, 'proxy', '--upstream', upstream.url, '--port', 'PORT', '--log-level', 'silent'] },
    // --errors is off by default: Prism forwards every request and logs what breaks the document.
    prismProxy: { name: 'prism proxy', command: [`${ROOT}node_modules/.bin/prism`, 'proxy', `${ROOT}spec/openapi.yaml`, upstream.url, '-p', 'PORT', '-h', '127.0.0.1', '-v', 'silent'] },
  };
  const running: Record<ProxyTargetKey, Running> = { direct: upstream, proxy: await start(middles.proxy), prismProxy: await start(middles.prismProxy) };
  const keys = Object.keys(PROXY_TARGET_NAMES) as ProxyTargetKey[];
  const startup = Object.fromEntries(
    (['proxy', 'prismProxy'] as const).map((key) => {
      const r = running[key];
      return [key, { startMs: r.startMs, idleRssMB: memory(r.child.pid!).rss }];
    }),
  );
  const petsAtStart = await petCount(upstream.url);

  const { answers, measured } = await firstAnswers(scenarios, keys, (key) => running[key].url);

  const results = await alternately(scenarios, keys, measured, (key) => running[key].url, (key) => {
    const middle = key === 'direct' ? undefined : running[key].child.pid!;
    const upstreamBefore = cpuSeconds(upstream.child.pid!);
    const middleBefore = middle === undefined ? 0 : cpuSeconds(middle);
    return (perRequest): CpuPerRequest => ({
      upstreamUs: perRequest(cpuSeconds(upstream.child.pid!) - upstreamBefore),
      ...(middle === undefined ? {} : { middleUs: perRequest(cpuSeconds(middle) - middleBefore) }),
      clientUs: 0,
    });
  }, (cpu) => `upstream ${cpu.upstreamUs.toFixed(0)}${cpu.middleUs === undefined ? '' : `, middle ${cpu.middleUs.toFixed(0)}`}`, (key) => PROXY_TARGET_NAMES[key]);
  const petsAtEnd = await petCount(upstream.url);
  const peaks = Object.fromEntries(keys.map((key) => [key, memory(running[key].child.pid!).peak]));
  for (const key of ['proxy', 'prismProxy', 'direct'] as const) await stop(running[key]);

  const rows = scenarios.map((scenario) => {
    const { figures, ratio } = scenarioFigures(scenario, keys, answers, measured, results);
    return { scenario: scenario.name, expect: scenario.expect, ...figures, vsDirect: ratio('proxy', 'direct'), vsPrismProxy: ratio('proxy', 'prismProxy') };
  });
  return {
    date: new Date().toISOString(),
    machine: machine(),
    settings: { connections: CONNECTIONS, durationS: DURATION, repeat: REPEAT },
    goals: { vsDirect: 0.7, vsPrismProxy: 5 },
    upstream: { petsAtStart, petsAtEnd, maxRecords: UPSTREAM_MAX_RECORDS, delayMs },
    rows,
    startup,
    peakRssMB: peaks,
  };
}

/**
 * One answer of each target to each scenario, then a second's warm-up load of each that answered
 * as the scenario expects: a target that answers another status is not loaded on that scenario
 * (`measured` says which are).
 */
async function firstAnswers<K extends string>(scenarios: Scenario[], keys: K[], urlOf: (key: K) => string) {
  const answers = new Map<string, Answer>();
  for (const scenario of scenarios) for (const key of keys) answers.set(`${scenario.name}|${key}`, await answerTo(urlOf(key), scenario));
  const measured = (scenario: Scenario, key: K) => answers.get(`${scenario.name}|${key}`)!.status === scenario.expect;
  for (const scenario of scenarios) for (const key of keys) if (measured(scenario, key)) await load(urlOf(key), scenario, 1);
  return { answers, measured };
}

/**
 * REPEAT rounds, each loading every target on every scenario it is measured on, in turn (so a
 * noisy moment does not fall on one target). `meter(key)`, called just before a run, starts
 * counting the CPU of the target's processes and gives back what reads it after the run, per
 * request; the load generator's own CPU (`clientUs`) is counted here. Each run is printed as it ends.
 */
async function alternately<K extends string, C extends { clientUs: number }>(
  scenarios: Scenario[],
  keys: K[],
  measured: (scenario: Scenario, key: K) => boolean,
  urlOf: (key: K) => string,
  meter: (key: K) => (perRequest: (seconds: number) => number) => C,
  describeCpu: (cpu: C) => string,
  nameOf: (key: K) => string,
): Promise<Map<string, Array<Measurement & { cpu: C }>>> {
  const results = new Map<string, Array<Measurement & { cpu: C }>>();
  const width = Math.max(...scenarios.map((scenario) => scenario.name.length));
  const nameWidth = Math.max(...keys.map((key) => nameOf(key).length));
  for (let rep = 0; rep < REPEAT; rep++) {
    for (const scenario of scenarios) {
      for (const key of keys) {
        if (!measured(scenario, key)) continue;
        const read = meter(key);
        const clientBefore = process.cpuUsage();
        const m = await load(urlOf(key), scenario);
        const client = process.cpuUsage(clientBefore);
        const perRequest = (seconds: number) => (seconds * 1e6) / Math.max(m.requests, 1);
        const cpu = { ...read(perRequest), clientUs: perRequest((client.user + client.system) / 1e6) };
        const runKey = `${scenario.name}|${key}`;
        results.set(runKey, [...(results.get(runKey) ?? []), { ...m, cpu }]);
        process.stdout.write(
          `  ${rep + 1}/${REPEAT} ${scenario.name.padEnd(width)} ${nameOf(key).padEnd(nameWidth)} ${m.rps.toFixed(0).padStart(7)} req/s  p50 ${m.p50} p99 ${m.p99} ms  cpu µs/req: ${describeCpu(cpu)}, client ${cpu.clientUs.toFixed(0)}${m.statusOk ? '' : `  statuses ${JSON.stringify(m.statuses)}`}${m.errors ? `  ${m.errors} errors` : ''}\n`,
        );
      }
    }
  }
  return results;
}

/**
 * Each target's figures on one scenario (`summarise`), or what it answered where it was not loaded,
 * and `ratio(a, b)`: target a's rate over target b's, where both ran with the expected statuses
 * and no connection errors.
 */
function scenarioFigures<K extends string, C extends object>(scenario: Scenario, keys: K[], answers: Map<string, Answer>, measured: (scenario: Scenario, key: K) => boolean, results: Map<string, Array<Measurement & { cpu: C }>>) {
  const figures = Object.fromEntries(
    keys.map((key) => {
      const answer = answers.get(`${scenario.name}|${key}`)!;
      return [key, measured(scenario, key) ? summarise(results.get(`${scenario.name}|${key}`)!, answer) : { notMeasured: true, answer }];
    }),
  ) as Record<K, any>;
  const counted = (f: any) => f && !f.notMeasured && f.statusOk && f.errors === 0;
  const ratio = (a: K, b: K): number | undefined => (counted(figures[a]) && counted(figures[b]) ? figures[a].rps / figures[b].rps : undefined);
  return { figures, ratio };
}

/**
 * The runs of one target on one scenario, as the tables show them: medians of the rate, p50, p99
 * and of each CPU figure (over the runs that have it), the statuses and errors summed.
 */
function summarise<C extends object>(ms: Array<Measurement & { cpu: C }>, answer: Answer) {
  const fields = [...new Set(ms.flatMap((m) => Object.keys(m.cpu)))] as Array<keyof C>;
  const cpu = Object.fromEntries(
    fields.map((field) => {
      const xs = ms.map((m) => m.cpu[field] as number | undefined).filter((x): x is number => x !== undefined);
      return [field, xs.length ? median(xs) : undefined];
    }),
  ) as { [K in keyof C]: number | undefined };
  const statuses: Record<string, number> = {};
  for (const m of ms) for (const [status, count] of Object.entries(m.statuses ?? {})) statuses[status] = (statuses[status] ?? 0) + count;
  return {
    rps: median(ms.map((m) => m.rps)),
    p50: median(ms.map((m) => m.p50)),
    p99: median(ms.map((m) => m.p99)),
    statusOk: ms.every((m) => m.statusOk),
    ...(Object.keys(statuses).length ? { statuses } : {}),
    errors: ms.reduce((n, m) => n + m.errors, 0),
    rounds: ms.map((m) => Math.round(m.rps)),
    cpu,
    answer,
  };
}

/** The replicas' scenarios: a read, a create, a list page. */
const REPLICA_SCENARIOS: Scenario[] = ['GET /pets/{petId}', 'POST /pets (valid)', 'GET /pets (page of 20)'].map((name) => SCENARIOS.find((s) => s.name === name)!);
/** The issue's goals for the PostgreSQL store: reads at least this share of the in-memory rate, and p99 under this many ms, at 50 connections. */
const REPLICA_GOALS = { readsVsMemory: 1 / 3, p99Ms: 20 };
/** How the targets of the replicas' section are named in the results and the table. */
const REPLICA_TARGET_NAMES = { memory: 'in memory', postgres: 'PostgreSQL, 1 replica', postgres2: 'PostgreSQL, 2 replicas + balancer', haproxy: 'PostgreSQL, 2 replicas + HAProxy' } as const;
type ReplicaTargetKey = keyof typeof REPLICA_TARGET_NAMES;

/** One target of the replicas' section: the mocks (one or two), the balancer in front of two, and the database they share. */
interface ReplicaTarget {
  url: string;
  mocks: Running[];
  balancer?: Running;
  database?: string;
}

/** CPU per request (µs): the mocks together, the balancer, PostgreSQL (every process of the server), the load generator. */
interface ReplicaCpu {
  mocksUs: number;
  balancerUs?: number;
  postgresUs?: number;
  clientUs: number;
}

/**
 * CPU seconds of a server that starts and ends children (PostgreSQL's backends): its own, its
 * children's that have ended and were reaped (cutime, cstime), and those of the children running.
 */
function cpuSecondsWithReaped(pid: number): number {
  let ticks = 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime: the 14th to the 17th fields.
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  } catch {
    return 0;
  }
  return ticks / CLOCK_TICKS + childrenOf(pid).reduce((sum, child) => sum + cpuSeconds(child), 0);
}

/**
 * HAProxy in front of the replicas, round robin, one thread, connections to the replicas kept and
 * reused, when `haproxy` is installed (Debian's package); its configuration in a temporary file,
 * the port it listens on given through the environment (`LISTEN_ON`, set by the shell that execs it).
 */
function haproxyTarget(upstreams: string[]): { target: Target; version: string } | undefined {
  let version: string;
  try {
    version = execFileSync('haproxy', ['-v'], { encoding: 'utf8' }).split('\n')[0].trim();
  } catch {
    return undefined;
  }
  const directory = mkdtempSync(join(tmpdir(), 'bench-haproxy-'));
  const config = join(directory, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  nbthread 1',
      '  maxconn 4096',
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 60s',
      '  timeout server 60s',
      'frontend replicas',
      '  bind 127.0.0.1:"${LISTEN_ON}"',
      '  default_backend replicas',
      'backend replicas',
      '  balance roundrobin',
      '  http-reuse always',
      ...upstreams.map((url, i) => `  server replica${i + 1} ${new URL(url).host}`),
      '',
    ].join('\n'),
  );
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  return { target: { name: 'haproxy', command: ['sh', '-c', `LISTEN_ON=PORT exec haproxy -db -q -f ${config}`] }, version };
}

/**
 * Replicas on PostgreSQL (`serve --store`): a PostgreSQL server of the bench's own (the test
 * support's, src/test-support/postgres.ts: Debian's binaries, a cluster in a temporary directory,
 * its default settings), the mock in memory, one replica on the store, and two replicas behind
 * examples/balancer.mjs, each target on a database of its own (so the creates of one do not grow
 * another's), all started with the same flags but --store, loaded alternately on a read, a create
 * and a list page. Besides rates and latencies, the CPU each process spent per request, from /proc:
 * the mocks, the balancer, PostgreSQL's server, autocannon. PostgreSQL is stopped at the end,
 * whatever failed.
 */
async function replicasSection(): Promise<Record<string, any>> {
  if (!findPostgres()) {
    const reason = 'PostgreSQL is not installed (initdb and postgres, looked for in /usr/lib/postgresql/*/bin and on PATH; apt-get install -y postgresql)';
    if (ONLY_REPLICAS) throw new Error(`--only replicas: ${reason}.`);
    console.log(`\nreplicas on PostgreSQL: not measured, ${reason}`);
    return { date: new Date().toISOString(), machine: machine(), skipped: reason };
  }
  console.log(`\nreplicas on PostgreSQL: ${CONNECTIONS} connections, ${DURATION} s per measurement, ${REPEAT} repetitions, in memory, one replica and two behind the balancer alternated\n`);
  const postgres = await startPostgres();
  postgresDirectory = postgres.directory;
  const started: Running[] = [];
  try {
    const postmaster = postgres.pids()[0];
    const version = execFileSync(findPostgres()!.postgres, ['--version'], { encoding: 'utf8' }).trim();
    // The same flags for every mock (room for every pet the creates add, two records each), only --store differs.
    const serve = (store?: string): Target => ({
      name: 'mock',
      command: [process.execPath, `${ROOT}dist/cli.js`, 'serve', '--port', 'PORT', '--max-records', String(UPSTREAM_MAX_RECORDS), ...(store ? ['--store', store] : [])],
    });
    const run = async (target: Target) => {
      const r = await start(target);
      started.push(r);
      return r;
    };
    const targets = {} as Record<ReplicaTargetKey, ReplicaTarget>;
    const memoryMock = await run(serve());
    targets.memory = { url: memoryMock.url, mocks: [memoryMock] };
    const oneDatabase = await postgres.createDatabase('bench_one_replica');
    const oneMock = await run(serve(oneDatabase));
    targets.postgres = { url: oneMock.url, mocks: [oneMock], database: 'bench_one_replica' };
    const twoDatabase = await postgres.createDatabase('bench_two_replicas');
    // The first seeds the namespace, the second loads it.
    const replicas = [await run(serve(twoDatabase)), await run(serve(twoDatabase))];
    const balancer = await run({ name: 'balancer', command: [process.execPath, `${ROOT}examples/balancer.mjs`, 'PORT', ...replicas.map((r) => r.url)] });
    targets.postgres2 = { url: balancer.url, mocks: replicas, balancer, database: 'bench_two_replicas' };
    // The same two replicas behind HAProxy (Debian's package), where it is installed: what a production balancer costs beside the example's few lines of Node.
    const haproxy = haproxyTarget(replicas.map((r) => r.url));
    if (haproxy) {
      const front = await run(haproxy.target);
      targets.haproxy = { url: front.url, mocks: replicas, balancer: front, database: 'bench_two_replicas' };
    }
    const keys = (Object.keys(REPLICA_TARGET_NAMES) as ReplicaTargetKey[]).filter((key) => targets[key]);
    const startup = Object.fromEntries(keys.map((key) => [key, { startMs: targets[key].mocks.map((m) => m.startMs), idleRssMB: targets[key].mocks.map((m) => memory(m.child.pid!).rss) }]));
    const petsAtStart = Object.fromEntries(await Promise.all(keys.map(async (key) => [key, await petCount(targets[key].url)] as const)));

    const { answers, measured } = await firstAnswers(REPLICA_SCENARIOS, keys, (key) => targets[key].url);

    const results = await alternately(REPLICA_SCENARIOS, keys, measured, (key) => targets[key].url, (key) => {
      const target = targets[key];
      const mocksCpu = () => target.mocks.reduce((sum, m) => sum + cpuSeconds(m.child.pid!), 0);
      const onStore = target.database !== undefined;
      const before = { mocks: mocksCpu(), balancer: target.balancer ? cpuSeconds(target.balancer.child.pid!) : 0, postgres: cpuSecondsWithReaped(postmaster) };
      return (perRequest): ReplicaCpu => ({
        mocksUs: perRequest(mocksCpu() - before.mocks),
        ...(target.balancer ? { balancerUs: perRequest(cpuSeconds(target.balancer.child.pid!) - before.balancer) } : {}),
        ...(onStore ? { postgresUs: perRequest(cpuSecondsWithReaped(postmaster) - before.postgres) } : {}),
        clientUs: 0,
      });
    }, (cpu) => `mock ${cpu.mocksUs.toFixed(0)}${cpu.balancerUs === undefined ? '' : `, balancer ${cpu.balancerUs.toFixed(0)}`}${cpu.postgresUs === undefined ? '' : `, postgres ${cpu.postgresUs.toFixed(0)}`}`, (key) => REPLICA_TARGET_NAMES[key]);
    const petsAtEnd = Object.fromEntries(await Promise.all(keys.map(async (key) => [key, await petCount(targets[key].url)] as const)));
    // Each replica of the two asked directly: what one wrote, the other reads.
    const replicaPets = await Promise.all(replicas.map((r) => petCount(r.url)));
    const peakRssMB = Object.fromEntries(keys.map((key) => [key, targets[key].mocks.map((m) => memory(m.child.pid!).peak)]));
    const balancerPeakRssMB = memory(balancer.child.pid!).peak;

    const rows = REPLICA_SCENARIOS.map((scenario) => {
      const { figures, ratio } = scenarioFigures(scenario, keys, answers, measured, results);
      return {
        scenario: scenario.name,
        expect: scenario.expect,
        read: scenario.method === 'GET',
        ...figures,
        postgresVsMemory: ratio('postgres', 'memory'),
        postgres2VsMemory: ratio('postgres2', 'memory'),
        ...(figures.haproxy ? { haproxyVsMemory: ratio('haproxy', 'memory') } : {}),
      };
    });
    return {
      date: new Date().toISOString(),
      machine: machine(),
      settings: { connections: CONNECTIONS, durationS: DURATION, repeat: REPEAT },
      postgres: { version, settings: "the bench's own server, initdb's defaults (fsync and synchronous_commit on), on this machine's disk" },
      goals: REPLICA_GOALS,
      rows,
      startup,
      peakRssMB,
      balancerPeakRssMB,
      haproxy: haproxy ? haproxy.version : 'not installed (apt-get install -y haproxy): not measured',
      pets: { atStart: petsAtStart, atEnd: petsAtEnd, eachReplicaOfTwo: replicaPets },
    };
  } finally {
    for (const r of started.reverse()) await stop(r);
    await postgres.stop();
    postgresDirectory = undefined;
  }
}

/** A target's rate and latencies as table cells: a target that answered another status is reported as such, not as a number. */
function cells(f: Format) {
  const listed = (statuses: Record<string, number>) => Object.entries(statuses).map(([status, n]) => `${status} x${f(n)}`).join(', ');
  const rate = (t: any) => {
    if (t.notMeasured) return `answered ${t.answer.status}, not measured`;
    if (!t.statusOk) return `unexpected statuses (${listed(t.statuses ?? {})})`;
    return `${f(t.rps)}${t.errors ? ` (${f(t.errors)} connection errors!)` : ''}`;
  };
  const latency = (t: any) => (t.notMeasured || !t.statusOk ? '' : `${t.p50} / ${t.p99}`);
  return { rate, latency };
}

/** The replicas' section: rates and latencies of the targets, the ratios against memory, the goals, and the CPU per request. */
function replicasMarkdown(section: any, f: Format): string[] {
  if (section.skipped) return [`Replicas on PostgreSQL: not measured (${section.skipped}).`, ''];
  const names = REPLICA_TARGET_NAMES;
  const keys = (Object.keys(names) as ReplicaTargetKey[]).filter((key) => section.rows[0][key]);
  /** The store's targets, each with its ratio to memory. */
  const ratioOf: Partial<Record<ReplicaTargetKey, string>> = { postgres: 'postgresVsMemory', postgres2: 'postgres2VsMemory', haproxy: 'haproxyVsMemory' };
  const storeKeys = keys.filter((key) => ratioOf[key]);
  const { rate, latency } = cells(f);
  const goals = section.goals;
  const ratio = (r: any, value: number | undefined) => (value === undefined ? 'n/a' : `${f(value, 2)}x${r.read && value < goals.readsVsMemory ? ' (below the goal)' : ''}`);
  const cpu = (t: any) => {
    if (t.notMeasured || !t.cpu) return '';
    const parts: Array<[string, number | undefined]> = [
      ['mock', t.cpu.mocksUs],
      ['balancer', t.cpu.balancerUs],
      ['PostgreSQL', t.cpu.postgresUs],
      ['autocannon', t.cpu.clientUs],
    ];
    const present = parts.filter((p): p is [string, number] => p[1] !== undefined);
    return `${present.map(([, x]) => f(x)).join(' + ')} = ${f(present.reduce((a, [, x]) => a + x, 0))}`;
  };
  // The goals, judged on the store's targets: reads at least a third of memory's rate, p99 under the bound on every scenario.
  const readRows = section.rows.filter((r: any) => r.read);
  const readVerdict = storeKeys.map((key) => {
    const field = ratioOf[key]!;
    const judged = readRows.map((r: any) => `${r.scenario} ${r[field] === undefined ? 'n/a' : `${f(r[field], 2)}x`}`);
    const met = readRows.every((r: any) => r[field] !== undefined && r[field] >= goals.readsVsMemory);
    return `${names[key]}: ${met ? 'met' : 'NOT met'} (${judged.join('; ')})`;
  });
  const p99Verdict = storeKeys.map((key) => {
    const over = section.rows.filter((r: any) => r[key].notMeasured || !r[key].statusOk || r[key].p99 >= goals.p99Ms);
    return `${names[key]}: ${over.length === 0 ? 'met on every scenario' : `NOT met on ${over.map((r: any) => `${r.scenario} (${r[key].notMeasured || !r[key].statusOk ? 'not measured' : `${r[key].p99} ms`})`).join(', ')}`}`;
  });
  const pets = section.pets;
  const consistent = pets.eachReplicaOfTwo.every((n: number) => n === pets.eachReplicaOfTwo[0]);
  return [
    `Replicas on PostgreSQL (\`serve --store\`), measured ${section.date.slice(0, 10)} on ${section.machine.cores} cores (${section.machine.cpu}), Node ${section.machine.node}, ${section.postgres.version} (${section.postgres.settings}), ` +
      `everything on the same ${section.machine.cores} cores: the mock in memory, one replica on the store, and two replicas behind examples/balancer.mjs (round robin)${keys.includes('haproxy') ? ` and the same two behind ${section.haproxy} (round robin, one thread)` : ` (HAProxy: ${section.haproxy})`}, each target but the two balancers' on a database of its own, ` +
      `all started as \`serve --max-records N\` (+ \`--store URL\`); autocannon, ${section.settings.connections} connections, ${section.settings.durationS} s per run, median of ${section.settings.repeat} runs, the targets alternated.`,
    '',
    `| scenario | ${keys.map((key) => `${names[key]} req/s | p50 / p99 ms`).join(' | ')} | ${storeKeys.map((key) => `${names[key].replace('PostgreSQL, ', '')} / memory`).join(' | ')} |`,
    `|---|${keys.map(() => '---|---|').join('')}${storeKeys.map(() => '---|').join('')}`,
    ...section.rows.map((r: any) => `| ${r.scenario} | ${keys.map((key) => `${rate(r[key])} | ${latency(r[key])}`).join(' | ')} | ${storeKeys.map((key) => ratio(r, r[ratioOf[key]!])).join(' | ')} |`),
    '',
    `Goals (the PostgreSQL store at ${section.settings.connections} connections): reads at least ${f(goals.readsVsMemory, 2)}x the in-memory rate: ${readVerdict.join('; ')}. p99 under ${goals.p99Ms} ms: ${p99Verdict.join('; ')}.`,
    '',
    `CPU per request in µs (user plus system time over each run, from /proc, PostgreSQL's server with its backends; medians), all on the same ${section.machine.cores} cores:`,
    '',
    `| scenario | ${keys.map((key) => `${names[key]}: ${key === 'memory' ? 'mock + autocannon' : key === 'postgres' ? 'mock + PostgreSQL + autocannon' : 'mocks + balancer + PostgreSQL + autocannon'}`).join(' | ')} |`,
    `|---|${keys.map(() => '---|').join('')}`,
    ...section.rows.map((r: any) => `| ${r.scenario} | ${keys.map((key) => cpu(r[key])).join(' | ')} |`),
    '',
    `Pets at the end: ${keys.map((key) => `${names[key]} ${pets.atEnd[key] === undefined ? '?' : f(pets.atEnd[key])}`).join(', ')} (from ${pets.atStart.memory ?? '?'} each); ` +
      `each of the two replicas asked directly: ${pets.eachReplicaOfTwo.map((n: number | undefined) => (n === undefined ? '?' : f(n))).join(' and ')}${consistent ? ' (the same)' : ' (they differ!)'}. ` +
      `Peak RSS: in memory ${f(section.peakRssMB.memory[0])} MB, one replica ${f(section.peakRssMB.postgres[0])} MB, two replicas ${section.peakRssMB.postgres2.map((x: number) => f(x)).join(' and ')} MB, the balancer ${f(section.balancerPeakRssMB)} MB.`,
    '',
  ];
}

interface LargeDocument {
  name: string;
  file: string;
  /** A request every target answers once the document is served. */
  probe: string;
  /** Removed at the end (generated into a temporary folder). */
  generated?: boolean;
}

interface StartFigure {
  /** Median seconds from spawn to the first answer, over the tries that answered. */
  startS?: number;
  /** Median peak RSS up to the first answer (or up to the time limit). */
  peakRssMB: number;
  tries: number;
  answered: number;
  statuses: number[];
}

/** The targets of the large documents, by their key in the results; SPEC is the document's file. */
const LARGE_TARGETS: Record<string, Target> = {
  mock: { name: 'mock', command: [process.execPath, `${ROOT}dist/cli.js`, 'serve', '--spec', 'SPEC', '--port', 'PORT'] },
  prismSilent: { name: 'prism (-v silent)', command: [...prism('SPEC'), '-v', 'silent'] },
  mockoon: { name: 'mockoon', command: mockoon('SPEC'), env: MOCKOON_ENV },
  scalar: { name: 'scalar', command: [process.execPath, `${ROOT}dist/bench/scalar-mock.js`, 'SPEC', 'PORT'] },
};

/**
 * Each document served by the mock, Prism (-v silent), Mockoon and Scalar, alternately, REPEAT times:
 * seconds from spawn to the first answer to `probe` and the peak RSS by then. A target that does
 * not answer within LIMIT_MS is stopped and reported so; it is not tried again on that document.
 */
async function largeDocuments(): Promise<Record<string, any>> {
  const documents = largeDocumentList();
  const sizes = new Map(documents.map((d) => [d, statSync(d.file).size / 2 ** 20]));
  const targets = Object.values(LARGE_TARGETS);
  console.log(`\nlarge documents: ${documents.map((d) => d.name).join('; ')}; ${REPEAT} repetitions, ${LIMIT_MS / 1000} s limit\n`);
  const runs = new Map<string, Running[]>();
  const peaks = new Map<string, number[]>();
  for (let rep = 0; rep < REPEAT; rep++) {
    for (const document of documents) {
      for (const target of targets) {
        const key = `${document.name}|${target.name}`;
        const earlier = runs.get(key) ?? [];
        if (earlier.some((r) => !r.answered)) continue;
        const withSpec = { ...target, command: target.command.map((part) => (part === 'SPEC' ? document.file : part)) };
        const r = await start(withSpec, [], { path: document.probe, limitMs: LIMIT_MS });
        const peak = memory(r.child.pid!).peak;
        await stop(r);
        runs.set(key, [...earlier, r]);
        peaks.set(key, [...(peaks.get(key) ?? []), peak]);
        const outcome = r.answered ? `${(r.startMs / 1000).toFixed(2).padStart(7)} s  ${r.status}` : `no answer within ${LIMIT_MS / 1000} s`;
        process.stdout.write(`  ${rep + 1}/${REPEAT} ${document.name.padEnd(44)} ${target.name.padEnd(18)} ${outcome}  peak ${peak.toFixed(0)} MB\n`);
      }
    }
  }
  for (const document of documents) if (document.generated) rmSync(dirname(document.file), { recursive: true, force: true });

  const figure = (key: string): StartFigure => {
    const tries = runs.get(key)!;
    const answered = tries.filter((r) => r.answered);
    return {
      startS: answered.length ? median(answered.map((r) => r.startMs)) / 1000 : undefined,
      peakRssMB: median(peaks.get(key)!),
      tries: tries.length,
      answered: answered.length,
      statuses: [...new Set(answered.map((r) => r.status!))],
    };
  };
  return {
    date: new Date().toISOString(),
    machine: machine(),
    repeat: REPEAT,
    limitS: LIMIT_MS / 1000,
    notes: documents.some((d) => d.file.endsWith('api.github.com.json')) ? [] : [NO_GITHUB],
    documents: documents.map((document) => {
      const figures = Object.fromEntries(Object.entries(LARGE_TARGETS).map(([key, target]) => [key, figure(`${document.name}|${target.name}`)]));
      const mock = figures.mock;
      // The mock against each other target: start (when both answered) and peak RSS.
      const ratios = Object.fromEntries(
        Object.entries(figures)
          .filter(([key]) => key !== 'mock')
          .map(([key, other]) => [key, { start: mock.startS !== undefined && other.startS !== undefined ? mock.startS / other.startS : undefined, rss: mock.peakRssMB / other.peakRssMB }]),
      );
      return { document: document.name, megabytes: sizes.get(document), probe: document.probe, ...figures, ratios };
    }),
  };
}

const NO_GITHUB = "GitHub's REST API description was not measured: @octokit/openapi is not installed (npm install --no-save @octokit/openapi adds it).";

/** The generated documents (smaller with --quick), and the real ones that are installed or named. */
function largeDocumentList(): LargeDocument[] {
  const sizes: Array<[string, LargeDocumentOptions]> = quick
    ? [['generated, 200 operations, $ref chains of 10', { operations: 200, chain: 10 }], ['generated, 200 operations, chains of 10 and one of 100', { operations: 200, chain: 10, longChain: 100 }]]
    : [['generated, 2,000 operations, $ref chains of 50', { operations: 2000, chain: 50 }], ['generated, 2,000 operations, chains of 50 and one of 500', { operations: 2000, chain: 50, longChain: 500 }]];
  const documents: LargeDocument[] = sizes.map(([name, options]) => ({
    name,
    file: writeLargeDocument(options),
    // The resource at the head of the longest chain.
    probe: options.longChain ? '/deep/1' : '/resources0/1',
    generated: true,
  }));
  const github = installed('@octokit/openapi/generated/api.github.com.json');
  if (github) documents.push({ name: `GitHub REST API (@octokit/openapi ${packageVersion(github)})`, file: github, probe: '/meta' });
  else if (!values.document?.endsWith('api.github.com.json')) console.log(NO_GITHUB);
  if (values.document) documents.push({ name: values.document.split('/').pop()!, file: values.document, probe: '/' });
  return documents;
}

function installed(specifier: string): string | undefined {
  try {
    return createRequire(`${ROOT}package.json`).resolve(specifier);
  } catch {
    return undefined;
  }
}

/** The version in the package.json above a file of an installed package. */
function packageVersion(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(`${dir}/package.json`)) return String(JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')).version);
  }
  return '?';
}

function toMarkdown(report: any): string {
  const f = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const lines = report.rows ? throughputMarkdown(report, f) : [];
  if (report.proxy) lines.push(...proxyMarkdown(report.proxy, f));
  if (report.proxyWorkingUpstream) lines.push(...proxyMarkdown(report.proxyWorkingUpstream, f));
  if (report.replicas) lines.push(...replicasMarkdown(report.replicas, f));
  if (report.contract) lines.push(...contractMarkdown(report.contract, f));
  if (report.largeDocuments) lines.push(...largeDocumentsMarkdown(report.largeDocuments, f));
  return lines.join('\n');
}

type Format = (n: number, d?: number) => string;

function throughputMarkdown(report: any, f: Format): string[] {
  // Mockoon joined the targets later: a report from before (kept by --only large) has no column for it.
  const withMockoon = report.rows.some((r: any) => r.mockoon);
  const notApplicable = report.rows.filter((r: any) => r.mockoon?.notApplicable);
  const mockoonRps = (r: any) => (r.mockoon.notApplicable ? `n/a (${notApplicable.indexOf(r) + 1})` : `${f(r.mockoon.rps)}${r.mockoon.statusOk ? '' : ' (unexpected statuses!)'}`);
  const mockoonRatio = (r: any) => (r.vsMockoon === undefined ? 'n/a' : `${f(r.vsMockoon, 1)}x`);
  const answer = (a: any) => (a ? `${a.status}${a.items === undefined ? '' : `, a list of ${f(a.items)}`} (${f(a.bytes)} bytes)` : '?');
  return [
    `Measured ${report.date.slice(0, 10)} on ${report.machine.cores} cores (${report.machine.cpu}), ${report.machine.memoryGiB} GiB, Node ${report.machine.node}; autocannon, ${report.settings.connections} connections, ${report.settings.durationS} s per run, median of ${report.settings.repeat} runs, targets alternated.`,
    '',
    `| scenario | mock req/s | p50 / p99 ms | Prism silent req/s | Prism logging req/s |${withMockoon ? ' Mockoon req/s |' : ''} bare Hono req/s | bare Hono in batches req/s | mock / Prism silent | mock / Prism logging |${withMockoon ? ' mock / Mockoon |' : ''} mock / bare Hono | mock / bare Hono in batches |`,
    `|---|---|---|---|---|${withMockoon ? '---|' : ''}---|---|---|---|${withMockoon ? '---|' : ''}---|---|`,
    ...report.rows.map(
      (r: any) =>
        `| ${r.scenario}${r.mock.statusOk ? '' : ' (unexpected statuses!)'} | ${f(r.mock.rps)} | ${r.mock.p50} / ${r.mock.p99} | ${f(r.prismSilent.rps)} | ${f(r.prismLogging.rps)} | ` +
        `${withMockoon ? `${mockoonRps(r)} | ` : ''}${f(r.bareHono.rps)} | ${f(r.bareHonoInBatches.rps)} | ${f(r.vsPrismSilent, 1)}x | ${f(r.vsPrismLogging, 1)}x | ` +
        `${withMockoon ? `${mockoonRatio(r)} | ` : ''}${f(r.vsBareHono, 2)}x | ${f(r.vsBareHonoInBatches, 2)}x |`,
    ),
    '',
    ...notApplicable.flatMap((r: any, i: number) => [`(${i + 1}) ${r.mockoon.notApplicable}: it answered ${answer(r.answers?.mockoon)} where the mock answered ${answer(r.answers?.mock)}; not measured.`, '']),
    ...(withMockoon
      ? [
          `Mockoon's answers to what was measured, one request each (the mock's in brackets): ${report.rows
            .filter((r: any) => !r.mockoon.notApplicable)
            .map((r: any) => `${r.scenario} ${answer(r.answers?.mockoon)} [${answer(r.answers?.mock)}]`)
            .join('; ')}.`,
          '',
        ]
      : []),
    '| target | start to first answer | idle RSS | peak RSS under load |',
    '|---|---|---|---|',
    ...Object.entries(report.startup).map(([name, s]: [string, any]) => `| ${name} | ${f(s.startMs)} ms | ${f(s.idleRssMB)} MB | ${f(s.peakRssMB)} MB |`),
    `| mock via \`npm start\` (built tree) | ${f(report.mockViaNpmStart.startMs)} ms | | |`,
    `| mock, 100,000 pets | ${f(report.mock100kPets.startMs)} ms | ${f(report.mock100kPets.idleRssMB)} MB | |`,
    '',
    `List page (GET /pets?limit=20): ${Object.entries(report.listPage.records).map(([n, rps]) => `${f(Number(n))} pets: ${f(rps as number)} req/s`).join('; ')}; ratio ${f(report.listPage.ratio, 2)}.`,
    '',
  ];
}

/** The proxy's section: rates and latencies of the three targets, the ratios against the goals, and the CPU per request. */
function proxyMarkdown(section: any, f: Format): string[] {
  const names = PROXY_TARGET_NAMES;
  const keys = Object.keys(names) as ProxyTargetKey[];
  const { rate, latency } = cells(f);
  const ratio = (r: number | undefined, goal: number) => (r === undefined ? 'n/a' : `${f(r, 2)}x${r >= goal ? '' : ' (below the goal)'}`);
  const cpu = (t: any, key: ProxyTargetKey) => {
    if (t.notMeasured || !t.cpu) return '';
    const parts = [...(key === 'direct' ? [] : [t.cpu.middleUs]), t.cpu.upstreamUs, t.cpu.clientUs];
    return `${parts.map((x: number) => f(x)).join(' + ')} = ${f(parts.reduce((a: number, b: number) => a + b, 0))}`;
  };
  const goals = section.goals;
  const verdict = (field: 'vsDirect' | 'vsPrismProxy', goal: number, what: string) => {
    const judged = section.rows.filter((r: any) => r[field] !== undefined);
    const missed = judged.filter((r: any) => r[field] < goal);
    const notJudged = section.rows.length - judged.length;
    const head = `${what} at least ${f(goal, 1)}x: ${missed.length === 0 && notJudged === 0 ? 'met on every scenario' : `met on ${judged.length - missed.length} of ${section.rows.length} scenarios`}`;
    return `${head}${missed.length ? ` (missed on ${missed.map((r: any) => `${r.scenario}, ${f(r[field], 2)}x`).join('; ')})` : ''}${notJudged ? ` (${notJudged} not comparable: a target did not answer as expected)` : ''}`;
  };
  const pets = section.upstream;
  return [
    `Validating proxy (issue 29), measured ${section.date.slice(0, 10)} on ${section.machine.cores} cores (${section.machine.cpu}), Node ${section.machine.node}: one upstream, the mock serving the bundled Petstore ` +
      `(\`serve --log-level silent${pets.delayMs ? ` --delay ${pets.delayMs}\`: every answer ${pets.delayMs} ms late, as a server doing work of its own` : '`'}), started once for the section (the valid POSTs add to it: ${pets.petsAtStart === undefined ? '?' : f(pets.petsAtStart)} pets at the start, ${pets.petsAtEnd === undefined ? '?' : f(pets.petsAtEnd)} at the end), ` +
      `loaded directly, through \`petstore-mock-kit proxy --upstream URL --log-level silent\` and through \`prism proxy spec/openapi.yaml URL -v silent\` (neither with \`--errors\`: ` +
      `both forward every request and report what breaks the document); autocannon, ${section.settings.connections} connections, ${section.settings.durationS} s per run, median of ${section.settings.repeat} runs, the three alternated.`,
    '',
    `| scenario | direct req/s | p50 / p99 ms | proxy req/s | p50 / p99 ms | Prism proxy req/s | p50 / p99 ms | proxy / direct | proxy / Prism proxy |`,
    '|---|---|---|---|---|---|---|---|---|',
    ...section.rows.map((r: any) => `| ${r.scenario} | ${keys.map((key) => `${rate(r[key])} | ${latency(r[key])}`).join(' | ')} | ${ratio(r.vsDirect, goals.vsDirect)} | ${ratio(r.vsPrismProxy, goals.vsPrismProxy)} |`),
    '',
    `Goals: ${verdict('vsDirect', goals.vsDirect, 'proxy / direct')}; ${verdict('vsPrismProxy', goals.vsPrismProxy, 'proxy / Prism proxy')}.`,
    '',
    `CPU per request in µs (user plus system time of each process over each run, from /proc; medians): the proxy in the middle, the upstream, and autocannon (the bench's process), all on the same ${section.machine.cores} cores:`,
    '',
    '| scenario | direct: upstream + autocannon | proxy: proxy + upstream + autocannon | Prism proxy: Prism + upstream + autocannon |',
    '|---|---|---|---|',
    ...section.rows.map((r: any) => `| ${r.scenario} | ${keys.map((key) => cpu(r[key], key)).join(' | ')} |`),
    '',
    `Start to first answer (one start) and RSS: proxy ${f(section.startup.proxy.startMs)} ms, ${f(section.startup.proxy.idleRssMB)} MB idle, ${f(section.peakRssMB.proxy)} MB peak; ` +
      `Prism proxy ${f(section.startup.prismProxy.startMs)} ms, ${f(section.startup.prismProxy.idleRssMB)} MB idle, ${f(section.peakRssMB.prismProxy)} MB peak; the upstream ${f(section.peakRssMB.direct)} MB peak.`,
    '',
  ];
}

/** The names the large-documents table gives the targets, by their key in the results. */
const LARGE_TARGET_NAMES: Record<string, string> = { mock: 'mock', prismSilent: 'Prism (-v silent)', mockoon: 'Mockoon', scalar: 'Scalar' };

function largeDocumentsMarkdown(large: any, f: Format): string[] {
  const start = (s: StartFigure) => {
    if (s.startS === undefined) return `no answer within ${f(large.limitS)} s`;
    const unexpected = s.statuses.filter((status) => status < 200 || status > 299);
    const partly = s.answered < s.tries ? ` (${s.answered} of ${s.tries} answered)` : '';
    return `${f(s.startS, 1)} s${partly}${unexpected.length ? ` (answered ${unexpected.join(', ')}!)` : ''}`;
  };
  // The mock's start against a target that never answered: less than the mock's time over the limit.
  const startRatio = (d: any, key: string) =>
    d.ratios[key].start !== undefined ? `${f(d.ratios[key].start, 2)}x` : d.mock.startS !== undefined ? `< ${f(d.mock.startS / large.limitS, 2)}x` : '';
  const targets = Object.keys(LARGE_TARGET_NAMES).filter((key) => large.documents.some((d: any) => d[key]));
  const names = targets.map((key) => LARGE_TARGET_NAMES[key]);
  return [
    `Large documents, measured ${large.date.slice(0, 10)} on ${large.machine.cores} cores, Node ${large.machine.node}: seconds from spawn to the first answer and peak RSS by then, ` +
      `median of ${large.repeat} starts, the ${names.slice(0, -1).join(', ')} and ${names.at(-1)} alternated; a target that does not answer within ${f(large.limitS)} s is stopped (its RSS is then the peak at that time) and not tried again.`,
    '',
    '| document | size | first request | target | start | peak RSS | mock / target start | mock / target RSS |',
    '|---|---|---|---|---|---|---|---|',
    ...large.documents.flatMap((d: any) =>
      targets
        .filter((key) => d[key])
        .map((key, i) => {
          const head = i === 0 ? `| ${d.document} | ${f(d.megabytes, 1)} MB | GET ${d.probe} |` : '| | | |';
          const ratios = key === 'mock' ? ' | |' : ` ${startRatio(d, key)} | ${f(d.ratios[key].rss, 2)}x |`;
          return `${head} ${LARGE_TARGET_NAMES[key]} | ${start(d[key])} | ${f(d[key].peakRssMB)} MB |${ratios}`;
        }),
    ),
    '',
    ...(large.notes ?? []).flatMap((note: string) => [note, '']),
  ];
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
