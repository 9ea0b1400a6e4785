/**
 * The report a person reads: per check, how many operations passed, failed, showed gaps or were
 * skipped; then the failures by cause (one line each, the operations and counts under it, one
 * example with a curl that reproduces it); then the flaky findings and the document's gaps; then what was skipped and why; then the coverage table and a verdict.
 */
import type { Cause } from '../causes.js';
import { verdictOf, type CheckOutcome } from '../results.js';
import { describeHarm } from '../harm.js';
import type { ContractReport, CoverageRow } from '../contract-report.js';
import { formatExploration, formatExplored } from './explored.js';

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

/** Operations shown under a cause; the others are counted (the report's data names them all). */
const MAX_OPERATIONS = 8;

/**
 * One line per cause (check, and received versus documented), the most frequent first; under it
 * the operations with their counts, then one example: its case, request and response, how it was
 * confirmed, a repro, and for a 5xx the suite provoked the requests that led to it, in order.
 */
export function formatCauses(causes: Cause[], title: string, mark: string): string {
  if (causes.length === 0) return '';
  const total = causes.reduce((sum, c) => sum + c.count, 0);
  const lines = [`${title}: ${total} finding(s) of ${causes.length} cause(s)`];
  for (const cause of causes) {
    const ops = cause.operations;
    lines.push(`${mark} [${cause.check}] ${cause.text}`);
    const shown = ops.slice(0, MAX_OPERATIONS).map((o) => `${o.operation} (${o.operationId}) ${o.count}`);
    lines.push(`    ${cause.count} time(s) on ${ops.length} operation(s): ${shown.join(', ')}${ops.length > MAX_OPERATIONS ? `, and ${ops.length - MAX_OPERATIONS} more` : ''}`);
    const f = cause.example;
    lines.push(`    e.g. ${f.operation}: case: ${f.label}; request: ${f.request}${f.response ? `; response: ${f.response.slice(0, 120)}` : ''}`);
    if (f.confirmation) lines.push(`    ${mark === '~' ? 'why flaky' : 'confirmed'}: ${f.confirmation}`);
    if (f.sequence) lines.push('    sequence that led to it:', ...f.sequence.map((line) => `      ${line}`));
    else if (f.repro) lines.push(`    repro: ${f.repro}`);
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
  const left = report.leftBehind.length && !report.leftBehindAllowed;
  const verdict = report.harm?.length
    ? `HARM: the run changed ${report.harm.length} record(s) it did not create`
    : left
    ? `LEFT BEHIND: ${report.leftBehind.length} record(s) the suite created, or may have, are still on the server${report.failures.length ? `; ${report.failures.length} failure(s) in ${new Set(report.failures.map((f) => f.check)).size} check(s)` : ''}`
    : report.conforms
    ? 'PASS: the implementation conforms'
    : report.failures.length
      ? `FAIL: ${report.failures.length} failure(s) in ${new Set(report.failures.map((f) => f.check)).size} check(s)`
      : 'FAIL: the document has gaps (--strict)';
  const flaky = report.flaky.length ? `; ${report.flaky.length} flaky finding(s), not counted` : '';
  const stopped = report.incomplete ? `; incomplete: ${report.incomplete}` : '';
  return `${verdict} (${report.requests} requests; ${byCheck.size} checks: ${checks}${gaps}${flaky}${stopped}; seed ${report.seed}; ${(report.durationMs / 1000).toFixed(1)} s)\n`;
}

/** First of all: records of others the run changed or removed (it must never), or that it could not compare. */
export function formatHarm(report: ContractReport): string {
  if (report.harm === undefined) return report.harmCheckOff ? `Records of others: not compared before and after (${report.harmCheckOff})\n` : '';
  if (report.harm.length === 0) return '';
  return `HARM: ${report.harm.length} record(s) the suite did not create changed or gone after the run:\n${report.harm.map((h) => `  ✗ ${describeHarm(h)}`).join('\n')}\n`;
}

/** Near the top: what the run created and could not delete, one line per record or create (a failure of the run unless allowed). */
export function formatLeftBehind(report: ContractReport): string {
  if (report.leftBehind.length === 0) return '';
  const title = report.leftBehindAllowed
    ? 'Left behind (allowed with --allow-leftovers; delete them yourself)'
    : `LEFT BEHIND: ${report.leftBehind.length} record(s) the suite created, or may have, and could not delete (this fails the run; --allow-leftovers makes it a warning)`;
  return `${title}:\n${report.leftBehind.map((what) => `  ${report.leftBehindAllowed ? '-' : '✗'} ${what}`).join('\n')}\n`;
}

/** How the document's validator judged the cases before they were sent, and those it did not confirm (not sent), with why. */
export function formatConfirmed({ confirmed, unconfirmed }: ContractReport): string {
  const line = `Judged by the document's validator before sending: ${confirmed.valid} valid, ${confirmed.invalid} invalid for the rule they break; ${confirmed.unjudged} not judged (clean-up, edge probes); ${confirmed.unconfirmed} not sent\n`;
  return line + unconfirmed.map((n) => `  · not sent: ${n.operation} (${n.label}): ${n.reason}\n`).join('');
}

/** The whole report; `cassette`: the file the run's explored failures were written to, for the replay hint. */
export function formatReport(report: ContractReport, cassette?: string): string {
  return [
    formatHarm(report),
    formatLeftBehind(report),
    // After harm and records left behind, which are said first; the CLI's header line names the seed before the run.
    `Seed ${report.seed} (the same seed sends the same cases in the same order: --seed ${report.seed})\n`,
    formatChecks(report.outcomes),
    formatCauses(report.causes.failures, 'Failures', '✗'),
    formatExplored(report, cassette),
    formatCauses(report.causes.flaky, 'Flaky (not failures: not seen again when confirmed before reporting)', '~'),
    formatCauses(report.causes.gaps, `Gaps of the document (not failures${report.strict ? '; --strict makes them fail' : ' unless --strict'})`, '!'),
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
    formatReach(report),
    formatCoverage(report.coverage),
    formatExploration(report),
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
