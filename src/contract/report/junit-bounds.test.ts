/**
 * The JUnit file a CI user reads: never a pass for an operation no request reached, and a size that
 * grows with operations and checks, not with requests (each test case's text bounded).
 */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../case.js';
import type { CheckOutcome } from '../results.js';
import type { ContractReport } from '../contract-report.js';
import { toJUnit } from './junit.js';

const outcome = (operationId: string, counts: Partial<CheckOutcome>): CheckOutcome => ({ check: 'response_received', operationId, operation: `PUT /${operationId}/{id}`, passed: 0, failed: 0, gaps: 0, skipped: [], ms: 0, ...counts });
const finding = (n: number): Finding => ({ check: 'response_received', kind: 'failure', operation: 'PUT /pets/{id}', operationId: 'pets', received: `${500 + (n % 100)} number ${n} ${'x'.repeat(300)}`, documented: 'an answer', label: `case ${n}`, request: `PUT /pets/${n}`, response: `500 ${'y'.repeat(200)}`, repro: `curl -X PUT 'http://h/pets/${n}'` });
const report = (outcomes: CheckOutcome[], failures: Finding[], requested: string[]): ContractReport => ({
  requests: 10, requested, seed: 1, durationMs: 1, checks: ['response_received'], plugins: [], strict: false, conforms: failures.length === 0, coverage: [], leftBehind: [],
  confirmed: { valid: 0, invalid: 0, unconfirmed: 0, unjudged: 0 }, unconfirmed: [], notSent: [], unmapped: [], unenforcedPatterns: [], failures, gaps: [], outcomes, flaky: [], causes: { failures: [], gaps: [], flaky: [] },
});

describe('JUnit', () => {
  it('never passes an operation no request reached: it is skipped with that reason', () => {
    const xml = toJUnit(report([outcome('categories', { passed: 2 }), outcome('pets', { passed: 1 })], [], ['pets']));
    expect(xml).toContain('<testcase classname="response_received" name="PUT /categories/{id} (categories)" time="0.000">\n      <skipped message="never requested: no request of the run reached this operation"/>');
    expect(xml).toMatch(/<testcase classname="response_received" name="PUT \/pets\/\{id\} \(pets\)" time="0\.000"\/>/);
  });

  it('bounds the text of one test case, however many requests failed', () => {
    const size = (n: number) => toJUnit(report([outcome('pets', { failed: n })], Array.from({ length: n }, (_, i) => finding(i)), ['pets'])).length;
    // Only the counts written in it grow (their digits), not the text.
    expect(size(1000) - size(10)).toBeLessThan(20);
    expect(toJUnit(report([outcome('pets', { failed: 50 })], Array.from({ length: 50 }, (_, i) => finding(i)), ['pets']))).toContain('and 47 more distinct finding(s) (50 in all): see the console report');
  });
});
