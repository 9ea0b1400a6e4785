/**
 * One status rule for a case sent wrong on purpose (no credentials, bad input, a key no record
 * has...). The case carries the client errors that fit what it breaks (`fits`); they fall into
 * faults: credentials (401, 403), input (400, 422), an unknown record (404), a conflict (409), the
 * size (413), the media type (415). For each fault, the fitting statuses the operation declares
 * are its promise. Where every fault of the case has one, the answer must keep one of them:
 * anything else breaks a promise and fails. Where some fault has none, the document leaves the
 * answer open: any client error refuses (for credentials, 401 or 403, the statuses HTTP has for
 * them), and an undeclared one is a gap of the document. status_code_conformance and the case's
 * own check judge by this one rule.
 *
 * @example A request without credentials to an operation that declares 401 and no 403:
 * statusRule(c) // { promised: [401], open: false, refusals: [401] }: a 403 fails
 */
import type { Case } from '../case.js';
import type { StatusPattern } from './check.js';
import { declaresStatus } from './statuses.js';

/** The faults a case can break on purpose, each with the client errors that fit it. */
export const FAULT_STATUSES = {
  credentials: [401, 403],
  input: [400, 422],
  'unknown record': [404],
  conflict: [409],
  size: [413],
  'media type': [415],
} as const satisfies Record<string, readonly number[]>;

export interface StatusRule {
  /** The fitting statuses the operation declares (exactly or by a range): its promises. */
  promised: number[];
  /** The faults of the case for which the operation declares no fitting status. */
  open: string[];
  /** The answers that refuse the case: the promised ones, or, with a fault left open, any that refuses. */
  refusals: StatusPattern[];
}

/** @returns the rule of a case sent wrong on purpose, undefined for a valid one. */
export function statusRule(c: Case): StatusRule | undefined {
  if (c.fits.length === 0) return undefined;
  const promised = c.fits.filter((status) => declaresStatus(c.operation, status));
  const faults = new Set(c.fits.map(faultOf));
  const open = [...faults].filter((fault) => !promised.some((status) => faultOf(status) === fault));
  if (open.length === 0) return { promised, open, refusals: promised };
  return { promised, open, refusals: faults.size === 1 && faults.has('credentials') ? [...c.fits] : ['4XX'] };
}

/** The fault a status answers (`input` for 422); a status of no fault listed is a fault of its own. */
function faultOf(status: number): string {
  return Object.entries(FAULT_STATUSES).find(([, statuses]) => (statuses as readonly number[]).includes(status))?.[0] ?? String(status);
}

/** `401`, `400 or 422`, `any 4xx`: the refusals of a rule in words. */
export function describeRefusals(rule: StatusRule): string {
  return rule.refusals.map((s) => (s === '4XX' ? 'any 4xx' : String(s))).join(' or ');
}
