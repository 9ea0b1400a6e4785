/**
 * Reading a record's schema: its properties and required properties through `allOf`, and the
 * branches of a choice of records (`oneOf`/`anyOf`), worked out once per schema where they are read on every write.
 */
import type { SchemaObject } from '../document/schema.js';

/** An object, or a choice between objects (`oneOf`/`anyOf` of records: a book or an audiobook). */
export function isObjectSchema(schema: SchemaObject): boolean {
  if (schema.type === 'object' || schema.properties || Array.isArray(schema.allOf)) return true;
  const branches = branchesOf(schema);
  return branches.length > 0 && branches.every((branch) => isObjectSchema(branch));
}

/** The branches of a `oneOf` or `anyOf` (none for other schemas). */
export function branchesOf(schema: SchemaObject): SchemaObject[] {
  const branches = schema?.oneOf ?? schema?.anyOf;
  return Array.isArray(branches) ? branches.filter((b: unknown) => b && typeof b === 'object') : [];
}

/**
 * Properties of a schema, including those brought in by `allOf`, and for a choice of records
 * (`oneOf`/`anyOf`) those of every branch: a property any kind of record may have.
 */
export function mergedProperties(schema: SchemaObject, seen = new Set<SchemaObject>()): Record<string, SchemaObject> {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return {};
  seen.add(schema);
  const merged: Record<string, SchemaObject> = {};
  for (const branch of branchesOf(schema)) for (const [name, property] of Object.entries(mergedProperties(branch, seen))) merged[name] ??= property;
  for (const part of schema.allOf ?? []) Object.assign(merged, mergedProperties(part, seen));
  return Object.assign(merged, schema.properties ?? {});
}

/**
 * The branch of a choice of records a record is of: the one its discriminator names (by mapping,
 * or by the branch's own enum or const of the property), else the first whose required
 * properties it has. The schema itself when it is no choice.
 */
export function branchFor(schema: SchemaObject, record: Record<string, unknown>): SchemaObject {
  const branches = branchesOf(schema);
  if (branches.length === 0) return schema;
  const property = schema.discriminator?.propertyName;
  if (typeof property === 'string' && record[property] !== undefined) {
    const value = record[property];
    const named = branches.find((branch) => {
      const own = ownPropertyOf(branch, property);
      return (Array.isArray(own?.enum) && own.enum.includes(value)) || own?.const === value || branch.title === value;
    });
    if (named) return named;
  }
  return branches.find((branch) => [...requiredSet(branch)].every((name) => record[name] !== undefined)) ?? branches[0];
}

/** A branch's schema of the discriminator property, found once per branch (branchFor runs on every write). */
const discriminatorProperties = new WeakMap<SchemaObject, SchemaObject | undefined>();
function ownPropertyOf(branch: SchemaObject, property: string): SchemaObject | undefined {
  if (!discriminatorProperties.has(branch)) discriminatorProperties.set(branch, mergedProperties(branch)[property]);
  return discriminatorProperties.get(branch);
}

/** The required properties of a schema as a set, worked out once per schema (read on writes and in seeding). */
const requiredSets = new WeakMap<SchemaObject, ReadonlySet<string>>();
export function requiredSet(schema: SchemaObject): ReadonlySet<string> {
  let set = requiredSets.get(schema);
  if (!set) requiredSets.set(schema, (set = new Set(requiredProperties(schema))));
  return set;
}

/** The required properties of a schema, including those `allOf` brings in. */
export function requiredProperties(schema: SchemaObject, seen = new Set<SchemaObject>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  return [...new Set<string>([...(Array.isArray(schema.required) ? schema.required : []), ...(schema.allOf ?? []).flatMap((part: SchemaObject) => requiredProperties(part, seen))])];
}

/** The names of a schema's properties, as mergedProperties finds them. */
export function propertyNames(schema: SchemaObject): string[] {
  return Object.keys(mergedProperties(schema));
}
