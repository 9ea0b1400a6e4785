/** The seed and exploration's failures in every output: the console report and JUnit. */
import { describe, expect, it } from 'vitest';
import type { ExploredFailure } from '../explore/sequence.js';
import type { ContractReport } from '../contract-report.js';
import { formatReport } from './console.js';
import { formatReplay } from './explored.js';
import { toJUnit } from './junit.js';

const explored: ExploredFailure = {
  kind: 'input',
  check: 'not_a_server_error',
  operationId: 'getPet',
  received: '500 for read the pet just created',
  documented: 'no 5xx for a valid request',
  steps: [
    { operationId: 'createPet', label: 'create a pets record', body: { name: 'é' } },
    { operationId: 'getPet', label: 'read it', params: { petId: { $fromStep: 0 } } },
  ],
  repro: ["curl -sS -i -X POST 'http://h/pets' --data-raw '{\"name\":\"é\"}'", "curl -sS -i -X GET 'http://h/pets/7'"],
  seed: 4242,
  tried: 17,
  shrinks: 3,
};

const report = (more: Partial<ContractReport>): ContractReport => ({
  requests: 10, seed: 4242, durationMs: 1, checks: ['not_a_server_error'], plugins: [], strict: false, conforms: false, coverage: [], leftBehind: [],
  confirmed: { valid: 0, invalid: 0, unconfirmed: 0, unjudged: 0 }, unconfirmed: [], notSent: [], unmapped: [], unenforcedPatterns: [], failures: [], gaps: [], flaky: [], causes: { failures: [], gaps: [], flaky: [] },
  outcomes: [{ check: 'not_a_server_error', operationId: 'getPet', operation: 'GET /pets/{petId}', passed: 3, failed: 0, gaps: 0, skipped: [], ms: 0 }],
  ...more,
});

describe('the seed and explored failures in the reports', () => {
  it('the console report prints the seed first (after harm and records left behind) and in the verdict, and each explored failure with its steps in order and how to replay it', () => {
    const text = formatReport(report({ explored: [explored], exploration: { limits: { requests: 2000, ms: 30_000 }, requests: 2000, ms: 1500, stoppedBy: 'requests' } }), 'found.json');
    expect(text.split('\n')[0]).toBe('Seed 4242 (the same seed sends the same cases in the same order: --seed 4242)');
    expect(text).toMatch(/\nFAIL: .*; seed 4242; /);
    expect(text).toContain(
      [
        'Found by exploration: 1 failure(s), each shrunk to the shortest sequence that still fails',
        '✗ [not_a_server_error] getPet: received 500 for read the pet just created, documented no 5xx for a valid request',
        '    2 step(s), found after 17 tried, 3 shrink(s):',
        `      1. ${explored.repro[0]}`,
        `      2. ${explored.repro[1]}`,
        '    replay: --seed 4242, or --replay found.json',
      ].join('\n'),
    );
    expect(text).toContain('Exploration: 2000 requests in 1.5 s (budget 2000 requests, 30 s; stopped by its requests)');
    expect(formatReport(report({ exploration: { limits: { requests: 9, ms: 1000 }, requests: 0, ms: 0 } }))).toContain('Exploration: no request sent (budget 9 requests, 1 s)');
    expect(formatReport(report({ exploration: { off: 'turned off (--no-explore): only the fixed checks ran' } }))).toContain('Exploration: turned off (--no-explore)');
  });

  it('JUnit carries the seed as a property of every suite, and an explored failure as a failure of its check and operation', () => {
    const xml = toJUnit(report({ explored: [explored] }));
    expect(xml).toContain('<property name="seed" value="4242"/>');
    expect(xml).toMatch(/<testsuites name="contract" tests="2" failures="1"/);
    expect(xml).toContain('<testcase classname="not_a_server_error" name="GET /pets/{petId} (getPet): explored" time="0.000">');
    expect(xml).toContain('<failure message="explored: GET /pets/{petId}: received 500 for read the pet just created, documented no 5xx for a valid request" type="not_a_server_error">2 step(s)');
    expect(xml).toContain('2. curl -sS -i -X GET &apos;http://h/pets/7&apos;');
    // A check with no suite of its own in the report (not selected) still fails the file.
    expect(toJUnit(report({ explored: [{ ...explored, check: 'use_after_delete' }] }))).toMatch(/<testsuite name="use_after_delete" tests="1" failures="1"/);
  });

  it('the replay report says each verdict and the requests sent', () => {
    const text = formatReplay({ seed: 4242, replayed: [{ failure: explored, verdict: 'fixed', why: 'received 200 for read it, as documented', repro: explored.repro }], failing: 0, fixed: 1, unjudged: 0, requests: 5, leftBehind: [] }, 'found.json');
    expect(text).toBe(`Replaying 1 failure(s) of found.json (found with seed 4242)\n✓ fixed: [not_a_server_error] getPet: received 200 for read it, as documented\n      1. ${explored.repro[0]}\n      2. ${explored.repro[1]}\nFIXED: 0 still failing, 1 fixed, 0 not judged (5 requests)\n`);
  });
});
