/**
 * Ajv errors turned into problems a client can act on: `body.name: must be string`,
 * `body.status: must be one of available, pending, sold`, `query.limit: must be <= 100`.
 */
import type { ErrorObject } from 'ajv';
import type { Problem } from '../../core/problem.js';
import { DISCRIMINATOR_TAG, type TagParams } from './ajv-instance.js';

const MAX_PROBLEMS = 20;

/**
 * @param root the name of the validated value (`body`), or '' when its top level is already a location.
 * @param withSchemaPath add each keyword's place in the schema (for a client's report; a 400 of the mock leaves it out).
 */
export function toProblems(errors: ErrorObject[] | null | undefined, root: string, withSchemaPath = false): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const error of alternativesFolded(errors ?? [])) {
    // An `if` whose `then` failed: the `then`'s own errors, just before it, say what.
    if (error.keyword === 'if') continue;
    const problem = withSchemaPath ? { ...toProblem(error, root), schemaPath: error.schemaPath } : toProblem(error, root);
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
    if (problems.length >= MAX_PROBLEMS) break;
  }
  return problems;
}

/**
 * A value that fits no branch of a `oneOf`/`anyOf` is one problem at its place, not one per branch
 * and one more for the keyword: the branches' errors about the value itself (which Ajv reports
 * just before the keyword's) are folded into the keyword's error; when every branch refused the
 * value's type, it reads `must be string or integer`. Errors the branches found inside the value
 * (`pages` past its maximum in the one branch that bounds it) are kept, each at its own place,
 * and then stand for the keyword's.
 */
function alternativesFolded(errors: ErrorObject[]): ErrorObject[] {
  const out: ErrorObject[] = [];
  for (const error of errors) {
    if (error.keyword !== 'oneOf' && error.keyword !== 'anyOf') {
      out.push(error);
      continue;
    }
    const branches: ErrorObject[] = [];
    while (out.length > 0 && isBranchError(out[out.length - 1], error)) branches.unshift(out.pop()!);
    const inside = branches.filter((b) => placeOf(b) !== error.instancePath);
    if (inside.length > 0) {
      out.push(...inside);
      continue;
    }
    const types = branches.length > 0 && branches.every((b) => b.keyword === 'type') ? [...new Set(branches.flatMap((b) => String((b.params as { type: unknown }).type).split(',')))] : [];
    if (types.length > 0) out.push({ ...error, keyword: 'type', params: { type: types.join(',') }, message: `must be ${types.join(' or ')}` });
    else out.push(error);
  }
  return out;
}

/** Where an error is: a missing or unexpected property is at the property, not at the object holding it. */
function placeOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${error.instancePath}/${String(params.missingProperty)}`;
  if (error.keyword === 'additionalProperties') return `${error.instancePath}/${String(params.additionalProperty)}`;
  return error.instancePath;
}

/** True when `error` came from a branch of the `oneOf`/`anyOf` that failed as `alternatives`: at or inside its value, from its branches (or a `$ref` they name). */
function isBranchError(error: ErrorObject, alternatives: ErrorObject): boolean {
  const at = alternatives.instancePath;
  if (error.instancePath !== at && !error.instancePath.startsWith(`${at}/`)) return false;
  const owner = alternatives.schemaPath.slice(0, alternatives.schemaPath.lastIndexOf('/'));
  return error.schemaPath.startsWith(`${alternatives.schemaPath}/`) || !error.schemaPath.startsWith(`${owner}/`);
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
      return { path: at(), rule: 'type', message: `must be ${String(params.type).split(',').join(' or ')}` };
    case DISCRIMINATOR_TAG: {
      // A discriminated oneOf/anyOf (to-json-schema.ts): the property that chooses the branch.
      const tag = params as unknown as TagParams;
      const values = tag.allowedValues.map(display).join(', ');
      return tag.missing
        ? { path: at(tag.propertyName), rule: 'required', message: `is required: one of ${values}` }
        : { path: at(tag.propertyName), rule: 'enum', message: `must be one of ${values}` };
    }
    default:
      return { path: at(), rule: error.keyword, message: error.message ?? `breaks ${error.keyword}` };
  }
}

function display(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
