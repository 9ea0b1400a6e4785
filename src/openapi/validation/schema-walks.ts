/**
 * Walks over schemas for the converter (./to-json-schema.ts), each without recursion (a document's
 * schemas nest thousands deep): the subschemas of a document schema, the objects of a converted
 * one, and the objects a document reaches from more than one place.
 */
import type { DocumentObject } from '../document/objects.js';
import type { SchemaObject } from '../document/schema.js';
import { isReference } from './lazy-reference.js';
import { walkObjects } from '../../core/walk-objects.js';

/** The keywords holding subschemas: by name (`properties`), in a list (`allOf`), or one (`items`). */
export const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
export const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
export const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'];

/** sharedObjects of each document: the mock, its banner and the suite each make a converter of it. */
const sharedByDocument = new WeakMap<object, Set<SchemaObject>>();

/** The objects (not arrays) a document reaches from more than one place: each `$ref` target and alias, once. Without recursion. */
export function sharedObjects(api: DocumentObject): Set<SchemaObject> {
  const known = sharedByDocument.get(api);
  if (known) return known;
  const seen = new Set<object>();
  const shared = new Set<SchemaObject>();
  const stack: unknown[] = [api];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (seen.has(node)) {
      if (!Array.isArray(node)) shared.add(node as SchemaObject);
      continue;
    }
    seen.add(node);
    for (const value of Object.values(node)) if (value !== null && typeof value === 'object') stack.push(value);
  }
  if (api !== null && typeof api === 'object') sharedByDocument.set(api, shared);
  return shared;
}

/** Visits a document schema and its subschemas (where the converter looks) once each, without recursion; `visit` returns false to skip what is inside. */
export function eachSubschema(root: SchemaObject, visit: (node: SchemaObject) => boolean): void {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || Array.isArray(node) || seen.has(node)) continue;
    seen.add(node);
    if (!visit(node as SchemaObject)) continue;
    for (const [key, value] of Object.entries(node)) {
      if (value === null || typeof value !== 'object') continue;
      if (SUBSCHEMA_MAPS.includes(key)) stack.push(...Object.values(value));
      else if (SUBSCHEMA_LISTS.includes(key) || SUBSCHEMAS.includes(key)) stack.push(...(Array.isArray(value) ? value : [value]));
    }
  }
}

/** A required property that is readOnly or writeOnly: required in one direction only. */
export function hidesRequired(schema: SchemaObject): boolean {
  const properties = schema.properties;
  if (!Array.isArray(schema.required) || !properties || typeof properties !== 'object') return false;
  return schema.required.some((name: unknown) => typeof name === 'string' && (properties[name]?.readOnly === true || properties[name]?.writeOnly === true));
}

/** Visits the objects of a converted schema once each, without recursion; `visit` returns false to skip what is inside. */
export function walk(root: SchemaObject, visit: (node: SchemaObject) => boolean): void {
  walkObjects(root, (node) => visit(node as SchemaObject));
}

/** True when a converted schema refers to a registered one (Ajv then compiles it apart rather than copying it in). */
export function hasReference(root: SchemaObject): boolean {
  return some(root, isReference);
}

/** True when a converted schema refers to a registered one in place (Ajv compiles that one with it). */
export function hasInPlaceReference(root: SchemaObject): boolean {
  return some(root, (node) => typeof node.$ref === 'string');
}

function some(root: SchemaObject, test: (node: SchemaObject) => boolean): boolean {
  let found = false;
  walk(root, (node) => {
    if (test(node)) found = true;
    return !found;
  });
  return found;
}

/** True when `target` is inside `root` (without crossing another reference). */
export function reaches(root: SchemaObject, target: SchemaObject): boolean {
  let found = false;
  walk(root, (node) => {
    if (node === target) found = true;
    return !found && !isReference(node);
  });
  return found;
}
