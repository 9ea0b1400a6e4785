/**
 * `--replay FILE` (issue 39, point 4): each failure of a cassette sent again, step by step, against
 * the server as it is now, and judged again by the same check: still failing, fixed, or not judged
 * (the check says nothing of that answer on its own, a step could not be sent). An input's failure
 * is judged on its last step by the checks of one answer; a sequence's by the model that found it
 * (SequenceRunner.replay), which holds the promises across requests. Every step goes
 * through `ctx.request`, so the document's validator confirms it and a write that could touch
 * records of others is never sent; a record an earlier step made (`{ $fromStep: i }`) is the one it
 * made on this run, read as the suite reads every record it creates (OwnRecords); the suite's
 * records are deleted at the end.
 *
 * @example
 * const report = await replayCassette({ document, baseUrl: 'http://127.0.0.1:4010', token }, cassette);
 * report.failing // 0 once the server is fixed
 */
import type { Exchange } from '../case.js';
import { checkRegistry } from '../checks/index.js';
import { cleanUp } from '../clean-up.js';
import { ContractContext, DeadlineError, UnsafeRequestError } from '../context.js';
import { checkAddress, checkCredentials } from '../preflight.js';
import { secretMask } from '../report/mask.js';
import { reproOf } from '../repro.js';
import type { RunOptions } from '../run-options.js';
import { writeParameter } from '../write-parameter.js';
import type { Collection } from '../../openapi/operations/collection.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { CreatePreparation } from '../phases/records.js';
import type { SequenceModel } from './model.js';
import { isFromStep, type Cassette, type ExploredFailure, type Step } from './sequence.js';
import { SequenceRunner, Violation } from './sequence-runner.js';

export type ReplayVerdict = 'failing' | 'fixed' | 'unjudged';

export interface ReplayedFailure {
  failure: ExploredFailure;
  /** `failing`: the check found it again on the last step; `fixed`: the check judged the last step and passed it; `unjudged`: see `why`. */
  verdict: ReplayVerdict;
  /** What the last step received this time (`404`), or why the failure was not judged. */
  why: string;
  /** The requests sent this time, in order, as curl lines (the token as `$TOKEN`). */
  repro: string[];
}

export interface ReplayReport {
  /** The seed the cassette was found with. */
  seed: number;
  replayed: ReplayedFailure[];
  failing: number;
  fixed: number;
  unjudged: number;
  requests: number;
  /** Records the replay created and could not delete again. */
  leftBehind: string[];
}

/** Sends each failure's steps again and judges the last one; the report and any error it throws are masked as runContract's are. */
export async function replayCassette(options: RunOptions, cassette: Cassette): Promise<ReplayReport> {
  const mask = secretMask(options);
  try {
    return mask.value(await replay({ ...options, explore: false }, cassette));
  } catch (error) {
    throw mask.error(error);
  }
}

async function replay(options: RunOptions, cassette: Cassette): Promise<ReplayReport> {
  const ctx = new ContractContext(options, checkRegistry(options.plugins ?? []));
  try {
    return await replayIn(ctx, options, cassette);
  } finally {
    await ctx.close();
  }
}

async function replayIn(ctx: ContractContext, options: RunOptions, cassette: Cassette): Promise<ReplayReport> {
  await checkAddress(ctx, await checkCredentials(ctx));
  if (options.timeoutMs) ctx.deadline = performance.now() + options.timeoutMs;
  const preparations: Record<string, CreatePreparation> = Object.assign({}, ...(options.plugins ?? []).map((p) => p.part.preparations ?? {}));
  const replayed: ReplayedFailure[] = [];
  try {
    for (const failure of cassette.failures) replayed.push(failure.kind === 'sequence' ? await replaySequence(ctx, failure, preparations) : await replayOne(ctx, failure));
  } finally {
    if (!options.readOnly) ctx.leftBehind.push(...(await cleanUp(ctx)));
  }
  const count = (verdict: ReplayVerdict) => replayed.filter((r) => r.verdict === verdict).length;
  return { seed: cassette.seed, replayed, failing: count('failing'), fixed: count('fixed'), unjudged: count('unjudged'), requests: ctx.exchanges.length, leftBehind: ctx.leftBehind };
}

async function replayOne(ctx: ContractContext, failure: ExploredFailure): Promise<ReplayedFailure> {
  const keys = new Map<number, unknown>();
  const sent: Exchange[] = [];
  const baseUrl = ctx.options.baseUrl.replace(/\/+$/, '');
  const result = (verdict: ReplayVerdict, why: string): ReplayedFailure => ({ failure, verdict, why, repro: sent.map((e) => reproOf(e.case, baseUrl, ctx.options.token)) });
  for (const [i, step] of failure.steps.entries()) {
    const op = ctx.operations.find((o) => o.id === step.operationId);
    if (!op) return result('unjudged', `step ${i + 1} names the operation ${step.operationId}, which the document does not have`);
    const resolved = resolveStep(step, keys);
    if (typeof resolved === 'number') return result('unjudged', `step ${i + 1} needs the record step ${resolved + 1} made, and step ${resolved + 1} made none on this run`);
    const binding = ctx.binding(op);
    const before = binding ? ctx.ownKeys(binding.collection) : [];
    const last = i === failure.steps.length - 1;
    const judged = last ? tally(ctx, failure.check, op.id) : undefined;
    let exchange: Exchange;
    try {
      exchange = await ctx.request(op, { label: step.label, params: resolved.params as Record<string, unknown> | undefined, query: queryOf(op, resolved.query), body: resolved.body });
    } catch (error) {
      if (error instanceof UnsafeRequestError || error instanceof DeadlineError) return result('unjudged', `step ${i + 1} was not sent: ${error.message}`);
      throw error;
    }
    sent.push(exchange);
    if (!ctx.sent(exchange)) return result('unjudged', `step ${i + 1} was ${exchange.error}`);
    if (binding?.action === 'create') {
      const made = ctx.ownKeys(binding.collection).filter((key) => !before.some((b) => String(b) === String(key)));
      if (made.length) keys.set(i, made.at(-1));
    }
    if (judged) {
      const after = tally(ctx, failure.check, op.id);
      const answered = `${exchange.status || 'no answer'} for ${step.label}`;
      if (after.found > judged.found) return result('failing', `received ${answered}; documented ${failure.documented}`);
      if (after.passed > judged.passed) return result('fixed', `received ${answered}, as documented`);
      return result('unjudged', `the check ${failure.check} has nothing to say about this answer on its own (received ${answered}): it judges across requests, or is not selected`);
    }
  }
  return result('unjudged', 'no step was sent');
}

/**
 * A sequence sent again and judged by the model that found it: failing when it breaks the failure's
 * promise again (or an answer on its way shows the failure's check failing on its operation, as a
 * 5xx after some sequence), fixed when every step ran and none did, else unjudged with why.
 */
async function replaySequence(ctx: ContractContext, failure: ExploredFailure, prepare: Record<string, CreatePreparation>): Promise<ReplayedFailure> {
  const collection = collectionOf(ctx, failure);
  if (!collection) return { failure, verdict: 'unjudged', why: `its collection ${failure.collection ?? 'of its steps'} is not one the document has`, repro: [] };
  const runner = new SequenceRunner(ctx, collection, prepare);
  const result = (verdict: ReplayVerdict, why: string): ReplayedFailure => ({ failure, verdict, why, repro: runner.repro });
  const model: SequenceModel = { records: [] };
  const before = tally(ctx, failure.check, failure.operationId).found;
  let why: string | undefined;
  try {
    why = await runner.replay(failure.steps, model);
  } catch (error) {
    if (!(error instanceof Violation || error instanceof UnsafeRequestError || error instanceof DeadlineError)) throw error;
    if (error instanceof Violation && error.check === failure.check) return result('failing', `received ${error.received} (${error.label}); documented ${error.documented}`);
    why = error instanceof Violation
      ? `step ${runner.steps.length} broke another promise first, ${error.check} (${error.label}: received ${error.received}, documented ${error.documented})`
      : `step ${runner.steps.length} was not sent: ${error.message}`;
  } finally {
    await runner.cleanUp(model);
  }
  if (tally(ctx, failure.check, failure.operationId).found > before) return result('failing', `${failure.check} failed again on ${failure.operationId} during the sequence; documented ${failure.documented}`);
  return why ? result('unjudged', why) : result('fixed', `all ${failure.steps.length} steps ran and kept every promise`);
}

/** The collection a sequence's steps act on: the one it names, or for a cassette older than that, the one of its first step's operation. */
function collectionOf(ctx: ContractContext, failure: ExploredFailure): Collection | undefined {
  if (failure.collection !== undefined) return ctx.collections.find((c) => c.name === failure.collection);
  const op = ctx.operations.find((o) => o.id === failure.steps[0]?.operationId);
  return op && ctx.binding(op)?.collection;
}

/** Findings (failures and flaky ones) and passes of a check on an operation so far. */
function tally(ctx: ContractContext, check: string, operationId: string): { found: number; passed: number } {
  const mine = (f: { check: string; operationId: string }) => f.check === check && f.operationId === operationId;
  const found = ctx.results.findings.filter(mine).length + ctx.results.flakyFindings.filter(mine).length;
  const passed = ctx.results.rows(() => '').find(mine)?.passed ?? 0;
  return { found, passed };
}

/** The step with every `{ $fromStep: i }` replaced by the key step i's record got on this run, or the index of a step that made none. */
function resolveStep(step: Step, keys: Map<number, unknown>): Pick<Step, 'params' | 'query' | 'body'> | number {
  let missing: number | undefined;
  const resolve = (value: unknown, depth: number): unknown => {
    if (isFromStep(value)) {
      if (!keys.has(value.$fromStep)) missing ??= value.$fromStep;
      return keys.get(value.$fromStep);
    }
    if (Array.isArray(value)) return value.map((v) => resolve(v, depth + 1));
    if (value && typeof value === 'object' && depth < 20) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, depth + 1)]));
    return value;
  };
  const resolved = { params: resolve(step.params, 0), query: resolve(step.query, 0), body: resolve(step.body, 0) } as Pick<Step, 'params' | 'query' | 'body'>;
  return missing ?? resolved;
}

/** Query parameters written in their style (writeParameter); a name the operation does not declare, as `name=value`. */
function queryOf(op: Operation, query: Record<string, unknown> | undefined): string | undefined {
  if (!query) return undefined;
  const parts = Object.entries(query).map(([name, value]) => {
    const spec = op.parameters.find((p) => p.in === 'query' && p.name === name);
    return spec ? writeParameter(spec, value).query : `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
  });
  return parts.filter(Boolean).join('&') || undefined;
}
