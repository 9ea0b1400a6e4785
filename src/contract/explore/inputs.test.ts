/**
 * Input exploration against the mock in-process: faults that show only for some valid inputs are
 * caught, each shrunk to a small input, confirmed, and reported once with its curl line; the fixed
 * checks alone pass them; the same seed gives the same report; the unbroken mock passes.
 */
import { describe, expect, it } from 'vitest';
import { petstore, petstoreDocument } from '../../test-support/petstore.js';
import { INPUT_FAULTS } from '../../test-support/contract-servers/input-faults.js';
import { describeFinding } from '../case.js';
import { petstoreContract } from '../../plugins/petstore/contract.js';
import { runContract } from '../run-contract.js';
import type { RunOptions } from '../run-options.js';

const document = await petstoreDocument();
const TOKEN = 'petstore-demo-key';
const inProcess = (handler: (request: Request) => Promise<Response> | Response) => (url: string, init: RequestInit) => Promise.resolve(handler(new Request(url, init)));
const run = (handler: (request: Request) => Promise<Response> | Response, options: Partial<RunOptions> = {}) =>
  runContract({ document, plugins: [{ name: 'petstore', part: petstoreContract }], baseUrl: 'http://mock.test', token: TOKEN, fetch: inProcess(handler), ...options });

describe('input exploration', () => {
  for (const fault of INPUT_FAULTS) {
    it(`catches ${fault.name} (${fault.breaks}) with ${fault.caughtBy}, shrunk and confirmed, which the fixed checks alone pass`, async () => {
      const fixed = await run(fault.wrap(await petstore()), { explore: false });
      expect(fixed.failures.map(describeFinding)).toEqual([]);

      const report = await run(fault.wrap(await petstore()), { seed: 7 });
      const explored = (report.explored ?? []).filter((f) => f.check === fault.caughtBy && (!fault.operationId || f.operationId === fault.operationId));
      expect(explored.length).toBeGreaterThan(0);
      for (const failure of explored) {
        // Shrunk: the smallest input that still fails, its request the last step, sent once more and failing again.
        expect(failure.repro.at(-1)).toMatch(fault.shrunkTo);
        expect(failure.shrinks).toBeGreaterThan(0);
        expect(report.failures.filter((f) => f.operationId === failure.operationId && f.check === fault.caughtBy)).toHaveLength(1);
      }
      // Steps that send it again on another run: the records it names created first, each named by its step.
      if (fault.name === 'stock-near-maximum') {
        const [{ steps }] = explored;
        expect(steps.map((s) => s.operationId)).toEqual(['createCategory', 'createPet', 'updateInventoryItem']);
        expect((steps[1].body as Record<string, unknown>).categoryId).toEqual({ $fromStep: 0 });
        expect(steps[2].params).toEqual({ petId: { $fromStep: 1 } });
      }
    });
  }
});
