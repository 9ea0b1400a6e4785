/**
 * Ajv errors turned into problems a client can act on: `body.name: must be string`,
 * `body.status: must be one of available, pending, sold`, `query.limit: must be <= 100`.
 */
import type { ErrorObject } from 'ajv';
import type { Problem } from '../core/problem.js';

const MAX_PROBLEMS = 20;

/**
 * @param root the name of the validated value (`body`), or '' when its top level is already a location.
 * @param withSchemaPath add each keyword's place in the schema (for a client's report; a 400 of the mock leaves it out).
 */
export function toProblems(errors: ErrorObject[] | null | undefined, root: string, withSchemaPath = false): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    const problem = withSchemaPath ? { ...toProblem(error, root), schemaPath: error.schemaPath } : toProblem(error, root);
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
    if (problems.length >= MAX_PROBLEMS) break;
  }
  return problems;
}

function toProblem(error: ErrorObject, root: string): Problem {
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const at = (extra?: string) => [root, ...segments, ...(extra === undefined ? [] : [extra])].filter(Boolean).join('.') || root || '(root)';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: at(String(params.missingProperty)), rule: 'required', message: 'is required' };
    case 'additionalProperties':
      return { path: at(String(params.additionalProperty)), rule: 'additionalProperties', message: 'is not allowed' };
    case 'enum':
      return { path: at(), rule: 'enum', message: `must be one of ${(params.allowedValues as unknown[]).map(display).join(', ')}` };
    case 'const':
      return { path: at(), rule: 'const', message: `must be ${display(params.allowedValue)}` };
    case 'type':
      return { path: at(), rule: 'type', message: `must be ${String(params.type).replace(',', ' or ')}` };
    default:
      return { path: at(), rule: error.keyword, message: error.message ?? `breaks ${error.keyword}` };
  }
}

function display(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
