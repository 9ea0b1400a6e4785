/**
 * JUnit XML for CI: one test suite per check, one test case per operation. A check that did not
 * run for an operation is `<skipped>` with the reason, never a pass; the document's gaps are test
 * cases of their own, skipped (failures with --strict). A finding that did not reproduce when
 * confirmed is a pass carrying a `<flakyFailure>` (Surefire's element for it), never a failure.
 * A failure exploration found is a failure of its check and operation, its steps in order; every
 * suite carries the run's seed as a property, so a red CI run can be sent again with `--seed`.
 */
import { describeFinding, type Finding } from '../case.js';
import { verdictOf } from '../results.js';
import { describeHarm } from '../harm.js';
import type { ContractReport } from '../contract-report.js';
import type { ExploredFailure } from '../explore/sequence.js';

/** JUnit's times are seconds with a decimal point. */
const seconds = (ms: number) => (ms / 1000).toFixed(3);

const escape = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The most text one test case carries: the file grows with operations and checks, not with requests. */
const MAX_TEXT = 4000;
/** Distinct findings shown in full per test case; the others are counted. */
const MAX_DETAILS = 3;

/** Distinct findings, each with the case, the response and the repro of its first occurrence (the first few; the rest counted), bounded in size. */
function details(findings: Finding[]): string {
  const seen = new Map<string, Finding>();
  for (const f of findings) if (!seen.has(describeFinding(f))) seen.set(describeFinding(f), f);
  const shown = [...seen.values()].slice(0, MAX_DETAILS).map((f) => `${describeFinding(f)}\ncase: ${f.label}\nrequest: ${f.request}${f.response ? `\nresponse: ${f.response}` : ''}${f.confirmation ? `\nconfirmation: ${f.confirmation}` : ''}${f.sequence ? `\nsequence:\n${f.sequence.join('\n')}` : f.repro ? `\nrepro: ${f.repro}` : ''}`);
  const more = seen.size > MAX_DETAILS ? `\n\nand ${seen.size - MAX_DETAILS} more distinct finding(s) (${findings.length} in all): see the console report` : '';
  const text = shown.join('\n\n');
  return (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text) + more;
}

/** An explored failure as a JUnit failure: received versus documented, the steps as curl lines in order, how to find it again. */
function exploredCase(f: ExploredFailure, operation: string): string {
  const message = escape(`explored: ${operation}: received ${f.received}, documented ${f.documented}`.slice(0, 500));
  const text = `${f.steps.length} step(s), found after ${f.tried} tried, ${f.shrinks} shrink(s):\n${f.repro.map((line, i) => `${i + 1}. ${line}`).join('\n')}\nreplay: --seed ${f.seed}, or a cassette (--cassette FILE, then --replay FILE)`;
  return `    <testcase classname="${f.check}" name="${escape(`${operation} (${f.operationId}): explored`)}" time="0.000">\n      <failure message="${message}" type="${f.check}">${escape(text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text)}</failure>\n    </testcase>`;
}

export function toJUnit(report: ContractReport): string {
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  const properties = `    <properties>\n      <property name="seed" value="${report.seed}"/>\n    </properties>\n`;
  const operationOf = (id: string) => report.outcomes.find((o) => o.operationId === id)?.operation ?? id;
  const explored = report.explored ?? [];
  // An explored failure of a check the report has no suite for still fails the file, in a suite of its own.
  const homeless = explored.filter((f) => !report.checks.includes(f.check));
  const checks = [...report.checks, ...new Set(homeless.map((f) => f.check))];
  const suites = checks.map((check) => {
    const rows = report.outcomes.filter((o) => o.check === check);
    const cases: string[] = [];
    let suiteFailures = 0;
    let suiteSkipped = 0;
    for (const f of explored.filter((e) => e.check === check)) {
      suiteFailures++;
      cases.push(exploredCase(f, operationOf(f.operationId)));
    }
    for (const row of rows) {
      const name = escape(`${row.operation} (${row.operationId})`);
      const time = seconds(row.ms);
      const mine = (list: Finding[]) => list.filter((f) => f.check === check && f.operationId === row.operationId);
      const failed = mine(report.failures);
      const gaps = mine(report.gaps);
      // A pass needs a request of that operation: one never requested is skipped, whatever was counted for it.
      const unrequested = report.requested !== undefined && !report.requested.includes(row.operationId);
      const verdict = unrequested && !failed.length ? 'skipped' : verdictOf(row);
      const reasons = verdict === 'skipped' && unrequested && row.skipped.length === 0 ? ['never requested: no request of the run reached this operation'] : row.skipped;
      if (failed.length) {
        suiteFailures++;
        cases.push(`    <testcase classname="${check}" name="${name}" time="${time}">\n      <failure message="${escape(describeFinding(failed[0]).slice(0, 500))}" type="${check}">${escape(details(failed))}</failure>\n    </testcase>`);
      } else if (verdict === 'skipped') {
        suiteSkipped++;
        cases.push(`    <testcase classname="${check}" name="${name}" time="0.000">\n      <skipped message="${escape(reasons.join('; ').slice(0, MAX_TEXT))}"/>\n    </testcase>`);
      } else if (row.passed) {
        // A finding that did not reproduce when confirmed: a pass, with what was seen once (Surefire's flakyFailure).
        const flaky = mine(report.flaky ?? []);
        cases.push(flaky.length
          ? `    <testcase classname="${check}" name="${name}" time="${time}">\n      <flakyFailure message="${escape(`flaky: ${describeFinding(flaky[0])}`.slice(0, 500))}" type="${check}">${escape(details(flaky))}</flakyFailure>\n    </testcase>`
          : `    <testcase classname="${check}" name="${name}" time="${time}"/>`);
      }
      if (gaps.length) {
        const gapName = escape(`${row.operation} (${row.operationId}): document gap`);
        const message = escape(`document gap: ${describeFinding(gaps[0])}`);
        if (report.strict) {
          suiteFailures++;
          cases.push(`    <testcase classname="${check}" name="${gapName}" time="${time}">\n      <failure message="${message}" type="document_gap">${escape(details(gaps))}</failure>\n    </testcase>`);
        } else {
          suiteSkipped++;
          cases.push(`    <testcase classname="${check}" name="${gapName}" time="${time}">\n      <skipped message="${message}"/>\n    </testcase>`);
        }
      }
    }
    tests += cases.length;
    failures += suiteFailures;
    skipped += suiteSkipped;
    const suiteTime = seconds(rows.reduce((sum, row) => sum + row.ms, 0));
    return `  <testsuite name="${check}" tests="${cases.length}" failures="${suiteFailures}" skipped="${suiteSkipped}" time="${suiteTime}">\n${properties}${cases.join('\n')}\n  </testsuite>`;
  });
  const hygiene = hygieneSuite(report, properties);
  tests += hygiene.tests;
  failures += hygiene.failures;
  skipped += hygiene.skipped;
  if (hygiene.xml) suites.unshift(hygiene.xml);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="contract" tests="${tests}" failures="${failures}" skipped="${skipped}" time="${seconds(report.durationMs)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

/**
 * What the run did to the server beyond its checks, first: the records of others compared before
 * and after (a failure per record changed or gone; skipped when the comparison was off), and each
 * record the suite left behind, or may have (a failure, skipped with --allow-leftovers).
 */
function hygieneSuite(report: ContractReport, properties: string): { xml: string; tests: number; failures: number; skipped: number } {
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  const name = 'records of others unchanged by the run';
  if (report.harm === undefined && report.harmCheckOff) {
    skipped++;
    cases.push(`    <testcase classname="no_harm" name="${escape(name)}" time="0.000">\n      <skipped message="${escape(`not compared: ${report.harmCheckOff}`)}"/>\n    </testcase>`);
  } else if (report.harm?.length === 0) {
    cases.push(`    <testcase classname="no_harm" name="${escape(name)}" time="0.000"/>`);
  }
  for (const harm of report.harm ?? []) {
    failures++;
    cases.push(`    <testcase classname="no_harm" name="${escape(`${harm.collection} ${harm.key}`)}" time="0.000">\n      <failure message="${escape(describeHarm(harm))}" type="no_harm"/>\n    </testcase>`);
  }
  for (const what of report.leftBehind) {
    const outcome = report.leftBehindAllowed ? `<skipped message="${escape(`left behind (allowed with --allow-leftovers): ${what}`)}"/>` : `<failure message="${escape(`left behind: ${what}`)}" type="left_behind"/>`;
    if (report.leftBehindAllowed) skipped++;
    else failures++;
    cases.push(`    <testcase classname="left_behind" name="${escape(what.slice(0, 200))}" time="0.000">\n      ${outcome}\n    </testcase>`);
  }
  if (cases.length === 0) return { xml: '', tests: 0, failures: 0, skipped: 0 };
  return { xml: `  <testsuite name="run" tests="${cases.length}" failures="${failures}" skipped="${skipped}" time="0.000">\n${properties}${cases.join('\n')}\n  </testsuite>`, tests: cases.length, failures, skipped };
}

/** The JUnit of a run that could not start (a refused credential, a wrong base URL): one test case, its `<error>` the sentence. */
export function setupErrorJUnit(message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="contract" tests="1" failures="0" errors="1" skipped="0" time="0.000">\n  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0" time="0.000">\n    <testcase classname="setup" name="the server accepts the run's credentials at its base URL" time="0.000">\n      <error message="${escape(message)}" type="setup"/>\n    </testcase>\n  </testsuite>\n</testsuites>\n`;
}
