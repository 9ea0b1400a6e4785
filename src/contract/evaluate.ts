/**
 * How an exchange is judged: every selected check runs on it (each a registered function holding
 * its rule), and what they say becomes passes, findings (with the evidence and a curl to repeat
 * the request, secrets left to the report's mask) or nothing where a check does not apply.
 * Findings across several exchanges are recorded through `fail` and `passed`.
 */
import type { Operation } from '../operations/operation.js';
import type { CheckId, Exchange, Finding } from './case.js';
import { excerpt, type Check, type CheckContext, type Verdict } from './checks/check.js';
import { reproOf } from './repro.js';
import type { Results } from './results.js';

/** The checks a run applies: each id with its functions (a plugin may add functions to an id) and what it applies to. */
export type CheckRegistry = Map<CheckId, { functions: Check[]; scope: string }>;

/** Which checks and operations the run judges. */
export interface RunScope {
  selected(check: CheckId): boolean;
  inScope(op: Operation): boolean;
}

export class Evaluator {
  constructor(
    private readonly checks: CheckRegistry,
    private readonly results: Results,
    private readonly scope: RunScope,
    private readonly checkContext: CheckContext,
    private readonly settings: { baseUrl: string; token?: string },
  ) {}

  /** Runs every selected check on an exchange: a pass, its findings, or nothing when it does not apply. Clean-up is not judged. */
  evaluate(exchange: Exchange): void {
    const op = exchange.case.operation;
    if (!this.scope.inScope(op) || exchange.case.intent === 'cleanup') return;
    for (const [id, { functions }] of this.checks) {
      if (!this.scope.selected(id)) continue;
      // An answer that never came whole is judged by response_received alone.
      if (exchange.error && id !== 'response_received') continue;
      let applied = false;
      const verdicts: Verdict[] = [];
      for (const check of functions) {
        const found = check(this.checkContext, exchange);
        if (!found) continue;
        applied = true;
        verdicts.push(...found);
      }
      if (!applied) continue;
      this.results.timed(id, op.id, exchange.ms);
      if (verdicts.length === 0) this.results.pass(id, op.id);
      for (const verdict of verdicts) this.results.find(this.finding(id, exchange, verdict));
    }
  }


  private finding(check: CheckId, exchange: Exchange, verdict: Verdict): Finding {
    const c = exchange.case;
    const { received, documented, kind, ...evidence } = verdict;
    return {
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
      repro: reproOf(c, this.settings.baseUrl, this.settings.token),
    };
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
