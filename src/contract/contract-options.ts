/**
 * What a run of the suite takes (the library's `runContract` takes these as they are), and the
 * errors that stop a request or the run: a request that could change records of others, the
 * run's --timeout.
 */
import type { LoadedDocument } from '../openapi/document/document.js';
import type { Operation } from '../openapi/operations/operation.js';
import type { CompiledDocument } from '../openapi/validation/compiled-document.js';
import type { CheckId, Exchange } from './case.js';
import type { Fetch } from './transport.js';

/** How a run reaches the implementation and treats it, whatever the document and the checks selected (the library's `runContract` takes these as they are). */
export interface ContractSettings {
  /** Where the implementation answers, standing in for the document's server URL. */
  baseUrl: string;
  /** The API key or token to authenticate with. */
  token?: string;
  /** Send only requests that change nothing. */
  readOnly?: boolean;
  /**
   * Operation ids whose writes are sent even though the suite cannot prove they touch only its own
   * records (`all`: every operation, for a disposable server): the caller vouches for them.
   */
  allowWrites?: string[];
  /** Seed for generated values and exploration (default 1): the same seed sends the same cases in the same order. */
  seed?: number;
  /** Explore past the fixed checks (default true): generated inputs and sequences, within the budget below. */
  explore?: boolean;
  /** Requests exploration may send (default DEFAULT_BUDGET.requests, explore/budget.ts); the fixed checks are not counted. */
  budgetRequests?: number;
  /** Milliseconds exploration may take (default DEFAULT_BUDGET.ms). */
  budgetMs?: number;
  /** Operations and collections explored at once, on records of their own, their requests overlapping (default EXPLORE_LANES, explore/budget.ts; 1: one after another). */
  exploreLanes?: number;
  fetch?: Fetch;
  /** How long one answer may take (default 10 s). */
  requestTimeoutMs?: number;
  /** How much of one answer is read (default 10 MB): past it, the answer is a failure, not a crash. */
  maxResponseBytes?: number;
  /** Headers sent with every request (`-H`); an unauthenticated case leaves out the credential ones. */
  headers?: Record<string, string>;
  /** Called after every exchange (the CLI's progress line). */
  onExchange?: (exchange: Exchange, sent: number) => void;
}

export interface ContractOptions extends ContractSettings {
  document: LoadedDocument;
  /** Only these checks (default: all). */
  only?: CheckId[];
  /** Only cases of these operations (ids). */
  operations?: string[];
  /** The document compiled once, shared with a mock in the same process (`contract --dry-run`); default: one compiled for the run. */
  compiled?: CompiledDocument;
}

/** A request that could change records the suite did not create: never sent (a phase checks `ctx.unsafe` first and skips). */
export class UnsafeRequestError extends Error {
  override readonly name = 'UnsafeRequestError';
  constructor(
    readonly operation: Operation,
    readonly reason: string,
  ) {
    super(`${operation.method.toUpperCase()} ${operation.path} not sent: ${reason}`);
  }
}

/** The run's overall time ran out (`--timeout`): the phases stop, the clean-up still runs. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}
