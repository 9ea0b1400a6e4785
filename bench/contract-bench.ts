/**
 * The contract suite's section of `npm run bench` (issue 39, point 6: the suite is never the
 * bottleneck): the suite's requests per second against the mock (bench/suite-throughput.ts),
 * beside the mock's own ceiling on a list page and a record, with the CPU each side spent per
 * request; then the time to the first failure for each fault class of the issue
 * (bench/first-failures.ts). bench/run.ts calls it (`--only contract` for this section alone) and
 * writes what it returns, and its table, into bench/results/latest.{json,md}.
 */
import { loadavg } from 'node:os';
import { EXPLORE_LANES } from '../src/contract/explore/budget.js';
import { firstFailures, type FaultFigure } from './first-failures.js';
import { CEILING_SCENARIOS, mixRate, mockCeiling, suiteRun, type SuiteRun } from './suite-throughput.js';

export interface ContractBenchOptions {
  /** The checkout, with a trailing slash (dist/ built). */
  root: string;
  machine: Record<string, unknown>;
  /** Runs of the suite, and of autocannon per ceiling figure; medians reported. */
  repeat: number;
  /** Seconds per autocannon run, and its connections (the throughput section's). */
  durationS: number;
  connections: number;
  /** The seeds each fault is run at. */
  seeds: number[];
  /**
   * The mock's rates at `connections` on the ceiling scenarios from the throughput section of the
   * same run, by scenario name, if it ran: reused rather than measured again.
   */
  ceilingFromThroughput?: Record<string, number>;
}

/** The latency of the slow server the lanes are measured against (`serve --delay`). */
const SLOW_SERVER_MS = 3;

/** The suite runs at this seed for its rate, so every run sends the same requests. */
const THROUGHPUT_SEED = 1;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function contractSection(options: ContractBenchOptions): Promise<Record<string, any>> {
  const { root, repeat, durationS, connections } = options;
  // The machine may be shared: the load before and after says how much the figures were disturbed.
  const loadBefore = loadavg()[0];
  console.log(`\ncontract suite: ${repeat} run(s) of the CI command against the mock (seed ${THROUGHPUT_SEED}); the mock's ceiling; each fault at seed(s) ${options.seeds.join(', ')}\n`);
  const runs: SuiteRun[] = [];
  for (let rep = 0; rep < repeat; rep++) {
    const run = await suiteRun(root, THROUGHPUT_SEED);
    runs.push(run);
    console.log(`  ${rep + 1}/${repeat} suite: ${run.requests} requests in ${run.s.toFixed(1)} s (${(run.requests / run.s).toFixed(0)} req/s; ${run.wallS.toFixed(1)} s from spawn to exit), exploration ${run.exploration?.requests ?? '?'} in ${run.exploration?.s ?? '?'} s; CPU suite ${run.suiteCpuS.toFixed(2)} s, mock ${run.mockCpuS.toFixed(2)} s; exit ${run.exitCode}`);
  }
  const reused = options.ceilingFromThroughput && CEILING_SCENARIOS.every((s) => options.ceilingFromThroughput![s.name] !== undefined);
  const many = reused ? options.ceilingFromThroughput! : await mockCeiling(root, { connections, durationS, repeat });
  // One request at a time, as the suite sends most of its requests: the most a client that waits for each answer could get.
  const one = await mockCeiling(root, { connections: 1, durationS, repeat });
  console.log(`  ceiling at ${connections} connections${reused ? ' (from the throughput section)' : ''}: ${fmtRates(many)}; at 1: ${fmtRates(one)}`);

  const perRequestUs = (pick: (r: SuiteRun) => number) => median(runs.map((r) => (pick(r) * 1e6) / r.requests));
  const suite = {
    requests: median(runs.map((r) => r.requests)),
    s: median(runs.map((r) => r.s)),
    wallS: median(runs.map((r) => r.wallS)),
    rps: median(runs.map((r) => r.requests / r.s)),
    explorationRps: runs.every((r) => r.exploration) ? median(runs.map((r) => r.exploration!.requests / r.exploration!.s)) : undefined,
    suiteCpuUs: perRequestUs((r) => r.suiteCpuS),
    mockCpuUs: perRequestUs((r) => r.mockCpuS),
    conforms: runs.every((r) => r.exitCode === 0),
  };
  const ceiling = {
    connections,
    reused: Boolean(reused),
    rates: many,
    mix: mixRate(many),
    oneConnection: { rates: one, mix: mixRate(one) },
  };
  // Against a server that takes a while (the mock with --delay, as a server over a database does): one lane against the default lanes.
  const slow = [];
  for (const lanes of ['1', String(EXPLORE_LANES)]) {
    const slowRuns: SuiteRun[] = [];
    for (let rep = 0; rep < repeat; rep++) slowRuns.push(await suiteRun(root, THROUGHPUT_SEED, { mock: ['--delay', String(SLOW_SERVER_MS)], contract: ['--explore-lanes', lanes] }));
    const row = { lanes: Number(lanes), requests: median(slowRuns.map((r) => r.requests)), s: median(slowRuns.map((r) => r.s)), explorationRps: median(slowRuns.map((r) => r.exploration!.requests / r.exploration!.s)), conforms: slowRuns.every((r) => r.exitCode === 0) };
    slow.push(row);
    console.log(`  against a server taking ${SLOW_SERVER_MS} ms, ${lanes} lane(s): ${row.requests} requests in ${row.s.toFixed(1)} s, exploration ${row.explorationRps.toFixed(0)} req/s`);
  }
  const faults = await firstFailures({ root, seeds: options.seeds, progress: (line) => console.log(line) });
  return {
    date: new Date().toISOString(),
    machine: options.machine,
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    settings: { repeat, durationS, connections, seed: THROUGHPUT_SEED, faultSeeds: options.seeds },
    suite,
    runs,
    slow: { delayMs: SLOW_SERVER_MS, rows: slow },
    ceiling,
    ratio: suite.rps / ceiling.mix,
    ratioOneConnection: suite.rps / ceiling.oneConnection.mix,
    faults,
  };
}

const fmtRates = (rates: Record<string, number>) => Object.entries(rates).map(([name, rps]) => `${name} ${rps.toFixed(0)} req/s`).join(', ');

type Format = (n: number, d?: number) => string;

/** The section's paragraphs and tables for latest.md. */
export function contractMarkdown(section: any, f: Format): string[] {
  const { suite, ceiling, settings } = section;
  const rates = (r: Record<string, number>) => Object.entries(r).map(([name, rps]) => `${name} ${f(rps)}`).join(', ');
  return [
    `Contract suite (issue 39), measured ${section.date.slice(0, 10)} on ${section.machine.cores} cores (${section.machine.cpu}), Node ${section.machine.node}` +
      `${section.loadAverage ? ` (load average ${f(section.loadAverage.before, 1)} before, ${f(section.loadAverage.after, 1)} after)` : ''}: ` +
      `\`petstore-mock-kit contract --base-url URL --token petstore-demo-key --seed ${settings.seed}\` (the README's CI command, exploration on with its default budget, the seed fixed) ` +
      `as a child process against \`serve --log-level silent\` on loopback, the mock started afresh for each run; median of ${settings.repeat} run(s). ` +
      `Requests and seconds are the command's own (its summary and exploration lines); CPU from /proc, the command's and the mock's over the same run.`,
    '',
    '| suite | requests | seconds | req/s | suite CPU per request | mock CPU per request |',
    '|---|---|---|---|---|---|',
    `| whole run, exploration included${suite.conforms ? '' : ' (did not pass!)'} | ${f(suite.requests)} | ${f(suite.s, 1)} (${f(suite.wallS, 1)} from spawn to exit) | ${f(suite.rps)} | ${f(suite.suiteCpuUs)} µs | ${f(suite.mockCpuUs)} µs |`,
    ...(suite.explorationRps === undefined ? [] : [`| exploration alone | ${f(median(section.runs.map((r: SuiteRun) => r.exploration!.requests)))} | ${f(median(section.runs.map((r: SuiteRun) => r.exploration!.s)), 1)} | ${f(suite.explorationRps)} | | |`]),
    '',
    ...(section.slow
      ? [
          `Against a server that takes ${section.slow.delayMs} ms an answer (the mock with \`--delay ${section.slow.delayMs}\`), exploration's lanes (\`--explore-lanes\`, its requests overlapping; the same seed sends the same requests): ` +
            section.slow.rows.map((r: any) => `${r.lanes} lane(s) ${f(r.requests)} requests in ${f(r.s, 1)} s, exploration ${f(r.explorationRps)} req/s${r.conforms ? '' : ' (did not pass!)'}`).join('; ') +
            '.',
          '',
        ]
      : []),
    `The mock's ceiling (autocannon, ${settings.durationS} s per run, median of ${settings.repeat}; an even mix of the two is their harmonic mean): ` +
      `at ${ceiling.connections} connections ${rates(ceiling.rates)} req/s, mix ${f(ceiling.mix)}${ceiling.reused ? ' (from the throughput section of this run)' : ''}; ` +
      `at 1 connection (one request at a time, as the suite waits for each answer) ${rates(ceiling.oneConnection.rates)} req/s, mix ${f(ceiling.oneConnection.mix)}. ` +
      `Suite / ceiling: ${f(section.ratio, 3)}x at ${ceiling.connections} connections, ${f(section.ratioOneConnection, 3)}x at 1.`,
    '',
    `Time to the first failure, each fault served by bench/fault-server.ts (the mock behind the fault, a process of its own on loopback) and the suite run in the bench's process over HTTP with the CI defaults, ` +
      `at seed(s) ${settings.faultSeeds.join(', ')}; medians over the seeds that caught it, each figure's apart. "Shown": the first request the fault answered otherwise than the unbroken mock would; ` +
      `"found": the first failure of the fault's check recorded (an explored failure is recorded once shrunk and confirmed); seconds from the start of the run, requests counted as sent.`,
    '',
    '| fault | class | check | caught | shown: s / requests | found: s / requests | shrunk to (steps) | run: requests / s |',
    '|---|---|---|---|---|---|---|---|',
    ...section.faults.map((fault: FaultFigure) => {
      const caught = fault.runs.filter((r) => r.caught).length;
      const others = [...new Set(fault.runs.flatMap((r) => Object.keys(r.firstFailures)).filter((c) => c !== fault.check))];
      const m = fault.median;
      const moment = (s?: number, requests?: number) => (s === undefined ? 'never' : `${f(s, 2)} / ${f(requests!)}`);
      const shownRuns = fault.runs.filter((r) => r.shown);
      const shownAny = shownRuns.length ? moment(median(shownRuns.map((r) => r.shown!.s)), median(shownRuns.map((r) => r.shown!.requests))) : 'never';
      return (
        `| ${fault.fault} | ${fault.kind} | ${fault.check} | ${caught ? `${caught} of ${fault.runs.length}` : 'not caught within the budget'}${others.length ? ` (also failed: ${others.join(', ')})` : ''} | ` +
        `${m ? moment(m.shownS, m.shownRequests) : shownAny} | ${m ? moment(m.foundS, m.foundRequests) : 'n/a'} | ${m?.shrunkSteps === undefined ? 'n/a' : f(m.shrunkSteps)} | ` +
        `${f(median(fault.runs.map((r) => r.requests)))} / ${f(median(fault.runs.map((r) => r.s)), 1)} |`
      );
    }),
    '',
  ];
}
