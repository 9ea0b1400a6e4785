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
    const key = pointerKey(part);
    // Only what the document holds: `#/__proto__` or `#/constructor` would name what every object inherits.
    if (key === undefined || node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    if (Array.isArray(node) && !/^(?:0|[1-9]\d*)$/.test(key)) return undefined; // an index, not `length`
    node = (node as JsonObject)[key];
  }
  return node as SchemaObject | undefined;
}

/** A pointer's segment as a key (`~1` is `/`, `~0` is `~`, percent escapes decoded); undefined for a malformed escape. */
function pointerKey(part: string): string | undefined {
  try {
    return decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return undefined;
  }
}
