/**
 * One signature for every check: it looks at one exchange and returns what it found wrong, each
 * as what was received and what the document says, with the typed facts behind them ([] when the
 * exchange passes), or undefined when the check has nothing to say about this exchange (it does
 * not apply). The runner adds the operation, the request, the response and a repro, and counts
 * passes per check and operation.
 */
import { findResponse } from '../../openapi/operations/build-operations.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { Problem } from '../../core/problem.js';
import type { ReceivedResponse } from '../../openapi/validation/validate-response.js';
import type { Evidence, Exchange, FindingKind } from '../case.js';
import type { CheckId } from '../check-id.js';
import type { PurposeOf, Purposes } from '../purpose.js';

export interface CheckContext {
  /** Problems of a response against the document (memoised per exchange by the runner). */
  problems: (exchange: Exchange) => Problem[];
  checkResponse: (operation: Operation, response: ReceivedResponse) => Problem[];
  /** True when the document declares this header for the exchange's response. */
  declaresHeader: (exchange: Exchange, name: string) => boolean;
}

/** The context checks read, around one response checker: problems memoised per exchange. */
export function checkContext(checkResponse: CheckContext['checkResponse']): CheckContext {
  const problems = new WeakMap<Exchange, Problem[]>();
  return {
    checkResponse,
    declaresHeader: (ex, name) => Object.keys(findResponse(ex.case.operation, ex.status)?.headers ?? {}).some((h) => h.toLowerCase() === name.toLowerCase()),
    problems: (ex) => {
      if (!problems.has(ex)) problems.set(ex, checkResponse(ex.case.operation, ex));
      return problems.get(ex)!;
    },
  };
}

export interface Verdict extends Evidence {
  received: string;
  documented: string;
  /** A failure unless said otherwise. */
  kind?: FindingKind;
}

/** `undefined`: does not apply; `[]`: passed; otherwise what is wrong. */
export type Check = (ctx: CheckContext, exchange: Exchange) => Verdict[] | undefined;

/** The rule of a check over the cases sent for it, given the case's purpose. */
export type CaseRule<K extends keyof Purposes & CheckId> = (exchange: Exchange, purpose: PurposeOf<K>, ctx: CheckContext) => Verdict[];

/**
 * A check that judges only the cases whose purpose names it (a read after a DELETE for
 * use_after_delete), by its own rule.
 */
export function caseCheck<K extends keyof Purposes & CheckId>(id: K, rule: CaseRule<K>): Check {
  return (ctx, ex) => (ex.case.purpose?.check === id ? rule(ex, ex.case.purpose as PurposeOf<K>, ctx) : undefined);
}

/** Statuses as the document writes them: `404`, or a range such as `4XX`. */
export type StatusPattern = number | `${1 | 2 | 3 | 4 | 5}XX`;

/** A status the rule expects, or the finding: `received 204 for delete again, documented 404 for a second DELETE`. */
export function statusVerdicts(ex: Exchange, expected: readonly StatusPattern[], documented: string, kind?: FindingKind): Verdict[] {
  if (expected.some((pattern) => pattern === ex.status || pattern === `${String(ex.status)[0]}XX`)) return [];
  return [{ received: `${ex.status} for ${ex.case.label}`, documented, kind, status: ex.status, expected: expected.map(String) }];
}

/** The value at a problem path (`body.items.0.name`) in a parsed body, shown briefly. */
export function valueAt(json: unknown, path: string): string {
  let node: unknown = json;
  for (const part of path.split('.').slice(1)) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return excerpt(node === undefined ? 'nothing' : JSON.stringify(node), 60);
}

/**
 * At most `max` characters of a text, a cut marked with `...` (so that the run's mask, report/mask.ts,
 * can tell a secret cut short from other text).
 */
export function excerpt(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
