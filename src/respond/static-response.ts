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

/** @example staticResponse(op, ctx) // { status: 200, body: {...}, headers: {'Content-Type': 'application/json'} } */
export function staticResponse(operation: Operation, ctx: StaticResponseContext): ActionResult {
  const response = pickSuccess(operation.responses);
  if (!response) return { status: 204 };
  // `2XX` and `default` are answered 200.
  const status = /^\d{3}$/.test(response.status) ? Number(response.status) : 200;
  const headers = requiredHeaders(response, ctx);
  const mediaTypes = Object.keys(response.content);
  if (mediaTypes.length === 0 || status === 204 || status === 304) return { status, headers };

  const media = mediaTypes.find((m) => isJsonMediaType(m.toLowerCase())) ?? mediaTypes[0];
  const spec = response.content[media];
  headers['Content-Type'] = media.includes('*') ? 'application/json' : media;
  const example = documentedExample(spec);
  if (!isJsonMediaType(media.toLowerCase()) && !media.includes('*')) {
    if (typeof example === 'string') return { status, headers, body: example };
    const encode = encoderFor(ctx.encoders ?? BUILT_IN, media);
    return { status, headers, body: encode ? encode(example ?? ctx.generate(spec.schema ?? { type: 'string' }), media) : '' };
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
