/**
 * What the proxy found: every violation counted, the latest kept (at most `capacity`) for
 * `GET /__admin/violations`, and at exit a summary and a JUnit file: one test suite per check, one
 * test case per operation that had traffic (a failure with its violations, else a pass), and the
 * operations no request reached, skipped with that reason, never passed.
 */
import { escapeHtml as escape } from '../core/html.js';
import type { Operation } from '../openapi/operations/operation.js';
import type { ProxyCheckId, Violation } from './inspect.js';

export interface ViolationCounts {
  total: number;
  failures: number;
  gaps: number;
  byCheck: Partial<Record<ProxyCheckId, number>>;
}


export class ViolationLog {
  private readonly kept: Violation[] = [];
  private next = 1;
  private readonly counted: ViolationCounts = { total: 0, failures: 0, gaps: 0, byCheck: {} };
  /** Exchanges seen per operation id (and `undocumented` for requests no operation describes). */
  private readonly exchanges = new Map<string, number>();
  /** Violations per check and operation id, for the JUnit file (their first, and how many). */
  private readonly grouped = new Map<string, { first: Violation; count: number }>();

  constructor(private readonly capacity = 1000) {}

  /** Counts one exchange of an operation (with or without violations). */
  exchange(operationId: string | undefined): void {
    const key = operationId ?? '';
    this.exchanges.set(key, (this.exchanges.get(key) ?? 0) + 1);
  }

  add(found: Omit<Violation, 'id' | 'time'>, time: Date): Violation {
    const violation: Violation = { id: this.next++, time: time.toISOString(), ...found };
    this.kept.push(violation);
    // Dropped in batches, not one by one (a shift moves the whole list: on every violation, under load).
    if (this.kept.length >= 2 * this.capacity) this.kept.splice(0, this.kept.length - this.capacity);
    this.counted.total++;
    if (violation.kind === 'gap') this.counted.gaps++;
    else this.counted.failures++;
    this.counted.byCheck[violation.check] = (this.counted.byCheck[violation.check] ?? 0) + 1;
    const key = `${violation.check} ${violation.operationId ?? violation.operation}`;
    const group = this.grouped.get(key);
    if (group) group.count++;
    else this.grouped.set(key, { first: violation, count: 1 });
    return violation;
  }

  /** The latest violations, newest first. */
  latest(limit: number, check?: string): Violation[] {
    const out: Violation[] = [];
    const oldest = Math.max(0, this.kept.length - this.capacity);
    for (let i = this.kept.length - 1; i >= oldest && out.length < limit; i--) if (check === undefined || this.kept[i].check === check) out.push(this.kept[i]);
    return out;
  }

  counts(): ViolationCounts {
    return { ...this.counted, byCheck: { ...this.counted.byCheck } };
  }

  /** Lines for the terminal at exit: what was seen, and each check's violations. */
  summary(): string[] {
    const { total, failures, gaps, byCheck } = this.counted;
    const seen = [...this.exchanges.values()].reduce((a, b) => a + b, 0);
    const lines = [`${seen} exchange${seen === 1 ? '' : 's'} checked: ${total === 0 ? 'no violation' : `${failures} violation${failures === 1 ? '' : 's'}${gaps ? ` and ${gaps} gap${gaps === 1 ? '' : 's'} of the document` : ''}`}.`];
    for (const [check, count] of Object.entries(byCheck)) lines.push(`  ${check}: ${count}`);
    for (const { first, count } of this.grouped.values()) lines.push(`  ${first.check} ${first.operation}${count > 1 ? ` (${count} times)` : ''}: received ${first.received}, documented ${first.documented}`);
    return lines;
  }

  /**
   * JUnit XML: a suite per check that ran, a case per operation of the document (a failure with
   * the first violation and the count, a pass when traffic reached it without one, skipped when no
   * request reached it), and the requests no operation describes under `documented_operation`.
   */
  junit(operations: readonly Operation[], checks: readonly ProxyCheckId[]): string {
    let tests = 0;
    let failures = 0;
    let skipped = 0;
    const suites = checks.map((check) => {
      const cases: string[] = [];
      const rows: Array<{ id: string; name: string }> = operations.map((op) => ({ id: op.id, name: `${op.method.toUpperCase()} ${op.path} (${op.id})` }));
      if (check === 'documented_operation') {
        rows.length = 0;
        for (const { first } of this.grouped.values()) if (first.check === check) rows.push({ id: first.operation, name: first.operation });
        if (rows.length === 0) rows.push({ id: '', name: 'every request went to an operation of the document' });
      }
      let suiteFailures = 0;
      let suiteSkipped = 0;
      for (const row of rows) {
        const group = this.grouped.get(`${check} ${row.id}`);
        const name = escape(row.name);
        if (group && group.first.kind === 'failure') {
          suiteFailures++;
          const message = escape(`received ${group.first.received}, documented ${group.first.documented}${group.count > 1 ? ` (${group.count} times)` : ''}`);
          cases.push(`    <testcase classname="${check}" name="${name}">\n      <failure message="${message}" type="${check}">${escape(`request: ${group.first.request}\nresponse: ${group.first.response ?? ''}\nrepro: ${group.first.repro}`)}</failure>\n    </testcase>`);
        } else if (check !== 'documented_operation' && !this.exchanges.has(row.id)) {
          suiteSkipped++;
          cases.push(`    <testcase classname="${check}" name="${name}">\n      <skipped message="no request for this operation went through the proxy"/>\n    </testcase>`);
        } else if (group) {
          suiteSkipped++;
          cases.push(`    <testcase classname="${check}" name="${escape(`${row.name}: document gap`)}">\n      <skipped message="${escape(`document gap: received ${group.first.received}, documented ${group.first.documented}`)}"/>\n    </testcase>`);
        } else {
          cases.push(`    <testcase classname="${check}" name="${name}"/>`);
        }
      }
      tests += cases.length;
      failures += suiteFailures;
      skipped += suiteSkipped;
      return `  <testsuite name="${check}" tests="${cases.length}" failures="${suiteFailures}" skipped="${suiteSkipped}">\n${cases.join('\n')}\n  </testsuite>`;
    });
    return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="proxy" tests="${tests}" failures="${failures}" skipped="${skipped}">\n${suites.join('\n')}\n</testsuites>\n`;
  }
}
