/**
 * The shapes this project reads out of an OpenAPI document. Documents come from anywhere
 * (3.0.x or 3.1.x, hand-written or generated), so schemas are kept as plain JSON-like records
 * rather than a closed type: every reader checks what it needs.
 */

/**
 * A (dereferenced) Schema Object of OpenAPI 3.0 or 3.1 as the code walks it: the keywords the mock
 * and the suite read, typed, and any other keyword (an extension, a 3.1 keyword nobody reads) as
 * `unknown`, so a reader narrows what it takes. Documents come from strangers: a keyword may hold
 * anything a loose validator let through, which is why no keyword is trusted beyond its type here.
 * A schema may be part of a circular object graph; a `$ref` remains only where it is circular.
 */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  format?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown;
  nullable?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  deprecated?: boolean;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  patternProperties?: Record<string, SchemaObject>;
  propertyNames?: SchemaObject;
  minProperties?: number;
  maxProperties?: number;
  items?: SchemaObject;
  prefixItems?: SchemaObject[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  allOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  not?: SchemaObject;
  /** `mapping` values are references (strings); a loader that dereferenced them leaves the schema itself. */
  discriminator?: { propertyName: string; mapping?: Record<string, string | SchemaObject> };
  minimum?: number;
  maximum?: number;
  /** A boolean beside `minimum` in 3.0, the bound itself in 3.1. */
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  [keyword: string]: unknown;
}

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
  schema: SchemaObject;
  /** The media type of a parameter given as `content` (`application/json` for LoopBack's `filter`): its value is that encoding of the schema, not a style. */
  mediaType?: string;
}

/** The type a schema names: `type`, or the first non-null one of a 3.1 list (`[string, null]` → `string`). */
export function schemaType(schema: SchemaObject): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t: unknown): t is string => typeof t === 'string' && t !== 'null') : schema.type;
}
