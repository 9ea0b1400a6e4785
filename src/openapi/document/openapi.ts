/**
 * A document as a user hands it to the library (`createMock({ document })`), typed as
 * `openapi-types` writes it for 3.0.x and 3.1.x. Once loaded and dereferenced, the code walks it
 * through the types of objects.ts and schema.ts.
 */
import type { OpenAPIV3, OpenAPIV3_1 } from 'openapi-types';

/** Specification extensions (`x-sunset`, `x-codeSamples`): any JSON value, under a name starting with `x-`. */
export type OpenAPIExtensions = { [extension: `x-${string}`]: unknown };

/** An OpenAPI document, 3.0.x or 3.1.x, with its extensions. */
export type OpenAPIDocument = OpenAPIV3.Document<OpenAPIExtensions> | OpenAPIV3_1.Document<OpenAPIExtensions>;
