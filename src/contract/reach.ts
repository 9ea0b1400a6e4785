/**
 * How far a run reached: of the document's single-record operations (those on one record's path,
 * `/roles/{id}`), how many it requested and how many answered 2xx; and for every operation it
 * never requested, why, in one line (the reason a phase gave, never "not applicable").
 */
import type { Operation } from '../openapi/operations/operation.js';
import type { ContractContext } from './context.js';

export interface Reach {
  /** Operations on one record's path: how many, how many the run requested, how many answered 2xx (clean-up not counted). */
  singleRecord: { total: number; requested: number; succeeded: number };
  /** Every operation in scope the run never requested (clean-up not counted), with why. */
  neverRequested: Array<{ operationId: string; operation: string; reason: string }>;
}

/** A path that names one record: it ends with a path parameter (`/roles/{id}`, `/books/{id}/`, `/Calls/{Sid}.json`). */
const ONE_RECORD = /\{[^}/]+\}(\.[A-Za-z0-9]+)?\/?$/;

/**
 * @example reachOf(ctx, (id) => ctx.results.reasons(id), new Map()).singleRecord // { total: 6, requested: 6, succeeded: 6 }
 * `skipped`: the reasons the phases gave for an operation; `notSent`: why an operation is never sent, by id.
 */
export function reachOf(ctx: ContractContext, skipped: (operationId: string) => string[], notSent: ReadonlyMap<string, string>): Reach {
  const requested = new Set<string>();
  const succeeded = new Set<string>();
  for (const exchange of ctx.exchanges) {
    if (exchange.case.intent === 'cleanup') continue;
    requested.add(exchange.case.operation.id);
    if (exchange.status >= 200 && exchange.status < 300) succeeded.add(exchange.case.operation.id);
  }
  const ops = ctx.operations.filter((op) => ctx.inScope(op));
  const single = ops.filter((op) => ONE_RECORD.test(op.path));
  return {
    singleRecord: { total: single.length, requested: single.filter((op) => requested.has(op.id)).length, succeeded: single.filter((op) => succeeded.has(op.id)).length },
    neverRequested: ops.filter((op) => !requested.has(op.id)).map((op) => ({ operationId: op.id, operation: name(op), reason: notSent.get(op.id) ?? firstReason(skipped(op.id)) })),
  };
}

/** The first reason a phase gave (a reason of its own, not a check's scope), else that none did. */
function firstReason(reasons: string[]): string {
  return reasons.find((r) => !r.startsWith('not applicable')) ?? 'no phase of the run had a request for it (it gave no reason)';
}

function name(op: Operation): string {
  return `${op.method.toUpperCase()} ${op.path}`;
}
