/**
 * Stateful exploration against the mock in-process: faults that show only after a sequence of
 * requests are caught, each with the shortest sequence that shows it, the same report for the same
 * seed; the fixed script alone passes them; the unbroken mock passes at several seeds.
 */
import { describe, expect, it } from 'vitest';
import { petstore, petstoreDocument } from '../../test-support/petstore.js';
import { STATE_FAULTS } from '../../test-support/contract-servers/state-faults.js';
import { describeFinding } from '../case.js';
import { petstoreContract } from '../../plugins/petstore/contract.js';
import { PHASES, runContract } from '../run-contract.js';
import type { RunOptions } from '../run-options.js';
import { statefulExplorationPhase } from './stateful-phase.js';

const document = await petstoreDocument();
const TOKEN = 'petstore-demo-key';
const inProcess = (handler: (request: Request) => Promise<Response> | Response) => (url: string, init: RequestInit) => Promise.resolve(handler(new Request(url, init)));
const run = (handler: (request: Request) => Promise<Response> | Response, options: Partial<RunOptions> = {}) =>
  runContract({ document, plugins: [{ name: 'petstore', part: petstoreContract }], baseUrl: 'http://mock.test', token: TOKEN, fetch: inProcess(handler), ...options });

const unmarked = (value: unknown) => JSON.stringify(value).replace(/contract-[0-9a-f]{8}/g, 'contract-MARKER');

/** The run without the stateful phase: the suite as it was before it. */
async function withoutExploration<T>(body: () => Promise<T>): Promise<T> {
  const at = PHASES.indexOf(statefulExplorationPhase);
  PHASES.splice(at, 1);
  try {
    return await body();
  } finally {
    PHASES.splice(at, 0, statefulExplorationPhase);
  }
}

describe('stateful exploration', () => {
  for (const fault of STATE_FAULTS) {
    it(`catches ${fault.name} (${fault.breaks}) with ${fault.caughtBy}, shrunk to ${fault.shortest} steps, which the fixed script alone passes`, async () => {
      const before = await withoutExploration(async () => run(fault.wrap(await petstore())));
      expect(before.failures.map(describeFinding)).toEqual([]);

      const report = await run(fault.wrap(await petstore()), { seed: 7 });
      const explored = report.explored ?? [];
      expect(explored.map((f) => f.check)).toContain(fault.caughtBy);
      const failure = explored.find((f) => f.check === fault.caughtBy)!;
      expect(failure.steps.map((s) => s.label), failure.repro.join('\n')).toHaveLength(fault.shortest);
      expect(failure.repro.length).toBeGreaterThanOrEqual(fault.shortest);
      expect(failure.repro.every((line) => line.startsWith('curl '))).toBe(true);
      expect(failure.seed).toBe(7);
      // Reported as a finding of its check too.
      expect(report.failures.some((f) => f.check === fault.caughtBy && f.received === failure.received)).toBe(true);

      // The same seed, the same report: the same steps, values and curl lines, but for the run's own marker (new each run, to tell its records apart).
      const again = await run(fault.wrap(await petstore()), { seed: 7 });
      expect(unmarked(again.explored)).toBe(unmarked(report.explored));
      expect(unmarked(again.failures.map(describeFinding))).toBe(unmarked(report.failures.map(describeFinding)));
    });
  }

  for (const seed of [1, 2, 3]) {
    it(`finds no failure on the unbroken mock at seed ${seed}, and leaves nothing behind`, async () => {
      const mock = await petstore();
      const counts = JSON.stringify(mock.store.counts());
      const report = await run(mock.app.fetch, { seed });
      expect(report.failures.map(describeFinding)).toEqual([]);
      expect(report.explored).toEqual([]);
      expect(report.leftBehind).toEqual([]);
      expect(JSON.stringify(mock.store.counts())).toBe(counts);
    });
  }
});
