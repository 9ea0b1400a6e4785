/**
 * The time to the first failure for each fault of issue 39 (STATE_FAULTS and INPUT_FAULTS): each
 * served by bench/fault-server.ts in a process of its own on loopback, the suite run against it in
 * this process over real HTTP with the README's CI defaults (exploration on, its default budget,
 * the Petstore plugin) and a fixed seed. Per run: which checks failed and when each failed first
 * (seconds from the call to runContract, requests sent by then), when the fault first showed on
 * the wire, and the steps of the shrunk failure. A fault nothing caught is "not caught within the
 * budget": exploration of inputs may not exist yet, and the bench must say so rather than fail.
 */
import type { CheckId, Finding } from '../src/contract/case.js';
import { Results } from '../src/contract/results.js';
import { runContract } from '../src/contract/run-contract.js';
import { selectRun } from '../src/contract/select.js';
import { BUNDLED_SPEC } from '../src/core/bundled.js';
import { loadDocument } from '../src/openapi/document/load-document.js';
import { PLUGINS } from '../src/plugins/index.js';
import { INPUT_FAULTS } from '../src/test-support/contract-servers/input-faults.js';
import { STATE_FAULTS } from '../src/test-support/contract-servers/state-faults.js';
import { startNode, stopChild } from './children.js';

/** A moment of a run: seconds since runContract was called, and requests sent by then (every one, the preflight's included). */
export interface Moment {
  s: number;
  requests: number;
}

export interface FaultRun {
  seed: number;
  /** The check the fault must be caught by failed. */
  caught: boolean;
  /** Every check that failed, with the moment of its first failure. */
  firstFailures: Partial<Record<CheckId, Moment>>;
  /** The first request the fault answered otherwise than the unbroken mock (fault-server.ts), if any, and that request: `GET /pets?status=sold 200`. */
  shown?: Moment & { by: string };
  /** The explored failure of the fault's check, if exploration reported one: its steps once shrunk, sequences tried before it, shrinking steps. */
  shrunk?: { steps: number; tried: number; shrinks: number };
  /** The whole run: requests sent, seconds, and what exploration spent. */
  requests: number;
  s: number;
  exploration?: { requests: number; s: number; stoppedBy?: string };
}

export interface FaultFigure {
  fault: string;
  kind: 'input' | 'state';
  breaks: string;
  check: CheckId;
  runs: FaultRun[];
  /** Medians over the runs that caught it (none when no run did). */
  median?: { foundS: number; foundRequests: number; shownS?: number; shownRequests?: number; shrunkSteps?: number };
}

const TOKEN = 'petstore-demo-key';
const FAULTS = [...STATE_FAULTS.map((f) => ({ ...f, kind: 'state' as const })), ...INPUT_FAULTS.map((f) => ({ ...f, kind: 'input' as const }))];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * runContract tells what it found only at the end; to time each finding, Results.find (where every
 * finding is recorded, by a fixed check or by exploration once shrunk and confirmed) is wrapped
 * while the bench runs the suite, and put back after. One run at a time, so one listener.
 */
function observeFindings(listener: (finding: Finding) => void): () => void {
  const original = Results.prototype.find;
  Results.prototype.find = function (this: Results, finding: Finding) {
    const before = this.findings.length;
    original.call(this, finding);
    if (this.findings.length > before && finding.kind === 'failure') listener(finding);
  };
  return () => {
    Results.prototype.find = original;
  };
}

/** Every fault, at every seed, one after another; `progress` gets a line per run. */
export async function firstFailures({ root, seeds, progress }: { root: string; seeds: number[]; progress: (line: string) => void }): Promise<FaultFigure[]> {
  const document = await loadDocument(BUNDLED_SPEC);
  // The plugins the CLI gives a run on the bundled document.
  const selection = await selectRun({}, document, true, PLUGINS);
  if (typeof selection === 'string') throw new Error(selection);
  const figures: FaultFigure[] = [];
  for (const fault of FAULTS) {
    const runs: FaultRun[] = [];
    for (const seed of seeds) {
      let started = performance.now();
      let sent = 0;
      const now = (): Moment => ({ s: (performance.now() - started) / 1000, requests: sent });
      let shown: FaultRun['shown'];
      const server = startNode(`${root}dist/bench/fault-server.js`, [fault.name], (line) => {
        if (line.startsWith('shown ')) shown ??= { ...now(), by: line.slice('shown '.length) };
      });
      const firstFailures: FaultRun['firstFailures'] = {};
      const stopObserving = observeFindings((finding) => (firstFailures[finding.check] ??= now()));
      try {
        const [, baseUrl] = await server.line(/^listening (\S+)$/, 30_000);
        started = performance.now();
        const report = await runContract({
          document,
          baseUrl,
          token: TOKEN,
          seed,
          plugins: selection.plugins,
          fetch: (url, init) => (sent++, fetch(url, init)),
        });
        const explored = report.explored?.find((f) => f.check === fault.caughtBy);
        const exploration = report.exploration && !('off' in report.exploration) ? report.exploration : undefined;
        const run: FaultRun = {
          seed,
          caught: firstFailures[fault.caughtBy] !== undefined,
          firstFailures,
          shown,
          shrunk: explored && { steps: explored.steps.length, tried: explored.tried, shrinks: explored.shrinks },
          requests: sent,
          s: report.durationMs / 1000,
          exploration: exploration && { requests: exploration.requests, s: exploration.ms / 1000, stoppedBy: exploration.stoppedBy },
        };
        runs.push(run);
        progress(describeRun(fault.name, fault.caughtBy, run));
      } finally {
        stopObserving();
        await stopChild(server);
      }
    }
    const caught = runs.filter((r) => r.caught);
    const of = (pick: (r: FaultRun) => number | undefined) => {
      const xs = caught.map(pick).filter((x): x is number => x !== undefined);
      return xs.length ? median(xs) : undefined;
    };
    figures.push({
      fault: fault.name,
      kind: fault.kind,
      breaks: fault.breaks,
      check: fault.caughtBy,
      runs,
      median: caught.length
        ? {
            foundS: of((r) => r.firstFailures[fault.caughtBy]!.s)!,
            foundRequests: of((r) => r.firstFailures[fault.caughtBy]!.requests)!,
            shownS: of((r) => r.shown?.s),
            shownRequests: of((r) => r.shown?.requests),
            shrunkSteps: of((r) => r.shrunk?.steps),
          }
        : undefined,
    });
  }
  return figures;
}

function describeRun(name: string, check: CheckId, run: FaultRun): string {
  const found = run.firstFailures[check];
  const outcome = found ? `${check} after ${found.s.toFixed(2)} s, ${found.requests} requests${run.shrunk ? `, shrunk to ${run.shrunk.steps} steps` : ''}` : `not caught within the budget${Object.keys(run.firstFailures).length ? ` (failed: ${Object.keys(run.firstFailures).join(', ')})` : ''}`;
  const shown = run.shown ? `shown after ${run.shown.s.toFixed(2)} s, ${run.shown.requests} requests (${run.shown.by})` : 'never shown';
  return `  seed ${run.seed} ${name.padEnd(30)} ${outcome}; ${shown}; run ${run.requests} requests in ${run.s.toFixed(1)} s`;
}
