/**
 * Realistic JSON values from dereferenced OpenAPI 3.0/3.1 Schema Objects, drawn from Faker so a seeded
 * Faker gives the same data every run. It seeds the mock's store and fills response bodies for any
 * document, so it never throws, stops on circular schemas and always returns plain JSON.
 */
import type { Faker } from '@faker-js/faker';
import type { SchemaObject } from '../document/schema.js';
import { discriminatedChoice } from '../document/discriminator.js';
import { attempt, isObject, num, own, toJson } from './helpers.js';
import { generateString, type GenerateHints } from './strings.js';
import { chooseByName, type Producer } from './by-name.js';
import { documentEvidence, NO_EVIDENCE, type Evidence } from './evidence.js';
import { setOwn } from '../core/own-property.js';
import type { JsonObject } from '../core/json-object.js';

export interface GeneratorOptions {
  /** Nesting depth with optional content; deeper, only what is required. Default 4. */
  maxDepth?: number;
  /**
   * The (dereferenced) document the schemas come from: its examples shape the values where a schema
   * leaves them open (`date_created` written as its examples write dates). Without it, names alone.
   */
  document?: unknown;
}

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';
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
/**
 * A value is `constant` when the bounds leave no room; otherwise `range` times `step` (multipleOf when
 * `usable`), rounded to `decimals` (none for a whole step: its multiples are whole, toFixed(0) would only copy them).
 */
interface NumberPlan {
  constant?: number; range: { min: number; max: number }; step: number; decimals?: number; usable: boolean;
  /** Whether a value keeps to the schema: its type, bounds, format and multipleOf. */
  accepts: (value: number) => boolean;
  /** The rule for a property's numbers (a time, a year), per document and property name (null: none). */
  byName: WeakMap<Evidence, Map<string, Producer<number> | null>>;
  /** Those of the document last generated for (nearly always the only one): one lookup per value. */
  current?: { evidence: Evidence; rules: Map<string, Producer<number> | null> };
}
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

const KINDS = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];
const TYPE_ALIASES: Record<string, Kind> = {
  int: 'integer', long: 'integer', float: 'number', double: 'number', bool: 'boolean', dict: 'object', list: 'array',
};
const INT_FORMATS: Record<string, [number, number]> = {
  int8: [-128, 127], uint8: [0, 255], int16: [-32768, 32767], uint16: [0, 65535],
  int32: [-(2 ** 31), 2 ** 31 - 1], uint32: [0, 2 ** 32 - 1], uint64: [0, Number.MAX_SAFE_INTEGER],
};

/** The values an integer format allows (`int32`: -2^31 to 2^31 - 1; `int64`: the exact integers), or undefined for another format. */
export function integerFormatRange(format: unknown): [number, number] | undefined {
  if (format === 'int64') return [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  return typeof format === 'string' ? own(INT_FORMATS, format) : undefined;
}
const COMPOSITION = ['allOf', 'oneOf', 'anyOf'];
const omit = (s: SchemaObject, keys: string[]): SchemaObject =>
  Object.fromEntries(Object.entries(s).filter(([k]) => !keys.includes(k)));

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

/** The type to generate: the first non-null one, an alias like `str` read as string, else inferred. */
function kindOf(s: SchemaObject): Kind {
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === 'string');
  const chosen = types.find((t) => t !== 'null') ?? types[0];
  const intFormat = own(INT_FORMATS, s.format) !== undefined || s.format === 'int64';
  if (chosen !== undefined && chosen !== 'number') {
    return KINDS.includes(chosen) ? (chosen as Kind) : (own(TYPE_ALIASES, chosen.toLowerCase()) ?? 'string');
  }
  if (chosen === 'number' || intFormat || /^(float|double)$/.test(s.format ?? '')) return intFormat ? 'integer' : 'number';
  if (isObject(s.properties) || isObject(s.additionalProperties) || Array.isArray(s.required)) return 'object';
  if ('items' in s || 'prefixItems' in s || 'minItems' in s || 'maxItems' in s) return 'array';
  const numeric = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
  return numeric.some((k) => num(s[k]) !== undefined) ? 'number' : 'string';
}

function matchesKind(value: unknown, kind: Kind): boolean {
  if (kind === 'integer') return Number.isInteger(value);
  if (kind === 'array') return Array.isArray(value);
  if (kind === 'object') return isObject(value);
  return kind === 'null' ? value === null : typeof value === kind;
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

function minimalValue(kind: Kind): unknown {
  return { string: '', number: 0, integer: 0, boolean: false, array: [], object: {}, null: null }[kind];
}

// ---- Composition: allOf is merged; oneOf/anyOf choose one branch, merged with the parent's siblings.

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

/** `seen`: the schemas being merged further up (none for a value's own schema). */
function normalize(context: Context, schema: SchemaObject, seen?: Set<SchemaObject>): SchemaObject {
  if (!isComposed(schema)) return schema;
  if (!seen?.size && !hasBranchChoice(schema)) {
    let merged = normalized.get(schema);
    if (!merged) normalized.set(schema, (merged = normalizeNow(context, schema, new Set())));
    return merged;
  }
  return normalizeNow(context, schema, seen ?? new Set());
}

function normalizeNow(context: Context, schema: SchemaObject, seen: Set<SchemaObject>): SchemaObject {
  if (seen.has(schema)) return omit(schema, COMPOSITION);
  seen.add(schema);
  let out = omit(schema, ['allOf']);
  for (const branch of Array.isArray(schema.allOf) ? schema.allOf : []) {
    if (isObject(branch)) out = mergeSchemas(out, normalize(context, branch, seen));
  }
  const choices = (['oneOf', 'anyOf'] as const).filter((k) => Array.isArray(out[k]));
  for (const key of choices) {
    // The values that choose each branch, as the validator reads them (src/document/discriminator.ts).
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

function chooseBranch(context: Context, parent: SchemaObject, branches: unknown[], seen: Set<SchemaObject>) {
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

// ---- Numbers

/** A bound and whether it is exclusive, from the 3.0 (boolean) or the 3.1 (number) form. */
function bound(inclusive: unknown, exclusive: unknown, tighter: (a: number, b: number) => number) {
  const [a, b] = [num(inclusive), num(exclusive)];
  if (b !== undefined && (a === undefined || tighter(a, b) === b)) return { at: b, open: true };
  return { at: a, open: a !== undefined && exclusive === true };
}

function numberPlan(s: SchemaObject, integer: boolean): NumberPlan {
  const low = bound(s.minimum, s.exclusiveMinimum, Math.max);
  const high = bound(s.maximum, s.exclusiveMaximum, Math.min);
  const multipleOf = s.multipleOf !== undefined && num(s.multipleOf) !== undefined && s.multipleOf > 0 ? s.multipleOf : undefined;
  // Every value is k * step; plain numbers get two decimals, like prices and weights.
  const usable = multipleOf !== undefined && (!integer || Number.isInteger(multipleOf));
  const step = usable ? multipleOf! : integer ? 1 : 0.01;
  const [formatLow, formatHigh] = own(INT_FORMATS, s.format) ?? [-Infinity, Infinity];
  const safe = Number.MAX_SAFE_INTEGER;
  const lowK = low.at === undefined ? -safe : low.open ? Math.floor(low.at / step) + 1 : Math.ceil(low.at / step);
  const highK = high.at === undefined ? safe : high.open ? Math.ceil(high.at / step) - 1 : Math.floor(high.at / step);
  const minK = Math.min(Math.max(lowK, Math.ceil(formatLow / step), -safe), safe);
  const maxK = Math.max(Math.min(highK, Math.floor(formatHigh / step), safe), -safe);
  // Realistic values: at most ~1000 above the minimum, or from 0 when there is no minimum.
  const span = Math.min(1e6, Math.max(1, Math.floor(1000 / step)));
  const from = low.at !== undefined ? minK : maxK >= 0 ? Math.max(minK, 0) : Math.max(minK, maxK - span);
  const decimals = Math.min(String(step).split('.')[1]?.length ?? 0, 20);
  // Bounds closer than two decimals (or contradictory ones): the midpoint, or the lower bound.
  const squeezed = step === 0.01 && low.at! < high.at! ? (low.at! + high.at!) / 2 : minK * step;
  const constant = minK > maxK ? squeezed : undefined;
  const range = { min: from, max: Math.min(maxK, from + span) };
  const accepts = (value: number): boolean =>
    Number.isFinite(value) && (!integer || Number.isInteger(value)) && value >= formatLow && value <= formatHigh
    && (low.at === undefined || (low.open ? value > low.at : value >= low.at))
    && (high.at === undefined || (high.open ? value < high.at : value <= high.at))
    && (multipleOf === undefined || Number.isInteger(value / multipleOf));
  // With no maximum of its own, the schema's examples it accepts give the size: up to twice the largest (at least 10 above the start).
  const examples = [s.example, ...(Array.isArray(s.examples) ? s.examples : [])].filter((v): v is number => typeof v === 'number' && accepts(v));
  if (high.at === undefined && examples.length > 0 && Math.max(...examples) >= from * step) {
    range.max = Math.min(maxK, Math.max(from, Math.floor(Math.max(2 * Math.max(...examples), from * step + 10) / step)));
  }
  return { constant, range, step, decimals: Number.isInteger(step) ? undefined : decimals, usable, accepts, byName: new WeakMap() };
}

function numberRule(evidence: Evidence, plan: NumberPlan, schema: SchemaObject, propertyName: string): Producer<number> | null {
  let current = plan.current;
  if (current?.evidence !== evidence) {
    let rules = plan.byName.get(evidence);
    if (!rules) plan.byName.set(evidence, (rules = new Map()));
    plan.current = current = { evidence, rules };
  }
  let producer = current.rules.get(propertyName);
  if (producer === undefined) {
    const examples = evidence.examplesOf(schema) ?? evidence.examples(propertyName);
    producer = chooseByName('number', propertyName, examples, () => evidence.dateShape()) ?? null;
    current.rules.set(propertyName, producer);
  }
  return producer;
}

function generateNumber(faker: Faker, plan: NumberPlan): number {
  if (plan.constant !== undefined) return plan.constant;
  const { range, step, decimals, usable } = plan;
  const draw = () => {
    const value = faker.number.int(range) * step;
    return decimals === undefined ? value : Number(value.toFixed(decimals));
  };
  let value = draw();
  // Validators test multipleOf by division, which floating point fails for some multiples (0.07 / 0.01).
  for (let tries = 0; usable && tries < 10 && (value / step) % 1 !== 0; tries++) value = draw();
  return value || 0;
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
