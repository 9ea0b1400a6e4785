/**
 * The places where a schema holds the schema of a value inside it (each property, `items`,
 * `additionalProperties`), wherever a schema stands in a document: components, parameters,
 * request bodies, responses, headers, callbacks, webhooks. Example data (`example`, `examples`,
 * `default`, `enum`, `const`) and extensions (`x-...`) are not schemas and are not entered.
 */
import type { SchemaObject } from '../../openapi/document/schema.js';
import { isJsonObject } from '../../core/json-object.js';

/** One place: what stands there, as written (a `$ref` maybe), and a way to put another schema there. */
export interface SchemaSlot {
  /** The property's name (`categoryId`); undefined for `items` and `additionalProperties`. */
  name?: string;
  schema: SchemaObject;
  replace(schema: SchemaObject): void;
}

/** Keys whose values are data, not schemas: not entered (nor extensions), unless they name a member of a map of names (a property called `default`). */
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const']);
/** Maps whose keys are names given by the document. */
const NAMED = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'schemas']);

/**
 * Calls `visit` for each slot of each schema, then goes on into what stands there (a replacement
 * included). Each place is visited once: the document is a tree (references are left as `$ref`).
 *
 * @example eachSchemaSlot(doc, (slot) => slot.name === 'categoryId' && slot.replace({ type: 'integer', example: 1 }))
 */
export function eachSchemaSlot(doc: object, visit: (slot: SchemaSlot) => void): void {
  walk(doc, '', visit);
}

function walk(node: unknown, key: string, visit: (slot: SchemaSlot) => void): void {
  if (Array.isArray(node)) return node.forEach((item) => walk(item, key, visit));
  if (!isJsonObject(node)) return;
  // An object where a schema stands is a schema (the document passed its meta-schema).
  if (isJsonObject(node.properties)) {
    const properties = node.properties;
    for (const [name, schema] of Object.entries(properties)) if (isJsonObject(schema)) visit({ name, schema: schema as SchemaObject, replace: (next) => (properties[name] = next) });
  }
  for (const slot of ['items', 'additionalProperties']) {
    const schema = node[slot];
    if (isJsonObject(schema)) visit({ schema: schema as SchemaObject, replace: (next) => (node[slot] = next) });
  }
  for (const [child, value] of Object.entries(node)) {
    if (!NAMED.has(key) && (child.startsWith('x-') || DATA.has(child))) continue;
    walk(value, child, visit);
  }
}
