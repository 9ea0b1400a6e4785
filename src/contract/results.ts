/**
 * What the run knows for every check x operation: how many exchanges passed it, what it found
 * (failures and gaps), and when nothing judged it, why (a reason given by the phase that left it
 * out, or that no request of the run fell in its scope). Nothing that did not run counts as passed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Finding } from './case.js';
import type { CheckId } from './check-id.js';

/**
 * The findings being held for the code that runs, by the results they are kept from: several
 * explorers may hold at once, in lanes (turns.ts). One for the module: every AsyncLocalStorage
 * Node keeps enabled slows every later promise, so none is made per run.
 */
const heldFindings = new AsyncLocalStorage<Map<Results, Finding[]>>();

export interface CheckOutcome {
  check: CheckId;
  operationId: string;
  /** `GET /pets/{petId}` */
  operation: string;
  /** Exchanges the check judged and found right. */
  passed: number;
  failed: number;
  gaps: number;
  /** Why it did not run for this operation; empty when it ran. */
  skipped: string[];
  /** How long the answers it judged took, in milliseconds (JUnit's `time`). */
  ms: number;
}

export type Verdict = 'passed' | 'failed' | 'gaps' | 'skipped';

export function verdictOf(outcome: CheckOutcome): Verdict {
  if (outcome.failed) return 'failed';
  if (outcome.gaps) return 'gaps';
  return outcome.passed ? 'passed' : 'skipped';
}

export class Results {
  private readonly outcomes = new Map<string, CheckOutcome>();
  readonly findings: Finding[] = [];
  /** Findings that did not reproduce when confirmed (re-checked, or sent once more): reported apart, never as failures. */
  readonly flakyFindings: Finding[] = [];

  constructor(
    checks: CheckId[],
    operations: Array<{ id: string; method: string; path: string }>,
  ) {
    for (const check of checks) {
      for (const op of operations) {
        this.outcomes.set(`${check}\u0000${op.id}`, { check, operationId: op.id, operation: `${op.method.toUpperCase()} ${op.path}`, passed: 0, failed: 0, gaps: 0, skipped: [], ms: 0 });
      }
    }
  }

  private outcome(check: CheckId, operationId: string): CheckOutcome | undefined {
    return this.outcomes.get(`${check}\u0000${operationId}`);
  }

  pass(check: CheckId, operationId: string): void {
    const outcome = this.outcome(check, operationId);
    if (outcome) outcome.passed++;
  }

  /** Adds the time of an answer the check judged for the operation. */
  timed(check: CheckId, operationId: string, ms: number): void {
    const outcome = this.outcome(check, operationId);
    if (outcome) outcome.ms += ms;
  }

  find(finding: Finding): void {
    const held = heldFindings.getStore()?.get(this);
    if (held) {
      held.push(finding);
      return;
    }
    const outcome = this.outcome(finding.check, finding.operationId);
    if (!outcome) return;
    if (finding.kind === 'gap') outcome.gaps++;
    else outcome.failed++;
    this.findings.push(finding);
  }

  /**
   * Runs `body` with the findings it makes held back and handed to the caller, not reported:
   * exploration tries many inputs and reports only the shrunk one it confirms. Passes still count.
   */
  async holding<T>(body: () => Promise<T>): Promise<{ result: T; held: Finding[] }> {
    const held: Finding[] = [];
    return heldFindings.run(new Map([[this, held]]), async () => ({ result: await body(), held }));
  }

  /**
   * Turns the refusals a check reported for a case (by operation and label) into gaps, with `note`
   * added to what the document says: a valid request refused, then accepted with another valid
   * body, met a rule the document does not state. The refusal stays reported, once.
   */
  toGap(check: CheckId, operationId: string, label: string, note: string): void {
    const outcome = this.outcome(check, operationId);
    if (!outcome) return;
    for (const [i, finding] of this.findings.entries()) {
      if (finding.check !== check || finding.operationId !== operationId || finding.label !== label || finding.kind !== 'failure' || (finding.status ?? 0) >= 500) continue;
      this.findings[i] = { ...finding, kind: 'gap', documented: `${finding.documented}; ${note}: the server holds a rule the document does not state` };
      outcome.failed--;
      outcome.gaps++;
    }
  }

  /** Keeps a finding that did not reproduce (its `confirmation` says how it was tried). */
  flaky(finding: Finding): void {
    if (this.outcome(finding.check, finding.operationId)) this.flakyFindings.push(finding);
  }

  /** Says why a check did not judge an operation (kept only if nothing judged it in the end). */
  skip(check: CheckId, operationId: string, reason: string): void {
    const outcome = this.outcome(check, operationId);
    if (outcome && !outcome.skipped.includes(reason)) outcome.skipped.push(reason);
  }

  /** Every check x operation, those nothing judged with a reason (the default one if no phase gave any). */
  rows(defaultReason: (check: CheckId, operationId: string) => string): CheckOutcome[] {
    return [...this.outcomes.values()].map((o) => {
      const judged = o.passed + o.failed + o.gaps > 0;
      return { ...o, skipped: judged ? [] : o.skipped.length ? o.skipped : [defaultReason(o.check, o.operationId)] };
    });
  }

  /** Every reason given for skipping a check of an operation: those of the `first` checks first, then the others in the order given. */
  reasons(operationId: string, first: CheckId[] = []): string[] {
    const rank = (check: CheckId) => (first.includes(check) ? first.indexOf(check) : first.length);
    const outcomes = [...this.outcomes.values()].filter((o) => o.operationId === operationId).sort((a, b) => rank(a.check) - rank(b.check));
    return [...new Set(outcomes.flatMap((o) => o.skipped))];
  }
}
