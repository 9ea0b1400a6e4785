/**
 * Stage 5: validate a request against its operation. Parameters are deserialised by style and
 * checked with one compiled schema; the body is checked for presence, media type, encoding and
 * JSON syntax, for lone surrogates (lone-surrogates.ts), then against its schema. All problems of
 * one request come back together.
 */
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../document/schema.js';
import type { Operation } from '../operations/operation.js';
import { ApiError, errors } from '../../core/api-error.js';
import type { AjvCore } from './ajv-instance.js';
import { toProblems } from './ajv-problems.js';
import { matchMediaType, parseMediaType } from '../../core/media-type.js';
import { compileParameterParser, type ParsedParameters, type RawParameters } from './parse-parameters.js';
import type { SchemaConverter } from './to-json-schema.js';
import { bodyDecoders, decoderFor, type BodyDecoder } from './body-decoders.js';
import { loneSurrogates } from './lone-surrogates.js';
import type { Registry } from '../../core/registry.js';

export interface RawRequest extends RawParameters {
  /** Reads the body bytes, or undefined when they pass the size cap (called only when the operation declares a body). */
  body: () => Promise<Uint8Array | undefined>;
}

export interface ValidRequest {
  params: ParsedParameters;
  body: unknown;
  /** The declared media type the body was read as (`application/merge-patch+json`); undefined without a body. */
  mediaType?: string;
}

export interface CompileContext {
  ajv: AjvCore;
  converter: SchemaConverter;
  /** Collects schemas Ajv could not compile: the mock then skips that check rather than failing. */
  warn: (message: string) => void;
  /** The body size cap, for the 413 message. */
  maxBodyBytes: number;
  /** Body decoders by media type (default: the built-ins). */
  decoders?: Registry<BodyDecoder>;
}

const BUILT_IN = bodyDecoders();

/** An operation's request validator: synchronous without a body, a promise with one. */
export type RequestValidator = (raw: RawRequest) => ValidRequest | ApiError | Promise<ValidRequest | ApiError>;

/**
 * Synchronous when the operation takes no body (no promise per request); a promise otherwise.
 * @example const validate = compileRequestValidator(op, ctx); const result = await validate(raw);
 */
export function compileRequestValidator(operation: Operation, ctx: CompileContext): RequestValidator {
  const parseParameters = compileParameterParser(operation.parameters);
  const checkParameters = compileSafely(ctx, parametersSchema(operation, ctx.converter), `${operation.id} parameters`);
  const declared = Object.keys(operation.requestBody?.content ?? {});
  const formParsers = new Map(
    declared
      .filter((media) => media.toLowerCase().startsWith('application/x-www-form-urlencoded'))
      .map((media) => [media, formParser(operation.requestBody!.content[media]?.schema)]),
  );
  const bodyValidators = new Map<string, ValidateFunction | undefined>(
    declared.map((media) => [
      media,
      compileSafely(ctx, ctx.converter.convert(operation.requestBody!.content[media]?.schema, 'request'), `${operation.id} ${media} body`),
    ]),
  );
  const accepted = declared.length ? declared : ['application/json'];
  const decoders = ctx.decoders ?? BUILT_IN;

  const parameters = (raw: RawRequest) => {
    const { values, problems } = parseParameters(raw);
    if (checkParameters && !checkParameters(values)) problems.push(...toProblems(checkParameters.errors, ''));
    return { values, problems };
  };
  if (!operation.requestBody) {
    return (raw) => {
      const { values, problems } = parameters(raw);
      return problems.length ? errors.validation(problems) : { params: values, body: undefined };
    };
  }
  const requestBody = operation.requestBody;
  /** The checks once the body bytes are in (synchronous: one promise per request, the body's). */
  const checkBody = (raw: RawRequest, bytes: Uint8Array | undefined): ValidRequest | ApiError => {
    const { values, problems } = parameters(raw);
    if (bytes === undefined) return errors.payloadTooLarge(ctx.maxBodyBytes);
    if (bytes.byteLength === 0) {
      if (requestBody.required) return errors.missingBody();
      return problems.length ? errors.validation(problems) : { params: values, body: undefined };
    }
    const contentType = raw.header('content-type') ?? undefined;
    const media = parseMediaType(contentType);
    const declaredMedia = media && matchMediaType(declared, media.essence);
    if (!media || !declaredMedia) return errors.invalidContentType(contentType, accepted);
    let decoded = decoderFor(decoders, media.essence)(bytes, media);
    if (decoded instanceof ApiError) return decoded;
    const parseForm = formParsers.get(declaredMedia);
    if (parseForm) {
      const form = parseForm(decoded as string);
      problems.push(...form.problems);
      decoded = form.values;
    }
    // Not Unicode text, whatever the document allows: refused before the state (or a URL, or a database) sees it.
    problems.push(...loneSurrogates(decoded, 'body'));
    const validate = bodyValidators.get(declaredMedia);
    if (validate) {
      try {
        if (!validate(decoded)) problems.push(...toProblems(validate.errors, 'body'));
      } catch {
        // Only pathological input (nesting deep enough to exhaust the stack) gets here.
        problems.push({ path: 'body', rule: 'depth', message: 'is nested too deeply to be checked' });
      }
    }
    return problems.length ? errors.validation(problems) : { params: values, body: decoded, mediaType: declaredMedia };
  };
  return (raw) => raw.body().then((bytes) => checkBody(raw, bytes));
}

/**
 * A form body is a query string whose fields are the schema's properties: the parameter parser
 * (form style, exploded) decodes and types it.
 */
function formParser(schema: SchemaObject | undefined) {
  const properties = Object.entries<SchemaObject>(schema?.properties ?? {});
  const parse = compileParameterParser(
    properties.map(([name, property]) => ({ name, in: 'query', required: false, style: 'form', explode: true, schema: property })),
  );
  return (text: string) => {
    const { values, problems } = parse({ path: {}, query: text, header: () => undefined });
    return { values: values.query, problems: problems.map((p) => ({ ...p, path: p.path.replace(/^query\./, 'body.') })) };
  };
}

/** One object schema for every parameter location, so one Ajv call checks them all. */
function parametersSchema(operation: Operation, converter: SchemaConverter): SchemaObject | undefined {
  if (operation.parameters.length === 0) return undefined;
  const properties: Record<string, { type: 'object'; properties: Record<string, SchemaObject | boolean> }> = {};
  for (const p of operation.parameters) {
    properties[p.in] ??= { type: 'object', properties: {} };
    properties[p.in].properties[p.name] = converter.convert(p.schema, 'request');
  }
  // Converted schemas are Ajv's JSON Schema, where a subschema may be `true` or `false`.
  return { type: 'object', properties: properties as Record<string, SchemaObject> };
}

function compileSafely(ctx: CompileContext, schema: SchemaObject | boolean | undefined, what: string): ValidateFunction | undefined {
  if (schema === undefined || schema === true) return undefined;
  try {
    return ctx.ajv.compile(schema as SchemaObject);
  } catch (error) {
    ctx.warn(`${what}: the schema cannot be compiled (${String((error as Error).message).split('\n')[0]}); this check is skipped.`);
    return undefined;
  }
}

