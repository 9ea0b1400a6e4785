/**
 * The shapes this project reads out of an OpenAPI document. Documents come from anywhere
 * (3.0.x or 3.1.x, hand-written or generated), so schemas are kept as plain JSON-like records
 * rather than a closed type: every reader checks what it needs.
 */

import type { OpenAPISchema } from './openapi.js';

/**
 * A (dereferenced) OpenAPI Schema Object, or any other object of a document, as the code reads it:
 * loosely. It may be part of a circular object graph. The published types name the typed objects of
 * openapi.ts instead.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SchemaObject = { [keyword: string]: any };

/** A Parameter Object after dereferencing, with the defaults of OpenAPI applied. */
export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** `form` for query and cookie, `simple` for path and header, unless the document says otherwise. */
  style: string;
  /** True by default for `form`, false for the other styles. */
  explode: boolean;
  /** The parameter's schema, or its `content` entry's schema; `{}` when it has neither. */
  schema: OpenAPISchema;
  /** The media type of a parameter given as `content` (`application/json` for LoopBack's `filter`): its value is that encoding of the schema, not a style. */
  mediaType?: string;
}

/** The type a schema names: `type`, or the first non-null one of a 3.1 list (`[string, null]` → `string`). */
export function schemaType(schema: SchemaObject): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t: unknown): t is string => typeof t === 'string' && t !== 'null') : schema.type;
}
