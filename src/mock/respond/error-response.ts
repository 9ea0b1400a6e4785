/**
 * Error responses shaped by the document. The mock's own `Error {code, message, status}` is sent
 * where the operation's declared response accepts it (the Petstore). Where a document declares
 * another error schema (`{code: integer}`, RFC 7807 problem+json) or no error body at all, the
 * response follows the declaration, with the code and message carried in the fields it has.
 */
import { respond } from '../../core/security-headers.js';
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../../openapi/document/schema.js';
import { findResponse } from '../../openapi/operations/build-operations.js';
import { mergedProperties } from '../../openapi/operations/schema-properties.js';
import type { Operation, ResponseSpec } from '../../openapi/operations/operation.js';
import { isJsonMediaType } from '../../core/media-type.js';
import { ApiError, errorResponse } from '../../core/api-error.js';
import type { ClientBase } from '../pipeline/client-base.js';
import { choose, declaredTypes, representations, type CanWrite, type Choice, type Representation } from './negotiate.js';

export interface ErrorResponderContext {
  generate: (schema: SchemaObject, hints?: { propertyName?: string }) => unknown;
  responseValidator: (schema: SchemaObject) => ValidateFunction | undefined;
  /** Whether a body can be written as a media type other than JSON (default: `text/*` only). */
  canWrite?: CanWrite;
}

/** What an error is answered for: the request's `Accept`, and who hears how the answer was fitted to the declaration. */
export interface ErrorRequest {
  accept?: string | null;
  /** Told each way the answer differs from what the mock raised (its status, its media type), in a sentence; `undeclared` when what is sent is not declared. */
  fitted?: (message: string, undeclared: boolean) => void;
  /** Where the client reached the mock: a problem's `instance` names the request at the URL the client used. */
  client?: () => ClientBase;
}

export type ErrorResponder = (error: ApiError, headers?: Record<string, string>, request?: ErrorRequest) => Response;

type Shape = (error: ApiError, headers: Record<string, string>, client?: () => ClientBase) => Response;

/** Fields that can carry the error's text or code, by common name. */
const TEXT_FIELDS = /^(message|detail|details|error|error_description|description|reason)$/i;
const CODE_FIELDS = /^(code|error_code|errorCode)$/;

/** A schema that names no fields, or names `code` or `message`, reads the native Error as meant. */
function speaksNative(schema: SchemaObject): boolean {
  const names = Object.keys(mergedProperties(schema));
  return names.length === 0 || names.includes('code') || names.includes('message');
}

const TEXT_ONLY: CanWrite = (essence) => essence.startsWith('text/');

/** @example const respond = compileErrorResponder(op, ctx); respond(errors.notFound('pet', 'id 7'), {}, { accept: 'application/json' }) */
export function compileErrorResponder(operation: Operation, ctx: ErrorResponderContext): ErrorResponder {
  const canWrite = ctx.canWrite ?? TEXT_ONLY;
  // By status, whether the error carries details (the native body has two shapes, `{ code,
  // message, status }` and the same with `details`, and a schema may accept one only), and media type.
  const shapes = new Map<string, Shape>();
  const fittings = new Map<string, Fitting>();
  const representationsOf = new Map<ResponseSpec, Representation[]>();
  return (raw, headers = {}, request = {}) => {
    const key = `${raw.status} ${raw.code}`;
    let fitting = fittings.get(key);
    if (!fitting) fittings.set(key, (fitting = fitStatus(operation, raw)));
    const error = fitting.status === raw.status ? raw : fitting.to(raw);
    if (fitting.message) request.fitted?.(fitting.message, fitting.undeclared);
    const declared = findResponse(operation, error.status) ?? errorShapeOf(operation);
    let choice: Choice | undefined;
    if (declared) {
      let candidates = representationsOf.get(declared);
      if (!candidates) representationsOf.set(declared, (candidates = representations(declared, canWrite)));
      choice = choose(candidates, request.accept);
      if (choice && !choice.fits) request.fitted?.(`Accept ${request.accept} takes none of the media types declared for ${error.status} (${declaredTypes(declared.content)}); the error is sent as ${choice.type}.`, false);
    }
    const shapeKey = `${error.status}${error.details?.length ? '+details' : ''} ${choice?.key ?? ''}`;
    let shape = shapes.get(shapeKey);
    if (!shape) shapes.set(shapeKey, (shape = shapeFor(declared, choice, error, ctx)));
    return shape(error, headers, request.client);
  };
}

/** The status an error is answered with, and (when it differs or is not declared) the sentence that says why. */
interface Fitting {
  status: number;
  to: (error: ApiError) => ApiError;
  message?: string;
  undeclared: boolean;
}

/**
 * Declared statuses nearest in meaning to each status the mock raises, nearest first: bad
 * credentials may be refused as forbidden, bad input as unprocessable (and back), a missing
 * record as gone (and back), a conflict with the state as unprocessable, a body too large or of
 * the wrong media type as bad input, a full store as unavailable.
 */
const NEAREST: Readonly<Record<number, readonly number[]>> = {
  400: [422],
  401: [403],
  404: [410],
  409: [422],
  410: [404],
  413: [400, 422],
  415: [400, 422],
  422: [400, 409],
  500: [503],
  503: [500],
  507: [503, 500],
};

/**
 * After those, the refusals of a class that say nothing more: 400 and 422 for a client error, 500
 * and 503 for a server error. Never a status that asks the client for something the error is not
 * about (401: credentials, 405: another method, 406 and 415: other media types, 413: a smaller
 * body, 429: to wait), nor one that says something else happened (404 for bad credentials).
 * Credentials are refused with 401 or 403 only (RFC 9110 §15.5.2: a client must be told to
 * authenticate), as the contract suite's status rule holds any server to (src/contract/checks/status-rule.ts).
 */
const GENERIC: Readonly<Record<string, readonly number[]>> = { '4': [400, 422], '5': [500, 503] };
const CREDENTIALS = new Set([401, 403]);

/**
 * The status an operation declares for a failure the mock raises:
 * 1. a wrong media type is 415 wherever 415 is declared (the mock raises 400 INVALID_CONTENT_TYPE);
 * 2. a status the operation covers (exactly, by its range `4XX`, or by `default`) is kept, so a
 *    forced `Prefer: code=` is never changed;
 * 3. else the declared status nearest in meaning (`NEAREST`), then a generic one of the same class
 *    (`GENERIC`): 401 is 403 where 403 is declared (without its `WWW-Authenticate` challenge, and
 *    never another status), 404 is 400 where only 400 is, a body too large is 400;
 * 4. else the status raised, undeclared: the operation declares no error that means the same (only
 *    2xx, or only errors that would tell the client something else). The refusal still has to
 *    happen (a missing credential, a record that does not exist, a body that breaks the schema):
 *    a 2xx would tell the client it worked, and a status of another class or meaning would
 *    mislead it. The request log says so at `debug`, and the self-check counts it as `undeclared`.
 *
 * @example fitStatus(opDeclaring200And400, errors.notFound('thing', 'id 7')).status // 400
 */
export function fitStatus(operation: Operation, error: ApiError): Fitting {
  const declared = (status: number) => operation.responses.some((r) => r.status === String(status));
  const where = `${operation.method.toUpperCase()} ${operation.path}`;
  const raised = `${error.status} ${error.code}`;
  const to = (status: number): Fitting => ({
    status,
    // A challenge belongs to a 401 only.
    to: (e) => new ApiError(status, e.code, e.message, e.details, status === 401 || !e.headers?.['WWW-Authenticate'] ? e.headers : withoutChallenge(e.headers)),
    message: `${raised} answered ${status}: ${where} declares no ${error.status}, and ${status} is its nearest declared status.`,
    undeclared: false,
  });
  if (error.code === 'INVALID_CONTENT_TYPE' && declared(415)) return { ...to(415), message: `${raised} answered 415: ${where} declares 415 for a media type it does not take.` };
  if (findResponse(operation, error.status)) return { status: error.status, to: (e) => e, undeclared: false };
  const nearest = [...(NEAREST[error.status] ?? []), ...(CREDENTIALS.has(error.status) ? [] : (GENERIC[String(error.status)[0]] ?? []))].find(declared);
  if (nearest !== undefined) return to(nearest);
  const statuses = operation.responses.map((r) => r.status).join(', ') || 'nothing';
  return {
    status: error.status,
    to: (e) => e,
    message: `${raised} answered undeclared: ${where} declares ${statuses}, no error that means the same, and the request must be refused.`,
    undeclared: true,
  };
}

function withoutChallenge(headers: Record<string, string>): Record<string, string> {
  const { 'WWW-Authenticate': _challenge, ...rest } = headers;
  return rest;
}

/**
 * For a status the operation does not declare (a rule's 409 where only 400 is declared): the body
 * of its other errors, 400 first, so every error it answers has the document's error shape.
 */
function errorShapeOf(operation: Operation): ResponseSpec | undefined {
  const errors = operation.responses.filter((r) => /^[45]/.test(r.status) && Object.keys(r.content ?? {}).length > 0);
  return errors.find((r) => r.status === '400') ?? errors[0];
}

/** The body of an error as the declared response has it, in the media type chosen (or, when the mock can write none of them, the first JSON one, else the first). */
function shapeFor(declared: ResponseSpec | undefined, choice: Choice | undefined, sample: ApiError, ctx: ErrorResponderContext): Shape {
  if (!declared) return (error, headers) => errorResponse(error, headers);
  const mediaTypes = Object.keys(declared.content);
  if (mediaTypes.length === 0) return (error, headers) => respond(null, error.status, { ...error.headers, ...headers });
  const media = choice?.key ?? mediaTypes.find((m) => m.toLowerCase() === 'application/json') ?? mediaTypes.find((m) => isJsonMediaType(m.toLowerCase())) ?? mediaTypes[0];
  const contentType = choice?.type ?? (media.includes('*') ? 'application/json' : media);
  const schema = declared.content[media].schema;
  const send = (body: string, error: ApiError, headers: Record<string, string>) =>
    respond(body, error.status, { 'Content-Type': contentType, ...error.headers, ...headers });
  if (!isJsonMediaType(contentType.split(';')[0].trim().toLowerCase())) return (error, headers) => send(error.message, error, headers);
  const validate = schema ? ctx.responseValidator(schema) : undefined;
  if (!schema || !validate || (validate(sample.toBody()) && speaksNative(schema))) return (error, headers) => send(JSON.stringify(error.toBody()), error, headers);

  // Another schema: a template generated once, with the error's text and code put in its fields,
  // and the request at the URL the client used as its `instance` (absolute where the schema wants a URI).
  const template = templateFor(schema, sample, ctx, validate);
  const absolute = mergedProperties(schema).instance?.format === 'uri';
  return (error, headers, client) => {
    const filled = template && fill(template, error, client && (() => client().request(absolute)));
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

/** The template with the error's status, code and message in the fields that can hold them, and the request as its `instance`. */
function fill(template: unknown, error: ApiError, instance?: () => string): unknown {
  if (!template || typeof template !== 'object' || Array.isArray(template)) return template;
  const out: Record<string, unknown> = { ...(template as Record<string, unknown>) };
  for (const [name, value] of Object.entries(out)) {
    if (name === 'status' && typeof value === 'number') out[name] = error.status;
    // RFC 7807: `type` defaults to about:blank, `title` summarises the kind of problem.
    else if (name === 'type' && typeof value === 'string') out[name] = 'about:blank';
    else if (name === 'title' && typeof value === 'string') out[name] = error.code.charAt(0) + error.code.slice(1).toLowerCase().replace(/_/g, ' ');
    else if (CODE_FIELDS.test(name)) out[name] = typeof value === 'number' ? error.status : error.code;
    else if (TEXT_FIELDS.test(name) && typeof value === 'string') out[name] = error.message;
    // RFC 9457: the occurrence of the problem, a URI reference; here the request, where the client reached it.
    else if (name === 'instance' && typeof value === 'string' && instance) out[name] = instance();
  }
  return out;
}
