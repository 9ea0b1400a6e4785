/**
 * The contract suite's own rate against the mock, as a user runs it: the built mock (`serve`) on a
 * free loopback port, started afresh for each run, and the README's CI command (`contract
 * --base-url URL --token TOKEN`, the seed fixed so every run sends the same requests) as a child
 * process. The requests and seconds come from the command's own report (its summary line and its
 * exploration line), the CPU of each side from /proc: the command's once it has exited, the mock's
 * over the run. Beside it, the mock's ceiling on GET /pets?limit=20 and GET /pets/1 with autocannon.
 */
import autocannon from 'autocannon';
import { cpuSeconds, endedChildrenCpuSeconds, freePort, startNode, stopChild, type Child } from './children.js';

const TOKEN = 'petstore-demo-key';
const AUTH = { Authorization: `Bearer ${TOKEN}` };

/** The requests of the ceiling: a list page and a record, as the throughput section loads them. */
export const CEILING_SCENARIOS = [
  { name: 'GET /pets (page of 20)', path: '/pets?limit=20' },
  { name: 'GET /pets/{petId}', path: '/pets/1' },
] as const;

export interface SuiteRun {
  /** Requests and seconds of the whole run, as its summary line says them (runContract's own clock). */
  requests: number;
  s: number;
  /** From spawn to exit: Node's start and the document's loading included. */
  wallS: number;
  /** Exploration alone, as its line says it. */
  exploration?: { requests: number; s: number };
  /** CPU seconds of the contract command, and of the mock over the same time. */
  suiteCpuS: number;
  mockCpuS: number;
  exitCode: number | null;
}

/** Starts the built mock on a free loopback port and waits until it answers. */
async function startMock(root: string, args: string[] = []): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = startNode(`${root}dist/cli.js`, ['serve', '--port', String(port), '--log-level', 'silent', ...args]);
  const url = `http://127.0.0.1:${port}`;
  const until = performance.now() + 30_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/pets/1`, { headers: AUTH });
      await response.arrayBuffer();
      return { child, url };
    } catch (error) {
      if (child.process.exitCode !== null || performance.now() > until) {
        await stopChild(child);
        throw new Error(`the mock did not answer at ${url}: ${(error as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** What a run varies: flags of the mock (`--delay 2`: a server that takes 2 ms an answer) and of the contract command (`--explore-lanes 1`). */
export interface SuiteRunArgs {
  mock?: string[];
  contract?: string[];
}

/** One run of the contract command against a fresh mock. */
export async function suiteRun(root: string, seed: number, args: SuiteRunArgs = {}): Promise<SuiteRun> {
  const mock = await startMock(root, args.mock);
  try {
    const mockCpu = cpuSeconds(mock.child.process.pid!);
    const suiteCpu = endedChildrenCpuSeconds();
    const started = performance.now();
    const suite = startNode(`${root}dist/cli.js`, ['contract', '--base-url', mock.url, '--token', TOKEN, '--seed', String(seed), ...(args.contract ?? [])]);
    let exitCode: number | null;
    try {
      exitCode = await suite.exited;
    } finally {
      await stopChild(suite);
    }
    const wallS = (performance.now() - started) / 1000;
    const result = {
      wallS,
      suiteCpuS: endedChildrenCpuSeconds() - suiteCpu,
      mockCpuS: cpuSeconds(mock.child.process.pid!) - mockCpu,
      exitCode,
    };
    const output = suite.lines.join('\n');
    // `PASS: the implementation conforms (2724 requests; 21 checks: 21 passed; seed 1; 5.6 s)`
    const summary = /\((\d+) requests; .*; seed \d+; ([\d.]+) s\)$/m.exec(output);
    if (!summary) throw new Error(`the contract command (exit ${exitCode}) printed no summary line:\n${output.slice(-2000)}`);
    // `Exploration: 2221 requests in 3.8 s (budget ...)`
    const exploration = /^Exploration: (\d+) requests in ([\d.]+) s/m.exec(output);
    return {
      requests: Number(summary[1]),
      s: Number(summary[2]),
      ...result,
      exploration: exploration ? { requests: Number(exploration[1]), s: Number(exploration[2]) } : undefined,
    };
  } finally {
    await stopChild(mock.child);
  }
}

/**
 * The mock's rate on each ceiling scenario (autocannon, `connections` at once, medians of `repeat`
 * runs of `durationS`, the two alternated after a second's warm-up of each), on one fresh mock.
 */
export async function mockCeiling(root: string, { connections, durationS, repeat }: { connections: number; durationS: number; repeat: number }): Promise<Record<string, number>> {
  const mock = await startMock(root);
  try {
    const load = async (path: string, duration: number) => {
      const result = await autocannon({ url: `${mock.url}${path}`, headers: AUTH, connections, duration });
      const statuses = result.statusCodeStats as unknown as Record<string, { count: number }>;
      const other = Object.keys(statuses).filter((status) => status !== '200');
      if (other.length || result.errors + result.timeouts) throw new Error(`GET ${path}: answers other than 200 (${JSON.stringify(statuses)}), ${result.errors} errors, ${result.timeouts} timeouts`);
      return result.requests.average;
    };
    for (const s of CEILING_SCENARIOS) await load(s.path, 1);
    const rates = new Map<string, number[]>(CEILING_SCENARIOS.map((s) => [s.name, []]));
    for (let rep = 0; rep < repeat; rep++) for (const s of CEILING_SCENARIOS) rates.get(s.name)!.push(await load(s.path, durationS));
    return Object.fromEntries([...rates].map(([name, xs]) => [name, [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]]));
  } finally {
    await stopChild(mock.child);
  }
}

/** The rate of an even mix of the scenarios: each request of the mix takes the mean of their times (the harmonic mean of the rates). */
export function mixRate(rates: Record<string, number>): number {
  const values = Object.values(rates);
  return values.length / values.reduce((sum, rps) => sum + 1 / rps, 0);
}
