/**
 * The business rules' hooks around an action: what a rule sees (the request, the record it
 * targets, the store, the clock) and may do (veto, adjust, follow up). What an action receives and
 * returns is the pipeline's (src/mock/pipeline/exchange.ts).
 */
import type { ApiError } from '../../core/api-error.js';
import type { StoredRecord, StateStore } from '../../state/state-store.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { ActionInput } from '../pipeline/exchange.js';

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
