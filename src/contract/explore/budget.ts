/**
 * How much exploration may send (issue 39, point 5): a number of requests and a time, counted from
 * the first time an explorer asks, so that the fixed checks before it never spend it. Explorers ask
 * `remaining()` before each case or sequence and stop when it answers undefined; the report says
 * what was spent and which bound stopped it.
 *
 * @example
 * const budget = new ExploreBudget({ requests: 100 }, () => performance.now(), () => ctx.exchanges.length);
 * budget.remaining() // { requests: 100, ms: Infinity } the first time; undefined once 100 were sent
 */

/** The CI default: deterministic (a number of requests) and, as a backstop, bounded in time, so the README's CI command ends within 60 s. */
export const DEFAULT_BUDGET = { requests: 3000, ms: 30_000 } as const;

/** Operations or collections explored at once by default, each in a lane of its own, their requests overlapping (turns.ts). */
export const EXPLORE_LANES = 4;

export interface BudgetLimits {
  /** Requests exploration may send (default: DEFAULT_BUDGET.requests). */
  requests?: number;
  /** Milliseconds exploration may take (default: DEFAULT_BUDGET.ms). */
  ms?: number;
}

/** What exploration did with its budget, for the report. */
export interface BudgetSpent {
  /** The limits it ran under. */
  limits: { requests: number; ms: number };
  /** Requests sent and milliseconds taken since the first explorer asked (0 when none asked). */
  requests: number;
  ms: number;
  /** The bound that stopped exploration, if one did: with `time`, another run of the same seed may send fewer or more. */
  stoppedBy?: 'requests' | 'time';
}

export class ExploreBudget {
  private start?: { at: number; sent: number };
  private stopped?: 'requests' | 'time';
  readonly limits: { requests: number; ms: number };

  constructor(
    limits: BudgetLimits,
    private readonly now: () => number,
    private readonly sent: () => number,
  ) {
    this.limits = { requests: limits.requests ?? DEFAULT_BUDGET.requests, ms: limits.ms ?? DEFAULT_BUDGET.ms };
  }

  /** What is left (requests, milliseconds), or undefined when either bound is spent. The first call starts the count. */
  remaining(): { requests: number; ms: number } | undefined {
    this.start ??= { at: this.now(), sent: this.sent() };
    const spent = this.spent();
    const requests = this.limits.requests - spent.requests;
    const ms = this.limits.ms - spent.ms;
    if (requests <= 0) this.stopped ??= 'requests';
    else if (ms <= 0) this.stopped ??= 'time';
    return this.stopped ? undefined : { requests, ms };
  }

  /** What was spent so far, and what stopped exploration. */
  spent(): BudgetSpent {
    const requests = this.start ? this.sent() - this.start.sent : 0;
    const ms = this.start ? this.now() - this.start.at : 0;
    return { limits: this.limits, requests, ms, stoppedBy: this.stopped };
  }
}
