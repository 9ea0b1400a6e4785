/**
 * A `oneOf` or `anyOf` with a `discriminator`, read as a choice: for each branch, the values of the
 * discriminator's property that choose it. The request and response validators check the chosen
 * branch only (src/openapi/validation/to-json-schema.ts), and the docs page's starting bodies set the value
 * of the branch they fill in (src/mock/docs/try-it-bodies.ts): both read the choice here.
 */
import { resolveRef } from './resolve-ref.js';
import type { SchemaObject } from './schema.js';

/** A discriminated choice of schemas, in the document's order. */
export interface DiscriminatedChoice {
  /** The property whose value chooses the branch (`issueType`). */
  propertyName: string;
  keyword: 'oneOf' | 'anyOf';
  branches: DiscriminatedBranch[];
}

export interface DiscriminatedBranch {
  /** The branch as written (a `$ref` maybe). */
  schema: SchemaObject;
  /** The values of the property that choose it (`['bug']`), never empty. */
  values: string[];
}

/**
 * The choice a schema makes by its discriminator, or undefined when it has none, or when a branch
 * cannot be told from the others (then it stays a plain `oneOf`). A branch's values are, in order:
 * the `mapping` keys that name it (by reference, `#/components/schemas/Bug`, or by name, `Bug`);
 * else the values its own schema pins the property to (a `const`, or an `enum`, in the branch or
 * an `allOf` part of it); else its name among the document's schemas (OpenAPI's implicit mapping).
 * A value two branches claim chooses neither.
 *
 * @example discriminatedChoice(api, NewIssue) // { propertyName: 'issueType', keyword: 'oneOf', branches: [{ schema: Bug, values: ['bug'] }, ...] }
 */
export function discriminatedChoice(doc: object, schema: SchemaObject): DiscriminatedChoice | undefined {
  const discriminator = schema.discriminator;
  const propertyName = discriminator?.propertyName;
  if (typeof propertyName !== 'string') return undefined;
  const keyword = Array.isArray(schema.oneOf) ? 'oneOf' : Array.isArray(schema.anyOf) ? 'anyOf' : undefined;
  const written = keyword && schema[keyword];
  if (!keyword || !Array.isArray(written) || written.length === 0) return undefined;
  const branches = written.filter((b): b is SchemaObject => b !== null && typeof b === 'object');
  if (branches.length !== written.length) return undefined;
  const mapping = discriminator?.mapping && typeof discriminator.mapping === 'object' ? Object.entries(discriminator.mapping) : [];
  const claimed = branches.map((branch) => {
    const target = follow(doc, branch);
    const mapped = mapping.filter(([, to]) => follow(doc, typeof to === 'string' ? { $ref: to.startsWith('#') ? to : `#/components/schemas/${to}` } : to) === target).map(([value]) => value);
    if (mapped.length > 0) return mapped;
    const pinned = pinnedValues(doc, branch, propertyName, new Set());
    if (pinned.length > 0) return pinned;
    const name = nameOf(doc, branch, target);
    return name === undefined ? [] : [name];
  });
  const count = new Map<string, number>();
  for (const value of claimed.flatMap((values) => [...new Set(values)])) count.set(value, (count.get(value) ?? 0) + 1);
  const tagged = branches.map((branch, i) => ({ schema: branch, values: [...new Set(claimed[i])].filter((value) => count.get(value) === 1) }));
  return tagged.every((branch) => branch.values.length > 0) ? { propertyName, keyword, branches: tagged } : undefined;
}

/** The values a branch pins the property to: a string `const`, or the strings of an `enum`, on it or an `allOf` part. */
function pinnedValues(doc: object, branch: SchemaObject, property: string, seen: Set<object>): string[] {
  const schema = follow(doc, branch);
  if (!schema || seen.has(schema)) return [];
  seen.add(schema);
  const own = schema.properties && typeof schema.properties === 'object' ? follow(doc, schema.properties[property]) : undefined;
  if (own && typeof own.const === 'string') return [own.const];
  if (own && Array.isArray(own.enum)) {
    const strings = own.enum.filter((v): v is string => typeof v === 'string');
    if (strings.length > 0) return strings;
  }
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const found = part && typeof part === 'object' ? pinnedValues(doc, part, property, seen) : [];
    if (found.length > 0) return found;
  }
  return [];
}

/** The branch's name among the document's schemas: the last segment of its `$ref`, or the entry that is the same object. */
function nameOf(doc: object, branch: SchemaObject, target: SchemaObject | undefined): string | undefined {
  const prefix = '#/components/schemas/';
  if (typeof branch.$ref === 'string' && branch.$ref.startsWith(prefix) && !branch.$ref.slice(prefix.length).includes('/')) return branch.$ref.slice(prefix.length).replace(/~1/g, '/').replace(/~0/g, '~');
  const schemas = (doc as { components?: { schemas?: Record<string, unknown> } }).components?.schemas;
  if (!target || !schemas || typeof schemas !== 'object') return undefined;
  return Object.entries(schemas).find(([, schema]) => schema === target || follow(doc, schema as SchemaObject) === target)?.[0];
}

/** A schema through its `$ref`s (local ones), undefined for one that names nothing. */
function follow(doc: object, schema: unknown): SchemaObject | undefined {
  let current = schema;
  for (let hops = 0; hops < 20 && current && typeof current === 'object' && typeof (current as SchemaObject).$ref === 'string'; hops++) {
    const ref = (current as SchemaObject).$ref!;
    current = ref.startsWith('#/') ? resolveRef(doc, ref) : undefined;
  }
  return current && typeof current === 'object' ? (current as SchemaObject) : undefined;
}
