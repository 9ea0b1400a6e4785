/**
 * Every case judged by the document's own request validator before it is sent: the mock's code
 * (`requestJudge`: parameters by style and schema, media type, body decoding, body schema). A case
 * the suite calls valid is sent only when the validator finds nothing wrong with it; one it calls
 * invalid for a rule only when the validator finds that rule broken at that place. A case that is
 * not what it claims is not sent; it is counted, and the report says why.
 */
import type { Operation } from '../openapi/operations/operation.js';
import type { CompiledDocument } from '../openapi/validation/compiled-document.js';
import type { PlainRequest } from '../openapi/validation/judge-request.js';
import { formatProblem, type Problem } from '../core/problem.js';
import type { Case, Exchange } from './case.js';

/** The rule a negative case breaks, and where: `{ at: 'body.pages', rules: ['maximum'] }`. A problem below `at` counts too (`query.ids.0`). */
export interface Breach {
  at: string;
  /** Any of these (`maximum` or `exclusiveMaximum`, as the document words the bound). */
  rules: string[];
}

/**
 * What a case says it is: valid (the default), invalid for one rule, or outside what the
 * validator judges (a clean-up; an edge probe past a bound the schema may not state), with why.
 */
export type Claim = { valid: true } | { breaks: Breach } | { unjudged: string };

/** How many cases of a run were confirmed and sent, were not sent, or were sent without a claim the validator judges. */
export interface ConfirmedCounts {
  /** Sent as valid, the validator finding nothing wrong. */
  valid: number;
  /** Sent as invalid, the validator finding the rule they break where they break it. */
  invalid: number;
  /** Not sent: the validator disagreed with what the suite took them for. */
  unconfirmed: number;
  /** Sent without judgement: clean-up requests and edge probes. */
  unjudged: number;
}

export interface UnsentCase {
  operation: string;
  label: string;
  reason: string;
}

export class Confirmation {
  readonly counts: ConfirmedCounts = { valid: 0, invalid: 0, unconfirmed: 0, unjudged: 0 };
  readonly unconfirmed: UnsentCase[] = [];
  private readonly judge: (operation: Operation, request: PlainRequest) => Promise<Problem[]>;

  constructor(compiled: CompiledDocument) {
    const limit = Number(compiled.document.api['x-max-body-bytes']);
    this.judge = compiled.requestJudge({ maxBodyBytes: Number.isInteger(limit) ? limit : Infinity });
  }

  /** What the validator finds wrong with a request of an operation (nothing: it is valid). */
  problems(operation: Operation, request: PlainRequest): Promise<Problem[]> {
    return this.judge(operation, request);
  }

  /** Why a case is not what it claims, or undefined when it is (the verdict is counted with `sent`). */
  async refusal(operation: Operation, request: PlainRequest, claim: Claim): Promise<string | undefined> {
    if ('unjudged' in claim) return undefined;
    const problems = await this.judge(operation, request);
    if ('breaks' in claim) {
      if (breaks(problems, claim.breaks)) return undefined;
      return `the document's validator does not find ${claim.breaks.at} breaking ${claim.breaks.rules.join(' or ')}${problems.length ? ` (it finds ${list(problems)})` : ' (it finds the request valid)'}`;
    }
    return problems.length ? `the document's validator finds it invalid: ${list(problems)}` : undefined;
  }

  /** Counts a case that was sent, by its claim. */
  sent(claim: Claim): void {
    this.counts['unjudged' in claim ? 'unjudged' : 'breaks' in claim ? 'invalid' : 'valid']++;
  }

  /** Counts and keeps a case that was not sent. */
  refused(unsent: UnsentCase): void {
    this.counts.unconfirmed++;
    this.unconfirmed.push(unsent);
  }

  /** The answer to a case that is not sent: status 0, and why in `error`. */
  unsent(c: Case, reason: string): Exchange {
    this.refused({ operation: `${c.method} ${c.operation.path}`, label: c.label, reason });
    const exchange: Exchange = { case: c, status: 0, headers: new Headers(), text: '', ms: 0, error: `not sent: ${reason}` };
    this.unsentAnswers.add(exchange);
    return exchange;
  }

  wasSent(exchange: Exchange): boolean {
    return !this.unsentAnswers.has(exchange);
  }

  private readonly unsentAnswers = new WeakSet<Exchange>();
}

/** True when a problem breaks one of the breach's rules at its place or below. */
export function breaks(problems: Problem[], breach: Breach): boolean {
  return problems.some((p) => (p.path === breach.at || p.path.startsWith(`${breach.at}.`)) && breach.rules.includes(p.rule));
}

function list(problems: Problem[]): string {
  return problems.slice(0, 3).map(formatProblem).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '');
}
