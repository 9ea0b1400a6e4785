/**
 * Realistic JSON values from dereferenced OpenAPI 3.0/3.1 Schema Objects, drawn from Faker so a seeded
 * Faker gives the same data every run. It seeds the mock's store and fills response bodies for any
 * document, so it never throws, stops on circular schemas and always returns plain JSON.
 */
import type { Faker } from '@faker-js/faker';
import type { SchemaObject } from '../document/schema.js';
import { attempt, isObject, num, toJson } from './helpers.js';
import { generateString, type GenerateHints } from './strings.js';
import { documentEvidence, NO_EVIDENCE, type Evidence } from './evidence.js';
import { setOwn } from '../../core/own-property.js';
import { normalize } from './compose-schema.js';
import { generateNumber, numberPlan, numberRule, type NumberPlan } from './number-plan.js';
import { kindOf, matchesKind, minimalValue, type Kind } from './schema-kind.js';

export interface GeneratorOptions {
  /** Nesting depth with optional content; deeper, only what is required. Default 4. */
  maxDepth?: number;
  /**
   * The (dereferenced) document the schemas come from: its examples shape the values where a schema
   * leaves them open (`date_created` written as its examples write dates). Without it, names alone.
   */
  document?: unknown;
}

interface Context {
  faker: Faker;
  maxDepth: number;
  /** What the document's examples say, by property name. */
  evidence: Evidence;
  /** The schemas being generated below the optional structure, on the way down to the current value. */
  required: Set<SchemaObject>;
  /** Values generated below the optional structure, for the current top-level value. */
  spent: number;
  /** Values and string characters generated for the current top-level value (VALUE_BUDGET). */
  made: number;
  /** The document, where a discriminator's mapping is read (its references); `{}` without one. */
  document: object;
}

/**
 * Below the optional structure (maxDepth + 4) only what the schema requires is generated, as deep
 * as it requires it: a chain of required properties 200 schemas long gets a value 200 levels deep.
 * Bounds: a schema that requires itself has no finite value; a level takes ~750 bytes of stack
 * (Node's default overflows near 1,200), and required branches can multiply. Past a bound the value
 * is the minimal one, which the schema refuses, so seeding warns about it.
 */
const REQUIRED_DEPTH = 256;
const REQUIRED_VALUES = 10_000;

/**
 * The most one generated value holds, counting each value and each character of its strings:
 * about 100 KB of JSON. Schemas multiply values without bound (ten required properties that are
 * each ten more, ten levels down; arrays of arrays with `minItems: 2000`; `minLength: 1e9`), and
 * a value is generated while other requests wait: a collection's 20 records at the budget take
 * about 1.5 s. Past it the rest is the minimal value, as below the optional structure.
 */
export const VALUE_BUDGET = 100_000;

/**
 * What generating a schema needs that depends only on the schema (its kind, bounds, property lists),
 * worked out once per schema object: seeding 100,000 records otherwise recomputes it for every value.
 * The Faker draws stay in generate() and its helpers, in the same order, so the values are the same.
 */
interface Plan {
  kind: Kind;
  /** `const` or `x-faker` is present, so the value may be fixed. */
  mayBeFixed: boolean;
  /** A non-empty enum's values. */
  choices?: EnumChoices;
  /** Filled the first time a value of the schema's kind is generated. */
  number?: NumberPlan;
  array?: ArrayPlan;
  object?: ObjectPlan;
}
interface EnumChoices { typed: unknown[]; fallback: unknown }
interface ArrayPlan { min: number; lengths: { min: number; max: number }; prefix: unknown[]; rest: unknown; unique: boolean }
interface PropertyPlan { key: string; schema: unknown; hints?: GenerateHints }
interface ObjectPlan {
  /** The properties generated near the top, and the required ones generated deeper down. */
  all: PropertyPlan[];
  requiredOnly: PropertyPlan[];
  /** The schema of undeclared entries; undefined when `additionalProperties: false`. */
  extra: SchemaObject | undefined;
  /** No `properties` and an `additionalProperties` schema: a map, which gets a couple of entries. */
  isMap: boolean;
  minProperties: number;
  maxProperties: number;
}

/**
 * Returns a function that generates one value for a schema, drawing all randomness from `faker`
 * (so a seeded faker gives the same values every run).
 *
 * @example
 * const faker = new Faker({ locale: [en] });
 * faker.seed(42);
 * const generate = createGenerator(faker);
 * generate(petSchema, { collection: 'pets' }); // { id: 412, name: 'Bella', photoUrls: ['https://…'], … }
 */
export function createGenerator(
  faker: Faker,
  options: GeneratorOptions = {},
): (schema: SchemaObject, hints?: GenerateHints) => unknown {
  const evidence = options.document === undefined ? NO_EVIDENCE : documentEvidence(options.document);
  const document = options.document !== null && typeof options.document === 'object' ? options.document : {};
  const context: Context = { faker, maxDepth: Math.max(0, num(options.maxDepth) ?? 4), evidence, required: new Set(), spent: 0, made: 0, document };
  return (schema, hints = {}) => {
    context.required.clear();
    context.spent = 0;
    context.made = 0;
    try {
      return generate(context, schema, hints, 0);
    } catch {
      // Last line of defence: documents come from anywhere, and a mock must still answer.
      return minimalValue(isObject(schema) ? kindOf(schema) : 'string');
    }
  };
}

function generate(context: Context, raw: unknown, hints: GenerateHints, depth: number): unknown {
  const { faker } = context;
  if (raw === false) return null;
  if (!isObject(raw)) return faker.lorem.word();
  if (++context.made > VALUE_BUDGET) return minimalValue(kindOf(raw));
  const schema = normalize(context, raw);
  const plan = planOf(schema);
  if (plan.mayBeFixed) {
    const fixed = 'const' in schema ? toJson(schema.const, schema) : callXFaker(faker, schema['x-faker'], schema);
    if (fixed !== undefined) return fixed;
  }
  if (plan.choices) return pickEnum(faker, plan.choices);
  if (depth > context.maxDepth + 4 && (plan.kind === 'object' || plan.kind === 'array')) {
    return generateRequired(context, raw, schema, plan, hints, depth);
  }
  return generateKind(context, schema, plan, hints, depth);
}

function generateKind(context: Context, schema: SchemaObject, plan: Plan, hints: GenerateHints, depth: number): unknown {
  const { faker } = context;
  switch (plan.kind) {
    case 'null': return null;
    case 'boolean': return faker.datatype.boolean();
    case 'integer': case 'number': {
      const numbers = (plan.number ??= numberPlan(schema, plan.kind === 'integer'));
      const { propertyName } = hints;
      if (propertyName === undefined) return generateNumber(faker, numbers);
      const byName = numberRule(context.evidence, numbers, schema, propertyName);
      if (!byName) return generateNumber(faker, numbers);
      const named = attempt(() => byName(faker, hints.collection));
      // A realistic number (a time, a year) only where the schema's bounds allow it.
      return named !== undefined && numbers.accepts(named) ? named : generateNumber(faker, numbers);
    }
    case 'array': return generateArray(context, (plan.array ??= arrayPlan(schema)), hints, depth);
    case 'object': return generateObject(context, (plan.object ??= objectPlan(schema)), hints, depth);
    default: {
      // A string longer than what is left of the budget is not made (minLength: 1e9 would take the memory).
      if ((num(schema.minLength) ?? 0) > VALUE_BUDGET - context.made) return minimalValue('string');
      const value = generateString(faker, schema, hints, context.evidence);
      const left = Math.max(0, VALUE_BUDGET - context.made);
      context.made += value.length;
      return value.length > left ? value.slice(0, left) : value;
    }
  }
}

/** A container below the optional structure: its required content, unless a bound above is reached. */
function generateRequired(context: Context, raw: SchemaObject, schema: SchemaObject, plan: Plan, hints: GenerateHints, depth: number): unknown {
  if (context.required.has(raw) || depth > REQUIRED_DEPTH || ++context.spent > REQUIRED_VALUES) return minimalValue(plan.kind);
  context.required.add(raw);
  try {
    return generateKind(context, schema, plan, hints, depth);
  } finally {
    context.required.delete(raw);
  }
}

const plans = new WeakMap<SchemaObject, Plan>();

function planOf(schema: SchemaObject): Plan {
  let plan = plans.get(schema);
  if (!plan) {
    const kind = kindOf(schema);
    const hasEnum = Array.isArray(schema.enum) && schema.enum.length > 0;
    plan = { kind, mayBeFixed: 'const' in schema || schema['x-faker'] !== undefined, choices: hasEnum ? enumChoices(schema, kind) : undefined };
    plans.set(schema, plan);
  }
  return plan;
}

/** `x-faker: animal.petName` or `{ "lorem.words": 3 }`; undefined when it names nothing usable. */
function callXFaker(faker: Faker, spec: unknown, s: SchemaObject): unknown {
  const entry = typeof spec === 'string' ? [spec] : isObject(spec) ? Object.entries(spec)[0] : undefined;
  const path = entry?.[0];
  // No reaching Function through the prototype chain, and no reseeding the caller's Faker.
  if (typeof path !== 'string' || /(^|\.)(constructor|prototype|__proto__|seed|setDefaultRefDate)(\.|$)/.test(path)) {
    return undefined;
  }
  let owner: unknown;
  let target: unknown = faker;
  for (const part of path.replace(/^faker\./, '').split('.')) {
    owner = target;
    target = isObject(target) || typeof target === 'function' ? (target as SchemaObject)[part] : undefined;
  }
  return typeof target === 'function' ? attempt(() => toJson(target.apply(owner, entry!.slice(1)), s)) : undefined;
}

function enumChoices(s: SchemaObject, kind: Kind): EnumChoices {
  const values = (s.enum ?? []).map((v: unknown) => toJson(v, s)).filter((v: unknown) => v !== undefined);
  const typed = values.filter((v: unknown) => (s.type === undefined ? v !== null : matchesKind(v, kind)));
  return { typed, fallback: values[0] ?? null };
}

function pickEnum(faker: Faker, { typed, fallback }: EnumChoices): unknown {
  const value = typed.length > 0 ? faker.helpers.arrayElement(typed) : fallback;
  // A copy of an object or array value: callers may change what they get, and the choices are kept.
  return typeof value === 'object' && value !== null ? JSON.parse(JSON.stringify(value)) : value;
}

// ---- Containers

function arrayPlan(s: SchemaObject): ArrayPlan {
  const min = Math.max(0, Math.floor(num(s.minItems) ?? 0));
  const max = Math.max(min, Math.floor(num(s.maxItems) ?? Infinity));
  return {
    min,
    lengths: { min: Math.max(min, Math.min(1, max)), max: Math.min(max, min + 3) },
    prefix: Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [],
    rest: Array.isArray(s.items) ? (s.additionalItems ?? {}) : (s.items ?? { type: 'string' }),
    unique: s.uniqueItems === true,
  };
}

function generateArray(context: Context, plan: ArrayPlan, hints: GenerateHints, depth: number): unknown[] {
  const { prefix, rest } = plan;
  const length = depth > context.maxDepth ? plan.min : context.faker.number.int(plan.lengths);
  const out: unknown[] = [];
  const seen = plan.unique ? new Set<string>() : undefined;
  // uniqueItems over a small item space (an enum of 3) gives up after a few tries: fewer items, no endless loop.
  for (let tries = 0; out.length < length && tries < length * 5 + 10 && context.made < VALUE_BUDGET; tries++) {
    const itemSchema = out.length < prefix.length ? prefix[out.length] : rest;
    if (itemSchema === false) break;
    const value = generate(context, itemSchema, hints, depth + 1);
    if (seen) {
      const key = JSON.stringify(value);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(value);
  }
  return out;
}

function objectPlan(s: SchemaObject): ObjectPlan {
  const props: SchemaObject = isObject(s.properties) ? s.properties : {};
  const listed: unknown[] = Array.isArray(s.required) ? s.required : [];
  const required = listed.filter((k): k is string => typeof k === 'string');
  const maxProperties = num(s.maxProperties) ?? Infinity;
  const additional = s.additionalProperties;
  const extra = additional === false ? undefined : isObject(additional) ? additional : {};
  const names = Object.keys(props);
  const undeclared = required.filter((k) => !Object.hasOwn(props, k));
  /** The required properties and as many optional ones as maxProperties leaves room for, in declaration order. */
  const chosen = (optional: string[]): PropertyPlan[] => {
    const included = new Set([...required, ...optional.slice(0, Math.max(0, maxProperties - required.length))]);
    const keys = [...names.filter((k) => included.has(k)), ...undeclared];
    return keys.map((key) => ({ key, schema: Object.hasOwn(props, key) ? props[key] : (extra ?? {}) }));
  };
  return {
    all: chosen(names.filter((k) => !required.includes(k) && props[k] !== false)),
    requiredOnly: chosen([]),
    extra,
    isMap: names.length === 0 && isObject(additional),
    minProperties: num(s.minProperties) ?? 0,
    maxProperties,
  };
}

function generateObject(context: Context, plan: ObjectPlan, hints: GenerateHints, depth: number): object {
  const { extra } = plan;
  const properties = depth > context.maxDepth / 2 ? plan.requiredOnly : plan.all;
  const out = {};
  for (const property of properties) {
    setOwn(out, property.key, generate(context, property.schema, propertyHints(property, hints.collection), depth + 1));
  }
  // A map gets a couple of entries, like real data.
  const mapSize = plan.isMap && depth <= context.maxDepth ? context.faker.number.int({ min: 1, max: 2 }) : 0;
  const wanted = Math.min(plan.maxProperties, Math.max(plan.minProperties, mapSize));
  if (!extra || wanted <= 0) return out; // the common case, without listing the keys to count them
  let size = Object.keys(out).length;
  // Faker's words run out long before `minProperties: 1e9` is met: a thousand draws in a row of
  // keys already there end it, and each draw counts against the budget.
  for (let tries = 0, misses = 0; size < wanted && tries < wanted * 5 + 10 && misses < 1000 && ++context.made < VALUE_BUDGET; tries++) {
    const key = context.faker.lorem.word();
    if (Object.hasOwn(out, key)) misses++;
    else {
      setOwn(out, key, generate(context, extra, hints, depth + 1));
      size++;
      misses = 0;
    }
  }
  return out;
}

/** The hints for a property's value, kept with the property: a collection's records all ask for the same ones. */
function propertyHints(property: PropertyPlan, collection: string | undefined): GenerateHints {
  const kept = property.hints;
  if (kept !== undefined && kept.collection === collection) return kept;
  return (property.hints = { propertyName: property.key, collection });
}
