/**
 * The built-in checks by id, in the order they are reported, and the registry a run uses: the
 * built-ins plus what its profiles add (new ids, or more functions under an existing id).
 */
import { RESPONSE_CHECK_IDS, type BuiltInCheckId, type CheckId } from '../check-id.js';
import type { CheckRegistry } from '../context.js';
import type { Profile } from '../profiles/profile.js';
import type { Check } from './check.js';
import { edge_cases } from './edge-cases.js';
import * as lifecycle from './lifecycle-checks.js';
import * as lists from './list-checks.js';
import * as refusals from './refusal-checks.js';
import * as responses from './response-checks.js';

/** A check, with what it applies to: shown as the reason when it judged nothing for an operation. */
export interface CheckDefinition {
  check: Check;
  /** `applies to lists with filters declared as query parameters` */
  scope: string;
}

const ALL = 'applies to every response';

export const BUILT_IN_CHECKS: Record<BuiltInCheckId, CheckDefinition> = {
  response_received: { check: responses.response_received, scope: ALL },
  not_a_server_error: { check: responses.not_a_server_error, scope: ALL },
  status_code_conformance: { check: responses.status_code_conformance, scope: ALL },
  content_type_conformance: { check: responses.content_type_conformance, scope: ALL },
  response_schema_conformance: { check: responses.response_schema_conformance, scope: 'applies to success and redirect responses' },
  response_headers_conformance: { check: responses.response_headers_conformance, scope: ALL },
  error_shape: { check: responses.error_shape, scope: 'applies to error responses (4xx, 5xx)' },
  positive_data_acceptance: { check: responses.positive_data_acceptance, scope: 'applies to valid requests that must succeed (a delete is judged by use_after_delete)' },
  auth_enforced: { check: refusals.auth_enforced, scope: 'applies to operations that require credentials' },
  negative_data_rejection: { check: refusals.negative_data_rejection, scope: 'applies to operations with input the suite can break' },
  unknown_resource: { check: refusals.unknown_resource, scope: 'applies to operations on one record that declare 404' },
  create_read_back: { check: lifecycle.create_read_back, scope: 'applies to the read of a record the suite created' },
  update_persists: { check: lifecycle.update_persists, scope: 'applies to updates (PUT, PATCH) of the suite\'s records and the reads after them' },
  list_contains_created: { check: lists.list_contains_created, scope: 'applies to the list of a collection the suite created a record in' },
  filter_conformance: { check: lists.filter_conformance, scope: 'applies to lists with filters declared as query parameters' },
  pagination_conformance: { check: lists.pagination_conformance, scope: 'applies to lists with paging parameters the suite recognises' },
  use_after_delete: { check: lifecycle.use_after_delete, scope: 'applies to the delete of a record the suite created and the read after it' },
  repeated_delete: { check: lifecycle.repeated_delete, scope: 'applies to the delete of a record the suite created' },
  edge_cases: { check: edge_cases, scope: 'applies to lists with paging parameters, and to collections whose records point at others' },
};

/** Checks that apply to every response, whatever the case. */
export const RESPONSE_CHECKS: CheckId[] = [...RESPONSE_CHECK_IDS];

/** Each check id with its functions and scope: the built-ins, then what the profiles add. */
export function checkRegistry(profiles: Profile[] = []): CheckRegistry {
  const registry: CheckRegistry = new Map(entries(BUILT_IN_CHECKS).map(([id, { check, scope }]) => [id, { functions: [check], scope }]));
  for (const profile of profiles) {
    for (const [id, { check, scope }] of entries(profile.checks ?? {})) {
      const known = registry.get(id);
      registry.set(id, { functions: [...(known?.functions ?? []), check], scope: known?.scope ?? scope ?? `a check of the ${profile.name} profile` });
    }
  }
  return registry;
}

/** The entries of a record keyed by check ids, typed as such. */
const entries = <T>(record: Partial<Record<CheckId, T>>) => Object.entries(record) as Array<[CheckId, T]>;
