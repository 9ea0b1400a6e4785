/**
 * The report a person reads: failures grouped by operation and check, the coverage table, a summary.
 */
import { describeFailure, type Failure } from '../case.js';
import type { ContractReport, CoverageRow } from '../run-contract.js';

export function formatFailures(failures: Failure[]): string {
  if (failures.length === 0) return '';
  const lines: string[] = [];
  const byOperation = new Map<string, Failure[]>();
  for (const f of failures) byOperation.set(`${f.operation} (${f.operationId})`, [...(byOperation.get(`${f.operation} (${f.operationId})`) ?? []), f]);
  for (const [operation, list] of byOperation) {
    lines.push(`✗ ${operation}`);
    for (const f of list) {
      lines.push(`    [${f.check}] ${describeFailure(f)}`);
      lines.push(`        case: ${f.label}; request: ${f.request}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function formatCoverage(rows: CoverageRow[]): string {
  const byOperation = new Map<string, CoverageRow[]>();
  for (const row of rows) byOperation.set(row.operation, [...(byOperation.get(row.operation) ?? []), row]);
  const width = Math.max(...[...byOperation.keys()].map((k) => k.length), 9);
  const lines = [`${'operation'.padEnd(width)}  declared statuses (✓ exercised, · not)`];
  for (const [operation, list] of byOperation) lines.push(`${operation.padEnd(width)}  ${list.map((r) => `${r.exercised ? '✓' : '·'}${r.status}`).join(' ')}`);
  const done = rows.filter((r) => r.exercised).length;
  lines.push(`coverage: ${done}/${rows.length} operation x status pairs exercised`);
  return `${lines.join('\n')}\n`;
}

export function formatSummary(report: ContractReport): string {
  const verdict = report.failures.length === 0 ? 'PASS: the implementation conforms' : `FAIL: ${report.failures.length} failure(s) in ${new Set(report.failures.map((f) => f.check)).size} check(s)`;
  return `${verdict} (${report.requests} requests, ${report.checks.length} checks, ${(report.durationMs / 1000).toFixed(1)} s)\n`;
}
