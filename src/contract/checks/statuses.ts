/**
 * What an operation declares about statuses, for the checks' rules: its success statuses, and
 * whether it declares a status exactly or through a range like `4XX` (never through `default`,
 * which names no status).
 */
import { findResponse } from '../../openapi/operations/build-operations.js';
import type { Operation } from '../../openapi/operations/operation.js';

/** The statuses of 2xx responses an operation declares. */
export function successStatuses(op: Operation): number[] {
  return op.responses.filter((r) => /^2\d\d$/.test(r.status)).map((r) => Number(r.status));
}

/** True when the operation declares this status exactly or by its range (`4XX`). */
export function declaresStatus(op: Operation, status: number): boolean {
  const declared = findResponse(op, status);
  return declared !== undefined && declared.status !== 'default';
}
