/**
 * The ids of the checks, as a closed type: the built-in ones from the const lists below, and
 * those a plugin adds through declaration merging. A misspelled id in a phase, a fault or a
 * plugin does not compile; `--only` is still checked at run time (select.ts), against the
 * checks of the run's plugins.
 *
 * @example A plugin adds its own ids:
 * declare module '../check-id.js' {
 *   interface CheckIds { referential_integrity: true }
 * }
 */

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

/** Checks that judge the cases sent for them (see Purposes in purpose.ts). */
export const CASE_CHECK_IDS = [
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
] as const;

/** The built-in checks, by the id used on the command line (`--only`) and in reports, in report order. */
export const CHECK_IDS = [...RESPONSE_CHECK_IDS, ...CASE_CHECK_IDS] as const;

export type BuiltInCheckId = (typeof CHECK_IDS)[number];

/** Every check id a run can know, as keys: the built-ins, and what plugins add with `declare module`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, so that plugins can merge into it
export interface CheckIds extends Record<BuiltInCheckId, true> {}

/** A check's id: a built-in one or one a plugin declares. */
export type CheckId = keyof CheckIds;
