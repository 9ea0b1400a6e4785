/**
 * Stage 7 for operations that no collection explains (a search, an upload, a report): answer
 * with the documented success response, its body taken from the document's examples or
 * generated from its schema once at startup, then checked against that schema. Each answer still
 * carries what its request sent where the schema has a place for it (a field of the body, a path
 * parameter, matched by name: `PhoneNumber` is `phone_number`), as long as it stays valid.
 *
 * The same answers serve a write on a collection whose declared body cannot hold the record (a
 * DELETE that answers `{}`, a confirmation `{deleted, id}`): `compileConformer`.
 */
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../../openapi/document/schema.js';
import type { Operation, ResponseSpec } from '../../openapi/operations/operation.js';
import type { Action, ActionResult } from '../pipeline/exchange.js';
import { isJsonMediaType } from '../../core/media-type.js';
import type { Registry } from '../../core/registry.js';
import { FieldNames } from '../../openapi/operations/field-names.js';
import { requestBodySchema } from '../../openapi/operations/build-operations.js';
import { isJsonObject } from '../../core/json-object.js';
import { mergedProperties } from '../../openapi/operations/schema-properties.js';
import { setOwn } from '../../core/own-property.js';
import { bodyEncoders, encoderFor, type BodyEncoder } from './body-encoders.js';

export interface StaticResponseContext {
  generate: (schema: SchemaObject, hints?: { propertyName?: string }) => unknown;
  /** Compiles the response-direction validator of a schema (undefined if it cannot be compiled). */
  responseValidator: (schema: SchemaObject) => ValidateFunction | undefined;
  warn: (message: string) => void;
  /** Encoders of bodies that are not JSON (default: the built-ins). */
  encoders?: Registry<BodyEncoder>;
}

const BUILT_IN = bodyEncoders();

const ATTEMPTS = 8;

/**
/**
 * The answer of the declared success response (or of `status`, when given and declared), in the
 * media type `as` (a key of that response's `content`, chosen by the request's `Accept`), or by
 * default the first JSON one, else the first.
 *
 * @example staticResponse(op, ctx) // { status: 200, body: {...}, headers: {'Content-Type': 'application/json'} }
 */
export function staticResponse(operation: Operation, ctx: StaticResponseContext, { as, status }: { as?: string; status?: number } = {}): ActionResult {
  const response = (status !== undefined && operation.responses.find((r) => r.status === String(status))) || successResponse(operation);
  if (!response) return { status: 204 };
  // `2XX` and `default` are answered 200.
  return answerOf(operation, response, /^\d{3}$/.test(response.status) ? Number(response.status) : 200, ctx, as);
}

function answerOf(operation: Operation, response: ResponseSpec, status: number, ctx: StaticResponseContext, as: string | undefined): ActionResult {
  const headers = requiredHeaders(response, ctx);
  const mediaTypes = Object.keys(response.content);
  if (mediaTypes.length === 0 || status === 204 || status === 304) return { status, headers };

  const media = as !== undefined && response.content[as] ? as : defaultMedia(mediaTypes)!;
  const spec = response.content[media];
  const contentType = sentAs(media);
  headers['Content-Type'] = contentType;
  const example = documentedExample(spec);
  if (!isJsonMediaType(contentType.split(';')[0].trim().toLowerCase())) {
    if (typeof example === 'string') return { status, headers, body: example };
    const encode = encoderFor(ctx.encoders ?? BUILT_IN, contentType);
    return { status, headers, body: encode ? encode(example ?? ctx.generate(spec.schema ?? { type: 'string' }), contentType) : '' };
  }
  const validate = spec.schema ? ctx.responseValidator(spec.schema) : undefined;
  if (example !== undefined && (!validate || validate(example))) return { status, headers, body: example };
  if (!spec.schema) return { status, headers, body: example ?? {} };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const body = ctx.generate(spec.schema);
    if (!validate || validate(body)) return { status, headers, body };
  }
  for (const minimal of [[], {}]) if (validate?.(minimal)) return { status, headers, body: minimal };
  ctx.warn(`${operation.id}: no value generated for its ${status} response satisfies the schema; the mock answers the closest one.`);
  return { status, headers, body: example ?? ctx.generate(spec.schema) };
}

/**
 * An operation's static answer in each media type asked for (`ActionInput.respondAs`): the
 * default made at once, each other on its first request, from `alternate()`, a context whose
 * generator is seeded for it (what it makes does not depend on when it is asked).
 */
export function staticAnswers(operation: Operation, ctx: StaticResponseContext, alternate: () => StaticResponseContext): (as?: string) => ActionResult {
  const first = staticResponse(operation, ctx);
  const response = successResponse(operation);
  const firstKey = response && defaultMedia(Object.keys(response.content));
  const made = new Map<string, ActionResult>();
  return (as) => {
    if (as === undefined || as === firstKey) return first;
    let result = made.get(as);
    if (!result) made.set(as, (result = staticResponse(operation, alternate(), { as })));
    return result;
  };
}

/** The media type answered when none is asked for: the first JSON one declared, else the first. */
function defaultMedia(mediaTypes: string[]): string | undefined {
  return mediaTypes.find((m) => isJsonMediaType(m.toLowerCase())) ?? mediaTypes[0];
}

/** The `Content-Type` a declared media type is sent as: itself, `text/*` as `text/plain`, and any other range as JSON. */
function sentAs(media: string): string {
  const essence = media.split(';')[0].trim().toLowerCase();
  if (essence === 'text/*') return 'text/plain';
  return media.includes('*') ? 'application/json' : media;
}

/** The response a success answers with: the lowest 2xx declared, else `2XX`, else `default`, else a 1xx or 3xx one. */
export function successResponse(operation: Operation): ResponseSpec | undefined {
  return pickSuccess(operation.responses);
}

/**
 * The action of an operation no collection explains: its answer from the document (`answers`, by media type), with
 * the request's body fields and path parameters set where the answer's schema has a property spelled
 * like them (case and separators ignored), each kept only if the answer stays valid. An answer that
 * is no JSON object, or whose schema names none of the request's fields, is the same every time.
 */
export function compileStaticAction(operation: Operation, answers: (as?: string) => ActionResult, ctx: Pick<StaticResponseContext, 'responseValidator'>): Action {
  const result = answers();
  const same: Action = (input) => answers(input.respondAs);
  const schema = answerSchema(operation, result);
  const body = result.body;
  if (!schema || !isJsonObject(body)) return same;
  const properties = Object.keys(mergedProperties(schema));
  if (properties.length === 0) return same;
  // A JSON or form body's fields (any, matched by name, when its schema declares none); path parameters.
  const request = requestBodySchema(operation);
  const fromBody = request ? new FieldNames(Object.keys(mergedProperties(request)), properties) : undefined;
  const fromPath = new FieldNames(operation.parameters.filter((p) => p.in === 'path').map((p) => p.name), properties);
  const bodyReaches = fromBody !== undefined && (fromBody.fields.length === 0 || fromBody.reached.size > 0);
  if (fromPath.reached.size === 0 && !bodyReaches) return same;
  const validate = ctx.responseValidator(schema);
  return (input) => {
    const asked = answers(input.respondAs);
    if (asked !== result) return asked; // another media type: carried fields are for the JSON answer
    const values = [...fromPath.map(input.params.path), ...(bodyReaches ? fromBody!.map(input.body) : [])];
    return values.length === 0 ? result : { ...result, body: carry(body, values, validate) };
  };
}

/**
 * What a write on a collection answers when the body declared for `status` is not the record's
 * schema: the record where it is valid there, else the document's answer for that status carrying
 * the record's fields it has a place for (`{deleted: true, id: 7}`), else that answer alone (`{}`
 * for `type: object, maxProperties: 0`). Undefined when the declared body is the record's schema
 * (the record is the answer, checked by nothing per request).
 */
export function compileConformer(operation: Operation, status: number, record: SchemaObject, ctx: StaticResponseContext, beforeGenerating?: () => void): ((record: Record<string, unknown>) => unknown) | undefined {
  const response = operation.responses.find((r) => r.status === String(status));
  // A JSON answer only: the record is sent as JSON (another media type is left as it was).
  const media = response && Object.keys(response.content).find((m) => isJsonMediaType(m.toLowerCase()));
  const schema = media ? response!.content[media].schema : undefined;
  if (!schema || schema === record) return undefined;
  const validate = ctx.responseValidator(schema);
  if (!validate) return undefined;
  const names = new FieldNames(Object.keys(mergedProperties(record)), Object.keys(mergedProperties(schema)));
  beforeGenerating?.();
  const answer = staticResponse(operation, ctx, { status }).body;
  return (stored) => {
    if (validate(stored)) return stored;
    return isJsonObject(answer) ? carry(answer, names.map(stored), validate) : answer;
  };
}

/** `base` (a valid answer) with `values` set, all at once if the result is valid, else one by one, each kept only where it stays valid. */
function carry(base: Record<string, unknown>, values: Array<[string, unknown]>, validate: ValidateFunction | undefined): Record<string, unknown> {
  const out = { ...base };
  for (const [name, value] of values) setOwn(out, name, value);
  if (!validate || validate(out)) return out;
  const kept = { ...base };
  for (const [name, value] of values) {
    const had = Object.hasOwn(kept, name);
    const before = kept[name];
    setOwn(kept, name, value);
    if (validate(kept)) continue;
    if (had) setOwn(kept, name, before);
    else delete kept[name];
  }
  return kept;
}

/** The schema of the answer a static result sends (by its media type), when it is JSON. */
function answerSchema(operation: Operation, result: ActionResult): SchemaObject | undefined {
  const media = result.headers?.['Content-Type'];
  if (!media || !isJsonMediaType(media.toLowerCase())) return undefined;
  const response = operation.responses.find((r) => r.status === String(result.status)) ?? pickSuccess(operation.responses);
  return response?.content[media]?.schema ?? response?.content[Object.keys(response.content).find((m) => m.includes('*')) ?? '']?.schema;
}


function pickSuccess(responses: ResponseSpec[]): ResponseSpec | undefined {
  const success = responses.filter((r) => /^2(\d\d|XX)$/i.test(r.status)).sort((a, b) => a.status.localeCompare(b.status));
  return success[0] ?? responses.find((r) => r.status === 'default') ?? responses.find((r) => /^[13]/.test(r.status));
}

function documentedExample(spec: { example?: unknown; examples?: Record<string, { value?: unknown }>; schema?: SchemaObject }): unknown {
  const named = spec.examples && Object.values(spec.examples).find((e) => e && e.value !== undefined)?.value;
  const value = spec.example ?? named ?? spec.schema?.example;
  return value === undefined ? undefined : normalise(value);
}

/** YAML gives `Date` objects for unquoted dates: send them as the strings they were. */
export function normalise(value: unknown): unknown {
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}

function requiredHeaders(response: ResponseSpec, ctx: StaticResponseContext): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(response.headers)) {
    if (header.required && name.toLowerCase() !== 'content-type') headers[name] = String(ctx.generate(header.schema, { propertyName: name }));
  }
  return headers;
}
