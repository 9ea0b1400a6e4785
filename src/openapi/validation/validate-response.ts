/**
 * Checks a response against its operation: a declared status, a declared media type, a body
 * that matches the schema, and the declared required headers, present and well-formed.
 * Used by the tests of the mock and by the contract suite against any server.
 */
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../document/schema.js';
import { findResponse } from '../operations/build-operations.js';
import type { Operation } from '../operations/operation.js';
import type { AjvCore } from './ajv-instance.js';
import { schemaCompiler } from './compile-schema.js';
import { toProblems } from './ajv-problems.js';
import { isJsonMediaType, matchMediaType, parseMediaType } from '../../core/media-type.js';
import type { Problem } from '../../core/problem.js';
import type { SchemaConverter } from './to-json-schema.js';

export interface ReceivedResponse {
  status: number;
  headers: Headers;
  /** The body as text ('' when there is none). */
  text: string;
}

/**
 * @param validatorFor the response validators to use (the mock's own, already compiled); default: compiled here
 * @example const check = createResponseChecker(ajv, converter); check(op, received) // [] when it conforms
 */
export function createResponseChecker(ajv: AjvCore, converter: SchemaConverter, validatorFor: (schema: SchemaObject) => ValidateFunction | undefined = schemaCompiler(ajv, converter, 'response')): (operation: Operation, response: ReceivedResponse) => Problem[] {

  return (operation, response) => {
    if (operation.responses.length === 0) return []; // 3.1 allows an operation without responses
    const declared = findResponse(operation, response.status);
    if (!declared) {
      const statuses = operation.responses.map((r) => r.status);
      return [{ path: 'status', rule: 'declared', message: `${response.status} is not declared (declared: ${statuses.join(', ')})`, declared: statuses }];
    }
    const problems: Problem[] = [];
    for (const [name, header] of Object.entries(declared.headers)) {
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required) problems.push({ path: `header.${name}`, rule: 'required', message: 'is required' });
        continue;
      }
      const validate = validatorFor(header.schema);
      const typed = coerceHeader(value, header.schema);
      if (validate && !validate(typed)) problems.push(...toProblems(validate.errors, `header.${name}`, true));
    }
    const mediaTypes = Object.keys(declared.content);
    if (mediaTypes.length === 0) {
      // A response declared without content promises nothing about its body; 204 and 304 have none by HTTP (RFC 9110 15.3.5, 15.4.5).
      if (BODILESS.has(response.status) && response.text !== '') problems.push({ path: 'body', rule: 'empty', message: `must be empty (a ${response.status} has no body)` });
      return problems;
    }
    const contentType = response.headers.get('content-type');
    const media = parseMediaType(contentType);
    const match = media && matchMediaType(mediaTypes, media.essence);
    if (!match) {
      problems.push({ path: 'header.Content-Type', rule: 'declared', message: `${contentType ?? '(none)'} is not declared (declared: ${mediaTypes.join(', ')})`, declared: mediaTypes });
      return problems;
    }
    const schema = declared.content[match].schema;
    if (!schema || !isJsonMediaType(media.essence)) return problems;
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      return [...problems, { path: 'body', rule: 'json', message: 'is not valid JSON' }];
    }
    const validate = validatorFor(schema);
    if (validate && !validate(body)) problems.push(...toProblems(validate.errors, 'body', true));
    return problems;
  };
}

/** The statuses whose responses have no body, whatever the document declares. */
const BODILESS = new Set([204, 304]);

function coerceHeader(value: string, schema: SchemaObject): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (schema.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
