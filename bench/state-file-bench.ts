/**
 * `node dist/bench/state-file-bench.js`: what the state file costs a flood of POST /pets. The mock
 * with the embedded Petstore and 200,000 pets (`--count pets=200000`), without a state file and
 * with one, side by side: each measurement on a freshly started target (alternating, so a drift of
 * the machine hits both), repeated, and the medians reported with the ratio of the p99s (the goal:
 * under 2). With a state file, also how many times the journal was compacted during the load (the
 * snapshot rewritten in slices while serving). Each target gets a 1 s warm-up first, not counted.
 *
 * Flags: --duration S (default 10), --connections N (default 50), --repeat N (default 3),
 * --count N (pets, default 200000), --quick (2 s, 1 repetition, 20,000 pets: to check the script).
 * Prints a Markdown table and one JSON line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { PACKAGE_ROOT } from '../src/core/package-root.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string' },
    connections: { type: 'string' },
    repeat: { type: 'string' },
    count: { type: 'string' },
    quick: { type: 'boolean' },
  },
});
const quick = values.quick ?? false;
const DURATION = Number(values.duration ?? (quick ? 2 : 10));
const CONNECTIONS = Number(values.connections ?? 50);
const REPEAT = Number(values.repeat ?? (quick ? 1 : 3));
const PETS = Number(values.count ?? (quick ? 20_000 : 200_000));
const AUTH = { Authorization: 'Bearer petstore-demo-key' };
const START_LIMIT_MS = 180_000;

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Every answer was a 201. */
  allCreated: boolean;
  /** Journal compactions during the load (with a state file). */
  compactions?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let nextPort = 4700 + Math.floor(Math.random() * 200);

/** Started targets, stopped if the bench ends early. */
const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

async function start(stateDir?: string): Promise<{ child: ChildProcess; url: string }> {
  const port = nextPort++;
  const args = [join(PACKAGE_ROOT, 'dist/cli.js'), 'serve', '--port', String(port), '--count', `pets=${PETS}`];
  if (stateDir) args.push('--state-file', join(stateDir, 'state.json'));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the mock exited with ${child.exitCode} before answering`);
    if (Date.now() - started > START_LIMIT_MS) throw new Error(`the mock did not answer within ${START_LIMIT_MS / 1000} s`);
    try {
      const response = await fetch(`${url}/pets/1`, { headers: AUTH });
      await response.arrayBuffer();
      if (response.ok) return { child, url };
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  // A clean stop with a state file writes the whole state once more; give it time, then insist.
  await Promise.race([exited, sleep(60_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** The generation of the journal being written (one per start, plus one per compaction). */
function journalGeneration(dir: string): number {
  const generations = readdirSync(dir)
    .map((name) => /^state\.json\.(\d+)\.journal$/.exec(name)?.[1])
    .filter(Boolean)
    .map(Number);
  return Math.max(0, ...generations);
}

async function measure(withStateFile: boolean): Promise<Measurement> {
  const dir = withStateFile ? mkdtempSync(join(tmpdir(), 'state-bench-')) : undefined;
  const { child, url } = await start(dir);
  try {
    const flood = (duration: number) =>
      autocannon({
        url: `${url}/pets`,
        method: 'POST',
        headers: { ...AUTH, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
        connections: CONNECTIONS,
        duration,
      });
    await flood(1); // warm-up: the code compiled, not counted
    const before = dir ? journalGeneration(dir) : 0;
    const result = await flood(DURATION);
    const statuses = result.statusCodeStats as unknown as Record<string, { count: number }> | undefined;
    const total = Object.values(statuses ?? {}).reduce((n, s) => n + s.count, 0);
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      allCreated: total > 0 && (statuses?.['201']?.count ?? 0) === total && result.errors === 0,
      compactions: dir ? journalGeneration(dir) - before : undefined,
    };
  } finally {
    await stop(child);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const runs: Record<'without' | 'with', Measurement[]> = { without: [], with: [] };
  for (let i = 0; i < REPEAT; i++) {
    // Alternating which goes first.
    const order: Array<'without' | 'with'> = i % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
    for (const mode of order) {
      const m = await measure(mode === 'with');
      runs[mode].push(m);
      console.error(`run ${i + 1}/${REPEAT} ${mode} state file: ${Math.round(m.rps)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, max ${m.max} ms${m.compactions === undefined ? '' : `, ${m.compactions} compaction(s)`}${m.allCreated ? '' : ' (NOT all 201!)'}`);
    }
  }
  const summary = (ms: Measurement[]) => ({
    rps: Math.round(median(ms.map((m) => m.rps))),
    p50: median(ms.map((m) => m.p50)),
    p99: median(ms.map((m) => m.p99)),
    max: median(ms.map((m) => m.max)),
    allCreated: ms.every((m) => m.allCreated),
    compactions: ms[0].compactions === undefined ? undefined : ms.map((m) => m.compactions),
  });
  const without = summary(runs.without);
  const withFile = summary(runs.with);
  const ratio = Math.round((withFile.p99 / without.p99) * 100) / 100;
  const report = { pets: PETS, durationS: DURATION, connections: CONNECTIONS, repeat: REPEAT, without, with: withFile, p99Ratio: ratio, goalMet: ratio < 2 };
  console.log(
    [
      `POST /pets with ${PETS.toLocaleString('en')} pets, ${CONNECTIONS} connections, ${DURATION} s, median of ${REPEAT}`,
      '',
      '| | req/s | p50 ms | p99 ms | max ms | all 201 | compactions |',
      '|---|---:|---:|---:|---:|---|---|',
      `| without a state file | ${without.rps} | ${without.p50} | ${without.p99} | ${without.max} | ${without.allCreated ? 'yes' : 'no'} | |`,
      `| with a state file | ${withFile.rps} | ${withFile.p50} | ${withFile.p99} | ${withFile.max} | ${withFile.allCreated ? 'yes' : 'no'} | ${withFile.compactions?.join(', ')} |`,
      '',
      `p99 with / without: ${ratio} (goal: under 2: ${ratio < 2 ? 'met' : 'NOT met'})`,
      '',
      JSON.stringify(report),
    ].join('\n'),
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
