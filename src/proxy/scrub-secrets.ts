/**
 * Secrets out of a recorded record before it is written as a fixture: what its schema marks secret
 * (`writeOnly`, `format: password`), what is named like a secret, and what holds a secret of the
 * exchange it came in (the client's credentials echoed back).
 */
import type { LoadedDocument } from '../openapi/document/document.js';
import type { SchemaObject } from '../openapi/document/schema.js';
import { fnv1a } from '../core/fnv.js';
import { isJsonObject } from '../core/json-object.js';
import { isSecretName } from '../core/secret-names.js';
import { createFaker } from '../openapi/generate/create-faker.js';
import { createGenerator } from '../openapi/generate/from-schema.js';
import { branchFor, mergedProperties, requiredSet } from '../openapi/operations/schema-properties.js';
import { type Collection } from '../openapi/operations/collection.js';
import type { StoredRecord } from '../state/state-store.js';

/** A schema says so itself, or through one of its `allOf` parts. */
function says(schema: SchemaObject | undefined, test: (schema: SchemaObject) => boolean): boolean {
  return isJsonObject(schema) && (test(schema) || (Array.isArray(schema.allOf) && schema.allOf.some((part: SchemaObject) => says(part, test))));
}
const isWriteOnly = (schema: SchemaObject | undefined) => says(schema, (s) => s.writeOnly === true);
const isPassword = (schema: SchemaObject | undefined) => says(schema, (s) => s.format === 'password');

/** Whether the mask changes a text: it holds a secret of the exchange. */
export function hidesIn(mask: (text: string) => string, text: string): boolean {
  return mask(text) !== text;
}

/**
 * Secrets out of a record, at any depth: a property that is `writeOnly`, `format: password` or
 * named like a secret (core/secret-names.ts), or whose name holds a secret of the exchange, is
 * removed where its schema does not require it (a `writeOnly` one never is, in an answer), and
 * replaced by a generated value where it does, so the record still loads. A string that holds a
 * secret of the exchange (the client's token echoed in a note) has it masked (`***`), or, at or
 * under a `strict` path (where the masked record no longer fits its schema), is treated as a
 * secret-named property's value (an item of a list is generated anew). Values are generated from
 * a Faker seeded by where they are, so the same record gives the same file. A record's own key and
 * its parent's key are kept whatever their names: the mock addresses records by them.
 *
 * @example const scrub = secretScrubber(document); scrub(users, record, mask, []) // record without its password
 */
export function secretScrubber(document: LoadedDocument): (collection: Collection, record: StoredRecord, mask: ((text: string) => string) | undefined, strict: readonly string[]) => void {
  const faker = createFaker();
  const generate = createGenerator(faker, { document: document.api });
  return (collection, record, mask, strict) => {
    const kept = new Set([collection.keyProperty, collection.parentProperty].filter(Boolean));
    const where = `${collection.name}/${collection.keyless ? '' : String(record[collection.keyProperty])}`;
    const generated = (schema: SchemaObject | undefined, path: string, propertyName?: string) => {
      faker.seed(fnv1a(`${where}${path}`));
      return generate(schema ?? { type: 'string' }, { propertyName, collection: collection.name });
    };
    const hides = (item: unknown): item is string => mask !== undefined && typeof item === 'string' && hidesIn(mask, item);
    const isStrict = (path: string) => strict.some((at) => path === at || path.startsWith(`${at}/`));
    const walk = (schema: SchemaObject | undefined, value: unknown, path: string) => {
      if (Array.isArray(value)) {
        const items = isJsonObject(schema?.items) ? (schema.items as SchemaObject) : undefined;
        value.forEach((item, index) => {
          if (!hides(item)) walk(items, item, `${path}/${index}`);
          else value[index] = isStrict(`${path}/${index}`) ? generated(items, `${path}/${index}`) : mask!(item);
        });
        return;
      }
      if (!isJsonObject(value)) return;
      const properties = isJsonObject(schema) ? mergedProperties(schema) : {};
      const required = isJsonObject(schema) ? new Set([...requiredSet(schema), ...requiredSet(branchFor(schema, value))]) : new Set<string>();
      const others = isJsonObject(schema?.additionalProperties) ? (schema.additionalProperties as SchemaObject) : undefined;
      for (const name of Object.keys(value)) {
        if (path === '' && kept.has(name)) continue;
        const property = Object.hasOwn(properties, name) ? properties[name] : others;
        // As a JSON pointer, the form Ajv gives the paths where a record breaks its schema.
        const at = `${path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        const secret = isWriteOnly(property) || isPassword(property) || isSecretName(name) || hides(name) || (hides(value[name]) && isStrict(at));
        if (!secret) {
          if (hides(value[name])) value[name] = mask!(value[name]);
          else walk(property, value[name], at);
        } else if (required.has(name) && !isWriteOnly(property)) {
          value[name] = generated(property, at, name);
        } else {
          delete value[name];
        }
      }
    };
    walk(collection.schema, record, '');
  };
}
