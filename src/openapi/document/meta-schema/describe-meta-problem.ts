/**
 * A document's problem against its meta-schema in words: of Ajv's problems (every one, with
 * `allErrors`), the one that says most (the deepest in the document; an unknown field or a value
 * not allowed before a choice of branches), said with the field and the rule, and the word meant
 * where one is near: "unknown field `foo` at the top level (allowed: openapi, info, ...)",
 * "`strin` is not a type at #/components/schemas/X/type; did you mean `string`?".
 */
import { closest } from '../../../core/closest-words.js';

/** One of Ajv's problems, as its validators (compiled or precompiled) report them. */
export interface MetaProblem {
  instancePath: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

type Json = Record<string, any>;

// Lower first: what names the mistake before what only says no branch of a choice fitted.
const RANK: Record<string, number> = { additionalProperties: 0, unevaluatedProperties: 0, enum: 1, const: 1, type: 2, required: 3 };
const CHOICES = new Set(['oneOf', 'anyOf', 'if', 'not', 'false schema']);

/**
 * @param document the document as checked (the problems' `instancePath`s point into it)
 * @param metaSchema the meta-schema it was checked against (the problems' `schemaPath`s point into it), when at hand
 * @example describeMetaProblem([{ instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'foo' } }], doc, schema) // 'unknown field `foo` at the top level (allowed: openapi, info, ...)'
 */
export function describeMetaProblem(problems: readonly MetaProblem[], document: unknown, metaSchema?: () => Json | undefined): string {
  const problem = mostTelling(problems);
  if (!problem) return 'it does not match the OpenAPI meta-schema';
  const where = problem.instancePath === '' ? 'the top level' : `#${problem.instancePath}`;
  const params = problem.params ?? {};
  switch (problem.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const field = String(params.additionalProperty ?? params.unevaluatedProperty);
      const allowed = allowedFields(metaSchema?.(), problem.instancePath);
      const near = allowed ? closest(field, allowed.names) : [];
      return `unknown field ${code(field)} ${where === 'the top level' ? 'at the top level' : `at ${where}`}${allowed ? ` (allowed: ${allowed.said})` : ''}${near.length ? `; did you mean ${near.map(code).join(' or ')}?` : ''}`;
    }
    case 'enum': {
      // Branches of a choice each allow some values (a parameter's `in`): what any of them allows.
      const same = problems.filter((p) => p.keyword === 'enum' && p.instancePath === problem.instancePath);
      const values = [...new Set(same.flatMap((p) => (Array.isArray(p.params?.allowedValues) ? p.params.allowedValues.map(String) : [])))];
      const value = valueAt(document, problem.instancePath);
      const near = typeof value === 'string' ? closest(value, values) : [];
      const isType = problem.instancePath.endsWith('/type');
      const listed = `(${isType ? 'the types are' : 'allowed:'} ${values.join(', ')})`;
      return `${code(value)} is not ${isType ? 'a type' : 'allowed'} at ${where}${near.length ? `; did you mean ${near.map(code).join(' or ')}?` : ` ${listed}`}`;
    }
    case 'required':
      return `${where === 'the top level' ? 'the document' : where} lacks the required field ${code(String(params.missingProperty))}`;
    case 'type':
      return `${where} must be ${article(String(params.type))}, not ${article(kindOf(valueAt(document, problem.instancePath)))}`;
    default:
      return `#${problem.instancePath} ${problem.message ?? 'is invalid'}`;
  }
}

/** The deepest problem; at one depth, an unknown field or a value before a type, and a missing `$ref` (a reference the author did not mean to write) or a failed choice last. */
function mostTelling(problems: readonly MetaProblem[]): MetaProblem | undefined {
  const rank = (p: MetaProblem) => (p.keyword === 'required' && p.params?.missingProperty === '$ref' ? 8 : CHOICES.has(p.keyword ?? '') ? 9 : (RANK[p.keyword ?? ''] ?? 5));
  const depth = (p: MetaProblem) => (p.instancePath === '' ? 0 : p.instancePath.split('/').length);
  return [...problems].sort((a, b) => depth(b) - depth(a) || rank(a) - rank(b))[0];
}

/**
 * The fields the meta-schema allows where one was unknown: the `properties` of the closed schemas
 * (`additionalProperties` or `unevaluatedProperties` false) that apply at that place of the
 * document, found by walking the meta-schema along the place's path (Ajv's `schemaPath` starts
 * again at each `$ref`, so it cannot say which definition refused the field), and the patterns
 * (`x-` extensions) they also take.
 */
function allowedFields(metaSchema: Json | undefined, instancePath: string): { names: string[]; said: string } | undefined {
  if (!metaSchema) return undefined;
  let here = expand(metaSchema, [metaSchema]);
  for (const token of instancePath.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    here = expand(metaSchema, here.flatMap((schema) => step(schema, token)));
  }
  const closed = here.filter((schema) => schema.additionalProperties === false || schema.unevaluatedProperties === false);
  if (closed.length === 0) return undefined;
  const names = [...new Set(closed.flatMap((schema) => Object.keys(schema.properties ?? {})))];
  const patterns = new Set(here.flatMap((schema) => Object.keys(schema.patternProperties ?? {})));
  const said = [...names, ...[...patterns].map(patternSaid)];
  if (said.length === 0) return undefined;
  return { names, said: said.length < 2 ? said[0] : `${said.slice(0, -1).join(', ')} and ${said.at(-1)}` };
}

/** The schemas a value is held to by a schema: itself, what its `$ref` names, and its branches, all the way down. */
function expand(root: Json, schemas: Json[]): Json[] {
  const out = new Set<Json>();
  const visit = (schema: unknown) => {
    if (!schema || typeof schema !== 'object' || out.has(schema as Json)) return;
    const s = schema as Json;
    out.add(s);
    if (typeof s.$ref === 'string' && s.$ref.startsWith('#/')) visit(valueAt(root, s.$ref.slice(1)));
    for (const key of ['allOf', 'oneOf', 'anyOf']) if (Array.isArray(s[key])) s[key].forEach(visit);
    for (const key of ['then', 'else']) visit(s[key]);
  };
  schemas.forEach(visit);
  return [...out];
}

/** The schemas a schema holds a field or item of its value to. */
function step(schema: Json, token: string): Json[] {
  if (schema.properties && Object.hasOwn(schema.properties, token)) return [schema.properties[token]];
  const patterned = Object.entries((schema.patternProperties ?? {}) as Json).filter(([pattern]) => safeTest(pattern, token)).map(([, sub]) => sub as Json);
  if (patterned.length) return patterned;
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') return [schema.additionalProperties];
  if (/^\d+$/.test(token) && schema.items && typeof schema.items === 'object') return [schema.items];
  return [];
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

function patternSaid(pattern: string): string {
  if (pattern === '^x-') return 'x- extensions';
  if (pattern === '^\\/' || pattern === '^/') return 'paths beginning with /';
  return `fields matching ${pattern}`;
}

/** The value a JSON Pointer (`/paths/~1a/get`) names, or undefined. */
function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const token of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    value = Object.hasOwn(value, key) ? (value as Json)[key] : undefined;
  }
  return value;
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function article(word: string): string {
  return word === 'null' ? 'null' : `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
}

/** A value of the document as a message shows it: in backticks, on one line, at most 60 characters. */
function code(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `\`${shown.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029`]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\``;
}
