/**
 * Composition for generation: `allOf` is merged into one schema; `oneOf`/`anyOf` choose one branch
 * (varied under a discriminator, so a seeded store holds cats and dogs), merged with the parent's
 * siblings, and the discriminator property pinned to the branch's name.
 */
import type { Faker } from '@faker-js/faker';
import type { SchemaObject } from '../document/schema.js';
import { discriminatedChoice } from '../document/discriminator.js';
import { setOwn } from '../../core/own-property.js';
import type { JsonObject } from '../../core/json-object.js';
import { isObject } from './helpers.js';
import { kindOf } from './schema-kind.js';

/** What composing reads of the generator: its Faker (a branch drawn under a discriminator) and the document (a discriminator's mapping). */
export interface CompositionContext {
  faker: Faker;
  document: object;
}

const COMPOSITION = ['allOf', 'oneOf', 'anyOf'];
const omit = (s: SchemaObject, keys: string[]): SchemaObject =>
  Object.fromEntries(Object.entries(s).filter(([k]) => !keys.includes(k)));

/** Merged allOf schemas without any oneOf/anyOf draw the same result every time: computed once. */
const normalized = new WeakMap<SchemaObject, SchemaObject>();
const drawsBranch = new WeakMap<SchemaObject, boolean>();

function hasBranchChoice(schema: SchemaObject, seen?: Set<SchemaObject>): boolean {
  const known = drawsBranch.get(schema);
  if (known !== undefined) return known;
  seen ??= new Set();
  if (seen.has(schema)) return false;
  seen.add(schema);
  const result = Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf) || (Array.isArray(schema.allOf) && schema.allOf.some((b: unknown) => isObject(b) && hasBranchChoice(b, seen)));
  drawsBranch.set(schema, result);
  return result;
}

const isComposed = (s: SchemaObject) => Array.isArray(s.allOf) || Array.isArray(s.oneOf) || Array.isArray(s.anyOf);

/**
 * The schema with its `allOf` merged and one branch of each `oneOf`/`anyOf` chosen; `schema`
 * itself when it composes nothing. `seen`: the schemas being merged further up (none for a value's own schema).
 */
export function normalize(context: CompositionContext, schema: SchemaObject, seen?: Set<SchemaObject>): SchemaObject {
  if (!isComposed(schema)) return schema;
  if (!seen?.size && !hasBranchChoice(schema)) {
    let merged = normalized.get(schema);
    if (!merged) normalized.set(schema, (merged = normalizeNow(context, schema, new Set())));
    return merged;
  }
  return normalizeNow(context, schema, seen ?? new Set());
}

function normalizeNow(context: CompositionContext, schema: SchemaObject, seen: Set<SchemaObject>): SchemaObject {
  if (seen.has(schema)) return omit(schema, COMPOSITION);
  seen.add(schema);
  let out = omit(schema, ['allOf']);
  for (const branch of Array.isArray(schema.allOf) ? schema.allOf : []) {
    if (isObject(branch)) out = mergeSchemas(out, normalize(context, branch, seen));
  }
  const choices = (['oneOf', 'anyOf'] as const).filter((k) => Array.isArray(out[k]));
  for (const key of choices) {
    // The values that choose each branch, as the validator reads them (src/openapi/document/discriminator.ts).
    const choice = discriminatedChoice(context.document, out);
    const tagged = choice?.keyword === key ? choice : undefined;
    const chosen = chooseBranch(context, out, out[key] ?? [], seen);
    const rest = omit(out, [key]);
    const value = tagged?.branches.find((branch) => branch.schema === chosen?.raw)?.values[0];
    if (!chosen) out = rest;
    else if (tagged && value !== undefined) out = pinTag(mergeSchemas(rest, chosen.schema), tagged.propertyName, value);
    else out = applyDiscriminator(mergeSchemas(rest, chosen.schema), chosen.raw, true);
  }
  seen.delete(schema);
  // A subtype generated directly (Dog = allOf[Pet, …]) still names itself when Pet's mapping lists it.
  return choices.length === 0 ? applyDiscriminator(out, schema, false) : out;
}

const TAKE_MAX = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const TAKE_MIN = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

function mergeSchemas(a: SchemaObject, b: SchemaObject): SchemaObject {
  // Keyword by keyword, whatever the keywords hold: a plain JSON object until it is whole.
  const out: JsonObject = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    const numbers = typeof mine === 'number' && typeof value === 'number';
    if (mine === undefined) setOwn(out, key, value);
    else if (key === 'properties' && isObject(mine) && isObject(value)) {
      const properties: JsonObject = (out.properties = { ...mine });
      for (const [name, sub] of Object.entries(value)) {
        const both = Object.hasOwn(mine, name) && mine[name] !== sub;
        setOwn(properties, name, both ? { allOf: [mine[name], sub] } : sub);
      }
    } else if (key === 'required' && Array.isArray(mine) && Array.isArray(value)) {
      out.required = [...new Set([...mine, ...value])];
    } else if (numbers && TAKE_MAX.includes(key)) out[key] = Math.max(mine, value);
    else if (numbers && TAKE_MIN.includes(key)) out[key] = Math.min(mine, value);
    else if (key === 'type') out.type = commonTypes(mine, value) ?? mine;
    else if (key === 'enum' && Array.isArray(mine) && Array.isArray(value)) {
      const common = mine.filter((v) => value.some((w) => JSON.stringify(w) === JSON.stringify(v)));
      if (common.length > 0) out.enum = common;
    } else if ((key === 'items' || key === 'additionalProperties') && isObject(mine) && isObject(value)) {
      out[key] = { allOf: [mine, value] };
    }
    // Any other keyword: the first schema that says something wins.
  }
  return out as SchemaObject;
}

/** The types both accept (an integer is a number), or undefined when they share none. */
function commonTypes(a: unknown, b: unknown): string | string[] | undefined {
  const [as, bs] = [a, b].map((t) => (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string'));
  const accepts = (types: string[], t: string) => types.includes(t) || (t === 'integer' && types.includes('number'));
  const common = [...new Set([...as, ...bs])].filter((t) => accepts(as, t) && accepts(bs, t));
  return common.length === 0 ? undefined : common.length === 1 ? common[0] : common;
}

function chooseBranch(context: CompositionContext, parent: SchemaObject, branches: unknown[], seen: Set<SchemaObject>) {
  const options = branches.filter(isObject).map((raw) => ({ raw, schema: normalize(context, raw, seen) }));
  const possible = options.filter(({ schema }) => {
    const typed = parent.type !== undefined && schema.type !== undefined;
    const contradicts = typed && !commonTypes(parent.type, schema.type);
    const onlyNot = Object.keys(schema).length === 1 && 'not' in schema;
    return !contradicts && !onlyNot && !(Array.isArray(schema.enum) && schema.enum.length === 0);
  });
  const nonNull = possible.filter(({ schema }) => kindOf(schema) !== 'null');
  const objects = kindOf(parent) !== 'object' ? [] : nonNull.filter(
    ({ schema }) => kindOf(schema) === 'object' && (schema.required?.length ?? 0) > 0,
  );
  const pool = [objects, nonNull, possible].find((list) => list.length > 0) ?? [];
  // With a discriminator the branches are subtypes: vary them, so a seeded store holds cats and dogs.
  return isObject(parent.discriminator) && pool.length > 0 ? context.faker.helpers.arrayElement(pool) : pool[0];
}

/** Pins the property to the value and requires it. */
function pinTag(s: SchemaObject, property: string, value: string): SchemaObject {
  const props = isObject(s.properties) ? s.properties : {};
  const current = Object.hasOwn(props, property) && isObject(props[property]) ? props[property] : {};
  const required = [...new Set([...(Array.isArray(s.required) ? s.required : []), property])];
  return { ...s, properties: { ...props, [property]: { type: 'string', ...current, const: value } }, required };
}

/** Pins the discriminator property to the branch's mapping key, else (for oneOf) to its title. */
function applyDiscriminator(s: SchemaObject, branch: SchemaObject, useTitle: boolean): SchemaObject {
  const d = s.discriminator;
  if (!isObject(d) || typeof d.propertyName !== 'string') return s;
  const props = isObject(s.properties) ? s.properties : {};
  const current = Object.hasOwn(props, d.propertyName) && isObject(props[d.propertyName]) ? props[d.propertyName] : {};
  const title = typeof branch.title === 'string' ? branch.title : undefined;
  const mapped = Object.entries(isObject(d.mapping) ? d.mapping : {}).find(
    ([, target]) => target === branch || (typeof target === 'string' && target.split('/').pop() === title),
  );
  // An enum or const on the property already names the branch, and that is what validation checks.
  const named = 'const' in current || Array.isArray(current.enum);
  const value = mapped?.[0] ?? (useTitle && !named ? title : undefined);
  if (value === undefined) return s;
  const required = [...new Set([...(Array.isArray(s.required) ? s.required : []), d.propertyName])];
  return { ...s, properties: { ...props, [d.propertyName]: { type: 'string', ...current, const: value } }, required };
}
