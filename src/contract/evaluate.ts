/**
 * How an exchange is judged: every selected check runs on it (each a registered function holding
 * its rule), and what they say becomes passes, findings (with the evidence and a curl to repeat
 * the request, secrets left to the report's mask) or nothing where a check does not apply.
 * Findings across several exchanges are recorded through `fail` and `passed`. A finding is
 * confirmed before it is reported (re-validated; a refusal of a valid request, or a 5xx the suite
 * provoked, sent once more by the context): one that does not reproduce is flaky, reported apart.
 */
import type { Operation } from '../openapi/operations/operation.js';
import type { CheckId, Exchange, Finding } from './case.js';
import { excerpt, type Check, type CheckContext, type Verdict } from './checks/check.js';
import { provokedBy } from './provoked.js';
import { reproOf } from './repro.js';
import type { Results } from './results.js';

/** The checks a run applies: each id with its functions (a plugin may add functions to an id) and what it applies to. */
export type CheckRegistry = Map<CheckId, { functions: Check[]; scope: string }>;

/** Which checks and operations the run judges. */
export interface RunScope {
  selected(check: CheckId): boolean;
  inScope(op: Operation): boolean;
}

/** What judging an exchange found: findings recorded, and those held back until the request is sent once more. */
export interface Judged {
  recorded: Finding[];
  pending: Finding[];
  /** For a second answer: the checks whose held findings it settled. */
  settled: CheckId[];
}

/** What the evaluator needs of the run besides the checks: where repro lines point, every exchange so far, a check context with nothing memoised. */
export interface EvaluatorSettings {
  baseUrl: string;
  token?: string;
  /** The run's exchanges, in order (the last one the exchange being judged). */
  history: readonly Exchange[];
  /** A new check context, to read a response again from scratch. */
  freshContext: () => CheckContext;
}

export class Evaluator {
  constructor(
    private readonly checks: CheckRegistry,
    private readonly results: Results,
    private readonly scope: RunScope,
    private readonly checkContext: CheckContext,
    private readonly settings: EvaluatorSettings,
  ) {}

  /**
   * Runs every selected check on an exchange: a pass, its findings, or nothing when it does not
   * apply. A clean-up request (and the reads of the harm check and the marker search) claims
   * nothing but is still judged for a 5xx. Every finding is first re-validated (the check run
   * again on the response, read afresh): one not found again is flaky. Findings that a second
   * sending must confirm (a refusal of a valid request, a 5xx the suite's own requests provoked)
   * are not recorded: they are returned as `pending`, for the caller to send the request again and
   * pass the answer to `confirm`, or to call `unconfirmed` when it may not.
   */
  evaluate(exchange: Exchange): Judged {
    return this.judge(exchange, undefined);
  }

  /**
   * Judges the second sending of a request whose findings were held back: where the same check
   * finds something again they are reported (with how they were confirmed), otherwise they are
   * flaky and this answer passes. Its other checks judge it as any other exchange, but what they
   * found on the first answer is not counted twice.
   */
  confirm(first: Judged, again: Exchange): void {
    this.judge(again, first);
  }

  /** Reports findings held back that could not be sent again (a write the suite may not repeat), saying so. */
  unconfirmed(pending: Finding[], why: string): void {
    for (const finding of pending) this.results.find({ ...finding, confirmation: `not sent again: ${why}` });
  }

  private judge(exchange: Exchange, first: Judged | undefined): Judged {
    const op = exchange.case.operation;
    const judged: Judged = { pending: [], recorded: [], settled: [] };
    if (!this.scope.inScope(op)) return judged;
    const cleanup = exchange.case.intent === 'cleanup';
    for (const [id, { functions }] of this.checks) {
      if (!this.scope.selected(id)) continue;
      if (cleanup && id !== 'not_a_server_error') continue;
      // An answer that never came whole is judged by response_received alone.
      if (exchange.error && id !== 'response_received') continue;
      const verdicts = run(functions, this.checkContext, exchange);
      if (!verdicts) continue;
      this.results.timed(id, op.id, exchange.ms);
      const held = first?.pending.filter((f) => f.check === id) ?? [];
      if (held.length) {
        this.settle(held, exchange, verdicts.length > 0);
        judged.settled.push(id);
        continue;
      }
      const again = verdicts.length ? (run(functions, this.settings.freshContext(), exchange) ?? []) : [];
      let found = false;
      for (const verdict of verdicts) {
        const finding = this.finding(id, exchange, verdict);
        if (!again.some((v) => v.received === verdict.received && v.documented === verdict.documented)) {
          this.results.flaky({ ...finding, confirmation: 'not found again when the response was checked against the document a second time' });
          continue;
        }
        found = true;
        if (first?.recorded.some((f) => f.check === id && f.received === finding.received && f.documented === finding.documented)) continue;
        if (!first && this.resend(id, exchange, finding)) judged.pending.push(finding);
        else {
          this.results.find(finding);
          judged.recorded.push(finding);
        }
      }
      if (!found) this.results.pass(id, op.id);
    }
    // A held finding whose check does not judge the second answer (a 5xx, no answer at all): not accepted either, so reported.
    const settled = new Set(judged.settled);
    for (const finding of first?.pending ?? []) {
      if (!settled.has(finding.check)) this.results.find({ ...finding, confirmation: `not accepted when sent once more either: it answered ${exchange.status || exchange.error}` });
    }
    return judged;
  }

  /** Findings held back, settled by the second answer: the same check found something again, or not. */
  private settle(held: Finding[], again: Exchange, reproduced: boolean): void {
    const answer = again.status ? String(again.status) : (again.error ?? 'no answer');
    for (const finding of held) {
      const once = this.unprovoked.get(finding);
      if (reproduced) this.results.find({ ...finding, confirmation: `seen again when sent once more (${answer})` });
      // A 5xx that a second read does not show is not one for every later caller, but it was still a 5xx.
      else if (once) this.results.find({ ...once, confirmation: `a 5xx once: the same read sent once more answered ${answer}` });
      else this.results.flaky({ ...finding, confirmation: `not seen again: sent once more, it answered ${answer}` });
    }
    if (!reproduced && !held.some((f) => this.unprovoked.has(f))) this.results.pass(held[0].check, held[0].operationId);
  }

  /** A 5xx finding with its sequence, and the same finding without it (reported if the 5xx does not hold). */
  private readonly unprovoked = new WeakMap<Finding, Finding>();

  /** True for a finding a second sending must confirm: a valid request refused, or a 5xx of a read the suite's own write provoked. */
  private resend(check: CheckId, exchange: Exchange, finding: Finding): boolean {
    const refused = exchange.case.intent === 'valid' && exchange.status >= 400 && exchange.status < 500;
    if (refused && (check === 'positive_data_acceptance' || check === 'status_code_conformance')) return true;
    return check === 'not_a_server_error' && finding.sequence !== undefined;
  }

  private finding(check: CheckId, exchange: Exchange, verdict: Verdict): Finding {
    const c = exchange.case;
    const { received, documented, kind, ...evidence } = verdict;
    const { baseUrl, token } = this.settings;
    const finding: Finding = {
      ...evidence,
      check,
      kind: kind ?? 'failure',
      operation: `${c.operation.method.toUpperCase()} ${c.operation.path}`,
      operationId: c.operation.id,
      received,
      documented,
      label: c.label,
      request: `${c.method} ${c.path}`,
      response: `${exchange.status} ${excerpt(exchange.text, 200)}`.trim(),
      repro: reproOf(c, baseUrl, token),
    };
    const provoked = check === 'not_a_server_error' ? provokedBy(this.settings.history, exchange) : undefined;
    if (!provoked) return finding;
    const traced = {
      ...finding,
      received: `${received}, after ${provoked.write.case.method} ${provoked.write.case.path} answered ${provoked.write.status} (the same read answered ${provoked.before.status} before it)`,
      sequence: [provoked.before, provoked.write, exchange].map((ex) => `${reproOf(ex.case, baseUrl, token)}  # answered ${ex.status}`),
    };
    this.unprovoked.set(traced, finding);
    return traced;
  }

  /** Records a failure found across several exchanges (no single response shows it). */
  fail(op: Operation, check: CheckId, label: string, received: string, documented: string): void {
    if (!this.scope.selected(check) || !this.scope.inScope(op)) return;
    this.results.find({ check, kind: 'failure', operation: `${op.method.toUpperCase()} ${op.path}`, operationId: op.id, request: `${op.method.toUpperCase()} ${op.path}`, label, received, documented });
  }

  /** Records a pass found across several exchanges. */
  passed(op: Operation, check: CheckId): void {
    if (this.scope.selected(check) && this.scope.inScope(op)) this.results.pass(check, op.id);
  }
}

/** What a check's functions say of an exchange: undefined when none applies. */
function run(functions: Check[], ctx: CheckContext, exchange: Exchange): Verdict[] | undefined {
  let applied = false;
  const verdicts: Verdict[] = [];
  for (const check of functions) {
    const found = check(ctx, exchange);
    if (!found) continue;
    applied = true;
    verdicts.push(...found);
  }
  return applied ? verdicts : undefined;
}
