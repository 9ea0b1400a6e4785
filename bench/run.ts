/**
 * `npm run bench`: the mock beside Prism's mock (silent and with its default logging) and a bare
 * Hono server, on this machine, in one run. Targets are loaded alternately with autocannon at
 * fixed connections and duration, each measurement repeated (3 times by default), and the medians
 * reported: requests/s, p50 and p99 latency, peak RSS, start to first answer, and the ratios
 * mock/Prism and mock/bare Hono. Then the mock alone: start and memory with 100,000 pets, and the
 * cost of a list page with 1,000 and 1,000,000 records. Results go to bench/results/latest.{json,md}.
 *
 * Flags: --duration S (default 5), --connections N (default 50), --repeat N (default 3), --quick
 * (1 s, 1 repetition, no million-record run: for checking the script itself).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { PACKAGE_ROOT } from '../src/package-root.js';

const ROOT = `${PACKAGE_ROOT}/`;
const { values } = parseArgs({ options: { duration: { type: 'string' }, connections: { type: 'string' }, repeat: { type: 'string' }, quick: { type: 'boolean' } } });
const quick = values.quick ?? false;
const DURATION = Number(values.duration ?? (quick ? 1 : 5));
const CONNECTIONS = Number(values.connections ?? 50);
const REPEAT = Number(values.repeat ?? (quick ? 1 : 3));
const AUTH = { Authorization: 'Bearer petstore-demo-key' };

interface Target {
  name: string;
  command: string[];
}
const TARGETS: Target[] = [
  { name: 'mock', command: [process.execPath, `${ROOT}dist/cli.js`, 'serve', '--port', 'PORT'] },
  { name: 'prism (-v silent)', command: [`${ROOT}node_modules/.bin/prism`, 'mock', `${ROOT}spec/openapi.yaml`, '-p', 'PORT', '-h', '127.0.0.1', '-v', 'silent'] },
  { name: 'prism (default logging)', command: [`${ROOT}node_modules/.bin/prism`, 'mock', `${ROOT}spec/openapi.yaml`, '-p', 'PORT', '-h', '127.0.0.1'] },
  { name: 'bare hono', command: [process.execPath, `${ROOT}dist/bench/bare-hono.js`, 'PORT'] },
  // The same, with the mock's way of writing answers (src/server.ts answerInBatches): the ceiling for that transport.
  { name: 'bare hono, in batches', command: [process.execPath, `${ROOT}dist/bench/bare-hono.js`, 'PORT', '--batches'] },
];

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

/** The process groups still running, stopped if the bench itself ends early (Ctrl-C, an error). */
const groups = new Set<number>();
const stopAll = () => groups.forEach((pid) => void tryKill(-pid, 'SIGKILL'));
process.once('exit', stopAll);
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
}

/** Starts a target and measures the time from spawn to its first answered request. */
async function start(target: Target, extra: string[] = []): Promise<Running> {
  const port = nextPort++;
  const [command, ...args] = target.command.map((part) => part.replace('PORT', String(port)));
  const started = performance.now();
  // In a process group of its own, so a stop reaches what a wrapper (npm, Prism's shell) started.
  const child = spawn(command, [...args, ...extra], { stdio: 'ignore', cwd: ROOT, detached: true });
  groups.add(child.pid!);
  child.once('exit', () => groups.delete(child.pid!));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      await fetch(`${url}/pets/1`, { headers: AUTH });
      return { child, url, startMs: performance.now() - started };
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
}

async function load(url: string, scenario: Scenario, duration = DURATION): Promise<Measurement> {
  const result = await autocannon({ url: `${url}${scenario.path}`, method: scenario.method, headers: scenario.headers, body: scenario.body, connections: CONNECTIONS, duration });
  const statuses = result.statusCodeStats as unknown as Record<string, { count: number }> | undefined;
  const total = Object.values(statuses ?? {}).reduce((n, s) => n + s.count, 0);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, statusOk: total > 0 && (statuses?.[String(scenario.expect)]?.count ?? 0) === total };
}

async function main() {
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
  // Warm up every target on every scenario (the JIT) before measuring.
  for (const scenario of SCENARIOS) for (const target of TARGETS) await load(running.get(target.name)!.url, scenario, 1);

  const results = new Map<string, Measurement[]>();
  for (let rep = 0; rep < REPEAT; rep++) {
    for (const scenario of SCENARIOS) {
      for (const target of TARGETS) {
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
  const lists = await Promise.all(sizes.map((count) => start(mock, ['--count', `pets=${count}`])));
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
    return {
      scenario: scenario.name,
      expect: scenario.expect,
      mock: m,
      prismSilent: silent,
      prismLogging: logging,
      bareHono: bare,
      bareHonoInBatches: bareBatched,
      vsPrismSilent: m.rps / silent.rps,
      vsPrismLogging: m.rps / logging.rps,
      vsBareHono: m.rps / bare.rps,
      vsBareHonoInBatches: m.rps / bareBatched.rps,
    };
  });
  const report = {
    date: new Date().toISOString(),
    machine: { cpu: cpus()[0]?.model, cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    settings: { connections: CONNECTIONS, durationS: DURATION, repeat: REPEAT },
    rows,
    startup: Object.fromEntries(TARGETS.map((t) => [t.name, { startMs: median(starts.get(t.name)!), idleRssMB: idle.get(t.name), peakRssMB: peak.get(t.name) }])),
    mockViaNpmStart: { startMs: median(npmStarts) },
    mock100kPets: { startMs: median(big), idleRssMB: bigIdle },
    listPage: { records: listCost, ratio: Math.max(...Object.values(listCost)) / Math.min(...Object.values(listCost)) },
  };
  mkdirSync(`${ROOT}bench/results`, { recursive: true });
  writeFileSync(`${ROOT}bench/results/latest.json`, `${JSON.stringify(report, null, 2)}\n`);
  const markdown = toMarkdown(report);
  writeFileSync(`${ROOT}bench/results/latest.md`, markdown);
  console.log(`\n${markdown}`);
}

function toMarkdown(report: any): string {
  const f = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const lines = [
    `Measured ${report.date.slice(0, 10)} on ${report.machine.cores} cores (${report.machine.cpu}), ${report.machine.memoryGiB} GiB, Node ${report.machine.node}; autocannon, ${report.settings.connections} connections, ${report.settings.durationS} s per run, median of ${report.settings.repeat} runs, targets alternated.`,
    '',
    '| scenario | mock req/s | p50 / p99 ms | Prism silent req/s | Prism logging req/s | bare Hono req/s | bare Hono in batches req/s | mock / Prism silent | mock / Prism logging | mock / bare Hono | mock / bare Hono in batches |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...report.rows.map(
      (r: any) =>
        `| ${r.scenario}${r.mock.statusOk ? '' : ' (unexpected statuses!)'} | ${f(r.mock.rps)} | ${r.mock.p50} / ${r.mock.p99} | ${f(r.prismSilent.rps)} | ${f(r.prismLogging.rps)} | ` +
        `${f(r.bareHono.rps)} | ${f(r.bareHonoInBatches.rps)} | ${f(r.vsPrismSilent, 1)}x | ${f(r.vsPrismLogging, 1)}x | ${f(r.vsBareHono, 2)}x | ${f(r.vsBareHonoInBatches, 2)}x |`,
    ),
    '',
    '| target | start to first answer | idle RSS | peak RSS under load |',
    '|---|---|---|---|',
    ...Object.entries(report.startup).map(([name, s]: [string, any]) => `| ${name} | ${f(s.startMs)} ms | ${f(s.idleRssMB)} MB | ${f(s.peakRssMB)} MB |`),
    `| mock via \`npm start\` (built tree) | ${f(report.mockViaNpmStart.startMs)} ms | | |`,
    `| mock, 100,000 pets | ${f(report.mock100kPets.startMs)} ms | ${f(report.mock100kPets.idleRssMB)} MB | |`,
    '',
    `List page (GET /pets?limit=20): ${Object.entries(report.listPage.records).map(([n, rps]) => `${f(Number(n))} pets: ${f(rps as number)} req/s`).join('; ')}; ratio ${f(report.listPage.ratio, 2)}.`,
    '',
  ];
  return lines.join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
