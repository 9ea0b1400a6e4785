/**
 * `petstore-mock-kit/vitest`: the contract suite as vitest tests, one per operation and check,
 * beside a project's own tests, with vitest's reporters, `-t` and `--shard`. The tests are named
 * from the document before anything is sent; the run itself happens once, before the first test
 * (runContract), and each test reads its verdict from the report: failed with the findings and
 * their curl repro, skipped with the reason the check did not judge the operation, passed.
 */
import { beforeAll, describe, test, type TestContext } from 'vitest';
import type { RunnerTestSuite } from 'vitest';
import type { Finding } from '../contract/case.js';
import type { ContractReport } from '../contract/contract-report.js';
import { runContract as run } from '../contract/run-contract.js';
import { plannedOutcomes, type PlannedOutcome } from '../contract/planned-outcomes.js';
import { sliceOperations } from '../contract/slice-operations.js';
import { buildOperations } from '../openapi/operations/build-operations.js';
import { prepareContract, type RunContractOptions } from './run-contract.js';

export interface DescribeContractOptions extends RunContractOptions {
  /**
   * `[k, n]`: only the k-th of n slices of the operations (a collection's operations stay in one
   * slice; see slice-operations.ts). Several test files, each with its own slice, let
   * `vitest --shard` (which splits files) spread the suite over machines.
   */
  slice?: [number, number];
  /** The name of the outer `describe` (default `contract`, with the slice: `contract 1/4`). */
  name?: string;
}

/** What the run may take before its hook gives up, when the run itself has no `timeoutMs`. */
const HOOK_TIMEOUT_MS = 30 * 60_000;

/**
 * Registers, in the test file that calls it, one `describe` per operation holding one test per
 * check, and the run they read from (once, in a `beforeAll`; with `-t`, only the operations and
 * checks of the tests that run are sent). A last test fails when the run harmed records of others
 * or left its own behind.
 * @example
 * // contract.test.ts in your vitest project
 * import { describeContract } from 'petstore-mock-kit/vitest';
 * describeContract({ spec: 'openapi.yaml', baseUrl: 'http://127.0.0.1:8080', token: process.env.API_TOKEN });
 */
export function describeContract(options: DescribeContractOptions): void {
  const { slice, name, ...runOptions } = options;
  if (!options.baseUrl) throw new Error('describeContract: baseUrl is required (where the implementation to check answers).');
  describe(name ?? (slice ? `contract ${slice[0]}/${slice[1]}` : 'contract'), async () => {
    const prepared = await prepareContract(runOptions);
    const all = buildOperations(prepared.document.api).map((op) => ({ id: op.id, path: op.path }));
    const sliced = slice ? sliceOperations(all, slice) : undefined;
    const operations = sliced && runOptions.operations ? sliced.filter((id) => runOptions.operations!.includes(id)) : (sliced ?? runOptions.operations);
    const planned = plannedOutcomes(prepared.document, prepared.plugins, { only: prepared.only, operations });
    let report: Promise<ContractReport | undefined> = Promise.resolve(undefined);

    beforeAll(
      // vitest reads the fixtures a hook uses from its first parameter's pattern: none here; the suite is the second.
      ({}, suite) => {
        // Only what the tests that run (-t, .only) judge is sent.
        const running = planned.filter((row) => runs(suite, row));
        if (!running.length) return;
        const ops = [...new Set(running.map((row) => row.operationId))];
        const checks = [...new Set(running.map((row) => row.check))];
        report = run({ ...prepared.settings, document: prepared.document, plugins: prepared.plugins, only: checks, operations: ops });
        return report.then(() => undefined);
      },
      runOptions.timeoutMs ? runOptions.timeoutMs + 60_000 : HOOK_TIMEOUT_MS,
    );

    for (const operationId of new Set(planned.map((row) => row.operationId))) {
      const rows = planned.filter((row) => row.operationId === operationId);
      describe(operationId, () => {
        for (const row of rows) test(row.check, async (ctx) => verdict(ctx, row, await report, runOptions.strict ?? false));
      });
    }
    test('records of others unharmed, none left behind', async (ctx) => {
      const done = await report;
      if (!done) return ctx.skip('no run: no test of it ran');
      const problems = [
        ...(done.harm ?? []).map((harm) => `harmed: ${JSON.stringify(harm)}`),
        ...(done.leftBehindAllowed ? [] : done.leftBehind.map((line) => `left behind: ${line}`)),
      ];
      if (problems.length) throw new Error(problems.join('\n'));
    });
  });
}

/** Whether the test of this row is to run (not filtered out by `-t`, nor skipped). */
function runs(suite: Readonly<RunnerTestSuite>, row: PlannedOutcome): boolean {
  const group = suite.tasks.find((task) => task.type === 'suite' && task.name === row.operationId);
  const found = group?.type === 'suite' ? group.tasks.find((task) => task.name === row.check) : undefined;
  return found !== undefined && found.mode !== 'skip' && found.mode !== 'todo';
}

/** Fails the test with the findings of its check on its operation, skips it with why nothing judged it, or lets it pass. */
async function verdict(ctx: TestContext, row: PlannedOutcome, report: ContractReport | undefined, strict: boolean): Promise<void> {
  const outcome = report?.outcomes.find((o) => o.check === row.check && o.operationId === row.operationId);
  if (!report || !outcome) return ctx.skip('not in the run');
  const mine = (f: Finding) => f.check === row.check && f.operationId === row.operationId;
  const failures = report.failures.filter(mine);
  const gaps = report.gaps.filter(mine);
  if (failures.length || (strict && gaps.length)) throw new Error(findingsText(row, [...failures, ...(strict ? gaps : [])]));
  if (gaps.length) await ctx.annotate(findingsText(row, gaps), 'gap');
  if (outcome.passed + outcome.failed + outcome.gaps === 0) return ctx.skip(outcome.skipped.join('; '));
}

/** Each finding: what was received against what the document says, the request, and the curl that sends it again. */
function findingsText(row: PlannedOutcome, findings: Finding[]): string {
  const lines = [`${row.operation}: ${row.check}, ${findings.length} finding${findings.length === 1 ? '' : 's'}`];
  for (const f of findings) {
    lines.push(`- ${f.kind === 'gap' ? 'gap: ' : ''}${f.label}: received ${f.received}, documented ${f.documented}`, `  request: ${f.request}`);
    if (f.response) lines.push(`  response: ${f.response}`);
    if (f.repro) lines.push(`  repro: ${f.repro}`);
  }
  return lines.join('\n');
}
