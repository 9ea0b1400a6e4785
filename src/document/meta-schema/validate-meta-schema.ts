/**
 * Checks a document against the OpenAPI meta-schema with the validators precompiled by the build.
 * When they are not there (running from source before a build), says so, and the loader lets
 * swagger-parser compile the meta-schema itself.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { META_VALIDATORS_DIR } from './meta-validators-dir.js';

type Validate = ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }> | null };

/** @returns 'unavailable', undefined when the document is valid, or the first problem (`#/paths/~1a/get: must have required property 'responses'`). */
export function validateMetaSchema(document: unknown, dialect: '3.0' | '3.1'): string | undefined | 'unavailable' {
  const file = `${META_VALIDATORS_DIR}/openapi-${dialect}.cjs`;
  if (!existsSync(file)) return 'unavailable';
  const exported = createRequire(import.meta.url)(file) as Validate | { default: Validate };
  const validate = typeof exported === 'function' ? exported : exported.default;
  if (validate(document)) return undefined;
  const first = validate.errors?.[0];
  return first ? `#${first.instancePath} ${first.message ?? 'is invalid'}` : 'it does not match the OpenAPI meta-schema';
}
