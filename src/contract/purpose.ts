/**
 * What a case is sent to show, for the check that judges it: the data the check's rule needs
 * (the record expected back, the collection a list holds, the credentials left out), never the
 * verdict. A phase describes its cases with a purpose; the check registered under the purpose's
 * id decides. A plugin adds purposes for its own checks by declaration merging:
 *
 * @example
 * declare module '../purpose.js' {
 *   interface Purposes { referential_integrity: { status: number; promise: string } }
 * }
 */
import type { Collection } from '../openapi/operations/collection.js';
import type { CheckId } from './check-id.js';

type Row = Record<string, unknown>;

/** A read of a record that must answer 200 with `expected` (its `fields`, or all of them). */
export interface ReadBack {
  kind: 'read-back';
  expected: Row;
  fields?: string[];
  /** The property the record is wrapped in (`data` of `{"data": {...}}`), when its collection has one. */
  envelope?: string;
}

/** A read of the suite's own record after a write was refused: it must be as it was before. */
export interface Unchanged {
  kind: 'unchanged';
  /** The record as read before the refused write. */
  before: unknown;
  /** The refused write: `PUT`, its label and the status it got. */
  refused: { method: string; label: string; status: number };
}

/** The built-in checks' purposes, by check id. */
export interface Purposes {
  /** A request with credentials left out or replaced (`no credentials`, `an unknown key`). */
  auth_enforced: { credentials: string; challenge: boolean };
  /** A request that breaks one rule of the input (its fault is the case's label, the statuses that fit it the case's `fits`). */
  negative_data_rejection: { kind: 'invalid-input' } | Unchanged;
  /** An item operation on a key no record has. */
  unknown_resource: { kind: 'unknown-key'; param: string } | Unchanged;
  /** A create that must succeed, the read of what it made, or the follow of its `Location`. */
  create_read_back: { kind: 'create' } | ReadBack | (Omit<ReadBack, 'kind'> & { kind: 'location' });
  /** An update that must succeed, or the read after it. */
  update_persists: { kind: 'update' } | ReadBack;
  /** A list (filtered by the key where it can be) that must hold the record the suite created. */
  list_contains_created: { collection: Collection; key: unknown };
  /** A list filtered by `property=value`: only matching records; or by an `other` value and the record's key: none. */
  filter_conformance: { kind: 'only-matching'; collection: Collection; property: string; value: unknown } | { kind: 'excluded'; collection: Collection; property: string; value: unknown; other: unknown; key: unknown };
  /** A page of `size` records; `start`: its offset, when known (its length is then exact, given X-Total-Count); `previous`: keys of the page before, none repeated. */
  pagination_conformance: { collection: Collection; size: number; start?: number; previous?: string[] };
  /** The DELETE of the suite's record, or the read after it. */
  use_after_delete: { kind: 'delete' } | { kind: 'read-after-delete' };
  /** A second DELETE of a deleted record. */
  repeated_delete: { kind: 'delete-again' };
  /** A request at the edges. */
  edge_cases: { edge: 'dangling-reference' | 'parent-in-use' | 'paging-bounds' };
}

/** A case's purpose: the check that judges it, with the data that check needs. */
export type Purpose = { [K in keyof Purposes & CheckId]: { check: K } & Purposes[K] }[keyof Purposes & CheckId];

/** The purposes of one check. */
export type PurposeOf<K extends keyof Purposes & CheckId> = Extract<Purpose, { check: K }>;
