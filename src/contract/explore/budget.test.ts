import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET, ExploreBudget } from './budget.js';

describe('the exploration budget', () => {
  it('counts from the first ask, and stops at the requests bound', () => {
    let sent = 40; // the fixed checks sent these before exploration began: not counted
    const budget = new ExploreBudget({ requests: 3, ms: 1000 }, () => 0, () => sent);
    expect(budget.remaining()).toEqual({ requests: 3, ms: 1000 });
    sent += 2;
    expect(budget.remaining()).toEqual({ requests: 1, ms: 1000 });
    sent += 1;
    expect(budget.remaining()).toBeUndefined();
    expect(budget.spent()).toMatchObject({ requests: 3, stoppedBy: 'requests' });
  });

  it('stops at the time bound, with a clock the test sets', () => {
    let now = 500;
    const budget = new ExploreBudget({ ms: 100 }, () => now, () => 0);
    expect(budget.remaining()).toEqual({ requests: DEFAULT_BUDGET.requests, ms: 100 });
    now = 600;
    expect(budget.remaining()).toBeUndefined();
    expect(budget.spent().stoppedBy).toBe('time');
  });

  it('has spent nothing when no explorer asked', () => {
    expect(new ExploreBudget({}, () => 9, () => 9).spent()).toEqual({ limits: DEFAULT_BUDGET, requests: 0, ms: 0, stoppedBy: undefined });
  });
});
