/**
 * The vocabulary of the contract suite: a case is one request the suite sends, an exchange is
 * that request with the response it got, a failure is a check's verdict on an exchange.
 */
import type { Operation } from '../src/operations/operation.js';

/** Checks that judge every response, whatever the case was about. */
export const RESPONSE_CHECK_IDS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'response_headers_conformance',
  'error_shape',
] as const;

/** Every check, by the id used on the command line (`--only`) and in reports. */
export const CHECK_IDS = [
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
  'referential_integrity',
  'state_transitions',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

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
}

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
}

export interface Failure {
  check: CheckId;
  /** `GET /pets/{petId}` */
  operation: string;
  operationId: string;
  /** What was received: `200 with body.name missing`. */
  received: string;
  /** What the document says: `200 requires field name`. */
  documented: string;
  /** The request that showed it: `GET /pets/7`. */
  request: string;
  /** What the case was about. */
  label: string;
}

/** `GET /pets/{petId}: received 200 with body.name missing, documented 200 requires field name` */
export function describeFailure(failure: Failure): string {
  return `${failure.operation}: received ${failure.received}, documented ${failure.documented}`;
}
