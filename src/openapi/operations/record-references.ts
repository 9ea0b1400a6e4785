/**
 * The references between records: properties of one collection's records that hold another's
 * keys, found by name, by key type and by the links the document declares.
 */
import type { SchemaObject } from '../document/schema.js';
import type { Collection, Reference } from './collection.js';
import { bare, singular } from './names.js';
import type { Operation } from './operation.js';
import { mergedProperties } from './schema-properties.js';

/**
 * The properties of a record that hold another record's key, and the collection they point into:
 * - by the `<singular>Id` convention (`categoryId`, `category_id` into `categories`);
 * - by the name of the collection's record itself (`role` into `roles`, `folder` into `folders`),
 *   and `parent` (`parentId`) into the record's own collection;
 * - by the path parameter of another collection's records (`projectKey` into `/projects/{projectKey}`);
 * - by a link the document declares (`$response.body#/role` given to `getRole`'s parameter).
 * Except for `<singular>Id` and links, the property must hold a value of the key's type (a `role`
 * that is an object or a `folder` that is an integer where folders have text keys points nowhere),
 * and a format both state must agree (`uuid`).
 */
export function findReferences(collection: Collection, all: Collection[], operations: Operation[] = []): Reference[] {
  return referencesIn(collection.schema, collection, all, linkedProperties(collection, all, operations));
}

/**
 * The references of any record-shaped schema (a record, or a request body that writes one) of
 * `self`'s collection, found as findReferences finds them; `linked`: properties a declared link
 * ties to a collection.
 */
export function referencesIn(schema: SchemaObject, self: Collection | undefined, all: Collection[], linked: Map<string, Collection> = new Map()): Reference[] {
  const references: Reference[] = [];
  const properties = mergedProperties(schema);
  for (const property of Object.keys(properties)) {
    const match = /^(.+?)_?[iI]d$/.exec(property);
    const fits = (c: Collection) => keyTypeFits(properties[property], c.keySchema);
    const target =
      linked.get(property) ||
      (match && all.find((c) => singular(c.name).toLowerCase() === match[1].toLowerCase())) ||
      all.find((c) => c.keyParam === property && c.keyProperty !== property) ||
      all.find((c) => c !== self && bare(singular(c.name)) === bare(property) && fits(c)) ||
      (self && /^parent(_?id)?$/i.test(property) && fits(self) ? self : undefined);
    if (target && (target !== self || property !== self.keyProperty)) references.push({ property, collection: target.name });
  }
  return references;
}

/** A property can hold the key: a scalar of the key's type (string or integer), and the same format where both state one. */
function keyTypeFits(property: SchemaObject | undefined, key: SchemaObject): boolean {
  if (!property || typeof property !== 'object') return false;
  const types = (s: SchemaObject): string[] => (Array.isArray(s.type) ? s.type : [s.type]).filter((t: unknown): t is string => typeof t === 'string' && t !== 'null').map((t: string) => (t === 'number' ? 'integer' : t));
  const [mine, theirs] = [types(property), types(key)];
  if (mine.length === 0 || !mine.every((t: string) => t === 'string' || t === 'integer')) return false;
  if (theirs.length > 0 && !mine.some((t: string) => theirs.includes(t))) return false;
  return !(property.format && key.format && property.format !== key.format);
}

/**
 * Properties of a collection's records that a declared link gives to the key parameter of another
 * collection's item operation (`links: {role: {operationId: getRole, parameters: {id: '$response.body#/role'}}}`).
 */
function linkedProperties(collection: Collection, all: Collection[], operations: Operation[]): Map<string, Collection> {
  const linked = new Map<string, Collection>();
  const own = operations.filter((op) => op.path === collection.path || op.path === collection.itemPath);
  for (const op of own) {
    for (const response of Object.values((op.source?.responses ?? {}) as Record<string, { links?: Record<string, unknown> }>)) {
      for (const link of Object.values(response?.links ?? {})) {
        if (!link || typeof link !== 'object') continue;
        const { operationId, parameters } = link as { operationId?: unknown; parameters?: Record<string, unknown> };
        const target = operations.find((o) => o.id === operationId);
        const into = target && all.find((c) => c.itemPath === target.path);
        if (!into || into === collection || !parameters || typeof parameters !== 'object') continue;
        const expression = parameters[into.keyParam];
        const property = typeof expression === 'string' ? /^\$response\.body#\/([^/]+)$/.exec(expression)?.[1] : undefined;
        if (property) linked.set(property.replace(/~1/g, '/').replace(/~0/g, '~'), into);
      }
    }
  }
  return linked;
}
