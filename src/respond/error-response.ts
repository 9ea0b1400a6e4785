/**
 * Error responses shaped by the document. The mock's own `Error {code, message, status}` is sent
 * where the operation's declared response accepts it (the Petstore). Where a document declares
 * another error schema (`{code: integer}`, RFC 7807 problem+json) or no error body at all, the
 * response follows the declaration, with the code and message carried in the fields it has.
 */
import { respond } from '../core/security-headers.js';
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../document/schema.js';
import { findResponse } from '../operations/build-operations.js';
import { mergedProperties } from '../operations/infer-collections.js';
import type { Operation, ResponseSpec } from '../operations/operation.js';
import { isJsonMediaType } from '../core/media-type.js';
import { ApiError, errorResponse } from '../core/api-error.js';

export interface ErrorResponderContext {
  generate: (schema: SchemaObject, hints?: { propertyName?: string }) => unknown;
  responseValidator: (schema: SchemaObject) => ValidateFunction | undefined;
}

type Shape = (error: ApiError, headers: Record<string, string>) => Response;

/** Fields that can carry the error's text or code, by common name. */
const TEXT_FIELDS = /^(message|detail|details|error|error_description|description|reason)$/i;
const CODE_FIELDS = /^(code|error_code|errorCode)$/;

/** A schema that names no fields, or names `code` or `message`, reads the native Error as meant. */
function speaksNative(schema: SchemaObject): boolean {
  const names = Object.keys(mergedProperties(schema));
  return names.length === 0 || names.includes('code') || names.includes('message');
}

/** @example const respond = compileErrorResponder(op, ctx); respond(errors.notFound('pet', 'id 7'), {}) */
export function compileErrorResponder(operation: Operation, ctx: ErrorResponderContext): (error: ApiError, headers?: Record<string, string>) => Response {
  // By status, and whether the error carries details: the native body has two shapes
  // (`{ code, message, status }` and the same with `details`), and a schema may accept one only.
  const shapes = new Map<string, Shape>();
  const declared = (status: number) => operation.responses.some((r) => r.status === String(status));
  return (raw, headers = {}) => {
    const error = asDeclared(raw, declared, findResponse(operation, raw.status) !== undefined);
    const key = error.details?.length ? `${error.status}+details` : String(error.status);
    let shape = shapes.get(key);
    if (!shape) shapes.set(key, (shape = shapeFor(findResponse(operation, error.status) ?? errorShapeOf(operation), error, ctx)));
    return shape(error, headers);
  };
}

/**
 * The status the operation declares for a kind of failure, when it does not declare the mock's
 * usual one: bad credentials are 403 where only 403 is declared; a wrong media type is 415 wherever
 * 415 is declared; bad input is 422 where 422 is declared and 400 is not; a body too large is 400
 * where 400 is declared and 413 is not. Anything the operation covers (exactly, as a range or by
 * `default`) keeps its status, so a forced `Prefer: code=` is never changed.
 */
function asDeclared(error: ApiError, declared: (status: number) => boolean, covered: boolean): ApiError {
  const to = (status: number, headers = error.headers) => new ApiError(status, error.code, error.message, error.details, headers);
  if (error.code === 'INVALID_CONTENT_TYPE' && declared(415)) return to(415);
  if (covered) return error;
  if (error.status === 401 && declared(403)) {
    const { 'WWW-Authenticate': _challenge, ...rest } = error.headers ?? {};
    return to(403, rest); // a challenge belongs to a 401 only
  }
  if (error.status === 400 && declared(422)) return to(422);
  if (error.status === 413 && declared(400)) return to(400);
  return error;
}

/**
 * For a status the operation does not declare (a rule's 409 where only 400 is declared): the body
 * of its other errors, 400 first, so every error it answers has the document's error shape.
 */
function errorShapeOf(operation: Operation): ResponseSpec | undefined {
  const errors = operation.responses.filter((r) => /^[45]/.test(r.status) && Object.keys(r.content ?? {}).length > 0);
  return errors.find((r) => r.status === '400') ?? errors[0];
}

function shapeFor(declared: ResponseSpec | undefined, sample: ApiError, ctx: ErrorResponderContext): Shape {
  if (!declared) return (error, headers) => errorResponse(error, headers);
  const mediaTypes = Object.keys(declared.content);
  if (mediaTypes.length === 0) return (error, headers) => respond(null, error.status, { ...error.headers, ...headers });
  const media = mediaTypes.find((m) => m.toLowerCase() === 'application/json') ?? mediaTypes.find((m) => isJsonMediaType(m.toLowerCase())) ?? mediaTypes[0];
  const contentType = media.includes('*') ? 'application/json' : media;
  const schema = declared.content[media].schema;
  const send = (body: string, error: ApiError, headers: Record<string, string>) =>
    respond(body, error.status, { 'Content-Type': contentType, ...error.headers, ...headers });
  if (!isJsonMediaType(media.toLowerCase()) && !media.includes('*')) return (error, headers) => send(error.message, error, headers);
  const validate = schema ? ctx.responseValidator(schema) : undefined;
  if (!schema || !validate || (validate(sample.toBody()) && speaksNative(schema))) return (error, headers) => send(JSON.stringify(error.toBody()), error, headers);

  // Another schema: a template generated once, with the error's text and code put in its fields.
  const template = templateFor(schema, sample, ctx, validate);
  return (error, headers) => {
    const filled = template && fill(template, error);
    return send(JSON.stringify(filled && validate(filled) ? filled : (template ?? error.toBody())), error, headers);
  };
}

function templateFor(schema: SchemaObject, sample: ApiError, ctx: ErrorResponderContext, validate: ValidateFunction): unknown {
  let fallback: unknown;
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = ctx.generate(schema);
    if (!validate(candidate)) continue;
    fallback ??= candidate;
    if (validate(fill(candidate, sample))) return candidate;
  }
  return fallback;
}

/** The template with the error's status, code and message in the fields that can hold them. */
function fill(template: unknown, error: ApiError): unknown {
  if (!template || typeof template !== 'object' || Array.isArray(template)) return template;
  const out: Record<string, unknown> = { ...(template as Record<string, unknown>) };
  for (const [name, value] of Object.entries(out)) {
    if (name === 'status' && typeof value === 'number') out[name] = error.status;
    // RFC 7807: `type` defaults to about:blank, `title` summarises the kind of problem.
    else if (name === 'type' && typeof value === 'string') out[name] = 'about:blank';
    else if (name === 'title' && typeof value === 'string') out[name] = error.code.charAt(0) + error.code.slice(1).toLowerCase().replace(/_/g, ' ');
    else if (CODE_FIELDS.test(name)) out[name] = typeof value === 'number' ? error.status : error.code;
    else if (TEXT_FIELDS.test(name) && typeof value === 'string') out[name] = error.message;
  }
  return out;
}
