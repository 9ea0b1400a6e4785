/**
 * The report's part for exploration (issue 39): the failures it found, each with its check, what
 * was received versus documented, its steps as curl lines in order and how to find it again
 * (`--seed`, `--replay`); what it spent of its budget; and the report of `--replay`.
 */
import type { ReplayReport } from '../explore/replay.js';
import type { ContractReport } from '../contract-report.js';

/** `Explored: 1200 requests in 2.3 s (budget 2000 requests, 30 s; stopped by requests)`, or why it did not run. */
export function formatExploration({ exploration }: ContractReport): string {
  if (!exploration) return '';
  if ('off' in exploration) return `Exploration: ${exploration.off}\n`;
  const { requests, ms, limits, stoppedBy } = exploration;
  if (requests === 0 && !stoppedBy) return `Exploration: no request sent (budget ${limits.requests} requests, ${limits.ms / 1000} s)\n`;
  const stopped = stoppedBy === 'time' ? '; stopped by its time: another run of the same seed may explore more or less' : stoppedBy ? '; stopped by its requests' : '';
  return `Exploration: ${requests} requests in ${(ms / 1000).toFixed(1)} s (budget ${limits.requests} requests, ${limits.ms / 1000} s${stopped})\n`;
}

/** Each failure exploration found: the check, received versus documented, the steps as curl lines, and how to replay it. */
export function formatExplored(report: ContractReport, cassette?: string): string {
  const explored = report.explored ?? [];
  if (explored.length === 0) return '';
  const lines = [`Found by exploration: ${explored.length} failure(s), each shrunk to the shortest sequence that still fails`];
  for (const f of explored) {
    lines.push(`✗ [${f.check}] ${f.operationId}: received ${f.received}, documented ${f.documented}`);
    lines.push(`    ${f.steps.length} step(s), found after ${f.tried} tried, ${f.shrinks} shrink(s):`);
    lines.push(...f.repro.map((line, i) => `      ${i + 1}. ${line}`));
    lines.push(`    replay: --seed ${f.seed}${cassette ? `, or --replay ${cassette}` : ' (or write a cassette with --cassette FILE and send it again with --replay FILE)'}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The report of `--replay FILE`: one block per failure (still failing, fixed, not judged and why), the requests sent this time, then a verdict. */
export function formatReplay(report: ReplayReport, file: string): string {
  const lines = [`Replaying ${report.replayed.length} failure(s) of ${file} (found with seed ${report.seed})`];
  const mark = { failing: '✗ still failing', fixed: '✓ fixed', unjudged: '· not judged' };
  for (const r of report.replayed) {
    lines.push(`${mark[r.verdict]}: [${r.failure.check}] ${r.failure.operationId}: ${r.why}`);
    lines.push(...r.repro.map((line, i) => `      ${i + 1}. ${line}`));
  }
  if (report.leftBehind.length) lines.push(`LEFT BEHIND: ${report.leftBehind.length} record(s) the replay created and could not delete:`, ...report.leftBehind.map((what) => `  ✗ ${what}`));
  const verdict = report.failing ? 'FAIL' : report.unjudged ? 'NOT JUDGED' : 'FIXED';
  lines.push(`${verdict}: ${report.failing} still failing, ${report.fixed} fixed, ${report.unjudged} not judged (${report.requests} requests)`);
  return `${lines.join('\n')}\n`;
}
