/**
 * Checks of the cases the suite sends wrong on purpose: no credentials, invalid input, a key no
 * record has. Each must be refused as the one status rule says (status-rule.ts): with a status
 * the operation declares for that fault, or, where it declares none, with any refusal. A refused
 * write must leave the suite's record as it was.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../case.js';
import type { Unchanged } from '../purpose.js';
import { caseCheck, excerpt, statusVerdicts, type Verdict } from './check.js';
import { describeRefusals, statusRule, type StatusRule } from './status-rule.js';

/** The rule of a case its phase sent wrong on purpose (one without `fits` is a bug of the phase). */
function ruleOf(ex: Exchange): StatusRule {
  const rule = statusRule(ex.case);
  if (!rule) throw new Error(`${ex.case.label}: a case sent wrong on purpose carries no statuses that fit its fault`);
  return rule;
}

/**
 * Secured operations refuse no credentials, an unknown key and another scheme with the status
 * the document declares for it (401 or 403; either where it declares neither); a 401 for an HTTP
 * scheme carries a WWW-Authenticate challenge (RFC 9110 11.6.1).
 */
export const auth_enforced = caseCheck('auth_enforced', (ex, { credentials, challenge }) => {
  const rule = ruleOf(ex);
  const documented = `${describeRefusals(rule)}${challenge ? ' (a 401 with WWW-Authenticate)' : ''} for ${credentials}`;
  const wrong = statusVerdicts(ex, rule.refusals, documented);
  if (wrong.length || !challenge || ex.status !== 401 || ex.headers.get('www-authenticate')) return wrong;
  return [{ received: '401 without WWW-Authenticate', documented, status: 401, path: 'header.WWW-Authenticate', rule: 'required' }];
});

/**
 * Invalid JSON, missing fields, wrong types, enum and bound violations, a missing Content-Type,
 * a body too large are refused by the one status rule. Accepting the input is a failure where the
 * operation declares a status that fits the fault, a gap where it declares none. A refused write
 * leaves the suite's record unchanged.
 */
export const negative_data_rejection = caseCheck('negative_data_rejection', (ex, purpose) => {
  if (purpose.kind === 'unchanged') return unchangedVerdicts(ex, purpose);
  const { fits, label } = ex.case;
  const rule = ruleOf(ex);
  const documented = rule.promised.length ? `${describeRefusals(rule)} for ${label}` : `a refusal of ${label} (the operation declares none of ${fits.join(', ')})`;
  return statusVerdicts(ex, rule.refusals, documented, rule.promised.length ? 'failure' : 'gap');
});

/** An id that does not exist gives 404 on every item operation that declares it; the refused write changes none of the suite's records. */
export const unknown_resource = caseCheck('unknown_resource', (ex, purpose) => {
  if (purpose.kind === 'unchanged') return unchangedVerdicts(ex, purpose);
  const rule = ruleOf(ex);
  return statusVerdicts(ex, rule.refusals, `${describeRefusals(rule)} for a ${purpose.param} no record has`);
});

/** The read after a refused write gives the record as it was before it. */
function unchangedVerdicts(ex: Exchange, { before, refused }: Unchanged): Verdict[] {
  const documented = `a refused ${refused.method} changes nothing (${refused.label} was answered ${refused.status})`;
  const wrong = statusVerdicts(ex, [200], documented);
  if (wrong.length || isDeepStrictEqual(ex.json, before)) return wrong;
  return [{ received: `${ex.status} with the record changed: ${excerpt(JSON.stringify(ex.json), 120)} instead of ${excerpt(JSON.stringify(before), 120)}`, documented, path: 'body' }];
}
