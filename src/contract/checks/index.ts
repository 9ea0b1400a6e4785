/**
 * The built-in checks by id, in the order they are reported, and the registry a run uses: the
 * built-ins plus what its plugins add (new ids, or more functions under an existing id).
 */
import { CHECK_IDS, RESPONSE_CHECK_IDS, type BuiltInCheckId, type CheckId } from '../check-id.js';
import type { CheckRegistry } from '../evaluate.js';
import type { LoadedPlugin } from '../plugin.js';
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

/** Each built-in check, under its id: the function's name is its id on the command line and in reports. */
const FUNCTIONS = { ...responses, ...refusals, ...lifecycle, ...lists, edge_cases } satisfies Record<BuiltInCheckId, Check>;

const ALL = 'applies to every response';

/** What each built-in check applies to. */
const SCOPES: Record<BuiltInCheckId, string> = {
  response_received: ALL,
  not_a_server_error: ALL,
  status_code_conformance: ALL,
  content_type_conformance: ALL,
  response_schema_conformance: 'applies to success and redirect responses',
  response_headers_conformance: ALL,
  error_shape: 'applies to error responses (4xx, 5xx)',
  positive_data_acceptance: 'applies to valid requests that must succeed (a delete is judged by use_after_delete)',
  auth_enforced: 'applies to operations that require credentials',
  negative_data_rejection: 'applies to operations with input the suite can break',
  unknown_resource: 'applies to operations on one record that declare 404',
  create_read_back: 'applies to the read of a record the suite created',
  update_persists: 'applies to updates (PUT, PATCH) of the suite\'s records and the reads after them',
  list_contains_created: 'applies to the list of a collection the suite created a record in',
  filter_conformance: 'applies to lists with filters declared as query parameters',
  pagination_conformance: 'applies to lists with paging parameters the suite recognises',
  use_after_delete: 'applies to the delete of a record the suite created and the read after it',
  repeated_delete: 'applies to the delete of a record the suite created',
  edge_cases: 'applies to lists with paging parameters, and to collections whose records point at others',
};

/** The built-in checks in report order (CHECK_IDS), each with its function and scope. */
export const BUILT_IN_CHECKS = Object.fromEntries(CHECK_IDS.map((id) => [id, { check: FUNCTIONS[id], scope: SCOPES[id] }])) as Record<BuiltInCheckId, CheckDefinition>;

/** Checks that apply to every response, whatever the case. */
export const RESPONSE_CHECKS: CheckId[] = [...RESPONSE_CHECK_IDS];

/** Each check id with its functions and scope: the built-ins, then what the plugins add. */
export function checkRegistry(plugins: readonly LoadedPlugin[] = []): CheckRegistry {
  const registry: CheckRegistry = new Map(entries(BUILT_IN_CHECKS).map(([id, { check, scope }]) => [id, { functions: [check], scope }]));
  for (const plugin of plugins) {
    for (const [id, { check, scope }] of entries(plugin.part.checks ?? {})) {
      const known = registry.get(id);
      registry.set(id, { functions: [...(known?.functions ?? []), check], scope: known?.scope ?? scope ?? `a check of the ${plugin.name} plugin` });
    }
  }
  return registry;
}

/** The entries of a record keyed by check ids, typed as such. */
const entries = <T>(record: Partial<Record<CheckId, T>>) => Object.entries(record) as Array<[CheckId, T]>;
