/**
 * negative_data_rejection: for every operation, each way its input can be wrong gets 400.
 * Body: not JSON, no Content-Type, a required field missing, a wrong type, a value outside the
 * enum, a number or a length out of bounds. Parameters: wrong type, out of bounds, outside the enum.
 * Each case breaks exactly one rule of an otherwise valid request, aimed at the suite's own record.
 */
import type { SchemaObject } from '../../src/document/schema.js';
import { mergedProperties } from '../../src/operations/infer-collections.js';
import type { Operation } from '../../src/operations/operation.js';
import type { ContractContext } from '../context.js';
import type { Phase } from './phase.js';
import { requiredQuery } from './phase.js';

interface Mutation {
  label: string;
  body?: unknown;
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  query?: string;
  params?: Record<string, unknown>;
}

const typeOf = (schema: SchemaObject): string | undefined => (Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type);

/** A value of the wrong JSON type for a schema. */
function wrongType(schema: SchemaObject): unknown {
  return ({ string: 12345, integer: 'not-a-number', number: 'not-a-number', boolean: 'yes', array: 'not-an-array', object: 'not-an-object' } as Record<string, unknown>)[typeOf(schema) ?? ''];
}

/** One value that breaks a bound of a schema, with the rule it breaks. */
function outOfBounds(schema: SchemaObject): Array<{ rule: string; value: unknown }> {
  const found: Array<{ rule: string; value: unknown }> = [];
  if (typeof schema.maximum === 'number') found.push({ rule: `maximum ${schema.maximum}`, value: schema.maximum + 1 });
  if (typeof schema.minimum === 'number') found.push({ rule: `minimum ${schema.minimum}`, value: schema.minimum - 1 });
  if (typeof schema.maxLength === 'number' && schema.maxLength < 10_000) found.push({ rule: `maxLength ${schema.maxLength}`, value: 'x'.repeat(schema.maxLength + 1) });
  if (typeof schema.minLength === 'number' && schema.minLength > 0) found.push({ rule: `minLength ${schema.minLength}`, value: '' });
  return found;
}

function requiredOf(schema: SchemaObject): string[] {
  return [...new Set<string>([...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((part: SchemaObject) => requiredOf(part))])];
}

/** A body one byte over the document's `x-max-body-bytes`, for operations that declare 413. */
function oversized(ctx: ContractContext, op: Operation): Mutation[] {
  const limit = Number(ctx.options.document.api['x-max-body-bytes']);
  if (!op.requestBody || !Number.isInteger(limit) || !op.responses.some((r) => r.status === '413')) return [];
  const text = `{"padding":"${'x'.repeat(Math.max(0, limit - 13))}"}`;
  return [{ label: `a body of ${text.length} bytes, over the limit of ${limit}`, rawBody: text, headers: { 'Content-Type': 'application/json' } }];
}

function bodyMutations(ctx: ContractContext, op: Operation): Mutation[] {
  const valid = ctx.validBody(op);
  const media = Object.keys(op.requestBody?.content ?? {}).find((m) => /json/i.test(m));
  if (!valid || !media) return [];
  const schema = op.requestBody!.content[media].schema ?? {};
  const properties = Object.entries(mergedProperties(schema)).filter(([, s]) => s && !s.readOnly);
  const mutations: Mutation[] = [
    { label: 'a body that is not JSON', rawBody: '{"truncated": ', headers: { 'Content-Type': 'application/json' } },
    { label: 'a body without Content-Type', rawBody: new TextEncoder().encode(JSON.stringify(valid)) },
  ];
  const required = requiredOf(schema)[0];
  if (required) mutations.push({ label: `body.${required} missing (required)`, body: omit(valid, required) });
  const typed = properties.find(([, s]) => wrongType(s) !== undefined);
  if (typed) mutations.push({ label: `body.${typed[0]} of the wrong type`, body: { ...valid, [typed[0]]: wrongType(typed[1]) } });
  const enumerated = properties.find(([, s]) => Array.isArray(s.enum) && typeOf(s) === 'string');
  if (enumerated) mutations.push({ label: `body.${enumerated[0]} outside its enum`, body: { ...valid, [enumerated[0]]: 'not-in-the-enum' } });
  const numeric = properties.map(([name, s]) => ({ name, bounds: outOfBounds(s).filter((b) => typeof b.value === 'number') })).find((p) => p.bounds.length);
  if (numeric) mutations.push({ label: `body.${numeric.name} beyond its ${numeric.bounds[0].rule}`, body: { ...valid, [numeric.name]: numeric.bounds[0].value } });
  const textual = properties.map(([name, s]) => ({ name, bounds: outOfBounds(s).filter((b) => typeof b.value === 'string') })).find((p) => p.bounds.length);
  if (textual) mutations.push({ label: `body.${textual.name} beyond its ${textual.bounds[0].rule}`, body: { ...valid, [textual.name]: textual.bounds[0].value } });
  return mutations;
}

function parameterMutations(ctx: ContractContext, op: Operation, params: Record<string, unknown>): Mutation[] {
  const mutations: Mutation[] = [];
  const base = requiredQuery(ctx, op);
  for (const p of op.parameters) {
    const schema = typeOf(p.schema) === 'array' ? (p.schema.items ?? {}) : p.schema;
    const values: Array<{ label: string; value: unknown }> = [];
    if (typeOf(schema) === 'integer' || typeOf(schema) === 'number') values.push({ label: 'of the wrong type', value: 'abc' });
    for (const bound of outOfBounds(schema)) values.push({ label: `beyond its ${bound.rule}`, value: bound.value });
    if (Array.isArray(schema.enum) && typeOf(schema) === 'string') values.push({ label: 'outside its enum', value: 'not-in-the-enum' });
    for (const { label, value } of values) {
      if (p.in === 'path') mutations.push({ label: `path.${p.name} ${label}`, params: { ...params, [p.name]: value } });
      if (p.in === 'query') mutations.push({ label: `query.${p.name} ${label}`, query: [base, `${encodeURIComponent(p.name)}=${encodeURIComponent(String(value))}`].filter(Boolean).join('&') });
      if (p.in === 'header') mutations.push({ label: `header.${p.name} ${label}`, headers: { [p.name]: String(value) } });
    }
  }
  return mutations;
}

/** 400 where the operation declares it; otherwise any 4xx it declares (a document may use 422). */
function rejectionStatuses(op: Operation): number[] {
  const declared = op.responses.map((r) => Number(r.status)).filter((s) => s >= 400 && s < 500 && s !== 401 && s !== 403 && s !== 404);
  if (declared.includes(400)) return [400];
  return declared.length ? declared : Array.from({ length: 100 }, (_, i) => 400 + i);
}

function omit(body: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...body };
  delete copy[key];
  return copy;
}

export const negativePhase: Phase = {
  name: 'negative data',
  checks: ['negative_data_rejection'],
  changesState: false,
  async run(ctx, targets) {
    for (const op of ctx.operations) {
      if (ctx.options.readOnly && op.method !== 'get') continue;
      const params = await targets.params(op);
      if (!params) continue;
      const valid = ctx.validBody(op);
      const rejection = rejectionStatuses(op);
      for (const mutation of [...bodyMutations(ctx, op), ...parameterMutations(ctx, op, params)]) {
        await ctx.request(op, {
          label: mutation.label,
          params: mutation.params ?? params,
          query: mutation.query ?? requiredQuery(ctx, op),
          body: mutation.rawBody === undefined ? (mutation.body ?? valid) : undefined,
          rawBody: mutation.rawBody,
          headers: mutation.headers,
          expect: { check: 'negative_data_rejection', status: rejection, documented: `${rejection.length === 1 ? rejection[0] : 'a declared 4xx'} for ${mutation.label}` },
        });
      }
      for (const mutation of oversized(ctx, op)) {
        await ctx.request(op, {
          label: mutation.label,
          params,
          rawBody: mutation.rawBody,
          headers: mutation.headers,
          expect: { check: 'negative_data_rejection', status: [413], documented: `413 for ${mutation.label}` },
        });
      }
    }
  },
};
