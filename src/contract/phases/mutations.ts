/**
 * The ways the negative phase breaks an otherwise valid request, each as a family of candidate
 * cases that break the same rule (another property, another valid body to start from, another
 * branch of a `oneOf`): the phase sends the first the document's validator confirms, so a rule
 * that one body does not hold (`pages` has a maximum on a Book, none on an Audiobook) is broken
 * on a body that holds it, or not at all.
 */
import { schemaType, type ParameterSpec, type SchemaObject } from '../../openapi/document/schema.js';
import { branchFor, mergedProperties, requiredProperties } from '../../openapi/operations/schema-properties.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { Breach } from '../confirmation.js';
import type { ContractContext } from '../context.js';
import { writeParameter } from '../write-parameter.js';

const BAD_INPUT = [400, 422];
type Row = Record<string, unknown>;

export interface Mutation {
  label: string;
  /** The client errors that fit this fault. */
  fits: number[];
  /** The rule it breaks, and where: the validator must find exactly that before it is sent. */
  breaks: Breach;
  body?: unknown;
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  query?: string;
  params?: Record<string, unknown>;
}

/** One fault, as the candidate cases that would show it (the first confirmed is sent); `what` names it when none is. */
export interface Family {
  what: string;
  candidates: Mutation[];
}


/** A value of the wrong JSON type for a schema. */
function wrongType(schema: SchemaObject): unknown {
  return ({ string: 12345, integer: 'not-a-number', number: 'not-a-number', boolean: 'yes', array: 'not-an-array', object: 'not-an-object' } as Record<string, unknown>)[schemaType(schema) ?? ''];
}

/** The keywords a value past a bound may be reported under (a bound at the edge of exact integers is reported as such). */
const BOUND_RULES: Record<string, string[]> = {
  maximum: ['maximum', 'exclusiveMaximum', 'int64'],
  minimum: ['minimum', 'exclusiveMinimum', 'int64'],
  maxLength: ['maxLength'],
  minLength: ['minLength'],
};

/** Values that break a bound of a schema, with the keyword they break. */
function outOfBounds(schema: SchemaObject): Array<{ rule: string; value: unknown }> {
  const found: Array<{ rule: string; value: unknown }> = [];
  if (typeof schema.maximum === 'number') found.push({ rule: 'maximum', value: schema.maximum + 1 });
  if (typeof schema.minimum === 'number') found.push({ rule: 'minimum', value: schema.minimum - 1 });
  if (typeof schema.maxLength === 'number' && schema.maxLength < 10_000) found.push({ rule: 'maxLength', value: 'x'.repeat(schema.maxLength + 1) });
  if (typeof schema.minLength === 'number' && schema.minLength > 0) found.push({ rule: 'minLength', value: '' });
  return found;
}

/** What can be wrong with one value of a schema: its type, its enum, its bounds. */
function faults(schema: SchemaObject): Array<{ label: string; rules: string[]; value: unknown; kind: 'type' | 'enum' | 'number' | 'text' }> {
  const list: ReturnType<typeof faults> = [];
  const wrong = wrongType(schema);
  if (wrong !== undefined) list.push({ label: 'of the wrong type', rules: ['type'], value: wrong, kind: 'type' });
  if (Array.isArray(schema.enum) && schemaType(schema) === 'string') list.push({ label: 'outside its enum', rules: ['enum'], value: 'not-in-the-enum', kind: 'enum' });
  for (const { rule, value } of outOfBounds(schema)) {
    list.push({ label: `beyond its ${rule} ${String(schema[rule])}`, rules: BOUND_RULES[rule], value, kind: typeof value === 'number' ? 'number' : 'text' });
  }
  return list;
}

/**
 * The body families: not JSON, no Content-Type, a required field missing, a field of the wrong
 * type, outside its enum, past a numeric bound, past a length. `bodies`: valid bodies to start
 * from (the first is the phase's; others come from other draws or branches). The record's key is
 * never the field broken: a server that took the bad value could name someone else's record.
 */
export function bodyMutations(schema: SchemaObject | undefined, bodies: Row[], key: string | undefined, media: string): Family[] {
  const [valid] = bodies;
  if (!valid || !schema) return [];
  const json = { 'Content-Type': media };
  const families: Family[] = [
    { what: 'a body that is not JSON', candidates: [{ label: 'a body that is not JSON', fits: BAD_INPUT, breaks: { at: 'body', rules: ['json'] }, rawBody: '{"truncated": ', headers: json }] },
    { what: 'a body without Content-Type', candidates: [{ label: 'a body without Content-Type', fits: [...BAD_INPUT, 415], breaks: { at: 'body', rules: ['content-type'] }, rawBody: new TextEncoder().encode(JSON.stringify(valid)) }] },
  ];
  const properties = Object.entries(mergedProperties(schema)).filter(([name, s]) => s && !s.readOnly && name !== key);
  const missing: Mutation[] = bodies.flatMap((body) =>
    [...new Set([...requiredProperties(schema), ...requiredProperties(branchFor(schema, body))])]
      .filter((name) => name !== key && name in body)
      .map((name) => ({ label: `body.${name} missing (required)`, fits: BAD_INPUT, breaks: { at: `body.${name}`, rules: ['required'] }, body: omit(body, name) })),
  );
  if (missing.length) families.push({ what: 'a required body field missing', candidates: missing });
  for (const [kind, what] of [['type', 'a body field of the wrong type'], ['enum', 'a body field outside its enum'], ['number', 'a body field past a numeric bound'], ['text', 'a body field past a length']] as const) {
    // The same fault on every body before the next fault: `pages` past its maximum on a Book, where an Audiobook has none.
    const candidates = properties.flatMap(([name, s]) =>
      faults(s)
        .filter((f) => f.kind === kind)
        .flatMap((f) => bodies.map((body): Mutation => ({ label: `body.${name} ${f.label}`, fits: BAD_INPUT, breaks: { at: `body.${name}`, rules: f.rules }, body: { ...body, [name]: f.value } }))),
    );
    if (candidates.length) families.push({ what, candidates });
  }
  return families;
}

/**
 * Parameter families: a value of the wrong type, past a bound, outside the enum; for a parameter
 * given as JSON (`content: application/json`), also a value that is not JSON, JSON of the wrong
 * type, and a property breaking its schema.
 */
export function parameterMutations(ctx: ContractContext, op: Operation, params: Record<string, unknown>): Family[] {
  const families: Family[] = [];
  for (const p of op.parameters) {
    const at = `${p.in}.${p.name}`;
    const json = p.mediaType !== undefined && /json/i.test(p.mediaType);
    const declared: SchemaObject = p.schema;
    const schema = !json && schemaType(declared) === 'array' ? (declared.items ?? {}) : declared;
    const values: Array<{ label: string; breaks: Breach; value: unknown }> = [];
    if (json) {
      values.push({ label: 'not JSON', breaks: { at, rules: ['json'] }, value: '{"truncated": ' });
      const wrong = wrongType(schema);
      if (wrong !== undefined) values.push({ label: 'JSON of the wrong type', breaks: { at, rules: ['type'] }, value: JSON.stringify(wrong) });
      const valid = ctx.validValue(schema, p.name);
      if (valid && typeof valid === 'object' && !Array.isArray(valid)) {
        for (const [name, property] of Object.entries(mergedProperties(schema))) {
          for (const fault of property ? faults(property) : []) {
            values.push({ label: `with ${name} ${fault.label}`, breaks: { at: `${at}.${name}`, rules: fault.rules }, value: JSON.stringify({ ...valid, [name]: fault.value }) });
          }
        }
      }
    } else {
      for (const fault of faults(schema).filter((f) => f.kind !== 'type' || schemaType(schema) === 'integer' || schemaType(schema) === 'number')) {
        values.push({ label: fault.label, breaks: { at, rules: fault.rules }, value: fault.kind === 'type' ? 'abc' : fault.value });
      }
    }
    for (const { label, breaks, value } of values) {
      const written = writeParameter({ ...p, mediaType: undefined } as ParameterSpec, value);
      const mutation = { label: `${at} ${label}`, breaks };
      if (p.in === 'path') families.push(single({ ...mutation, fits: [...BAD_INPUT, 404], params: { ...params, [p.name]: value } }));
      if (p.in === 'query') families.push(single({ ...mutation, fits: BAD_INPUT, query: written.query }));
      if (p.in === 'header') families.push(single({ ...mutation, fits: BAD_INPUT, headers: { [p.name]: written.header! } }));
    }
  }
  return families;
}

/**
 * A valid body padded one byte over the size the document states (`x-max-body-bytes`), for
 * operations that declare 413: the padding is a field the schema does not declare, so only the
 * size is wrong (none when the body schema forbids other fields).
 */
export function oversized(ctx: ContractContext, op: Operation, valid: Row | undefined, schema: SchemaObject | undefined, media: string): Family[] {
  const limit = Number(ctx.options.document.api['x-max-body-bytes']);
  if (!valid || typeof valid !== 'object' || Array.isArray(valid) || !Number.isInteger(limit) || !op.responses.some((r) => r.status === '413')) return [];
  if (schema?.additionalProperties === false) return [];
  const base = JSON.stringify({ ...valid, contractSuitePadding: '' });
  const text = JSON.stringify({ ...valid, contractSuitePadding: 'x'.repeat(Math.max(0, limit + 1 - Buffer.byteLength(base))) });
  const label = `a valid body of ${Buffer.byteLength(text)} bytes, over the limit of ${limit}`;
  return [single({ label, fits: [413], breaks: { at: 'body', rules: ['size'] }, rawBody: text, headers: { 'Content-Type': media } })];
}

function single(mutation: Mutation): Family {
  return { what: mutation.label, candidates: [mutation] };
}

function omit(body: Row, key: string): Row {
  const copy = { ...body };
  delete copy[key];
  return copy;
}
