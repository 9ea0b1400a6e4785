/**
 * Checks of a record's life, on the records the suite creates: the create succeeds and the record
 * reads back as created (also through its `Location`), an update succeeds and is visible, a
 * DELETE succeeds and the record then reads, and deletes again, as 404.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../case.js';
import type { ReadBack } from '../purpose.js';
import { caseCheck, statusVerdicts, type Verdict } from './check.js';
import { successStatuses } from './statuses.js';

type Row = Record<string, unknown>;

/** A success the operation declares, for a request that must succeed. */
function succeeds(ex: Exchange, what: string): Verdict[] {
  const statuses = successStatuses(ex.case.operation);
  return statusVerdicts(ex, statuses, `${statuses.join(' or ')} for ${what}`);
}

/** The read answers 200 with the expected value of every field listed (all of `expected` by default). */
function readBackVerdicts(ex: Exchange, { expected, fields = Object.keys(expected), envelope }: Omit<ReadBack, 'kind'>, documented: string): Verdict[] {
  const wrong = statusVerdicts(ex, [200], documented);
  if (wrong.length) return wrong;
  const actual = envelope && ex.json && typeof ex.json === 'object' ? (ex.json as Row)[envelope] : ex.json;
  if (!actual || typeof actual !== 'object') return [{ received: `${ex.status} with body ${JSON.stringify(actual)}`, documented, path: 'body' }];
  const field = fields.find((name) => !isDeepStrictEqual(expected[name], (actual as Row)[name]));
  if (field === undefined) return [];
  return [{ received: `${ex.status} with ${field} = ${JSON.stringify((actual as Row)[field]) ?? 'nothing'} instead of ${JSON.stringify(expected[field])}`, documented, path: `body.${field}` }];
}

/** A created record can be read back (and found at its Location), equal to what the create was sent and answered. */
export const create_read_back = caseCheck('create_read_back', (ex, purpose) => {
  if (purpose.kind === 'create') return succeeds(ex, 'a valid create');
  if (purpose.kind === 'location') return readBackVerdicts(ex, purpose, 'the Location leads to the created record');
  return readBackVerdicts(ex, purpose, 'the record as created: the fields sent, and those the create answered with');
});

/** An update succeeds and is visible when the record is read again. */
export const update_persists = caseCheck('update_persists', (ex, purpose) =>
  purpose.kind === 'update' ? succeeds(ex, `a valid ${ex.case.method}`) : readBackVerdicts(ex, purpose, 'the record with the update applied'),
);

/**
 * What an operation may answer for a record that is gone: 404 (or 410, where declared) where it
 * declares 404; where it declares none, 404 or any client error it declares instead (403, as a
 * CMS answers for any unknown id; 400), as the one status rule has it (whether that status is
 * declared is status_code_conformance's to judge).
 */
export function goneStatuses(ex: Exchange): number[] {
  const declared = ex.case.operation.responses.map((r) => r.status);
  if (declared.includes('404')) return [404, ...(declared.includes('410') ? [410] : [])];
  return [...new Set([404, ...declared.filter((s) => /^4\d\d$/.test(s) && s !== '401').map(Number)])];
}

/** The DELETE of an existing record succeeds, and the record then reads as unknown (404, or the refusal the operation declares for an unknown record). */
export const use_after_delete = caseCheck('use_after_delete', (ex, purpose) =>
  purpose.kind === 'delete' ? succeeds(ex, 'the DELETE of an existing record') : statusVerdicts(ex, goneStatuses(ex), `${goneStatuses(ex).join(' or ')} after DELETE`),
);

/** Deleting a deleted record gives 404 (or the refusal the operation declares for an unknown record). */
export const repeated_delete = caseCheck('repeated_delete', (ex) => statusVerdicts(ex, goneStatuses(ex), `${goneStatuses(ex).join(' or ')} for a second DELETE`));
