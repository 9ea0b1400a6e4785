/**
 * Checks of the cases the suite sends wrong on purpose: no credentials, invalid input, a key no
 * record has. Each must be refused; a refused write must leave the suite's record as it was.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../case.js';
import type { Unchanged } from '../purpose.js';
import { caseCheck, statusVerdicts, type Verdict } from './check.js';
import { declaresStatus } from './statuses.js';

const CREDENTIALS = [401, 403];

/**
 * Secured operations refuse no credentials, an unknown key and another scheme with 401 or 403;
 * a 401 for an HTTP scheme carries a WWW-Authenticate challenge (RFC 9110 11.6.1).
 */
export const auth_enforced = caseCheck('auth_enforced', (ex, { credentials, challenge }) => {
  const declared = CREDENTIALS.filter((s) => declaresStatus(ex.case.operation, s));
  const documented = `${declared.length ? declared.join(' or ') : '401 or 403'}${challenge ? ' (a 401 with WWW-Authenticate)' : ''} for ${credentials}`;
  const wrong = statusVerdicts(ex, CREDENTIALS, documented);
  if (wrong.length || !challenge || ex.status !== 401 || ex.headers.get('www-authenticate')) return wrong;
  return [{ received: '401 without WWW-Authenticate', documented, status: 401, path: 'header.WWW-Authenticate', rule: 'required' }];
});

/**
 * Invalid JSON, missing fields, wrong types, enum and bound violations, a missing Content-Type,
 * a body too large are refused (any 4xx). Accepting one is a failure where the operation declares
 * a client error that fits the fault, a gap where it declares none. A refused write leaves the
 * suite's record unchanged.
 */
export const negative_data_rejection = caseCheck('negative_data_rejection', (ex, purpose) => {
  if (purpose.kind === 'unchanged') return unchangedVerdicts(ex, purpose);
  const { fits, label } = ex.case;
  const fitting = fits.filter((s) => declaresStatus(ex.case.operation, s));
  const documented = fitting.length ? `${fitting.join(' or ')} for ${label}` : `a refusal of ${label} (the operation declares none of ${fits.join(', ')})`;
  return statusVerdicts(ex, ['4XX'], documented, fitting.length ? 'failure' : 'gap');
});

/** An id that does not exist gives 404 on every item operation that declares it; the refused write changes none of the suite's records. */
export const unknown_resource = caseCheck('unknown_resource', (ex, purpose) =>
  purpose.kind === 'unchanged' ? unchangedVerdicts(ex, purpose) : statusVerdicts(ex, [404], `404 for a ${purpose.param} no record has`),
);

/** The read after a refused write gives the record as it was before it. */
function unchangedVerdicts(ex: Exchange, { before, refused }: Unchanged): Verdict[] {
  const documented = `a refused ${refused.method} changes nothing (${refused.label} was answered ${refused.status})`;
  const wrong = statusVerdicts(ex, [200], documented);
  if (wrong.length || isDeepStrictEqual(ex.json, before)) return wrong;
  return [{ received: `${ex.status} with the record changed: ${JSON.stringify(ex.json).slice(0, 120)} instead of ${JSON.stringify(before).slice(0, 120)}`, documented, path: 'body' }];
}
