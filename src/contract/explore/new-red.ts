/**
 * What exploration reports, and what it may do. It reports a broken promise the run has not
 * already reported; it creates records only of a collection the server has been seen to delete. Exploration tries
 * many inputs and sequences with their findings held back (Results.holding); a draw fails only for
 * a new red, so fast-check never shrinks towards a red the fixed checks already show, and the
 * report tells each promise once.
 */
import type { Finding } from '../case.js';
import type { CheckId } from '../check-id.js';
import type { ContractContext } from '../context.js';
import type { Collection } from '../../openapi/operations/collection.js';

/**
 * Findings that never fail a draw: a refusal (4xx) of a drawn valid value may be a rule the
 * document does not state (a unique name), which the fixed phases report with their retries.
 */
const IGNORED: ReadonlySet<CheckId> = new Set(['positive_data_acceptance']);

/** True when the run already reports a failure of this check on this operation. */
export function alreadyRed(ctx: ContractContext, check: CheckId, operationId: string): boolean {
  return ctx.results.findings.some((f) => f.kind === 'failure' && f.check === check && f.operationId === operationId);
}

/** The first held finding that is a new red: a failure, of a check that judges drawn values, not yet reported for its operation. */
export function firstNewRed(ctx: ContractContext, held: Finding[]): Finding | undefined {
  return held.find((f) => f.kind === 'failure' && !IGNORED.has(f.check) && !alreadyRed(ctx, f.check, f.operationId));
}

/**
 * True when the server has deleted a record of the collection for the suite this run (a DELETE of
 * its own answered 2xx): only then may exploration create more of them, sure to take them away.
 */
export function deletesConfirmed(ctx: ContractContext, collection: Collection): boolean {
  const del = ctx.operation(collection, 'delete');
  return !!del && ctx.inScope(del) && ctx.exchanges.some((e) => e.case.operation === del && e.status >= 200 && e.status < 300);
}
