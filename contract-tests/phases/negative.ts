/**
 * negative_data_rejection: for every operation, each way its input can be wrong is refused.
 * Body: not JSON, no Content-Type, a required field missing, a wrong type, a value outside the
 * enum, a number or a length out of bounds, a size over the limit the document states.
 * Parameters: wrong type, out of bounds, outside the enum. Each case breaks exactly one rule of
 * an otherwise valid request (its references point at records that exist), aimed at the suite's
 * own record.
 *
 * Each case carries the client errors that fit its fault (400 or 422; 404 too for a path
 * parameter; 415 for the media type; 413 for the size); the check judges the answer by the one
 * status rule (checks/status-rule.ts).
 */
import type { SchemaObject } from '../../src/document/schema.js';
import { mergedProperties, requiredProperties } from '../../src/operations/infer-collections.js';
import type { Operation } from '../../src/operations/operation.js';
import type { ContractContext } from '../context.js';
import type { Phase } from './phase.js';
import { namesForeignRecord, ownTarget, refusedChangesNothing, validBodyFor } from './phase.js';

const BAD_INPUT = [400, 422];

interface Mutation {
  label: string;
  /** The client errors that fit this fault. */
  fits: number[];
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


/**
 * A valid body padded one byte over the size the document states (`x-max-body-bytes`), for
 * operations that declare 413: the padding is a field the schema does not declare, so only the
 * size is wrong (none when the body schema forbids other fields).
 */
function oversized(ctx: ContractContext, op: Operation, valid: Record<string, unknown> | undefined, schema: SchemaObject): Mutation[] {
  const limit = Number(ctx.options.document.api['x-max-body-bytes']);
  if (!valid || typeof valid !== 'object' || Array.isArray(valid) || !Number.isInteger(limit) || !op.responses.some((r) => r.status === '413')) return [];
  if (schema.additionalProperties === false) return [];
  const base = JSON.stringify({ ...valid, contractSuitePadding: '' });
  const text = JSON.stringify({ ...valid, contractSuitePadding: 'x'.repeat(Math.max(0, limit + 1 - Buffer.byteLength(base))) });
  return [{ label: `a valid body of ${Buffer.byteLength(text)} bytes, over the limit of ${limit}`, fits: [413], rawBody: text, headers: { 'Content-Type': 'application/json' } }];
}

/** The body cases. The record's key is never the field broken: a server that took the bad value could name someone else's record with it. */
function bodyMutations(valid: Record<string, unknown> | undefined, op: Operation, key: string | undefined): Mutation[] {
  const media = Object.keys(op.requestBody?.content ?? {}).find((m) => /json/i.test(m));
  if (!valid || !media) return [];
  const schema = op.requestBody!.content[media].schema ?? {};
  const properties = Object.entries(mergedProperties(schema)).filter(([name, s]) => s && !s.readOnly && name !== key);
  const mutations: Mutation[] = [
    { label: 'a body that is not JSON', fits: BAD_INPUT, rawBody: '{"truncated": ', headers: { 'Content-Type': 'application/json' } },
    { label: 'a body without Content-Type', fits: [...BAD_INPUT, 415], rawBody: new TextEncoder().encode(JSON.stringify(valid)) },
  ];
  const required = requiredProperties(schema)[0];
  if (required) mutations.push({ label: `body.${required} missing (required)`, fits: BAD_INPUT, body: omit(valid, required) });
  const typed = properties.find(([, s]) => wrongType(s) !== undefined);
  if (typed) mutations.push({ label: `body.${typed[0]} of the wrong type`, fits: BAD_INPUT, body: { ...valid, [typed[0]]: wrongType(typed[1]) } });
  const enumerated = properties.find(([, s]) => Array.isArray(s.enum) && typeOf(s) === 'string');
  if (enumerated) mutations.push({ label: `body.${enumerated[0]} outside its enum`, fits: BAD_INPUT, body: { ...valid, [enumerated[0]]: 'not-in-the-enum' } });
  const numeric = properties.map(([name, s]) => ({ name, bounds: outOfBounds(s).filter((b) => typeof b.value === 'number') })).find((p) => p.bounds.length);
  if (numeric) mutations.push({ label: `body.${numeric.name} beyond its ${numeric.bounds[0].rule}`, fits: BAD_INPUT, body: { ...valid, [numeric.name]: numeric.bounds[0].value } });
  const textual = properties.map(([name, s]) => ({ name, bounds: outOfBounds(s).filter((b) => typeof b.value === 'string') })).find((p) => p.bounds.length);
  if (textual) mutations.push({ label: `body.${textual.name} beyond its ${textual.bounds[0].rule}`, fits: BAD_INPUT, body: { ...valid, [textual.name]: textual.bounds[0].value } });
  return mutations;
}

function parameterMutations(ctx: ContractContext, op: Operation, params: Record<string, unknown>): Mutation[] {
  const mutations: Mutation[] = [];
  for (const p of op.parameters) {
    const schema = typeOf(p.schema) === 'array' ? (p.schema.items ?? {}) : p.schema;
    const values: Array<{ label: string; value: unknown }> = [];
    if (typeOf(schema) === 'integer' || typeOf(schema) === 'number') values.push({ label: 'of the wrong type', value: 'abc' });
    for (const bound of outOfBounds(schema)) values.push({ label: `beyond its ${bound.rule}`, value: bound.value });
    if (Array.isArray(schema.enum) && typeOf(schema) === 'string') values.push({ label: 'outside its enum', value: 'not-in-the-enum' });
    for (const { label, value } of values) {
      if (p.in === 'path') mutations.push({ label: `path.${p.name} ${label}`, fits: [...BAD_INPUT, 404], params: { ...params, [p.name]: value } });
      if (p.in === 'query') mutations.push({ label: `query.${p.name} ${label}`, fits: BAD_INPUT, query: `${encodeURIComponent(p.name)}=${encodeURIComponent(String(value))}` });
      if (p.in === 'header') mutations.push({ label: `header.${p.name} ${label}`, fits: BAD_INPUT, headers: { [p.name]: String(value) } });
    }
  }
  return mutations;
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
      if (ctx.options.readOnly && op.method !== 'get') {
        ctx.skip('negative_data_rejection', op, '--read-only: the request would change state if the server accepted it');
        continue;
      }
      const params = await targets.params(op);
      if (!params) {
        ctx.skip('negative_data_rejection', op, 'no record to aim at');
        continue;
      }
      if (op.method !== 'get' && op.method !== 'head' && !ownTarget(ctx, op, params)) {
        ctx.skip('negative_data_rejection', op, 'the record it aims at is not one the suite created (a server that accepted the bad input would change it)');
        continue;
      }
      if (await namesForeignRecord(ctx, targets, op, 'negative_data_rejection')) continue;
      const valid = await validBodyFor(ctx, targets, op);
      const media = Object.keys(op.requestBody?.content ?? {}).find((m) => /json/i.test(m));
      const schema = media ? (op.requestBody!.content[media].schema ?? {}) : {};
      const mutations = [...bodyMutations(valid, op, ctx.binding(op)?.collection.keyProperty), ...parameterMutations(ctx, op, params), ...oversized(ctx, op, valid, schema)];
      if (mutations.length === 0) ctx.skip('negative_data_rejection', op, 'it takes no input the suite can break (no JSON body, no constrained parameter)');
      for (const mutation of mutations) {
        await refusedChangesNothing(ctx, targets, op, 'negative_data_rejection', () => ctx.request(op, {
          label: mutation.label,
          params: mutation.params ?? params,
          query: mutation.query,
          body: mutation.rawBody === undefined ? (mutation.body ?? valid) : undefined,
          rawBody: mutation.rawBody,
          headers: mutation.headers,
          intent: 'invalid',
          // A record the suite could not find may be answered 404 as well.
          fits: targets.guessed(params) ? [...mutation.fits, 404] : mutation.fits,
          purpose: { check: 'negative_data_rejection', kind: 'invalid-input' },
        }));
      }
    }
  },
};
