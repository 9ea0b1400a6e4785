/**
 * The vocabulary of the contract suite: a case is one request the suite sends, an exchange is
 * that request with the response it got, a finding is what a check found wrong in an exchange.
 */
import type { Operation } from '../src/operations/operation.js';

/** Checks that judge every response, whatever the case. */
export const RESPONSE_CHECK_IDS = [
  'response_received',
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'response_headers_conformance',
  'error_shape',
  'positive_data_acceptance',
] as const;

/** The built-in checks, by the id used on the command line (`--only`) and in reports. Profiles add theirs. */
export const CHECK_IDS: readonly string[] = [
  ...RESPONSE_CHECK_IDS,
  'auth_enforced',
  'negative_data_rejection',
  'unknown_resource',
  'create_read_back',
  'update_persists',
  'list_contains_created',
  'filter_conformance',
  'pagination_conformance',
  'use_after_delete',
  'repeated_delete',
  'edge_cases',
];
/** A check's id: one of CHECK_IDS or one a profile registers. */
export type CheckId = string;

/**
 * What a case expects beyond the document: a check id that judges it, the statuses that would be
 * right, and optionally a test of the body that returns what is wrong (or undefined).
 */
export interface Expectation {
  check: CheckId;
  /** What the document (or the rule) says, for the message: `404 after DELETE`. */
  documented: string;
  status?: number[];
  body?: (body: unknown, exchange: Exchange) => string | undefined;
  /** A required response header, e.g. WWW-Authenticate on a 401. */
  header?: string;
  /** What a breach is when the document does not make the promise itself (default: a failure). */
  kind?: FindingKind;
}

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
  expect?: Expectation;
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

export interface Finding {
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
}

/** `GET /pets/{petId}: received 200 with body.name missing, documented 200 requires field name` */
export function describeFinding(finding: Finding): string {
  return `${finding.operation}: received ${finding.received}, documented ${finding.documented}`;
}
