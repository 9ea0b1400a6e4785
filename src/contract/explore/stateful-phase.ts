/**
 * Stateful exploration (issue 39, points 2 and 3): for each collection the suite can create, read
 * and delete, fast-check draws sequences of commands (create, read, replace or merge, delete,
 * list with filters and pages, create again) and checks the document's promises after every step.
 * A failing sequence is shrunk by fast-check to the shortest that still fails, run once more to
 * confirm, and reported as a finding of its check and as an explored failure with its steps.
 */
import fc from 'fast-check';
import type { Collection } from '../../openapi/operations/collection.js';
import type { Finding } from '../case.js';
import type { CheckId } from '../check-id.js';
import type { ContractContext } from '../context.js';
import type { Phase, Targets } from '../phases/phase.js';
import { commandArbitraries, type CommandShape } from './commands.js';
import { EXPLORE_LANES } from './budget.js';
import { exploredOf } from './explored.js';
import { alreadyRed, deletesConfirmed, firstNewRed } from './new-red.js';
import type { SequenceModel } from './model.js';
import type { ExploredFailure } from './sequence.js';
import { filterParameters, SequenceRunner, Violation } from './sequence-runner.js';

/** Sequences per collection, and commands per sequence, by default. */
export const STATEFUL_RUNS = 20;
export const MAX_COMMANDS = 20;

const STATEFUL_CHECKS: CheckId[] = ['create_read_back', 'update_persists', 'list_contains_created', 'filter_conformance', 'pagination_conformance', 'use_after_delete'];

export interface StatefulOptions {
  numRuns?: number;
  maxCommands?: number;
}

/** A held finding as the Violation of the sequence that showed it. */
function violationOf(ctx: ContractContext, finding: Finding | undefined): Violation | undefined {
  const op = finding && ctx.operations.find((o) => o.id === finding.operationId);
  return finding && op ? new Violation(finding.check, op, finding.label, finding.received, finding.documented) : undefined;
}

/** The stateful phase, with its bounds (the defaults above). */
export function statefulPhase({ numRuns = STATEFUL_RUNS, maxCommands = MAX_COMMANDS }: StatefulOptions = {}): Phase {
  return {
    name: 'stateful',
    checks: STATEFUL_CHECKS,
    changesState: true,
    async run(ctx, targets) {
      // Several collections at once, each in a lane (its sequences one after another, on records of its own): their requests overlap,
      // and the lanes take turns for everything else, so a seed still gives the same requests in the same order (turns.ts).
      const tasks = ctx.collections
        .filter((collection) => explorable(ctx, collection))
        .map((collection) => async () => {
          if (ctx.exploreBudget()) await explore(ctx, collection, targets, numRuns, maxCommands);
        });
      await ctx.turns.run(tasks, ctx.options.exploreLanes ?? EXPLORE_LANES);
    },
  };
}

export const statefulExplorationPhase = statefulPhase();

/** A collection the suite creates records of, reads and deletes (a delete of its own seen answered 2xx), all in scope and in reach of a valid create body. */
function explorable(ctx: ContractContext, collection: Collection): boolean {
  const ops = (['create', 'read', 'delete'] as const).map((action) => ctx.operation(collection, action));
  if (ops.some((op) => !op || !ctx.inScope(op)) || !deletesConfirmed(ctx, collection)) return false;
  return ctx.bodies.canBuildValid(ops[0]!);
}

function shapeOf(ctx: ContractContext, collection: Collection): CommandShape {
  const list = ctx.operation(collection, 'list');
  const filters = list && ctx.inScope(list) ? filterParameters(collection, list) : [];
  const enums = Object.fromEntries(
    filters.map((name) => {
      const schema = list!.parameters.find((p) => p.in === 'query' && p.name === name)!.schema;
      // Only a repeated filter (an array) takes two values at once.
      return [name, schema.type === 'array' && Array.isArray(schema.items?.enum) ? schema.items.enum : []];
    }),
  );
  const inScope = (action: 'replace' | 'merge') => {
    const op = ctx.operation(collection, action);
    return !!op && ctx.inScope(op);
  };
  return { read: true, replace: inScope('replace'), merge: inScope('merge'), list: !!list && ctx.inScope(list), filters, enums };
}

async function explore(ctx: ContractContext, collection: Collection, targets: Targets, numRuns: number, maxCommands: number): Promise<void> {
  const seed = ctx.options.seed ?? 1;
  const shape = shapeOf(ctx, collection);
  // Anything but a broken promise (the run's --timeout, a request refused as unsafe) stops the exploration and is thrown again, never shrunk.
  let stopped: unknown;
  // A sequence's findings are held back while exploring (`held`): a new red among them breaks it as a model's Violation does.
  const sequence = async (commands: Iterable<fc.AsyncCommand<SequenceModel, SequenceRunner>>, held: boolean) => {
    const runner = new SequenceRunner(ctx, collection, targets.prepare);
    const model: SequenceModel = { records: [] };
    const run = async (): Promise<Violation | undefined> => {
      try {
        await fc.asyncModelRun(() => ({ model, real: runner }), commands);
        return undefined;
      } catch (error) {
        if (error instanceof Violation) return error;
        stopped ??= error;
        return undefined;
      } finally {
        await runner.cleanUp(model);
      }
    };
    if (!held) return { runner, violation: await run() };
    const { result, held: findings } = await ctx.results.holding(run);
    return { runner, violation: result ?? violationOf(ctx, firstNewRed(ctx, findings)) };
  };
  // Once a sequence failed alone, every later one (fast-check shrinking it) runs alone too, as does the confirming run.
  let alone = false;
  const details = await fc.check(
    fc.asyncProperty(fc.commands(commandArbitraries(shape), { maxCommands, size: 'max' }), async (commands) => {
      // A spent budget (or --no-explore) passes every sequence left: fast-check then stops shrinking at the shortest failing one so far.
      if (stopped || !ctx.exploreBudget()) return true;
      let { violation } = alone ? await ctx.turns.alone(() => sequence(commands, true)) : await sequence(commands, true);
      // Broken while other lanes ran (their records in the same lists, their creates in the same collection): it counts only if it breaks alone.
      if (violation && !alone && ctx.turns.inLane) ({ violation } = await ctx.turns.alone(() => sequence(commands, true)));
      if (!violation) return true;
      alone = true;
      throw violation;
    }),
    { seed, numRuns },
  );
  if (stopped) throw stopped;
  if (!details.failed || !details.counterexample) return;
  const first = details.errorInstance;
  if (!(first instanceof Violation)) return;
  const triedBefore = details.numRuns;
  // Confirmed: the shortest sequence, run once more with its findings reported, breaks the same promise again.
  const before = ctx.results.findings.length;
  const again = await ctx.turns.alone(() => sequence(details.counterexample[0], false));
  if (stopped) throw stopped;
  // Of its own operation: another lane may report findings meanwhile.
  const found = ctx.results.findings.slice(before).find((f) => f.kind === 'failure' && f.check === first.check && f.operationId === first.operation.id);
  const modelBroken = again.violation?.check === first.check ? again.violation : undefined;
  const violation = modelBroken ?? violationOf(ctx, found);
  if (!violation) {
    ctx.skip(first.check, first.operation, `a sequence broke it once (${first.label}: received ${first.received}) and not when run again: not reported`);
    return;
  }
  // A promise the fixed checks already found broken on the same operation is the same red told twice: the run keeps the first.
  if (modelBroken && alreadyRed(ctx, modelBroken.check, modelBroken.operation.id)) return;
  const { runner } = again;
  // A finding of an answer is reported by the confirming run itself; a broken promise of the model is reported here.
  if (!found) ctx.fail(violation.operation, violation.check, `${violation.label}, after a sequence of ${runner.steps.length} steps (seed ${seed})`, violation.received, violation.documented);
  const failure: ExploredFailure = {
    kind: 'sequence',
    collection: collection.name,
    check: violation.check,
    operationId: violation.operation.id,
    received: violation.received,
    documented: violation.documented,
    steps: runner.steps,
    repro: runner.repro,
    seed,
    path: details.counterexamplePath ?? undefined,
    tried: triedBefore,
    shrinks: details.numShrinks,
  };
  exploredOf(ctx).push(failure);
}
