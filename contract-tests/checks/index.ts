/**
 * Every check by id, in the order they are reported.
 */
import { RESPONSE_CHECK_IDS, type CheckId } from '../case.js';
import type { Check } from './check.js';
import * as expectations from './expectation-checks.js';
import * as responses from './response-checks.js';

export const CHECKS: Record<CheckId, Check> = {
  not_a_server_error: responses.not_a_server_error,
  status_code_conformance: responses.status_code_conformance,
  content_type_conformance: responses.content_type_conformance,
  response_schema_conformance: responses.response_schema_conformance,
  response_headers_conformance: responses.response_headers_conformance,
  error_shape: responses.error_shape,
  auth_enforced: expectations.auth_enforced,
  negative_data_rejection: expectations.negative_data_rejection,
  unknown_resource: expectations.unknown_resource,
  create_read_back: expectations.create_read_back,
  update_persists: expectations.update_persists,
  list_contains_created: expectations.list_contains_created,
  filter_conformance: expectations.filter_conformance,
  pagination_conformance: expectations.pagination_conformance,
  use_after_delete: expectations.use_after_delete,
  repeated_delete: expectations.repeated_delete,
  referential_integrity: expectations.referential_integrity,
  state_transitions: expectations.state_transitions,
};

/** Checks that apply to every response, whatever the case. */
export const RESPONSE_CHECKS: CheckId[] = [...RESPONSE_CHECK_IDS];
