/**
 * Findings grouped by cause: one group per check and received-versus-documented, whatever the
 * operation, status or array index it was seen at, so that 300 findings of 5 causes read as 5
 * lines, each with the operations and counts under it and one example.
 */
import type { Finding, FindingKind } from './case.js';
import type { CheckId } from './check-id.js';

export interface Cause {
  check: CheckId;
  kind: FindingKind;
  /** `received 200, 201 without body.name, documented 200, 201 requires field \`name\`` */
  text: string;
  /** Findings of this cause, in all. */
  count: number;
  /** Where it was seen, most often first. */
  operations: Array<{ operationId: string; operation: string; count: number }>;
  /** Its first finding: the case, request, response, repro (and sequence) to show. */
  example: Finding;
}

/** The findings' causes, the most frequent first (ties in the order first seen). */
export function causesOf(findings: readonly Finding[]): Cause[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = keyOf(finding);
    groups.set(key, [...(groups.get(key) ?? []), finding]);
  }
  return [...groups.values()]
    .map((list) => ({ check: list[0].check, kind: list[0].kind, text: textOf(list), count: list.length, operations: operationsOf(list), example: list[0] }))
    .sort((a, b) => b.count - a.count);
}

/** What makes two findings one cause: the check, and what was received against what was documented, without the status, array indexes or the case's label. */
function keyOf(f: Finding): string {
  const status = statusOf(f);
  if (f.path || f.rule) return [f.check, f.kind, f.rule ?? '', generic(f.path ?? ''), generic(withoutStatus(f.documented, status))].join('\u0000');
  return [f.check, f.kind, status ?? '', generic(f.documented.split(f.label).join('…')), f.sequence ? 'provoked' : ''].join('\u0000');
}

/** `received 200, 201 without body.name, documented 200, 201 requires field \`name\``: the statuses of the group, the rest from its first finding. */
function textOf(list: Finding[]): string {
  const [first] = list;
  const status = statusOf(first);
  const statuses = [...new Set(list.map(statusOf).filter((s) => s !== undefined))].sort().join(', ');
  const received = status === undefined ? first.received : `${statuses}${withoutStatus(first.received, status) ? ` ${withoutStatus(first.received, status)}` : ''}`;
  const documented = status !== undefined && first.documented.startsWith(`${status} `) ? `${statuses} ${withoutStatus(first.documented, status)}` : first.documented;
  return `received ${generic(received)}, documented ${generic(documented)}`;
}

function operationsOf(list: Finding[]): Cause['operations'] {
  const counts = new Map<string, Cause['operations'][number]>();
  for (const f of list) {
    const row = counts.get(f.operationId) ?? { operationId: f.operationId, operation: f.operation, count: 0 };
    row.count++;
    counts.set(f.operationId, row);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count);
}

/** The status a finding was received with: its evidence, or the number its `received` starts with. */
function statusOf(f: Finding): string | undefined {
  if (f.status) return String(f.status);
  return /^([1-5]\d\d)\b/.exec(f.received)?.[1];
}

function withoutStatus(text: string, status: string | undefined): string {
  return status !== undefined && (text === status || text.startsWith(`${status} `)) ? text.slice(status.length + 1) : text;
}

/** Array indexes in a path written as `*` (`body.3.name` is `body.*.name`): one cause for every item of a list. */
function generic(text: string): string {
  return text.replace(/(?<=\b(?:body|query|header)(?:\.[\w$-]+)*)\.\d+(?![\w$-])/g, '.*');
}
