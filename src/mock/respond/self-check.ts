/**
 * The self-check (`selfCheck: true`, `--self-check`): every answer of a document's operation is
 * checked against the document before it leaves, with the document's compiled validators (the
 * checker the contract suite uses: a declared status, a declared media type, a body valid against
 * its schema, the required headers present and well-formed). A violation is counted, and warned
 * about once per operation, status and problem, so that a mock answering thousands of requests a
 * second with the same fault says it once, not thousands of times.
 *
 * Answers the pipeline knows are not declared (an operation that declares no error fitting a
 * refusal that must happen: see src/mock/respond/error-response.ts) are counted apart, as `undeclared`,
 * and not warned about: the request log says so at `debug`.
 */
import type { ValidateFunction } from 'ajv';
import type { Problem } from '../../core/problem.js';
import type { SchemaObject } from '../../openapi/document/schema.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { AjvCore } from '../../openapi/validation/ajv-instance.js';
import type { SchemaConverter } from '../../openapi/validation/to-json-schema.js';
import { createResponseChecker } from '../../openapi/validation/validate-response.js';

/** What the self-check has seen since the mock started. */
export interface SelfCheckCounts {
  /** Answers checked. */
  checked: number;
  /** Answers that break the document where the mock meant them to keep to it: each one a fault of the mock. */
  violations: number;
  /** Answers knowingly sent with a status or media type the operation does not declare (no declared one fits). */
  undeclared: number;
}

export interface SelfCheck {
  /** The counts so far (a live object). */
  readonly counts: Readonly<SelfCheckCounts>;
  /**
   * The problems of an answer of `operation` (none: it keeps to the document). `undeclared`: the
   * pipeline knows its status or media type is not declared, so those two are not problems.
   */
  check(operation: Operation, response: Response, undeclared: boolean): Promise<Problem[]>;
}

export interface SelfCheckOptions {
  ajv: AjvCore;
  converter: SchemaConverter;
  /** The mock's compiled response validators (shared, so nothing is compiled twice). */
  responseValidator: (schema: SchemaObject) => ValidateFunction | undefined;
  /** Where a violation is said, loudly (the CLI's stderr, `onWarning`). */
  warn: (message: string) => void;
}

/** At most this many distinct violations are warned about; the counts go on. */
const MAX_WARNED = 1000;

/** @example const selfCheck = createSelfCheck({ ajv, converter, responseValidator, warn }); await selfCheck.check(op, response, false) // [] */
export function createSelfCheck({ ajv, converter, responseValidator, warn }: SelfCheckOptions): SelfCheck {
  const check = createResponseChecker(ajv, converter, responseValidator);
  const counts: SelfCheckCounts = { checked: 0, violations: 0, undeclared: 0 };
  const warned = new Set<string>();
  return {
    counts,
    async check(operation, response, undeclared) {
      const text = response.body === null ? '' : await response.clone().text();
      let problems = check(operation, { status: response.status, headers: response.headers, text });
      counts.checked++;
      if (undeclared) {
        counts.undeclared++;
        problems = problems.filter((problem) => problem.rule !== 'declared');
      }
      if (problems.length === 0) return problems;
      counts.violations++;
      const [first] = problems;
      const signature = `${operation.id} ${response.status} ${first.path} ${first.rule}`;
      if (!warned.has(signature) && warned.size < MAX_WARNED) {
        warned.add(signature);
        const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
        warn(`Self-check: ${operation.id} (${operation.method.toUpperCase()} ${operation.path}) answered ${response.status}, which the document does not allow: ${first.path}: ${first.message}${more}. This is a fault of the mock; it is counted in GET /__health (selfCheck.violations).`);
      }
      return problems;
    },
  };
}
