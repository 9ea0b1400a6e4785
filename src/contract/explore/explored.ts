/**
 * The failures exploration found in a run, kept beside the run's context (not in it) until
 * runContract puts them on the report's `explored`.
 */
import type { ContractContext } from '../context.js';
import type { ExploredFailure } from './sequence.js';

const found = new WeakMap<ContractContext, ExploredFailure[]>();

/** The run's explored failures, in the order found (an empty list the first time). */
export function exploredOf(ctx: ContractContext): ExploredFailure[] {
  let list = found.get(ctx);
  if (!list) found.set(ctx, (list = []));
  return list;
}
