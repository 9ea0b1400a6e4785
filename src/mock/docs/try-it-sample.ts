/**
 * A value of a schema as the docs page's try-it panel starts from it: the document's own words
 * first (an `example`, a `default`, the first of an `enum`), as Swagger UI's sample reads them,
 * but with the choices Swagger UI leaves open made so the value is one the mock accepts: one
 * branch of each `oneOf`/`anyOf`, with its discriminator's value set (src/openapi/document/discriminator.ts);
 * the mock's keys for the properties that refer to a collection; `readOnly` properties left out;
 * and, where the document says nothing, a generated value (its format, pattern and bounds kept).
 * The caller confirms the value with the operation's request validator (try-it-bodies.ts).
 */
import { discriminatedChoice } from '../../openapi/document/discriminator.js';
import { resolveRef } from '../../openapi/document/resolve-ref.js';
import type { SchemaObject } from '../../openapi/document/schema.js';
import type { RecordKey } from './try-it-values.js';

export interface SampleOptions {
  /** The (dereferenced) document: `$ref`s left by the loader and discriminator mappings are read there. */
  document: object;
  /** By property name, a key of the collection the property refers to (`categoryId: 1`). */
  references: Readonly<Record<string, RecordKey>>;
  /** Which branch of each `oneOf`/`anyOf` (the n-th that can hold a value, counted round). */
  branch: number;
  /** Optional properties too, as Swagger UI's sample shows them (near the top), or only the required ones. */
  optional: boolean;
  /** A value for a schema the document gives no example of (`propertyName` for a property's). */
  leaf: (schema: SchemaObject, propertyName?: string) => unknown;
  /**
   * In a `oneOf` without a discriminator, tell the chosen branch from the others: for each other
   * branch, a property only it declares, set to a value it refuses (a number for its string). An
   * object valid for overlapping branches (no property required, any allowed) fits more than one,
   * which a `oneOf` refuses.
   */
  distinguish?: boolean;
}

/** Optional properties are filled down to this depth; required ones as deep as they go (up to MAX_DEPTH). */
const OPTIONAL_DEPTH = 3;
const MAX_DEPTH = 32;

/**
 * @example sampleOf(NewIssue, { document, references: {}, branch: 0, optional: true, leaf }) // { issueType: 'bug', title: '…', severity: 'low' }
 */
export function sampleOf(schema: SchemaObject, options: SampleOptions): unknown {
  return sample(schema, options, 0, new Set(), undefined);
}

function sample(given: SchemaObject | undefined, options: SampleOptions, depth: number, path: Set<SchemaObject>, name: string | undefined): unknown {
  const schema = follow(options.document, given);
  if (!schema || depth > MAX_DEPTH || path.has(schema)) return undefined;
  if (name !== undefined && Object.hasOwn(options.references, name) && isScalar(schema)) return options.references[name];
  const written = writtenValue(schema);
  if (written !== undefined) return written;
  path.add(schema);
  try {
    const choice = choiceOf(schema, options, depth, path, name);
    if (choice !== undefined) return choice;
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return merged([withoutKeys(schema, ['allOf']), ...schema.allOf], options, depth, path, name);
    if (isObjectSchema(schema)) return objectOf(schema, options, depth, path);
    if (schema.type === 'array' || schema.items !== undefined) {
      if (schema.maxItems === 0) return [];
      const item = sample(schema.items, options, depth + 1, path, undefined);
      return item === undefined ? [] : Array.from({ length: Math.max(1, typeof schema.minItems === 'number' ? Math.min(schema.minItems, 20) : 1) }, () => item);
    }
    return options.leaf(schema, name);
  } finally {
    path.delete(schema);
  }
}

/** What the schema itself says a value is: its example (3.1's first `examples`), `const`, `default`, or first non-null `enum` value. */
function writtenValue(schema: SchemaObject): unknown {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
  return undefined;
}

/** A `oneOf`/`anyOf`: the chosen branch with the schema's own keywords, and the discriminator's value for it. */
function choiceOf(schema: SchemaObject, options: SampleOptions, depth: number, path: Set<SchemaObject>, name: string | undefined): unknown {
  const keyword = Array.isArray(schema.oneOf) && schema.oneOf.length > 0 ? 'oneOf' : Array.isArray(schema.anyOf) && schema.anyOf.length > 0 ? 'anyOf' : undefined;
  if (!keyword) return undefined;
  const branches = (schema[keyword] as SchemaObject[]).filter((branch) => {
    const followed = follow(options.document, branch);
    return followed !== undefined && followed.type !== 'null' && !path.has(followed);
  });
  if (branches.length === 0) return undefined;
  const branch = branches[options.branch % branches.length];
  const rest = withoutKeys(schema, ['oneOf', 'anyOf', 'discriminator']);
  const value = merged([rest, branch], options, depth, path, name);
  const tag = discriminatedChoice(options.document, schema)?.branches.find((b) => b.schema === branch);
  const property = schema.discriminator?.propertyName;
  if (tag && property !== undefined && isPlainObject(value)) return { ...value, [property]: tag.values[0] };
  if (options.distinguish && keyword === 'oneOf' && isPlainObject(value)) return distinguished(value, branch, branches, options.document);
  return value;
}

/** The value with, for each other branch, a property only that branch declares set to a value of a type it refuses. */
function distinguished(value: Record<string, unknown>, chosen: SchemaObject, branches: SchemaObject[], document: object): Record<string, unknown> {
  const own = propertiesOf(document, chosen, new Set());
  const closed = follow(document, chosen)?.additionalProperties === false;
  if (closed) return value;
  const out = { ...value };
  for (const other of branches) {
    if (other === chosen) continue;
    for (const [name, property] of Object.entries(propertiesOf(document, other, new Set()))) {
      if (Object.hasOwn(own, name) || Object.hasOwn(out, name)) continue;
      const refused = refusedValue(follow(document, property));
      if (refused === undefined) continue;
      out[name] = refused;
      break;
    }
  }
  return out;
}

/** A branch's properties, with those of its `allOf` parts. */
function propertiesOf(document: object, schema: SchemaObject | undefined, seen: Set<SchemaObject>): Record<string, SchemaObject> {
  const followed = follow(document, schema);
  if (!followed || seen.has(followed)) return {};
  seen.add(followed);
  const out: Record<string, SchemaObject> = {};
  for (const part of Array.isArray(followed.allOf) ? followed.allOf : []) Object.assign(out, propertiesOf(document, part, seen));
  return Object.assign(out, followed.properties ?? {});
}

/** A value the property's schema refuses by its type or enum, or undefined when it states neither. */
function refusedValue(schema: SchemaObject | undefined): unknown {
  if (!schema) return undefined;
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) return schema.enum.join('-') + '-other';
  const types: unknown[] = [schema.type].flat().filter((t) => t !== undefined);
  if (types.length === 0 || types.includes('null')) return undefined;
  return types.includes('string') ? 0 : 'other';
}

/** The values of several schemas for one value: objects merged, else the first that has one. */
function merged(parts: SchemaObject[], options: SampleOptions, depth: number, path: Set<SchemaObject>, name: string | undefined): unknown {
  let out: unknown;
  for (const part of parts) {
    const followed = follow(options.document, part);
    // A part that only annotates (a description beside the allOf) has no value of its own.
    if (!followed || Object.keys(followed).every((key) => ANNOTATIONS.has(key))) continue;
    const value = sample(followed, options, depth, path, name);
    if (value === undefined) continue;
    if (out === undefined) out = value;
    else if (isPlainObject(out) && isPlainObject(value)) out = { ...out, ...value };
  }
  return out;
}

const ANNOTATIONS = new Set(['title', 'description', 'deprecated', 'externalDocs', 'xml', 'nullable', 'readOnly', 'writeOnly']);

function objectOf(schema: SchemaObject, options: SampleOptions, depth: number, path: Set<SchemaObject>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const followed = follow(options.document, property);
    // A client never sends what the server owns.
    if (!followed || followed.readOnly === true) continue;
    if (!required.has(name) && !(options.optional && depth < OPTIONAL_DEPTH)) continue;
    const value = sample(followed, options, depth + 1, path, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function isObjectSchema(schema: SchemaObject): boolean {
  const types: unknown[] = [schema.type].flat();
  return types.includes('object') || (schema.type === undefined && (schema.properties !== undefined || Array.isArray(schema.required)));
}

/** A schema for one value (not an object or a list). */
function isScalar(schema: SchemaObject): boolean {
  const types: unknown[] = [schema.type].flat();
  return !types.includes('object') && !types.includes('array') && schema.properties === undefined && schema.items === undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function withoutKeys(schema: SchemaObject, keys: string[]): SchemaObject {
  const out: SchemaObject = { ...schema };
  for (const key of keys) delete out[key];
  return out;
}

/** A schema through the `$ref`s the loader left (circular ones). */
function follow(document: object, schema: SchemaObject | undefined): SchemaObject | undefined {
  let current = schema;
  for (let hops = 0; hops < 20 && current && typeof current.$ref === 'string'; hops++) current = resolveRef(document, current.$ref);
  return current && typeof current === 'object' ? current : undefined;
}
