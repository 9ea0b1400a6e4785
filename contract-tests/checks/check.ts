/**
 * One signature for every check: it looks at one exchange and returns what it found wrong, each
 * as what was received and what the document says ([] when the exchange passes), or undefined
 * when the check has nothing to say about this exchange (it does not apply). The runner adds the
 * operation, the request, the response and a repro, and counts passes per check and operation.
 */
import type { Operation } from '../../src/operations/operation.js';
import type { Problem } from '../../src/validation/problem.js';
import type { ReceivedResponse } from '../../src/validation/validate-response.js';
import type { Exchange, FindingKind } from '../case.js';

export interface CheckContext {
  /** Problems of a response against the document (memoised per exchange by the runner). */
  problems: (exchange: Exchange) => Problem[];
  checkResponse: (operation: Operation, response: ReceivedResponse) => Problem[];
  /** True when the document declares this header for the exchange's response. */
  declaresHeader: (exchange: Exchange, name: string) => boolean;
}

export interface Verdict {
  received: string;
  documented: string;
  /** A failure unless said otherwise. */
  kind?: FindingKind;
}

/** `undefined`: does not apply; `[]`: passed; otherwise what is wrong. */
export type Check = (ctx: CheckContext, exchange: Exchange) => Verdict[] | undefined;

/** The value at a problem path (`body.items.0.name`) in a parsed body, shown briefly. */
export function valueAt(json: unknown, path: string): string {
  let node: unknown = json;
  for (const part of path.split('.').slice(1)) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  const text = node === undefined ? 'nothing' : JSON.stringify(node);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
