/**
 * Runs the contract suite against one implementation: phase by phase, every exchange judged by
 * the checks, the suite's own records deleted at the end.
 *
 * @example
 * const report = await runContract({ document, baseUrl: 'http://127.0.0.1:4010', token: 'petstore-demo-key' });
 * report.conforms // true when the implementation keeps every promise of the document
 */
import { reachOf } from './reach.js';
import { findResponse } from '../openapi/operations/build-operations.js';
import { causesOf } from './causes.js';
import { cleanUp } from './clean-up.js';
import { unmappedReason } from '../openapi/operations/unmapped-reason.js';
import { unenforcedPatterns } from '../openapi/validation/unenforced-patterns.js';
import type { ContractReport, CoverageRow } from './contract-report.js';
import { checkRegistry } from './checks/index.js';
import { ContractContext, DeadlineError, UnsafeRequestError } from './context.js';
import { checkAddress, checkCredentials, ContractSetupError } from './preflight.js';
import { compareSnapshot, takeSnapshot, type Harm, type Snapshot } from './harm.js';
import { unsafeWrite } from './safety.js';
import { authPhase } from './phases/auth.js';
import { examplesPhase } from './phases/examples.js';
import { lifecyclePhase } from './phases/lifecycle.js';
import { negativePhase } from './phases/negative.js';
import { probesPhase } from './phases/probes.js';
import { Targets, type Phase } from './phases/phase.js';
import { unknownPhase } from './phases/unknown.js';
import { inputExplorationPhase } from './explore/inputs-phase.js';
import { statefulExplorationPhase } from './explore/stateful-phase.js';
import { exploredOf } from './explore/explored.js';
import { secretMask } from './report/mask.js';
import type { RunOptions } from './run-options.js';

export { ContractSetupError };

export const PHASES: Phase[] = [examplesPhase, authPhase, negativePhase, unknownPhase, lifecyclePhase, inputExplorationPhase, statefulExplorationPhase, probesPhase];

/**
 * The run, its secrets masked (report/mask.ts) in all it gives back: the report, the exchanges
 * `onExchange` sees, the message of an error it throws.
 */
export async function runContract(options: RunOptions): Promise<ContractReport> {
  const mask = secretMask(options);
  const onExchange = options.onExchange;
  try {
    return mask.value(await run({ ...options, onExchange: onExchange && ((exchange, sent) => onExchange(mask.exchange(exchange), sent)) }));
  } catch (error) {
    throw mask.error(error);
  }
}

async function run(options: RunOptions): Promise<ContractReport> {
  const started = performance.now();
  const ctx = new ContractContext(options, checkRegistry(options.plugins ?? []));
  try {
    return await runIn(ctx, options, started);
  } finally {
    await ctx.close();
  }
}

async function runIn(ctx: ContractContext, options: RunOptions, started: number): Promise<ContractReport> {
  const plugins = options.plugins ?? [];
  if (!ctx.operations.some((op) => ctx.inScope(op))) {
    throw new ContractSetupError(`The document ${options.document.file} has no operation to check${options.document.api.webhooks ? ' (only webhooks, which a server sends rather than answers)' : ''}.`);
  }
  await checkAddress(ctx, await checkCredentials(ctx));
  const preparations = Object.assign({}, ...plugins.map((p) => p.part.preparations ?? {}));
  const targets = new Targets(ctx, preparations);
  if (options.timeoutMs) ctx.deadline = started + options.timeoutMs;
  let incomplete: string | undefined;
  const phases = [...PHASES, ...plugins.flatMap((p) => p.part.phases ?? [])];
  const notSent = ctx.operations
    .filter((op) => ctx.inScope(op) && !ctx.vouchedFor(op))
    .map((op) => ({ operationId: op.id, operation: `${op.method.toUpperCase()} ${op.path}`, reason: unsafeWrite(op, ctx.binding(op), ctx.collections) }))
    .filter((row): row is { operationId: string; operation: string; reason: string } => row.reason !== undefined);
  for (const { operationId, reason } of notSent) ctx.skip(ctx.checkIds, ctx.operations.find((op) => op.id === operationId)!, `never sent: ${reason}`);
  const harmCheckOff = options.readOnly ? 'read-only: the run changed nothing' : options.harmCheck === false ? 'turned off (--no-harm-check): records others change during the run are not compared' : undefined;
  const snapshot: Snapshot | undefined = harmCheckOff ? undefined : await takeSnapshot(ctx);
  const nothingToCompare = snapshot?.size === 0 ? 'the document has no list of records to read before and after' : undefined;
  let harm: Harm[] | undefined;
  try {
    for (const phase of phases) {
      // A phase runs when it feeds a selected check; response-level checks judge all traffic sent.
      if (!phase.checks.some((id) => ctx.selected(id))) continue;
      if (options.readOnly && phase.changesState) {
        for (const op of ctx.operations) ctx.skip(phase.checks, op, '--read-only: its requests change state');
        continue;
      }
      if (incomplete) {
        for (const op of ctx.operations) ctx.skip(phase.checks, op, incomplete);
        continue;
      }
      try {
        await phase.run(ctx, targets);
      } catch (error) {
        if (error instanceof UnsafeRequestError) {
          // A phase that did not check first: the request was refused here, and the rest of the phase is skipped.
          for (const op of ctx.operations) ctx.skip(phase.checks, op, `not reached: ${error.message}`);
          continue;
        }
        if (!(error instanceof DeadlineError)) throw error;
        incomplete = `not reached: the run stopped at its --timeout of ${options.timeoutMs! / 1000} s`;
        for (const op of ctx.operations) ctx.skip(phase.checks, op, incomplete);
      }
    }
  } finally {
    if (!options.readOnly) ctx.leftBehind.push(...(await cleanUp(ctx)));
    if (snapshot?.size) harm = await compareSnapshot(ctx, snapshot);
  }
  // Operations whose valid requests the suite refused during the run (under a parent, or naming a record, it did not create): never sent
  // either (cases that name nothing, such as a body missing the reference, may have been).
  const requested = new Set(ctx.exchanges.map((e) => e.case.operation));
  const requestedValid = new Set(ctx.exchanges.filter((e) => ['valid', 'retry', 'guessed'].includes(e.case.intent)).map((e) => e.case.operation));
  for (const [op, reason] of ctx.refusedWrites) {
    if (requestedValid.has(op) || !ctx.inScope(op) || notSent.some((row) => row.operationId === op.id)) continue;
    notSent.push({ operationId: op.id, operation: `${op.method.toUpperCase()} ${op.path}`, reason });
    if (!requested.has(op)) ctx.skip(ctx.checkIds, op, `never sent: ${reason}`);
  }
  const findings = ctx.results.findings;
  const failures = findings.filter((f) => f.kind === 'failure');
  const gaps = findings.filter((f) => f.kind === 'gap');
  const strict = options.strict ?? false;
  // Why a valid request was not sent says why the operation was never requested; what a check of credentials or input skipped says less.
  const reach = reachOf(ctx, (id) => ctx.results.reasons(id, ['positive_data_acceptance', 'response_received', 'create_read_back', 'update_persists', 'use_after_delete']), new Map(notSent.map((n) => [n.operationId, `never sent: ${n.reason}`])));
  // An operation never requested is skipped by every check for the reason it was never requested, not for a check's scope.
  const neverRequested = new Map(reach.neverRequested.map((n) => [n.operationId, `never requested: ${n.reason.replace(/^never sent: /, '')}`]));
  const flaky = ctx.results.flakyFindings;
  return {
    failures,
    gaps,
    flaky,
    causes: { failures: causesOf(failures), gaps: causesOf(gaps), flaky: causesOf(flaky) },
    outcomes: ctx.results.rows((check, operationId) => neverRequested.get(operationId) ?? `not applicable: it ${ctx.scopeOf(check)}`),
    reach,
    requests: ctx.exchanges.length,
    requested: [...ctx.received.keys()],
    durationMs: performance.now() - started,
    checks: [...ctx.checkIds].filter((id) => ctx.selected(id)),
    plugins: plugins.map((p) => p.name),
    strict,
    coverage: coverage(ctx),
    harm,
    harmCheckOff: harmCheckOff ?? nothingToCompare,
    notSent,
    leftBehind: ctx.leftBehind,
    leftBehindAllowed: options.allowLeftovers ?? false,
    confirmed: ctx.confirmation.counts,
    unconfirmed: ctx.confirmation.unconfirmed,
    incomplete,
    unmapped: unmapped(ctx),
    unenforcedPatterns: unenforcedPatterns(options.document.api),
    seed: options.seed ?? 1,
    explored: exploredOf(ctx),
    exploration: options.explore === false ? { off: 'turned off (--no-explore): only the fixed checks ran' } : ctx.budget.spent(),
    conforms: failures.length === 0 && !harm?.length && (options.allowLeftovers || ctx.leftBehind.length === 0) && (!strict || gaps.length === 0),
  };
}

/** The operations no collection explains, each with the reason, for the report. */
function unmapped(ctx: ContractContext): ContractReport['unmapped'] {
  return ctx.operations
    .filter((op) => ctx.inScope(op) && !ctx.binding(op))
    .map((op) => ({ operationId: op.id, operation: `${op.method.toUpperCase()} ${op.path}`, reason: unmappedReason(op, ctx.collections) }));
}

/** Operation x declared status: was it received at least once? */
function coverage(ctx: ContractContext): CoverageRow[] {
  return ctx.operations
    .filter((op) => ctx.inScope(op))
    .flatMap((op) => {
      // A status received exercises the response the document gives for it: its own, its range's, or the default.
      const exercised = new Set([...(ctx.received.get(op.id) ?? [])].map((status) => findResponse(op, status)));
      return op.responses.map((r) => ({ operationId: op.id, operation: `${op.method.toUpperCase()} ${op.path}`, status: r.status, exercised: exercised.has(r) }));
    });
}
