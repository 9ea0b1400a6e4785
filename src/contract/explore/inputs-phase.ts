/**
 * Input exploration (issue 39, points 1 and 3): for every operation the suite may send, fast-check
 * draws valid requests from the operation's own schemas (generate/arbitrary.ts: bounds, empty
 * strings, text beyond ASCII, formats, optional parameters alone and together, several values of
 * an array filter). Each is made safe as every valid body is (references to the suite's own
 * records, no readOnly field, the run's marker), confirmed by the document's validator before it
 * is sent (a draw it refuses is discarded, never sent), and sent through `ctx.request`, so a write
 * reaches only records the suite created. Writes are explored only where they leave nothing the
 * run cannot take away: updates, and creates of collections whose records the suite deletes.
 * The findings of each draw are held back: a draw that breaks a promise fails the property,
 * fast-check shrinks it to the smallest input that still fails, and that input is sent once more
 * to confirm; only then is it reported, once, with the steps that send it again (steps-to.ts).
 *
 * Only a new red fails a draw (new-red.ts): not a refusal of a drawn value, not a promise the run
 * already reports broken for the operation.
 */
import fc from 'fast-check';
import type { Finding } from '../case.js';
import { RESPONSE_CHECKS } from '../checks/index.js';
import type { ContractContext } from '../context.js';
import { DeadlineError, UnsafeRequestError } from '../context.js';
import type { RequestSpec } from '../compose-request.js';
import type { Phase, Targets } from '../phases/phase.js';
import { validRefsFor } from '../phases/phase.js';
import { requestSchema } from '../request-bodies.js';
import { reproOf } from '../repro.js';
import { writeParameter } from '../write-parameter.js';
import { schemaArbitrary } from '../../openapi/generate/arbitrary.js';
import type { Operation } from '../../openapi/operations/operation.js';
import { EXPLORE_LANES } from './budget.js';
import { exploredOf } from './explored.js';
import { deletesConfirmed, firstNewRed } from './new-red.js';
import type { ExploredFailure } from './sequence.js';
import { stepsTo } from './steps-to.js';

/** Draws per operation by default (each one request, plus the shrinking of a failure). */
export const INPUT_RUNS = 25;

/** The part of exploration's requests input exploration may spend: the rest is left to the sequences after it. */
const INPUT_SHARE = 0.4;

/** Requests a failing draw may spend on shrinking, past which the smallest failing draw so far is kept. */
const MAX_SHRINK_REQUESTS = 200;

const spent = (ctx: ContractContext) => ctx.budget.spent().requests;

interface Draw {
  query: Record<string, unknown>;
  body?: unknown;
}

/** A draw that broke a promise, with the finding that showed it. */
class Broken extends Error {
  constructor(readonly finding: Finding) {
    super(`${finding.check}: received ${finding.received}; documented ${finding.documented}`);
  }
}

export function inputsPhase({ runs = INPUT_RUNS }: { runs?: number } = {}): Phase {
  return {
    name: 'inputs',
    checks: RESPONSE_CHECKS,
    changesState: false,
    async run(ctx, targets) {
      const share = ctx.budget.limits.requests * INPUT_SHARE;
      const explored = ctx.operations.filter((op) => {
        if (op.method === 'delete' || ctx.binding(op)?.action === 'delete') return false;
        const write = op.method !== 'get' && op.method !== 'head';
        return !write || (!ctx.options.readOnly && leavesNothing(ctx, op));
      });
      // Several operations at once, each in a lane: their requests overlap, a seed still sends the same ones (turns.ts).
      const tasks = explored.map((op) => async () => {
        if (ctx.exploreBudget() && spent(ctx) < share) await exploreOperation(ctx, targets, op, runs, share);
      });
      await ctx.turns.run(tasks, ctx.options.exploreLanes ?? EXPLORE_LANES);
    },
  };
}

export const inputExplorationPhase = inputsPhase();

async function exploreOperation(ctx: ContractContext, targets: Targets, op: Operation, runs: number, share: number): Promise<void> {
  const params = await targets.params(op);
  // A request aimed at a record the suite could not find or may not touch is not explored (the fixed phases say why).
  if (!params || targets.guessed(params) || ctx.unsafe(op, params)) return;
  const refs = await validRefsFor(ctx, targets, op);
  const arbitrary = drawOf(op, ctx.options.document.api);
  if (!arbitrary) return;
  const seed = seedFor(ctx.options.seed ?? 1, op.id);
  let stopped: unknown;
  let failed = false;
  const send = async (draw: Draw, held: boolean) => {
    const spec = specOf(ctx, op, params, refs, draw);
    // Confirmed by the document's validator first: a draw it refuses is never sent.
    if (!spec || (await ctx.problems(op, spec)).length) return undefined;
    if (!held) return { spec, exchange: await ctx.request(op, spec), findings: [] as Finding[] };
    const { result, held: findings } = await ctx.results.holding(() => ctx.request(op, spec));
    return { spec, exchange: result, findings };
  };
  let shrinking = 0;
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (draw) => {
      // A spent budget (the phase's share, or shrinking's) passes every draw left: fast-check then stops shrinking at the smallest failing one so far.
      if (stopped || !ctx.exploreBudget() || spent(ctx) >= share || (failed && ++shrinking > MAX_SHRINK_REQUESTS)) return true;
      try {
        const sent = await send(draw, true);
        const broken = sent && firstNewRed(ctx, sent.findings);
        if (broken) {
          failed = true;
          throw new Broken(broken);
        }
      } catch (error) {
        if (error instanceof Broken) throw error;
        // The run's --timeout or a request refused as unsafe stops exploring this operation; never shrunk.
        if (error instanceof DeadlineError || error instanceof UnsafeRequestError) stopped ??= error;
        else throw error;
      }
      return true;
    }),
    { seed, numRuns: runs },
  );
  if (stopped instanceof DeadlineError) throw stopped;
  if (!details.failed || !(details.errorInstance instanceof Broken) || !details.counterexample) return;
  const first = details.errorInstance.finding;
  // Confirmed: the smallest failing draw, sent once more with its findings reported as any request's.
  // Alone (no other lane's request on the wire), and of this operation: other lanes report findings of theirs meanwhile.
  const before = ctx.results.findings.length;
  const again = await ctx.turns.alone(() => send(details.counterexample[0], false));
  const confirmed = again && ctx.results.findings.slice(before).find((f) => f.kind === 'failure' && f.check === first.check && f.operationId === op.id);
  if (!again || !confirmed) {
    ctx.skip(first.check, op, `a drawn input broke it once (received ${first.received}) and not when sent again: not reported`);
    return;
  }
  const baseUrl = ctx.options.baseUrl.replace(/\/+$/, '');
  const failure: ExploredFailure = {
    kind: 'input',
    check: confirmed.check,
    operationId: op.id,
    received: confirmed.received,
    documented: confirmed.documented,
    steps: stepsTo(ctx, { op, label: again.spec.label, params, query: queryOf(details.counterexample[0]), body: again.spec.body }),
    repro: [reproOf(again.exchange.case, baseUrl, ctx.options.token)],
    seed: ctx.options.seed ?? 1,
    path: details.counterexamplePath ?? undefined,
    tried: details.numRuns,
    shrinks: details.numShrinks,
  };
  exploredOf(ctx).push(failure);
}

/**
 * True for a write whose draws leave nothing the run cannot take away: an update of a record (the
 * suite's own, as every write), or a create of a collection whose records the suite reads the key
 * of and has seen deleted (a DELETE of its own answered 2xx earlier in the run). Any other write
 * (a create with no DELETE, an action) is sent by the fixed phases once, not explored 25 times.
 */
function leavesNothing(ctx: ContractContext, op: Operation): boolean {
  const binding = ctx.binding(op);
  if (binding?.action === 'replace' || binding?.action === 'merge') return true;
  if (binding?.action !== 'create' || ctx.own.keylessCreates.has(binding.collection)) return false;
  return deletesConfirmed(ctx, binding.collection);
}

/** The draws of an operation: its query parameters (the optional ones alone and together) and its JSON body; undefined when it takes neither. */
function drawOf(op: Operation, document: object): fc.Arbitrary<Draw> | undefined {
  const query = op.parameters.filter((p) => p.in === 'query' && p.mediaType === undefined);
  const schema = requestSchema(op);
  if (!query.length && !schema) return undefined;
  const queryArbitrary = fc.record(Object.fromEntries(query.map((p) => [p.name, schemaArbitrary(p.schema)])), { requiredKeys: query.filter((p) => p.required).map((p) => p.name) });
  return fc.record({ query: queryArbitrary, ...(schema ? { body: schemaArbitrary(schema, { document }) } : {}) }) as fc.Arbitrary<Draw>;
}

/** The request a draw makes: its body made safe as every valid body is, its query written in each parameter's style; undefined when no safe body comes of it. */
function specOf(ctx: ContractContext, op: Operation, params: Record<string, unknown>, refs: Record<string, unknown>, draw: Draw): RequestSpec | undefined {
  const body = 'body' in draw ? ctx.bodies.made(op, draw.body, refs) : undefined;
  if ('body' in draw && body === undefined) return undefined;
  const query = Object.entries(draw.query)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => writeParameter(op.parameters.find((p) => p.in === 'query' && p.name === name)!, value).query)
    .filter(Boolean)
    .join('&');
  const shown = JSON.stringify({ ...draw.query, ...(body === undefined ? {} : { body }) });
  return { label: `a drawn valid request: ${shown.length > 120 ? `${shown.slice(0, 117)}...` : shown}`, params, query: query || undefined, body };
}

/** The draw's query parameters that were sent (an optional one left out is not), or undefined for none. */
function queryOf(draw: Draw): Record<string, unknown> | undefined {
  const sent = Object.entries(draw.query).filter(([, value]) => value !== undefined);
  return sent.length ? Object.fromEntries(sent) : undefined;
}

/** A seed of its own for each operation (the run's seed and the operation's id), so operations do not draw alike. */
function seedFor(seed: number, operationId: string): number {
  let hash = seed | 0;
  for (const char of operationId) hash = (Math.imul(hash, 31) + char.codePointAt(0)!) | 0;
  return hash;
}
