/**
 * A local `$ref` followed, in the document as written (the page's copy keeps its references).
 */
import { resolveRef } from '../document/document.js';
import type { SchemaObject } from '../document/schema.js';

/**
 * What a local `$ref` (`#/components/responses/NotFound`) names, through chains of them, `{}` for
 * one that names nothing; anything else (an external reference too) as given.
 *
 * @example followRef(doc, { $ref: '#/components/schemas/Id' }) // { type: 'integer', format: 'int64', ... }
 */
export function followRef(doc: SchemaObject, value: SchemaObject): SchemaObject {
  let current = value;
  for (let hops = 0; hops < 20 && typeof current?.$ref === 'string' && current.$ref.startsWith('#/'); hops++) current = resolveRef(doc, current.$ref) ?? {};
  return current ?? {};
}
