/**
 * The value the suite sends for a parameter it means to be valid, taken from the operation itself
 * and from what the server has shown, never from examples of other operations (a field of another
 * collection sent as `?fields=` to this one, a collection name from an example as a path's parent):
 * - a filter on a reference (`?role=`) takes the key of a record that exists: the suite's own, or
 *   one a list showed;
 * - a parameter that names fields (`fields`, `sort`, `groupBy`...) of the operation's own records,
 *   free text in its schema, takes the name of one of those fields;
 * - a page number takes the first page (a page the list has, whatever its length);
 * - anything else is drawn from the parameter's own schema (its enum, example, default, bounds),
 *   with no example of the rest of the document.
 */
import { schemaType, type ParameterSpec, type SchemaObject } from '../openapi/document/schema.js';
import type { Collection, CrudBinding } from '../openapi/operations/collection.js';
import { bare, propertyNamed } from '../openapi/operations/names.js';
import { mergedProperties } from '../openapi/operations/schema-properties.js';
import { successSchema } from '../openapi/operations/success-schema.js';
import type { Operation } from '../openapi/operations/operation.js';
import { PAGE_PARAMS } from '../openapi/operations/pagination.js';

/** What choosing a value needs of the run. */
export interface ValueSources {
  collections: readonly Collection[];
  binding: (op: Operation) => CrudBinding | undefined;
  /** Keys of records of a collection that exist: the suite's own first, then those lists showed. */
  existingKeys: (collection: Collection) => unknown[];
  /** A value drawn from a schema alone (no example of the rest of the document). */
  generateOwn: (schema: SchemaObject, propertyName?: string) => unknown;
  /** True when the schema accepts the value (or no validator could be made for it). */
  accepts: (schema: SchemaObject, value: unknown) => boolean;
}

/** Parameters that name fields of the records an operation answers with (`?fields=name,role`, `?sort=-name`). */
const FIELD_NAMING = new Set(['fields', 'field', 'select', 'sort', 'sortby', 'order', 'orderby', 'groupby', 'group', 'columns']);

/** @example parameterValue(sources, listFolders, sortParameter) // 'name' */
export function parameterValue(sources: ValueSources, op: Operation, parameter: ParameterSpec): unknown {
  const { schema } = parameter;
  const collection = sources.binding(op)?.collection;
  if (parameter.in === 'query' && collection) {
    const reference = collection.references.find((r) => r.property === propertyNamed(parameter.name, [r.property]));
    const target = reference && sources.collections.find((c) => c.name === reference.collection);
    const key = target && sources.existingKeys(target).find((k) => sources.accepts(schema, k));
    if (key !== undefined) return key;
  }
  if (parameter.in === 'query' && FIELD_NAMING.has(bare(parameter.name)) && openText(schema)) {
    const record = collection?.schema ?? recordOf(successSchema(op));
    const fields = Object.entries(record ? mergedProperties(record) : {}).filter(([, p]) => !p?.writeOnly).map(([name]) => name);
    const field = fields.find((name) => sources.accepts(schema, schemaType(schema) === 'array' ? [name] : name));
    if (field !== undefined) return schemaType(schema) === 'array' ? [field] : field;
  }
  if (parameter.in === 'query' && PAGE_PARAMS.includes(parameter.name)) {
    const first = typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    if (sources.accepts(schema, first)) return first;
  }
  return sources.generateOwn(schema, parameter.name);
}

/** A string, or an array of strings, that the schema leaves open (no enum, const, pattern or format). */
function openText(schema: SchemaObject): boolean {
  const text = schemaType(schema) === 'array' ? (schema.items ?? {}) : schema;
  return schemaType(text) === 'string' && !text.enum && text.const === undefined && !text.pattern && !text.format;
}

/** The record of a response: its items when it is a list. */
function recordOf(schema: SchemaObject | undefined): SchemaObject | undefined {
  if (!schema) return undefined;
  return schemaType(schema) === 'array' ? schema.items : schema;
}
