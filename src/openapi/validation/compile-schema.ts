/**
 * Validators for schemas of the document, compiled once per schema object and direction. A schema
 * Ajv refuses (the corpus has `type: str`, unsatisfiable compositions) gives no validator and a
 * warning, rather than stopping the mock or the suite.
 */
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../document/schema.js';
import type { AjvCore } from './ajv-instance.js';
import type { Direction } from './openapi-keywords.js';
import type { SchemaConverter } from './to-json-schema.js';

/** @example const responseValidator = schemaCompiler(ajv, converter, 'response'); responseValidator(schema)?.(body) */
export function schemaCompiler(ajv: AjvCore, converter: SchemaConverter, direction: Direction, warn?: (message: string) => void): (schema: SchemaObject) => ValidateFunction | undefined {
  const cache = new WeakMap<SchemaObject, ValidateFunction | null>();
  return (schema) => {
    if (!cache.has(schema)) {
      try {
        cache.set(schema, compile(ajv, converter.convert(schema, direction) as SchemaObject));
      } catch (error) {
        warn?.(`A ${direction} schema cannot be compiled (${String((error as Error).message).split('\n')[0]}); its values are not checked.`);
        cache.set(schema, null);
      }
    }
    return cache.get(schema) ?? undefined;
  };
}

/** A named schema converts to a reference to the validator the converter registered: that one, rather than a new one calling it. */
function compile(ajv: AjvCore, converted: SchemaObject): ValidateFunction {
  const keys = Object.keys(converted);
  const registered = keys.length === 1 && typeof converted.$ref === 'string' ? ajv.getSchema(converted.$ref) : undefined;
  return registered ?? ajv.compile(converted);
}
