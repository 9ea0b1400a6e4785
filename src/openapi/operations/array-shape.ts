/**
 * The shape of a list answer: the records' schema, and how the list is wrapped (its array, total
 * and next-cursor properties) when it is no bare array.
 */
import type { SchemaObject } from '../document/schema.js';
import type { Collection } from './collection.js';
import { mergedProperties } from './schema-properties.js';

/** The item schema of a list response: a bare array, or an object wrapping one array. */
export function arrayShape(schema: SchemaObject | undefined): { items: SchemaObject; wrapper?: Collection['listWrapper'] } | undefined {
  if (!schema) return undefined;
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) {
    return schema.items && typeof schema.items === 'object' ? { items: schema.items } : undefined;
  }
  const properties = mergedProperties(schema);
  const arrays = Object.entries(properties).flatMap(([name, s]) => (s?.type === 'array' && s.items ? [{ name, items: s.items }] : []));
  if (arrays.length !== 1) return undefined;
  const [{ name: itemsName, items }] = arrays;
  const total = Object.keys(properties).find((name) => /^(total|totalCount|total_count|count)$/.test(name));
  const cursor = Object.keys(properties).find((name) => /^(next_?cursor|nextCursor|next_?page_?token|nextPageToken|next_?token|nextToken|cursor)$/i.test(name));
  const nullable = cursor !== undefined && (properties[cursor].nullable === true || (Array.isArray(properties[cursor].type) && properties[cursor].type.includes('null')));
  return { items, wrapper: { items: itemsName, total, ...(cursor ? { cursor, cursorNullable: nullable } : {}) } };
}
