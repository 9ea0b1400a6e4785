/**
 * One signature for every check: it looks at one exchange and returns what was received and
 * what was documented when they disagree, or undefined. The runner adds the operation and request.
 */
import type { Operation } from '../../src/operations/operation.js';
import type { Problem } from '../../src/validation/problem.js';
import type { ReceivedResponse } from '../../src/validation/validate-response.js';
import type { Exchange } from '../case.js';

export interface CheckContext {
  /** Problems of a response against the document (memoised per exchange by the runner). */
  problems: (exchange: Exchange) => Problem[];
  /** True when the document's errors use the `Error {code, message, status}` shape. */
  errorShape: boolean;
  checkResponse: (operation: Operation, response: ReceivedResponse) => Problem[];
  /** True for an operation that creates a record of a collection (so a 201 can say where it is). */
  createsRecord: (operation: Operation) => boolean;
}

export interface Verdict {
  received: string;
  documented: string;
}

export type Check = (ctx: CheckContext, exchange: Exchange) => Verdict | undefined;

/** The value at a problem path (`body.items.0.name`) in a parsed body, shown briefly. */
export function valueAt(json: unknown, path: string): string {
  let node: unknown = json;
  for (const part of path.split('.').slice(1)) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  const text = node === undefined ? 'nothing' : JSON.stringify(node);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
