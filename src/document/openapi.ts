/**
 * The OpenAPI objects the library's types name, as `openapi-types` writes them, for 3.0.x and
 * 3.1.x. A mock's document is dereferenced: a `$ref` remains only where a reference is circular.
 * (The code reads documents through the looser `SchemaObject` of schema.ts; these types are what
 * the published declarations show.)
 */
import type { OpenAPIV3, OpenAPIV3_1 } from 'openapi-types';

/** Specification extensions (`x-sunset`, `x-codeSamples`): any JSON value, under a name starting with `x-`. */
export type OpenAPIExtensions = { [extension: `x-${string}`]: unknown };

/** An OpenAPI document, 3.0.x or 3.1.x, with its extensions. */
export type OpenAPIDocument = OpenAPIV3.Document<OpenAPIExtensions> | OpenAPIV3_1.Document<OpenAPIExtensions>;

/** A Schema Object: OpenAPI 3.0's, or 3.1's (JSON Schema 2020-12). */
export type OpenAPISchema = OpenAPIV3.SchemaObject | OpenAPIV3_1.SchemaObject;

/** An Operation Object, with its extensions. */
export type OpenAPIOperation = OpenAPIV3.OperationObject<OpenAPIExtensions> | OpenAPIV3_1.OperationObject<OpenAPIExtensions>;

/** A Security Scheme Object (the same in 3.0 and 3.1). */
export type OpenAPISecurityScheme = OpenAPIV3.SecuritySchemeObject;
