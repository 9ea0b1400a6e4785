/**
 * The report a person reads: per check, how many operations passed, failed, showed gaps or were
 * skipped; then every failure once (with how often it was seen and a curl that reproduces it);
 * then the document's gaps; then what was skipped and why; then the coverage table and a verdict.
 */
import { describeFinding, type Finding } from '../case.js';
import { verdictOf, type CheckOutcome } from '../results.js';
import { describeHarm } from '../harm.js';
import type { ContractReport, CoverageRow } from '../run-contract.js';

/** Per check: `status_code_conformance   18 passed, 1 with gaps`. */
export function formatChecks(outcomes: CheckOutcome[]): string {
  const byCheck = group(outcomes, (o) => o.check);
  const width = Math.max(...[...byCheck.keys()].map((k) => k.length), 5);
  const lines = ['check'.padEnd(width) + '  operations'];
  for (const [check, rows] of byCheck) {
    const counts = { passed: 0, failed: 0, gaps: 0, skipped: 0 };
    for (const row of rows) counts[verdictOf(row)]++;
    const parts = [counts.failed && `${counts.failed} failed`, counts.gaps && `${counts.gaps} with gaps`, counts.passed && `${counts.passed} passed`, counts.skipped && `${counts.skipped} skipped`].filter(Boolean);
    lines.push(`${counts.failed ? '✗' : counts.passed || counts.gaps ? '✓' : '·'} ${check.padEnd(width)}  ${parts.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Each distinct finding once, grouped by operation, with its count, the case, the response and a repro. */
export function formatFindings(findings: Finding[], title: string, mark: string): string {
  if (findings.length === 0) return '';
  const distinct = group(findings, (f) => `${f.operationId}\u0000${f.check}\u0000${describeFinding(f)}`);
  const byOperation = group([...distinct.values()], (list) => `${list[0].operation} (${list[0].operationId})`);
  const lines = [`${title}: ${distinct.size} distinct (${findings.length} in all)`];
  for (const [operation, lists] of byOperation) {
    lines.push(`${mark} ${operation}`);
    for (const list of lists) {
      const [f] = list;
      lines.push(`    [${f.check}] ${describeFinding(f)}${list.length > 1 ? ` (${list.length} times)` : ''}`);
      lines.push(`        case: ${f.label}; request: ${f.request}${f.response ? `; response: ${f.response.slice(0, 120)}` : ''}`);
      if (f.repro) lines.push(`        repro: ${f.repro}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** What was skipped, grouped by check and reason: `auth_enforced: the operation declares no security (3): listX, getX, ...`. */
export function formatSkipped(outcomes: CheckOutcome[]): string {
  const skipped = outcomes.filter((o) => verdictOf(o) === 'skipped');
  if (skipped.length === 0) return '';
  const lines = [`Skipped (not counted as passed): ${skipped.length} check x operation pairs`];
  for (const [check, rows] of group(skipped, (o) => o.check)) {
    for (const [reason, list] of group(rows, (o) => o.skipped.join('; '))) {
      lines.push(`  · ${check}: ${reason} (${list.length}): ${list.map((o) => o.operationId).join(', ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function formatCoverage(rows: CoverageRow[]): string {
  const byOperation = group(rows, (r) => r.operation);
  const width = Math.max(...[...byOperation.keys()].map((k) => k.length), 9);
  const lines = [`${'operation'.padEnd(width)}  declared statuses (✓ exercised, · not)`];
  for (const [operation, list] of byOperation) lines.push(`${operation.padEnd(width)}  ${list.map((r) => `${r.exercised ? '✓' : '·'}${r.status}`).join(' ')}`);
  const done = rows.filter((r) => r.exercised).length;
  lines.push(`coverage: ${done}/${rows.length} operation x status pairs exercised`);
  return `${lines.join('\n')}\n`;
}

/** Operations never requested, one line each with why; then `single-record operations: 5 requested, 4 answered 2xx, of 6`. */
export function formatReach({ reach }: ContractReport): string {
  if (!reach) return '';
  const never = reach.neverRequested.length ? `Never requested (${reach.neverRequested.length}):\n${reach.neverRequested.map((n) => `  · ${n.operation} (${n.operationId}): ${n.reason}`).join('\n')}\n` : '';
  const { total, requested, succeeded } = reach.singleRecord;
  return `${never}single-record operations: ${requested} requested, ${succeeded} answered 2xx, of ${total}\n`;
}

/** `PASS: the implementation conforms (327 requests; checks: 15 passed, 2 skipped; 1 gap of the document; 0.6 s)` */
export function formatSummary(report: ContractReport): string {
  const byCheck = group(report.outcomes, (o) => o.check);
  const counts = { passed: 0, failed: 0, gaps: 0, skipped: 0 };
  for (const rows of byCheck.values()) {
    const verdicts = rows.map(verdictOf);
    counts[verdicts.includes('failed') ? 'failed' : verdicts.includes('gaps') ? 'gaps' : verdicts.includes('passed') ? 'passed' : 'skipped']++;
  }
  const checks = [counts.failed && `${counts.failed} failed`, counts.gaps && `${counts.gaps} with gaps`, counts.passed && `${counts.passed} passed`, counts.skipped && `${counts.skipped} skipped entirely`].filter(Boolean).join(', ');
  const gaps = report.gaps.length ? `; ${report.gaps.length} gap(s) of the document${report.strict ? ' (--strict: they fail the run)' : ''}` : '';
  const verdict = report.harm?.length
    ? `HARM: the run changed ${report.harm.length} record(s) it did not create`
    : report.conforms
    ? 'PASS: the implementation conforms'
    : report.failures.length
      ? `FAIL: ${report.failures.length} failure(s) in ${new Set(report.failures.map((f) => f.check)).size} check(s)`
      : 'FAIL: the document has gaps (--strict)';
  const stopped = report.incomplete ? `; incomplete: ${report.incomplete}` : '';
  return `${verdict} (${report.requests} requests; ${byCheck.size} checks: ${checks}${gaps}${stopped}; ${(report.durationMs / 1000).toFixed(1)} s)\n`;
}

/** First of all: records of others the run changed or removed (it must never), or that it could not compare. */
export function formatHarm(report: ContractReport): string {
  if (report.harm === undefined) return report.harmCheckOff ? `Records of others: not compared before and after (${report.harmCheckOff})\n` : '';
  if (report.harm.length === 0) return '';
  return `HARM: ${report.harm.length} record(s) the suite did not create changed or gone after the run:\n${report.harm.map((h) => `  ✗ ${describeHarm(h)}`).join('\n')}\n`;
}

/** How the document's validator judged the cases before they were sent, and those it did not confirm (not sent), with why. */
export function formatConfirmed({ confirmed, unconfirmed }: ContractReport): string {
  const line = `Judged by the document's validator before sending: ${confirmed.valid} valid, ${confirmed.invalid} invalid for the rule they break; ${confirmed.unjudged} not judged (clean-up, edge probes); ${confirmed.unconfirmed} not sent\n`;
  return line + unconfirmed.map((n) => `  · not sent: ${n.operation} (${n.label}): ${n.reason}\n`).join('');
}

export function formatReport(report: ContractReport): string {
  return [
    formatHarm(report),
    formatChecks(report.outcomes),
    formatFindings(report.failures, 'Failures', '✗'),
    formatFindings(report.gaps, `Gaps of the document (not failures${report.strict ? '; --strict makes them fail' : ' unless --strict'})`, '!'),
    formatSkipped(report.outcomes),
    report.unmapped.length
      ? `Not mapped to a collection (valid requests only, judged by the response checks):\n${report.unmapped.map((u) => `  · ${u.operation} (${u.operationId}): ${u.reason}`).join('\n')}\n`
      : '',
    report.notSent.length
      ? `Never sent (they could change records the suite did not create):\n${report.notSent.map((u) => `  · ${u.operation} (${u.operationId}): ${u.reason}`).join('\n')}\n`
      : '',
    formatConfirmed(report),
    report.unenforcedPatterns.length
      ? `Patterns not enforced (a linear-time engine cannot run them; every string passes them):\n${report.unenforcedPatterns.map((p) => `  · ${JSON.stringify(p.pattern)} at ${p.where}${p.more ? ` (and ${p.more} more)` : ''}: ${p.reason}`).join('\n')}\n`
      : '',
    report.leftBehind.length ? `Left behind (created by the suite, or maybe created, and not deleted):\n${report.leftBehind.map((what) => `  - ${what}`).join('\n')}\n` : '',
    formatReach(report),
    formatCoverage(report.coverage),
    formatSummary(report),
  ]
    .filter(Boolean)
    .join('\n');
}

function group<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
