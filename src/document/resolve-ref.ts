/**
 * Where a local `$ref` leads: a JSON Pointer in a URI fragment (`#/components/schemas/Pet`),
 * followed through a document.
 */
import type { JsonObject } from './objects.js';
import type { SchemaObject } from './schema.js';

/**
 * Follows a local `$ref` (`#/components/schemas/Node`) inside the dereferenced document: only
 * circular references are left as `$ref` after loading.
 */
export function resolveRef(api: object, ref: string): SchemaObject | undefined {
  if (!ref.startsWith('#/')) return undefined;
  // Circular references are left only inside schemas, so what one names is a schema (or nothing).
  let node: unknown = api;
  for (const part of ref.slice(2).split('/')) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as JsonObject)[key];
  }
  return node as SchemaObject | undefined;
}
