/**
 * The cassette file (issue 39, point 4): the failures a run's exploration found, as JSON, for
 * `--replay FILE` to send again. Reading checks the shape field by field, so that a file that is
 * not a cassette (another JSON, a cassette cut short, a step naming a later step) is refused with
 * one sentence before anything is sent; writing is the plain JSON of the value, which the caller
 * masks as every other output (report/mask.ts). A cassette written before failures said their kind
 * is read as it was meant: a failure of one step is an input's, one of several a sequence's.
 *
 * @example
 * const cassette = parseCassette(readFileSync(file, 'utf8'));
 * if (typeof cassette === 'string') throw new Error(`${file} is not a cassette: ${cassette}.`);
 */
import type { Cassette, ExploredFailure, FailureKind, Step } from './sequence.js';
import { isFromStep } from './sequence.js';

/** The cassette of a run, or undefined when exploration found nothing (no file is written then). */
export function cassetteOf(report: { seed: number; explored?: ExploredFailure[] }, document: { title?: string; version?: string }): Cassette | undefined {
  if (!report.explored?.length) return undefined;
  return { version: 1, document: { title: document.title ?? '', version: document.version ?? '' }, seed: report.seed, failures: report.explored };
}

/** The file's text: JSON, indented, one trailing newline. */
export function writeCassette(cassette: Cassette): string {
  return `${JSON.stringify(cassette, null, 2)}\n`;
}

/** The cassette the text holds, or why it is not one (a clause: `its failures[0].steps[1] refers to step 3, which comes after it`). */
export function parseCassette(text: string): Cassette | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'it is not JSON';
  }
  if (!isObject(value)) return 'it is not a JSON object';
  if (value.version !== 1) return `its version is ${JSON.stringify(value.version) ?? 'missing'}, and this suite reads version 1`;
  if (!isObject(value.document) || typeof value.document.title !== 'string' || typeof value.document.version !== 'string') return 'it has no document {title, version}';
  if (!isCount(value.seed)) return 'its seed is not a non-negative integer';
  if (!Array.isArray(value.failures)) return 'it has no failures array';
  for (const [i, failure] of value.failures.entries()) {
    const why = failureProblem(failure);
    if (why) return `its failures[${i}]${why}`;
  }
  const failures = (value.failures as ExploredFailure[]).map((failure) => ({ ...failure, kind: failure.kind ?? kindOf(failure.steps) }));
  return { ...value, failures } as unknown as Cassette;
}

/** The kind of a failure that does not say it (a cassette older than kinds): one request is an input's, several a sequence's. */
const kindOf = (steps: Step[]): FailureKind => (steps.length === 1 ? 'input' : 'sequence');

/** What is wrong with one failure (` has no check`, `.steps[1] ...`), or undefined. */
function failureProblem(failure: unknown): string | undefined {
  if (!isObject(failure)) return ' is not an object';
  if (failure.kind !== undefined && failure.kind !== 'input' && failure.kind !== 'sequence') return `.kind is ${JSON.stringify(failure.kind)}, not input or sequence`;
  if (failure.collection !== undefined && (typeof failure.collection !== 'string' || failure.kind === 'input')) return '.collection is not the name of the collection of a sequence';
  for (const field of ['check', 'operationId', 'received', 'documented'] as const) if (typeof failure[field] !== 'string') return ` has no ${field} string`;
  if (!isCount(failure.seed) || !isCount(failure.tried) || !isCount(failure.shrinks)) return ' lacks its seed, tried or shrinks count';
  if (failure.path !== undefined && typeof failure.path !== 'string') return '.path is not a string';
  if (!Array.isArray(failure.repro) || !failure.repro.every((line) => typeof line === 'string')) return '.repro is not a list of lines';
  if (!Array.isArray(failure.steps) || failure.steps.length === 0) return ' has no steps';
  for (const [i, step] of failure.steps.entries()) {
    const why = stepProblem(step, i);
    if (why) return `.steps[${i}]${why}`;
  }
  return undefined;
}

function stepProblem(step: unknown, index: number): string | undefined {
  if (!isObject(step)) return ' is not an object';
  if (typeof step.operationId !== 'string' || typeof step.label !== 'string') return ' has no operationId and label';
  for (const part of ['params', 'query'] as const) if (step[part] !== undefined && !isObject(step[part])) return `.${part} is not an object`;
  const later = references(step as unknown as Step).find((n) => n >= index);
  return later === undefined ? undefined : ` refers to step ${later}, which does not come before it`;
}

/** The steps a step's values refer to (`{ $fromStep: i }`), anywhere in its parameters and body. */
export function references(step: Step): number[] {
  const found: number[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (isFromStep(value)) found.push(value.$fromStep);
    else if (value && typeof value === 'object' && depth < 20) for (const item of Object.values(value)) walk(item, depth + 1);
  };
  walk([step.params, step.query, step.body], 0);
  return found;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
