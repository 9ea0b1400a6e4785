/**
 * fast-check arbitraries drawn from a (dereferenced) JSON Schema, for exploring a server with
 * values the document allows: lengths and numbers at, next to and between their bounds, the empty
 * string where allowed, text beyond ASCII (astral, combining, right-to-left), every format the
 * suite knows, optional properties alone and together, several items of an array. fast-check
 * shrinks what they draw (shorter text, smaller numbers, fewer optional properties and items).
 *
 * A drawn value is a candidate, not a promise: keywords the arbitrary does not model (a `oneOf`
 * whose branches overlap, `not`, patterns fast-check cannot read) may yield values the schema
 * refuses, so the caller confirms each with the document's validator before using it.
 *
 * @example
 * fc.sample(schemaArbitrary({ type: 'integer', minimum: 0, maximum: 100 }), 5) // e.g. [100, 0, 37, 1, 99]
 */
import fc from 'fast-check';
import { schemaType, type SchemaObject } from '../document/schema.js';
import { discriminatedChoice } from '../document/discriminator.js';
import { integerFormatRange } from './integer-formats.js';
import { isObject, num } from './helpers.js';

export interface ArbitraryOptions {
  /** `request`: readOnly properties are left out (a client never sends them); `response`: writeOnly ones. */
  direction?: 'request' | 'response';
  /** Nesting past which objects take only their required properties and arrays their fewest items. */
  maxDepth?: number;
  /** The (dereferenced) document, where a discriminator's mapping is read: its values choose the branches. */
  document?: object;
}

type Arb = fc.Arbitrary<unknown>;

/** Lengths past this are drawn only at the bound itself (a body of 100,000 characters is one case, not the usual). */
const LONG = 64;
/** The largest string or array drawn at its maximum length. */
const MAX_AT_BOUND = 10_000;

/** Characters: mostly ASCII, and at a lower weight Latin-1, right-to-left scripts, combining marks and astral symbols. */
const CHARACTER: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCodePoint(c)), weight: 8 },
  { arbitrary: fc.integer({ min: 0xa1, max: 0xff }).map((c) => String.fromCodePoint(c)), weight: 1 },
  { arbitrary: fc.integer({ min: 0x05d0, max: 0x05ea }).map((c) => String.fromCodePoint(c)), weight: 1 },
  { arbitrary: fc.integer({ min: 0x0627, max: 0x064a }).map((c) => String.fromCodePoint(c)), weight: 1 },
  { arbitrary: fc.integer({ min: 0x0300, max: 0x036f }).map((c) => String.fromCodePoint(c)), weight: 1 },
  { arbitrary: fc.integer({ min: 0x1f300, max: 0x1f64f }).map((c) => String.fromCodePoint(c)), weight: 1 },
  { arbitrary: fc.constantFrom('\t', '\n', ' ', '"', '\\', '/', '<', '&', "'"), weight: 1 },
);

/** Web addresses; a host label with `--` (punycode's shape, which fast-check draws) is left out: Ajv's `url` format refuses it. */
const webUrl = () => fc.webUrl().filter((url) => !new URL(url).hostname.includes('--'));

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  'date-time': () => fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: () => fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  email: () => fc.emailAddress(),
  uuid: () => fc.uuid(),
  uri: () => webUrl(),
  url: () => webUrl(),
  'uri-reference': () => webUrl(),
  hostname: () => fc.domain().filter((host) => !host.includes('--')),
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
  byte: () => fc.base64String({ maxLength: 64 }),
};

/** An arbitrary of the values `schema` allows (see the module's note on confirming them). */
export function schemaArbitrary(schema: SchemaObject, options: ArbitraryOptions = {}): Arb {
  return arbitraryOf(schema, { direction: options.direction ?? 'request', maxDepth: options.maxDepth ?? 4, document: options.document ?? {} }, 0);
}

interface Walk {
  direction: 'request' | 'response';
  maxDepth: number;
  document: object;
}

function arbitraryOf(schema: SchemaObject | undefined, walk: Walk, depth: number): Arb {
  if (!isObject(schema) || schema.$ref !== undefined) return fc.constant(undefined);
  const arb = plainArbitrary(schema, walk, depth);
  const nullable = schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null'));
  return nullable ? fc.oneof({ arbitrary: arb, weight: 9 }, { arbitrary: fc.constant(null), weight: 1 }) : arb;
}

function plainArbitrary(schema: SchemaObject, walk: Walk, depth: number): Arb {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) {
    // An enum may list values its type refuses (`enum: [none, 1]` with `type: string`): only those of the type.
    const type = schemaType(schema);
    const typed = schema.enum.filter((v) => type === undefined || jsonType(v) === type || (type === 'number' && jsonType(v) === 'integer'));
    return fc.constantFrom(...(typed.length ? typed : schema.enum));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length) return arbitraryOf(mergeAllOf(schema), walk, depth);
  const branches = (Array.isArray(schema.oneOf) && schema.oneOf.length ? schema.oneOf : Array.isArray(schema.anyOf) && schema.anyOf.length ? schema.anyOf : undefined)?.filter(isObject);
  if (branches?.length) return fc.oneof(...branches.map((branch) => branchArbitrary(schema, branch, walk, depth)));
  const type = schemaType(schema) ?? inferredType(schema);
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrayArbitrary(schema, walk, depth);
    case 'object':
      return objectArbitrary(schema, walk, depth);
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -1000, max: 1000 }), fc.boolean());
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A schema without `type`: the one its keywords imply. */
function inferredType(schema: SchemaObject): string | undefined {
  if (isObject(schema.properties) || schema.required || schema.additionalProperties !== undefined) return 'object';
  if (schema.items !== undefined || schema.minItems !== undefined) return 'array';
  if (schema.minLength !== undefined || schema.maxLength !== undefined || schema.pattern !== undefined || schema.format !== undefined) return 'string';
  if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined) return 'number';
  return undefined;
}

/** One branch of a `oneOf`/`anyOf`, with the parent's own properties, and the discriminator's value for that branch. */
function branchArbitrary(parent: SchemaObject, branch: SchemaObject, walk: Walk, depth: number): Arb {
  const { oneOf: _oneOf, anyOf: _anyOf, discriminator, ...rest } = parent;
  const merged = Object.keys(rest).some((k) => !ANNOTATIONS.has(k)) ? mergeAllOf({ allOf: [rest, branch] }) : branch;
  const arb = arbitraryOf(merged, walk, depth);
  const name = discriminator?.propertyName;
  if (!name) return arb;
  // The values the validator reads (src/openapi/document/discriminator.ts), else a mapping or enum that names the branch alone.
  const tagged = discriminatedChoice(walk.document, parent)?.branches.find((b) => b.schema === branch)?.values[0];
  const mapped = Object.entries(discriminator.mapping ?? {}).find(([, target]) => target === branch)?.[0];
  const value = tagged ?? mapped ?? enumOf(branch, name);
  return value === undefined ? arb : arb.map((v) => (isObject(v) ? { ...v, [name]: value } : v));
}

/** Keywords that say nothing of the values a schema allows. */
const ANNOTATIONS = new Set(['title', 'description', 'example', 'examples', 'default', 'deprecated', 'externalDocs', 'xml']);

function enumOf(schema: SchemaObject, property: string): unknown {
  const own = mergeAllOf(schema).properties?.[property];
  return isObject(own) && Array.isArray(own.enum) && own.enum.length === 1 ? own.enum[0] : undefined;
}

/** `allOf` as one schema: properties and required merged, the other keywords of the first part that has them. */
function mergeAllOf(schema: SchemaObject): SchemaObject {
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf.filter(isObject).map(mergeAllOf) : [])];
  const merged: SchemaObject = {};
  for (const part of parts) {
    for (const [keyword, value] of Object.entries(part)) {
      if (keyword === 'allOf') continue;
      if (keyword === 'properties' && isObject(value)) merged.properties = { ...merged.properties, ...(value as Record<string, SchemaObject>) };
      else if (keyword === 'required' && Array.isArray(value)) merged.required = [...new Set([...(merged.required ?? []), ...value])];
      else if (!(keyword in merged)) merged[keyword] = value;
    }
  }
  if (merged.type === undefined && merged.properties) merged.type = 'object';
  return merged;
}

function stringArbitrary(schema: SchemaObject): fc.Arbitrary<string> {
  const min = Math.max(0, num(schema.minLength) ?? 0);
  const max = num(schema.maxLength);
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  const fits = (s: string) => [...s].length >= min && (max === undefined || [...s].length <= max);
  const pattern = typeof schema.pattern === 'string' ? patternOf(schema.pattern) : undefined;
  // A format draws its own shape, then must fit the pattern too; a pattern alone draws from the pattern.
  if (format) return format().filter((s) => fits(s) && (!pattern || pattern.test(s)));
  if (pattern) return attemptArbitrary(() => fc.stringMatching(pattern).filter(fits)) ?? fc.constant('');
  const upper = max === undefined ? min + LONG : Math.min(max, min + LONG);
  // Between the bounds most often; at the least length (the empty string where allowed) and at the greatest, one draw in eight each.
  // The bound is a choice beside the text, not an arbitrary of its own, so a failure shrinks both: the choice to "between", the text to fewer characters.
  const atMax = max !== undefined && max <= MAX_AT_BOUND ? max : undefined;
  return fc.record({ bound: fc.integer({ min: 0, max: 7 }), text: fc.string({ unit: CHARACTER, minLength: min, maxLength: upper }) }).map(({ bound, text }) => {
    if (bound === 7 && atMax !== undefined) return lengthened(text, atMax);
    if (bound === 6) return [...text].slice(0, min).join('');
    return text;
  });
}

/** The text repeated up to exactly `length` code points (`x` when it is empty). */
function lengthened(text: string, length: number): string {
  const points = [...text];
  const filler = points.length ? points : ['x'];
  return Array.from({ length }, (_, i) => filler[i % filler.length]).join('');
}

/** The pattern as a RegExp fast-check can draw from, or undefined when it cannot be read. */
function patternOf(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    try {
      return new RegExp(source);
    } catch {
      return undefined;
    }
  }
}

function attemptArbitrary<T>(make: () => fc.Arbitrary<T>): fc.Arbitrary<T> | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

/** The inclusive bounds of a number schema (3.0's boolean `exclusiveMinimum` and 3.1's numeric one), integers stepped by one. */
function bounds(schema: SchemaObject, integer: boolean): { low: number; high: number; lowOpen: boolean; highOpen: boolean } {
  const [formatLow, formatHigh] = integer ? (integerFormatRange(schema.format) ?? [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]) : [-Number.MAX_VALUE, Number.MAX_VALUE];
  let low = Math.max(formatLow, num(schema.minimum) ?? formatLow);
  let high = Math.min(formatHigh, num(schema.maximum) ?? formatHigh);
  let lowOpen = schema.exclusiveMinimum === true;
  let highOpen = schema.exclusiveMaximum === true;
  if (typeof schema.exclusiveMinimum === 'number' && schema.exclusiveMinimum >= low) [low, lowOpen] = [schema.exclusiveMinimum, true];
  if (typeof schema.exclusiveMaximum === 'number' && schema.exclusiveMaximum <= high) [high, highOpen] = [schema.exclusiveMaximum, true];
  return { low, high, lowOpen, highOpen };
}

function integerArbitrary(schema: SchemaObject): fc.Arbitrary<number> {
  const { low, high, lowOpen, highOpen } = bounds(schema, true);
  const step = num(schema.multipleOf) && Number.isInteger(schema.multipleOf) ? (schema.multipleOf as number) : 1;
  const first = Math.ceil((lowOpen ? low + 1 : low) / step);
  const last = Math.floor((highOpen ? high - 1 : high) / step);
  if (first > last) return fc.constant(first * step);
  const k = (from: number, to: number) => fc.integer({ min: Math.max(first, from), max: Math.min(last, to) }).map((n) => n * step);
  // Near each bound as often as anywhere between: a range of its own (a hundredth of the span, at least 100), which shrinks within itself, towards its low end, rather than away from the bound.
  const width = Math.max(100, Math.min(Math.floor((last - first) / 100), 1_000_000));
  const near = [{ arbitrary: k(first, first + width), weight: 1 }, { arbitrary: k(last - width, last), weight: 1 }];
  const bounded = num(schema.minimum) !== undefined || num(schema.maximum) !== undefined;
  return fc.oneof({ arbitrary: bounded ? k(first, last) : k(-1000, 1000), weight: 3 }, ...near);
}

function numberArbitrary(schema: SchemaObject): fc.Arbitrary<number> {
  if (num(schema.multipleOf)) {
    const step = schema.multipleOf as number;
    const { low, high } = bounds(schema, false);
    const first = Math.ceil(Math.max(low, -1e9) / step);
    const last = Math.floor(Math.min(high, 1e9) / step);
    return first > last ? fc.constant(first * step) : fc.integer({ min: first, max: last }).map((n) => n * step).filter((v) => valueFits(schema, v));
  }
  const { low, high } = bounds(schema, false);
  const double = fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true }).filter((v) => valueFits(schema, v) && !Object.is(v, -0));
  const edges = fc.constantFrom(...[low, high, Math.trunc(low) + 1, Math.trunc(high) - 1, 0].filter((v) => Number.isFinite(v) && valueFits(schema, v)));
  return fc.oneof({ arbitrary: double, weight: 3 }, { arbitrary: edges, weight: 1 });
}

function valueFits(schema: SchemaObject, v: number): boolean {
  const { low, high, lowOpen, highOpen } = bounds(schema, false);
  return (lowOpen ? v > low : v >= low) && (highOpen ? v < high : v <= high);
}

function arrayArbitrary(schema: SchemaObject, walk: Walk, depth: number): Arb {
  const min = Math.max(0, num(schema.minItems) ?? 0);
  const deep = depth >= walk.maxDepth;
  const max = deep ? min : Math.min(num(schema.maxItems) ?? min + 5, min + 5);
  // Items of a circular schema (a `$ref` left in the graph) are not drawn: the array is as short as allowed.
  if (isObject(schema.items) && schema.items.$ref !== undefined) return min === 0 ? fc.constant([]) : fc.constant(undefined);
  const items = arbitraryOf(isObject(schema.items) ? schema.items : {}, walk, depth + 1);
  if (schema.uniqueItems === true) return fc.uniqueArray(items, { minLength: min, maxLength: Math.max(min, max), selector: (v) => JSON.stringify(v) });
  return fc.array(items, { minLength: min, maxLength: Math.max(min, max) });
}

function objectArbitrary(schema: SchemaObject, walk: Walk, depth: number): Arb {
  const skip = walk.direction === 'request' ? 'readOnly' : 'writeOnly';
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === 'string') : []);
  const deep = depth >= walk.maxDepth;
  const model: Record<string, Arb> = {};
  for (const [name, property] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
    if (!isObject(property) || property[skip] === true) continue;
    if ((deep || property.$ref !== undefined) && !required.has(name)) continue;
    model[name] = arbitraryOf(property, walk, depth + 1);
  }
  const requiredKeys = Object.keys(model).filter((name) => required.has(name));
  return fc.record(model, { requiredKeys }).map((value) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)));
}
