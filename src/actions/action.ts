/**
 * What an action receives (a validated request) and returns (a status, a body, headers).
 */
import type { ParsedParameters } from '../validation/parse-parameters.js';
import type { ApiError } from '../respond/api-error.js';
import type { StoredRecord, StateStore } from '../state/state-store.js';
import type { Operation } from '../operations/operation.js';
import type { Scenario } from '../scenarios/read-scenario.js';

export interface ActionInput {
  /** The state this request acts on: the shared one, or its session's. */
  store: StateStore;
  params: ParsedParameters;
  body: unknown;
  /** The declared media type of the body (decides how a PATCH applies: merge-patch, JSON Patch, fields). */
  mediaType?: string;
  /** The request path and query, for `Link` headers: `/pets?limit=20`. */
  url: string;
  /** What the request asked for with `Prefer` (an extension's directives in `extra`). */
  scenario?: Scenario;
}

export interface ActionResult {
  status: number;
  body?: unknown;
  /** The body already serialised as JSON (stored records keep their text until they change). */
  json?: string;
  headers?: Record<string, string>;
}

export type Action = (input: ActionInput) => ActionResult | ApiError;

/** What a business rule sees: the request, the record it targets (if any) and the whole store. */
export interface RuleContext {
  operation: Operation;
  input: ActionInput;
  store: StateStore;
  /** The stored record an item operation targets, before the change. */
  current?: StoredRecord;
  /** The record as the generic action stored it (set for `after`). */
  record?: StoredRecord;
  /** The mock's clock (`--now` moves it): rules never read the system time themselves. */
  now: () => number;
}

/** Hooks for one operation: `before` may veto with an ApiError or adjust `input.body`. */
export interface OperationRule {
  before?: (ctx: RuleContext) => ApiError | void;
  after?: (ctx: RuleContext) => void;
}
