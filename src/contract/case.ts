/**
 * The vocabulary of the contract suite: a case is one request the suite sends, an exchange is
 * that request with the response it got, a finding is what a check found wrong in an exchange.
 */
import type { Operation } from '../openapi/operations/operation.js';
import type { CheckId } from './check-id.js';
import type { Purpose } from './purpose.js';

export { CHECK_IDS, RESPONSE_CHECK_IDS, type CheckId } from './check-id.js';

/**
 * Why a request is sent, which decides how an unexpected answer counts: a valid request must
 * succeed; a deliberately wrong one (bad input, no credentials, an unknown id) must be refused,
 * and an undeclared refusal is a gap of the document rather than a fault of the server; a guessed
 * one is valid by the schemas but names a record the suite could not find (a 404 is fair); a
 * retry is another valid body after a valid one was refused (that refusal was reported: the retry
 * is judged like a valid request, but its own refusal is not reported again); a clean-up request
 * is never judged.
 */
export type Intent = 'valid' | 'retry' | 'guessed' | 'invalid' | 'unauthenticated' | 'unknown' | 'cleanup';

/** The client errors that fit a case of each intent (a case may name its own: 415 for a missing Content-Type). */
export const FITS_OF_INTENT: Record<Intent, readonly number[]> = { valid: [], retry: [], cleanup: [], guessed: [404], invalid: [400, 422], unauthenticated: [401, 403], unknown: [404] };

export interface Case {
  operation: Operation;
  method: string;
  /** The path with its parameters filled in, plus the query string: `/pets/7?limit=2`. */
  path: string;
  headers: Record<string, string>;
  /** Raw body bytes or text; undefined for no body. */
  body?: string | Uint8Array;
  /** What this case is about, for reports: `missing required field body.name`. */
  label: string;
  intent: Intent;
  /**
   * For a case wrong on purpose, the client errors that fit its fault: `[401, 403]` for
   * credentials, `[400, 422]` for input, `[404]` for an unknown record, `[413]`, `[415]`; empty
   * for a valid case.
   */
  fits: readonly number[];
  /** What the case is sent to show, for the check that judges it. */
  purpose?: Purpose;
}

export interface Exchange {
  case: Case;
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  ms: number;
  /** Why no whole answer came (status 0): a timeout, a body over the cap, a broken connection. */
  error?: string;
}

/**
 * A failure breaks a promise the document makes; a gap is something the document leaves open
 * that a check ran into (an invalid request refused with a status the document does not declare).
 * Gaps are reported apart and fail a run only with --strict.
 */
export type FindingKind = 'failure' | 'gap';

/**
 * What a check found, as typed facts straight from the validator or the rule, besides the
 * sentences: the status received, the statuses the rule allowed, what the document declares,
 * where in the response and which schema keyword.
 */
export interface Evidence {
  /** The status received. */
  status?: number;
  /** The statuses the rule allowed, written as the document writes them: `['404']` after a DELETE, `['4XX']` for any refusal. */
  expected?: string[];
  /** What the document declares at that point: statuses (`200`, `4XX`, `default`) or media types. */
  declared?: string[];
  /** Where in the response: `body.name`, `header.Location`, `status`. */
  path?: string;
  /** The JSON Schema keyword or rule broken: `required`, `type`, `declared`... */
  rule?: string;
  /** The schema location of the keyword (`#/properties/name/type`), for schema problems. */
  schemaPath?: string;
  /**
   * For a 5xx one of the suite's own requests provoked: the requests that led to it, in order, as
   * curl lines, each with the status it got (the read that answered 2xx, the write, the read that fails).
   */
  sequence?: string[];
}

export interface Finding extends Evidence {
  check: CheckId;
  kind: FindingKind;
  /** `GET /pets/{petId}` */
  operation: string;
  operationId: string;
  /** What was received: `200 with body.name missing`. */
  received: string;
  /** What the document says: `200 requires field name`. */
  documented: string;
  /** What the case was about. */
  label: string;
  /** The request that showed it: `GET /pets/7`. */
  request: string;
  /** The status and the start of the body that showed it (absent for findings over several exchanges). */
  response?: string;
  /** A curl command that sends the same request (the token written as $TOKEN). */
  repro?: string;
  /**
   * How the finding was confirmed before it was reported: `seen again when re-sent (400)`, `not
   * re-sent: ...`; for a flaky one, why it did not reproduce.
   */
  confirmation?: string;
}

/** `GET /pets/{petId}: received 200 with body.name missing, documented 200 requires field name` */
export function describeFinding(finding: Finding): string {
  return `${finding.operation}: received ${finding.received}, documented ${finding.documented}`;
}
