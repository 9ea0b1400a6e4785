/**
 * A reference Ajv compiles when a value first reaches it, not when the schema holding it is
 * compiled. Ajv compiles every `$ref` of a schema with it, so a record whose optional `next` is a
 * chain of 500 named schemas compiled all 500 (0.8 s) before its first value was checked, though
 * its values reach four. `{ "x-lazy-ref": id }` stands for the schema registered under `id`: the
 * keyword calls that schema's validator, compiled on its first call, and its errors are reported
 * as a `$ref`'s are (the same instance paths and schema paths).
 *
 * It does not pass on what the schema evaluated (`unevaluatedProperties`): the converter uses it
 * only for a value inside another (a property, an item), never in place.
 */
import { _, Name, nil, type AnySchemaObject, type KeywordCxt, type ValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import { callValidateCode } from 'ajv/dist/vocabularies/code.js';
import type { AjvCore } from './ajv-instance.js';

/** The keyword; a document's own `x-` keys never reach Ajv (the converter drops them). */
export const LAZY_REF = 'x-lazy-ref';

interface LazyValidator {
  (data: unknown, context: DataValidationCxt): boolean;
  errors: ValidateFunction['errors'];
}

/** The lazy validators of each Ajv instance, by the id of the schema they stand for. */
const registries = new WeakMap<AjvCore, Map<string, LazyValidator>>();

// Ajv's own names for the errors of the function being generated (compile/names.ts).
const V_ERRORS = new Name('vErrors');
const ERRORS = new Name('errors');

/** Makes `{ "x-lazy-ref": id }` stand for the schema `ajv` has (or will have) under `id`. */
export function registerLazyReference(ajv: AjvCore, id: string, warn?: (message: string) => void): void {
  let registry = registries.get(ajv);
  if (!registry) {
    registry = new Map();
    registries.set(ajv, registry);
    ajv.addKeyword({ keyword: LAZY_REF, schemaType: 'string', code: (cxt) => lazyReferenceCode(cxt, registries.get(ajv)!) });
  }
  if (!registry.has(id)) registry.set(id, lazyValidator(ajv, id, warn));
}

/** True for a converted schema that stands for a registered one. */
export function isReference(node: AnySchemaObject): boolean {
  return typeof node.$ref === 'string' || typeof node[LAZY_REF] === 'string';
}

/** The schema's validator, compiled on the first call; one Ajv cannot compile accepts anything, said once. */
function lazyValidator(ajv: AjvCore, id: string, warn?: (message: string) => void): LazyValidator {
  let validate: ValidateFunction | null | undefined;
  const lazy: LazyValidator = Object.assign(
    (data: unknown, context: DataValidationCxt) => {
      if (validate === undefined) {
        try {
          validate = ajv.getSchema(id) ?? null;
        } catch (error) {
          validate = null;
          warn?.(`A schema cannot be compiled (${String((error as Error).message).split('\n')[0]}); the values it describes are not checked.`);
        }
      }
      if (!validate) return true;
      const valid = validate(data, context);
      lazy.errors = validate.errors;
      return valid;
    },
    { errors: null },
  );
  return lazy;
}

/** The code Ajv generates for `$ref` to a compiled schema (vocabularies/core/ref.ts), calling the lazy validator instead. */
function lazyReferenceCode(cxt: KeywordCxt, registry: Map<string, LazyValidator>): void {
  const id = cxt.schema as string;
  const lazy = registry.get(id);
  if (!lazy) throw new Error(`${LAZY_REF}: no schema is registered under ${id}`);
  const { gen } = cxt;
  const validate = gen.scopeValue('keyword', { ref: lazy });
  cxt.result(callValidateCode(cxt, validate, nil), undefined, () => {
    gen.assign(V_ERRORS, _`${V_ERRORS} === null ? ${validate}.errors : ${V_ERRORS}.concat(${validate}.errors)`);
    gen.assign(ERRORS, _`${V_ERRORS}.length`);
  });
}
