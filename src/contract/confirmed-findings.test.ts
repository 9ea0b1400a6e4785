/**
 * A red a user can trust: a finding is confirmed before it is reported. A valid create refused
 * once and accepted when sent again is flaky (reported apart, in the data, the console and JUnit),
 * not a failure; refused again, it is a failure that says it was seen twice.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { FLAKY_BOOKS, flakyServer } from '../test-support/contract-servers/flaky-server.js';
import { formatReport } from './report/console.js';
import { toJUnit } from './report/junit.js';
import { runContract } from './run-contract.js';
import type { Exchange } from './case.js';
import type { Check } from './checks/check.js';

const document = await loadDocument(FLAKY_BOOKS);
const inProcess = (handler: (request: Request) => Promise<Response>) => (url: string, init: RequestInit) => handler(new Request(url, init));

describe('a refusal of a valid request is sent once more before it is reported', () => {
  it('refused once, then accepted: flaky, not a failure; the record the second create made is the suite\'s and is deleted', async () => {
    const server = flakyServer({ refuse: 'once' });
    const report = await runContract({ document, baseUrl: 'http://flaky.test', fetch: inProcess(server.fetch) });
    expect(report.failures).toEqual([]);
    expect(report.conforms).toBe(true);
    expect(report.flaky.map((f) => `${f.check} ${f.operationId}: ${f.confirmation}`)).toEqual(['positive_data_acceptance createBook: not seen again: sent once more, it answered 201']);
    // The same request, twice in a row: the first refused, the second accepted.
    const creates = server.calls.filter((call) => call.startsWith('POST /books {'));
    expect(creates[0]).toBe(creates[1]);
    expect([...server.books.keys()]).toEqual([1]);
    expect(report.leftBehind).toEqual([]);
    // Not vacuous: the record of the second create went through its lifecycle.
    expect(report.outcomes.find((o) => o.check === 'use_after_delete' && o.operationId === 'deleteBook')?.passed).toBeGreaterThan(0);
    const text = formatReport(report);
    expect(text).toMatch(/^Flaky \(not failures: not seen again when confirmed before reporting\): 1 finding\(s\) of 1 cause\(s\)\n~ \[positive_data_acceptance\] received 400 \{"message":"the shelf is being reorganised, try again"\}, documented a success for /m);
    expect(text).toContain('    why flaky: not seen again: sent once more, it answered 201\n');
    expect(text).toMatch(/\nPASS: the implementation conforms \(\d+ requests; .*; 1 flaky finding\(s\), not counted;/);
    const xml = toJUnit(report);
    expect(xml).toMatch(/<testcase classname="positive_data_acceptance" name="POST \/books \(createBook\)" time="[\d.]+">\n {6}<flakyFailure message="flaky: POST \/books: received 400 /);
    expect(xml).not.toContain('<failure');
  });

  it('refused again: a failure, saying it was seen again', async () => {
    const server = flakyServer({ refuse: 'always' });
    const report = await runContract({ document, baseUrl: 'http://flaky.test', fetch: inProcess(server.fetch) });
    const refused = report.failures.filter((f) => f.check === 'positive_data_acceptance' && f.operationId === 'createBook');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].confirmation).toBe('seen again when sent once more (400)');
    expect(report.flaky).toEqual([]);
    expect(formatReport(report)).toContain('    confirmed: seen again when sent once more (400)\n');
  });
});

describe('a refusal sent once more and answered 500', () => {
  it('was not accepted either: the refusal is a failure, and the 500 one of its own', async () => {
    const server = flakyServer({ refuse: 'then-500' });
    const report = await runContract({ document, baseUrl: 'http://flaky.test', fetch: inProcess(server.fetch) });
    // Another valid body was accepted after it (reach past refusals), so the refusal itself is told as a gap of the document; its confirmation stays.
    const refused = [...report.failures, ...report.gaps].find((f) => f.check === 'positive_data_acceptance' && f.operationId === 'createBook');
    expect(refused?.confirmation).toBe('not accepted when sent once more either: it answered 500');
    expect(report.failures.some((f) => f.check === 'not_a_server_error' && f.operationId === 'createBook' && f.received === '500 upstream timed out')).toBe(true);
    expect(report.flaky).toEqual([]);
  });
});

describe('every finding is re-validated before it is reported', () => {
  it('a verdict its check does not give again on the same response, read afresh, is flaky', async () => {
    // A check that judges something besides the response (here: whether it saw the exchange before), so it says it once only.
    const seen = new WeakSet<Exchange>();
    const once: Check = (_ctx, ex) => {
      if (ex.case.operation.id !== 'getBook' || ex.status !== 200) return undefined;
      if (seen.has(ex)) return [];
      seen.add(ex);
      return [{ received: `${ex.status} judged once`, documented: 'the same verdict every time' }];
    };
    const server = flakyServer({ refuse: 'once' });
    const report = await runContract({ document, baseUrl: 'http://flaky.test', fetch: inProcess(server.fetch), plugins: [{ name: 'once', part: { checks: { response_headers_conformance: { check: once } } } }] });
    expect(report.failures).toEqual([]);
    const unconfirmed = report.flaky.filter((f) => f.check === 'response_headers_conformance');
    expect(unconfirmed.length).toBeGreaterThan(0);
    expect(unconfirmed.every((f) => f.operationId === 'getBook' && f.confirmation === 'not found again when the response was checked against the document a second time')).toBe(true);
  });
});
