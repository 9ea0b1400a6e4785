/**
 * Stage 7 for operations that no collection explains (a search, an upload, a report): answer
 * with the documented success response, its body taken from the document's examples or
 * generated from its schema once at startup, then checked against that schema.
 */
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../document/schema.js';
import type { Operation, ResponseSpec } from '../operations/operation.js';
import type { ActionResult } from '../pipeline/exchange.js';
import { isJsonMediaType } from '../core/media-type.js';
import type { Registry } from '../core/registry.js';
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
 * The answer, in the media type `as` (a key of the success response's `content`, chosen by the
 * request's `Accept`), or by default the first JSON one, else the first.
 *
 * @example staticResponse(op, ctx) // { status: 200, body: {...}, headers: {'Content-Type': 'application/json'} }
 */
export function staticResponse(operation: Operation, ctx: StaticResponseContext, as?: string): ActionResult {
  const response = successResponse(operation);
  if (!response) return { status: 204 };
  // `2XX` and `default` are answered 200.
  const status = /^\d{3}$/.test(response.status) ? Number(response.status) : 200;
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
    if (!result) made.set(as, (result = staticResponse(operation, alternate(), as)));
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
