/**
 * An operation is the Operation Object plus its method and path, flattened once at startup with
 * the path-level parameters and the document-level security merged in.
 */
import type { ExampleObject, OperationObject, SecuritySchemeObject } from '../document/objects.js';
import type { ParameterSpec, SchemaObject } from '../document/schema.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface MediaTypeSpec {
  schema?: SchemaObject;
  example?: unknown;
  examples?: Record<string, ExampleObject>;
}

export interface HeaderSpec {
  required: boolean;
  schema: SchemaObject;
}

export interface ResponseSpec {
  /** `200`, `404`, `2XX` or `default`. */
  status: string;
  headers: Record<string, HeaderSpec>;
  /** By media type; empty for a response without a body. */
  content: Record<string, MediaTypeSpec>;
}

/**
 * One alternative of a security requirement: every scheme in it must be satisfied, each with the
 * scopes the requirement names for it (oauth2 and openIdConnect; empty for the others).
 */
export type SecurityAlternative = Array<{ name: string; scheme: SecuritySchemeObject; scopes: string[] }>;

export interface Operation {
  /** The operationId, or `GET /pets/{petId}` when the document gives none. */
  id: string;
  method: HttpMethod;
  /** The path template as written in the document: `/pets/{petId}`. */
  path: string;
  parameters: ParameterSpec[];
  requestBody?: { required: boolean; content: Record<string, MediaTypeSpec> };
  responses: ResponseSpec[];
  /** Alternatives (OR); an empty list, or an empty alternative, means anonymous access. */
  security: SecurityAlternative[];
  deprecated: boolean;
  /** The Operation Object as written (dereferenced), for its extensions (`x-sunset`...). */
  source: OperationObject;
}
