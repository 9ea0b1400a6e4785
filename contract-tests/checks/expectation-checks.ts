/**
 * Checks that judge a case against what it was sent to prove: a request without credentials
 * must get 401, invalid input 400, an unknown id 404, a read after a create the created record...
 * Each applies only to the cases that carry its id.
 */
import type { CheckId } from '../case.js';
import type { Check } from './check.js';

/** The generic judgement: the case's expected statuses, header and body test. */
export function judge(id: CheckId): Check {
  return (_ctx, ex) => {
    const expect = ex.case.expect;
    if (!expect || expect.check !== id) return undefined;
    const kind = expect.kind ?? 'failure';
    if (expect.status && !expect.status.includes(ex.status)) return [{ received: `${ex.status} for ${ex.case.label}`, documented: expect.documented, kind }];
    if (expect.header && !ex.headers.get(expect.header)) return [{ received: `${ex.status} without ${expect.header} for ${ex.case.label}`, documented: expect.documented, kind }];
    const wrong = expect.body?.(ex.json, ex);
    return wrong ? [{ received: `${ex.status} ${wrong}`, documented: expect.documented, kind }] : [];
  };
}

/** Secured operations refuse no credentials, an unknown key and another scheme with 401 and WWW-Authenticate. */
export const auth_enforced: Check = judge('auth_enforced');
/** Invalid JSON, missing fields, wrong types, enum and bound violations, a missing Content-Type: 400. */
export const negative_data_rejection: Check = judge('negative_data_rejection');
/** An id that does not exist gives 404 on every item operation. */
export const unknown_resource: Check = judge('unknown_resource');
/** A created record can be read back, equal to what the create returned. */
export const create_read_back: Check = judge('create_read_back');
/** An update is visible when the record is read again. */
export const update_persists: Check = judge('update_persists');
/** The list contains a record just created. */
export const list_contains_created: Check = judge('list_contains_created');
/** Each documented filter returns only matching records. */
export const filter_conformance: Check = judge('filter_conformance');
/** Pages have the requested size and do not overlap. */
export const pagination_conformance: Check = judge('pagination_conformance');
/** A deleted record reads as 404. */
export const use_after_delete: Check = judge('use_after_delete');
/** Deleting a deleted record gives 404. */
export const repeated_delete: Check = judge('repeated_delete');

/** Requests at the edges (a dangling reference, the delete of a parent in use, page bounds) get no 5xx. */
export const edge_cases: Check = judge('edge_cases');
