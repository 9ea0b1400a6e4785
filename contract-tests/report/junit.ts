/**
 * JUnit XML for CI: one test suite per check, one test case per operation it judged.
 */
import type { Failure } from '../case.js';
import { describeFailure } from '../case.js';
import type { ContractReport } from '../run-contract.js';

const escape = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

export function toJUnit(report: ContractReport): string {
  const operations = [...new Set(report.coverage.map((r) => `${r.operation} (${r.operationId})`))];
  const suites = report.checks.map((check) => {
    const failed = report.failures.filter((f) => f.check === check);
    const byOperation = new Map<string, Failure[]>();
    for (const f of failed) byOperation.set(`${f.operation} (${f.operationId})`, [...(byOperation.get(`${f.operation} (${f.operationId})`) ?? []), f]);
    const names = [...new Set([...operations, ...byOperation.keys()])];
    const cases = names.map((name) => {
      const failures = byOperation.get(name) ?? [];
      const body = failures
        .map((f) => `      <failure message="${escape(describeFailure(f))}" type="${check}">${escape(`case: ${f.label}\nrequest: ${f.request}`)}</failure>`)
        .join('\n');
      return failures.length ? `    <testcase classname="${check}" name="${escape(name)}">\n${body}\n    </testcase>` : `    <testcase classname="${check}" name="${escape(name)}"/>`;
    });
    return `  <testsuite name="${check}" tests="${names.length}" failures="${byOperation.size}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const failed = report.checks.reduce((n, check) => n + new Set(report.failures.filter((f) => f.check === check).map((f) => f.operationId)).size, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="contract" tests="${report.checks.length * operations.length}" failures="${failed}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
