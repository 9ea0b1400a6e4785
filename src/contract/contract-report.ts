/**
 * What a run of the contract suite gives back: the findings (failures, gaps, flaky) and their
 * causes, the outcome of every check on every operation, coverage, reach, and what was not sent and why.
 * The runner (run-contract.ts) builds it; the reports (report/) read it.
 */
import type { CheckId, Finding } from './case.js';
import type { Cause } from './causes.js';
import type { ConfirmedCounts, UnsentCase } from './confirmation.js';
import type { BudgetSpent } from './explore/budget.js';
import type { ExploredFailure } from './explore/sequence.js';
import type { Harm } from './harm.js';
import type { Reach } from './reach.js';
import type { CheckOutcome } from './results.js';
import type { UnenforcedPattern } from '../openapi/validation/unenforced-patterns.js';

export interface CoverageRow {
  operationId: string;
  operation: string;
  status: string;
  exercised: boolean;
}

export interface ContractReport {
  /** Promises of the document the implementation broke. */
  failures: Finding[];
  /** What the document leaves open that the run ran into (fail the run only with `strict`). */
  gaps: Finding[];
  /**
   * Findings that did not reproduce when confirmed before being reported (the response checked a
   * second time; a refusal of a valid request, or a 5xx the suite provoked, sent once more): never
   * failures, each with its `confirmation` saying what happened.
   */
  flaky: Finding[];
  /** The failures, gaps and flaky findings grouped by cause (check and received versus documented), the most frequent first. */
  causes: { failures: Cause[]; gaps: Cause[]; flaky: Cause[] };
  /** Every selected check x operation in scope: passed, failed, gaps, or skipped with the reasons. */
  outcomes: CheckOutcome[];
  requests: number;
  /** The operations (ids) that received at least one answer: a check never passes one outside it. */
  requested?: string[];
  durationMs: number;
  checks: CheckId[];
  /** The plugins the run applied, by name. */
  plugins: string[];
  strict: boolean;
  coverage: CoverageRow[];
  /**
   * Records of others (on the first page of a list before the run) that were changed or gone after
   * it: the suite must never cause one. Undefined when the comparison did not run (`harmCheckOff` says why).
   */
  harm?: Harm[];
  /** Why records of others were not compared before and after (--no-harm-check, --read-only). */
  harmCheckOff?: string;
  /** Operations never sent, each with why: they could change records the suite did not create. */
  notSent: Array<{ operationId: string; operation: string; reason: string }>;
  /**
   * Records the suite created (or may have) and could not delete again, one line each: the request
   * that made it, its key or "no key shown", and why it stays. They fail the run unless `leftBehindAllowed`.
   */
  leftBehind: string[];
  /** True when records left behind are a warning only (`allowLeftovers`). */
  leftBehindAllowed?: boolean;
  /** Why the run stopped before its end (its --timeout), if it did; what it did not reach is skipped. */
  incomplete?: string;
  /** How many cases the document's request validator confirmed before they were sent (valid, or invalid for the rule they break), and how many it did not (not sent). */
  confirmed: ConfirmedCounts;
  /** The cases not sent because the validator did not confirm them, and why: a "valid" one it found invalid, or an "invalid" one not breaking its rule. */
  unconfirmed: UnsentCase[];
  /** Operations the suite could not map to a collection or one of its records, and why: only the response checks judge them. */
  unmapped: Array<{ operationId: string; operation: string; reason: string }>;
  /**
   * The document's patterns the validator does not enforce (every string passes them): RE2, which
   * runs patterns in linear time, cannot run them, and a backtracking engine never runs on what a server sends.
   */
  unenforcedPatterns: UnenforcedPattern[];
  /** Single-record operations requested and answered 2xx, of all; every operation never requested, with why (always set by runContract). */
  reach?: Reach;
  /** The seed the run used (the one given, else 1): `--seed` with it sends the same cases in the same order. */
  seed: number;
  /**
   * Failures exploration found, each shrunk to its shortest sequence and confirmed (also among
   * `failures`, as a finding of its check): what `--cassette` writes and `--replay` sends again.
   */
  explored?: ExploredFailure[];
  /** What exploration spent of its budget, or why it did not run (`explore: false`); always set by runContract. */
  exploration?: BudgetSpent | { off: string };
  /** True when nothing failed (and, with `strict`, no gap was found). */
  conforms: boolean;
}
