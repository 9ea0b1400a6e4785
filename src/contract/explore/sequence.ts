/**
 * The vocabulary of exploration (issue 39): a step is one request of a sequence, written so that it
 * can be sent again on another run (a record made by an earlier step is named by that step, not
 * by the key the server gave it then); an explored failure is a sequence shrunk to its shortest
 * form, with the seed and fast-check path that find it again. Input exploration (one request per
 * sequence), stateful exploration (several), the cassette file and `--replay` all speak it.
 */
import type { CheckId } from '../check-id.js';

/** A value a step takes from an earlier step's answer: the key of the record step `step` created. */
export interface FromStep {
  $fromStep: number;
}

/** A step's value: as it stands, or taken from an earlier step. */
export type StepValue = unknown | FromStep;

/** One request of a sequence: which operation, with which parts, and why. */
export interface Step {
  operationId: string;
  /** What the step does, for reports: `create a pets record`, `list pets filtered by status=sold`. */
  label: string;
  /** Path parameters by name; a record the sequence made is `{ $fromStep: i }`. */
  params?: Record<string, StepValue>;
  /** Query parameters by name, before they are written in their style. */
  query?: Record<string, StepValue>;
  /** The JSON body, if any (a reference to a record the sequence made is `{ $fromStep: i }`). */
  body?: StepValue;
}

/**
 * What an explored failure breaks: a promise of one request's answer (`input`: its last step is
 * judged by the per-exchange checks), or of the model of a sequence's records (`sequence`: its
 * steps are judged together, by the model that found them).
 */
export type FailureKind = 'input' | 'sequence';

/** A failure exploration found, shrunk and confirmed by running its steps again. */
export interface ExploredFailure {
  kind: FailureKind;
  /** For a sequence: the collection whose records its steps make, change, list and delete (`pets`). */
  collection?: string;
  check: CheckId;
  operationId: string;
  /** What the last step received, and what the document promises, as a finding says them. */
  received: string;
  documented: string;
  /** The shortest sequence found that still fails, in order; the last step shows the failure. */
  steps: Step[];
  /** The same steps as curl lines, the token written as `$TOKEN`, keys as the confirming run got them. */
  repro: string[];
  /** The run's seed and fast-check's path to the counterexample: `--seed` with them finds it again. */
  seed: number;
  path?: string;
  /** How many inputs or sequences were tried before it, and how many shrinking steps made it shorter. */
  tried: number;
  shrinks: number;
}

/** What a cassette file holds (`--cassette FILE` writes it, `--replay FILE` sends it again). */
export interface Cassette {
  version: 1;
  /** The document's title and version the sequences were found against. */
  document: { title: string; version: string };
  seed: number;
  failures: ExploredFailure[];
}

export function isFromStep(value: unknown): value is FromStep {
  return typeof value === 'object' && value !== null && typeof (value as FromStep).$fromStep === 'number' && Object.keys(value).length === 1;
}
