/**
 * Realistic JSON values from dereferenced OpenAPI 3.0/3.1 Schema Objects, drawn from Faker so a seeded
 * Faker gives the same data every run. It seeds the mock's store and fills response bodies for any
 * document, so it never throws, stops on circular schemas and always returns plain JSON.
 */
import type { Faker } from '@faker-js/faker';
import type { SchemaObject } from '../document/schema.js';

export interface GenerateHints {
  /** The property this value is for (`name`, `email`, `createdAt`), used for realistic strings. */
  propertyName?: string;
  /** The collection the record belongs to (`pets`, `categories`), used for realistic names. */
  collection?: string;
}

export interface GeneratorOptions {
  /** Nesting depth with optional content; deeper, only what is required. Default 4. */
  maxDepth?: number;
}

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';
interface Context { faker: Faker; maxDepth: number }

const KINDS = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];
const TYPE_ALIASES: Record<string, Kind> = {
  int: 'integer', long: 'integer', float: 'number', double: 'number', bool: 'boolean', dict: 'object', list: 'array',
};
const INT_FORMATS: Record<string, [number, number]> = {
  int8: [-128, 127], uint8: [0, 255], int16: [-32768, 32767], uint16: [0, 65535],
  int32: [-(2 ** 31), 2 ** 31 - 1], uint32: [0, 2 ** 32 - 1], uint64: [0, Number.MAX_SAFE_INTEGER],
};
const COMPOSITION = ['allOf', 'oneOf', 'anyOf'];
// A fixed window rather than faker.date.recent(), which moves with today's date and breaks seeding.
const DATE_WINDOW = { from: '2020-01-01T00:00:00Z', to: '2025-12-31T23:59:59Z' };

const isObject = (v: unknown): v is SchemaObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const own = <T>(table: Record<string, T>, key: unknown): T | undefined =>
  typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
const omit = (s: SchemaObject, keys: string[]): SchemaObject =>
  Object.fromEntries(Object.entries(s).filter(([k]) => !keys.includes(k)));
// defineProperty, so a key named `__proto__` stays data instead of replacing the prototype.
const setOwn = (target: object, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
const attempt = <T>(make: () => T): T | undefined => { try { return make(); } catch { return undefined; } };
const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const isoDateTime = (f: Faker): string => f.date.between(DATE_WINDOW).toISOString().replace(/\.\d{3}Z$/, 'Z');

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
  const context: Context = { faker, maxDepth: Math.max(0, num(options.maxDepth) ?? 4) };
  return (schema, hints = {}) => {
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
  const schema = normalize(context, raw, new Set());
  const kind = kindOf(schema);
  const fixed = 'const' in schema ? toJson(schema.const, schema) : callXFaker(faker, schema['x-faker'], schema);
  if (fixed !== undefined) return fixed;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pickEnum(faker, schema, kind);
  if (depth > context.maxDepth + 4) return minimalValue(kind);
  switch (kind) {
    case 'null': return null;
    case 'boolean': return faker.datatype.boolean();
    case 'integer': case 'number': return generateNumber(faker, schema, kind === 'integer');
    case 'array': return generateArray(context, schema, hints, depth);
    case 'object': return generateObject(context, schema, hints, depth);
    default: return generateString(faker, schema, hints);
  }
}

/** The type to generate: the first non-null one, an alias like `str` read as string, else inferred. */
function kindOf(s: SchemaObject): Kind {
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === 'string');
  const chosen = types.find((t) => t !== 'null') ?? types[0];
  const intFormat = own(INT_FORMATS, s.format) !== undefined || s.format === 'int64';
  if (chosen !== undefined && chosen !== 'number') {
    return KINDS.includes(chosen) ? (chosen as Kind) : (own(TYPE_ALIASES, chosen.toLowerCase()) ?? 'string');
  }
  if (chosen === 'number' || intFormat || /^(float|double)$/.test(s.format)) return intFormat ? 'integer' : 'number';
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

/** Plain JSON from a document value: YAML hands over `Date`s, and callers may mutate what they get. */
function toJson(value: unknown, s: SchemaObject): unknown {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return undefined;
    const iso = value.toISOString();
    const dateOnly = s.format === 'date' || (s.format !== 'date-time' && iso.endsWith('T00:00:00.000Z'));
    return dateOnly ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'object' && value !== null) return attempt(() => JSON.parse(JSON.stringify(value)));
  return typeof value === 'string' || typeof value === 'boolean' || value === null ? value : undefined;
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

function pickEnum(faker: Faker, s: SchemaObject, kind: Kind): unknown {
  const values = s.enum.map((v: unknown) => toJson(v, s)).filter((v: unknown) => v !== undefined);
  const typed = values.filter((v: unknown) => (s.type === undefined ? v !== null : matchesKind(v, kind)));
  return typed.length > 0 ? faker.helpers.arrayElement(typed) : (values[0] ?? null);
}

function minimalValue(kind: Kind): unknown {
  return { string: '', number: 0, integer: 0, boolean: false, array: [], object: {}, null: null }[kind];
}

// ---- Composition: allOf is merged; oneOf/anyOf choose one branch, merged with the parent's siblings.

function normalize(context: Context, schema: SchemaObject, seen: Set<SchemaObject>): SchemaObject {
  if (!COMPOSITION.some((k) => Array.isArray(schema[k]))) return schema;
  if (seen.has(schema)) return omit(schema, COMPOSITION);
  seen.add(schema);
  let out = omit(schema, ['allOf']);
  for (const branch of Array.isArray(schema.allOf) ? schema.allOf : []) {
    if (isObject(branch)) out = mergeSchemas(out, normalize(context, branch, seen));
  }
  const choices = ['oneOf', 'anyOf'].filter((k) => Array.isArray(out[k]));
  for (const key of choices) {
    const chosen = chooseBranch(context, out, out[key], seen);
    const rest = omit(out, [key]);
    out = chosen ? applyDiscriminator(mergeSchemas(rest, chosen.schema), chosen.raw, true) : rest;
  }
  seen.delete(schema);
  // A subtype generated directly (Dog = allOf[Pet, …]) still names itself when Pet's mapping lists it.
  return choices.length === 0 ? applyDiscriminator(out, schema, false) : out;
}

const TAKE_MAX = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const TAKE_MIN = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

function mergeSchemas(a: SchemaObject, b: SchemaObject): SchemaObject {
  const out: SchemaObject = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    const numbers = typeof mine === 'number' && typeof value === 'number';
    if (mine === undefined) setOwn(out, key, value);
    else if (key === 'properties' && isObject(mine) && isObject(value)) {
      out.properties = { ...mine };
      for (const [name, sub] of Object.entries(value)) {
        const both = Object.hasOwn(mine, name) && mine[name] !== sub;
        setOwn(out.properties, name, both ? { allOf: [mine[name], sub] } : sub);
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
  return out;
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
    ({ schema }) => kindOf(schema) === 'object' && schema.required?.length > 0,
  );
  const pool = [objects, nonNull, possible].find((list) => list.length > 0) ?? [];
  // With a discriminator the branches are subtypes: vary them, so a seeded store holds cats and dogs.
  return isObject(parent.discriminator) && pool.length > 0 ? context.faker.helpers.arrayElement(pool) : pool[0];
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

function generateNumber(faker: Faker, s: SchemaObject, integer: boolean): number {
  const low = bound(s.minimum, s.exclusiveMinimum, Math.max);
  const high = bound(s.maximum, s.exclusiveMaximum, Math.min);
  const multipleOf = num(s.multipleOf) !== undefined && s.multipleOf > 0 ? (s.multipleOf as number) : undefined;
  // Every value is k * step; plain numbers get two decimals, like prices and weights.
  const usable = multipleOf !== undefined && (!integer || Number.isInteger(multipleOf));
  const step = usable ? multipleOf! : integer ? 1 : 0.01;
  const [formatLow, formatHigh] = own(INT_FORMATS, s.format) ?? [-Infinity, Infinity];
  const safe = Number.MAX_SAFE_INTEGER;
  const lowK = low.at === undefined ? -safe : low.open ? Math.floor(low.at / step) + 1 : Math.ceil(low.at / step);
  const highK = high.at === undefined ? safe : high.open ? Math.ceil(high.at / step) - 1 : Math.floor(high.at / step);
  const minK = Math.min(Math.max(lowK, Math.ceil(formatLow / step), -safe), safe);
  const maxK = Math.max(Math.min(highK, Math.floor(formatHigh / step), safe), -safe);
  if (minK > maxK) {
    // Bounds closer than two decimals (or contradictory ones): the midpoint, or the lower bound.
    return step === 0.01 && low.at! < high.at! ? (low.at! + high.at!) / 2 : minK * step;
  }
  // Realistic values: at most ~1000 above the minimum, or from 0 when there is no minimum.
  const span = Math.min(1e6, Math.max(1, Math.floor(1000 / step)));
  const from = low.at !== undefined ? minK : maxK >= 0 ? Math.max(minK, 0) : Math.max(minK, maxK - span);
  const decimals = Math.min(String(step).split('.')[1]?.length ?? 0, 20);
  const draw = () => Number((faker.number.int({ min: from, max: Math.min(maxK, from + span) }) * step).toFixed(decimals));
  let value = draw();
  // Validators test multipleOf by division, which floating point fails for some multiples (0.07 / 0.01).
  for (let tries = 0; usable && tries < 10 && (value / step) % 1 !== 0; tries++) value = draw();
  return value || 0;
}

// ---- Strings

const FORMATS: Record<string, (f: Faker) => string> = {
  'date-time': isoDateTime, 'iso-date-time': isoDateTime,
  date: (f) => isoDateTime(f).slice(0, 10),
  time: (f) => isoDateTime(f).slice(11), 'iso-time': (f) => isoDateTime(f).slice(11),
  email: (f) => f.internet.email(), 'idn-email': (f) => f.internet.email(),
  uri: (f) => f.internet.url(), url: (f) => f.internet.url(), 'uri-reference': (f) => f.internet.url(),
  iri: (f) => f.internet.url(), 'iri-reference': (f) => f.internet.url(), 'uri-template': (f) => f.internet.url(),
  hostname: (f) => f.internet.domainName(), 'idn-hostname': (f) => f.internet.domainName(),
  ipv4: (f) => f.internet.ipv4(), ipv6: (f) => f.internet.ipv6(), uuid: (f) => f.string.uuid(),
  byte: (f) => Buffer.from(f.lorem.words(3)).toString('base64'),
  binary: (f) => f.string.alphanumeric(16), password: (f) => f.internet.password({ length: 12 }),
  duration: (f) => `P${f.number.int({ min: 1, max: 30 })}D`, 'json-pointer': (f) => `/${f.lorem.word()}`,
};

const PEOPLE = /^(users?|people|persons?|customers?|owners?|employees?|members?|authors?|accounts?|contacts?)$/i;
const ANIMALS = /^(pets?|animals?|dogs?|cats?|birds?|horses?)$/i;
const nameIn = (f: Faker, collection = ''): string => {
  if (ANIMALS.test(collection)) return f.animal.petName();
  return PEOPLE.test(collection) ? f.person.fullName() : capitalise(f.word.noun());
};
const BY_PROPERTY: [RegExp, (f: Faker, collection?: string) => string][] = [
  [/^(id|uuid|guid)$|_id$|[a-z0-9]Id$|ID$/, (f) => f.string.uuid()],
  [/^(first|given)_?name$/i, (f) => f.person.firstName()],
  [/^(last|family|sur)_?name$/i, (f) => f.person.lastName()],
  [/^(full_?|display_?)?name$/i, nameIn],
  [/user_?name|login|nickname/i, (f) => f.internet.username()],
  [/e_?mail/i, (f) => f.internet.email()],
  [/phone|mobile|^tel|fax/i, (f) => f.phone.number()],
  [/password|secret/i, (f) => f.internet.password({ length: 12 })],
  [/^title$|headline|subject/i, (f) => capitalise(f.lorem.words(3))],
  [/description|summary|bio|comment|note|message|text/i, (f) => f.lorem.sentence()],
  [/(At|Date|Time|_at|_date|_on)$|^(date|time|timestamp)$/, isoDateTime],
  [/city|town/i, (f) => f.location.city()],
  // A short list, because location.countryCode() needs the `base` locale, which callers may not load.
  [/country_?code/i, (f) => f.helpers.arrayElement(['US', 'GB', 'DE', 'FR', 'NL', 'ES', 'IT', 'SE', 'JP', 'CA'])],
  [/country/i, (f) => f.location.country()],
  [/^ip(v4)?(_?address)?$/i, (f) => f.internet.ipv4()],
  [/street|address/i, (f) => f.location.streetAddress()],
  [/zip|postal/i, (f) => f.location.zipCode()],
  [/company|organi[sz]ation|employer/i, (f) => f.company.name()],
  [/image|photo|avatar|picture|thumbnail|logo/i, (f) => f.image.url()],
  [/url|website|homepage|link|href/i, (f) => f.internet.url()],
  [/colou?r/i, (f) => f.color.human()],
  [/^tags?$|label|keyword/i, (f) => f.lorem.word().toLowerCase()],
  [/status/i, (f) => f.helpers.arrayElement(['active', 'pending', 'inactive'])],
  [/currency/i, (f) => f.finance.currencyCode()],
];

function generateString(faker: Faker, s: SchemaObject, hints: GenerateHints): string {
  const min = Math.max(0, Math.floor(num(s.minLength) ?? 0));
  const max = Math.max(min, Math.floor(num(s.maxLength) ?? Infinity));
  const fits = (v: string) => v.length >= min && v.length <= max;
  const regex = typeof s.pattern === 'string' ? compileRegex(s.pattern) : undefined;
  if (regex) {
    const matched = fromPattern(faker, s.pattern, regex, fits) ?? documentedString(faker, s, (v) => regex.test(v));
    if (matched !== undefined) return matched;
  }
  const format = own(FORMATS, s.format);
  const heuristic = format ? undefined : BY_PROPERTY.find(([test]) => test.test(hints.propertyName ?? ''))?.[1];
  // A Faker method can throw for data the caller's locale lacks: then fall through to plain words.
  const produce = (): string =>
    attempt(() => format?.(faker) ?? heuristic?.(faker, hints.collection))
    ?? (faker.datatype.boolean() ? documentedString(faker, s, fits) : undefined)
    ?? faker.lorem.words({ min: 1, max: 3 });
  let value = produce();
  // Another try is better than cutting an email or a date into something malformed.
  for (let tries = 0; tries < 5 && !fits(value); tries++) value = produce();
  const cut = value.length > max ? value.slice(0, max).trimEnd() : value;
  return cut.length < min ? cut + faker.string.alpha({ length: min - cut.length, casing: 'lower' }) : cut;
}

/** One of the schema's own `example`/`examples`/`default` strings that passes `accept`. */
function documentedString(faker: Faker, s: SchemaObject, accept: (v: string) => boolean): string | undefined {
  const candidates = [s.example, ...(Array.isArray(s.examples) ? s.examples : []), s.default];
  const usable = candidates.map((v) => toJson(v, s)).filter((v): v is string => typeof v === 'string' && accept(v));
  return usable.length > 0 ? faker.helpers.arrayElement(usable) : undefined;
}

function compileRegex(pattern: string): RegExp | undefined {
  return attempt(() => new RegExp(pattern, 'u')) ?? attempt(() => new RegExp(pattern));
}

/** A string matching `regex`, preferably one that `fits`: Faker's fromRegExp first, then our sampler. */
function fromPattern(faker: Faker, pattern: string, regex: RegExp, fits: (v: string) => boolean) {
  let fallback: string | undefined;
  // fromRegExp reads escapes (`\d`), groups and alternation literally: those go straight to our sampler.
  const fakerCan = !/[\\(|]/.test(pattern);
  for (let tries = 0; tries < 10; tries++) {
    const useFaker = fakerCan && tries < 3;
    const candidate = attempt(() => (useFaker ? faker.helpers.fromRegExp(regex) : sampleRegex(faker, pattern)));
    if (candidate === undefined || !regex.test(candidate)) continue;
    if (fits(candidate)) return candidate;
    fallback ??= candidate;
  }
  return fallback;
}

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const ESCAPES: Record<string, string> = {
  d: DIGITS, w: LOWER + UPPER + DIGITS + '_', s: ' ', D: LOWER + UPPER, W: '-.', S: LOWER + UPPER + DIGITS,
};

/** Samples a regex, covering what fromRegExp lacks: groups, alternation and `\d`-style escapes. */
function sampleRegex(faker: Faker, source: string): string {
  let i = 0;
  const pick = (chars: string): string => (chars ? faker.helpers.arrayElement([...chars]) : '');
  const escape = (): string => {
    const e = source[i++] ?? '';
    if (e === 'p' || e === 'P') {
      const close = source.indexOf('}', i);
      const name = close < 0 ? '' : source.slice(i + 1, close);
      i = close < 0 ? source.length : close + 1;
      if (e === 'P' || name[0] === 'N') return DIGITS;
      return name === 'Lu' ? UPPER : name === 'Ll' ? LOWER : LOWER + UPPER;
    }
    const hexPattern = e === 'x' ? /^[\da-f]{2}/i : e === 'u' ? /^\{[\da-f]+\}|^[\da-f]{4}/i : undefined;
    const hex = hexPattern?.exec(source.slice(i));
    if (hex) {
      i += hex[0].length;
      return String.fromCodePoint(parseInt(hex[0].replace(/[{}]/g, ''), 16));
    }
    if (/[bB1-9]/.test(e)) return ''; // word boundaries and backreferences: nothing to add
    return own(ESCAPES, e) ?? own<string>({ n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', 0: '\0' }, e) ?? e;
  };
  const classChar = (): string => (source[i++] === '\\' ? escape() : source[i - 1]);
  const charClass = (): string => {
    const negate = source[i] === '^';
    if (negate) i++;
    let set = '';
    while (i < source.length && source[i] !== ']') {
      const first = classChar();
      if (first.length !== 1 || source[i] !== '-' || source[i + 1] === ']' || i + 1 >= source.length) {
        set += first;
        continue;
      }
      i++;
      const [from, to] = [first.codePointAt(0)!, classChar().codePointAt(0) ?? 0];
      for (let c = from; c <= Math.min(to, from + 255); c++) set += String.fromCodePoint(c);
    }
    i++;
    const outside = (chars: string) => [...chars].filter((ch) => !set.includes(ch)).join('');
    return negate ? outside(LOWER + UPPER + DIGITS) || outside(PRINTABLE) : set;
  };
  const atom = (): string => {
    const c = source[i++];
    if (c === '[') return pick(charClass());
    if (c === '\\') return pick(escape());
    if (c === '.') return pick(LOWER + UPPER + DIGITS);
    if (c === '^' || c === '$') return '';
    if (c !== '(') return c;
    let lookaround = false;
    if (source[i] === '?') {
      const named = source[i + 1] === '<' && !'=!'.includes(source[i + 2]);
      lookaround = !named && source[i + 1] !== ':';
      i = named ? source.indexOf('>', i) + 1 : i + (source[i + 1] === '<' ? 3 : 2);
    }
    const inner = alternation();
    i++;
    return lookaround ? '' : inner;
  };
  const repeats = (): number => {
    const braces = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
    const q = source[i];
    const low = braces ? +braces[1] : q === '+' ? 1 : 0;
    const upTo = braces?.[2] === undefined ? low : braces[3] ? +braces[3] : low + 3;
    const high = braces ? upTo : q === '?' ? 1 : low + 3;
    if (!braces && !'*+?'.includes(q ?? 'x')) return 1;
    i += braces ? braces[0].length : 1;
    if (source[i] === '?' || source[i] === '+') i++; // lazy or possessive: the same strings
    return faker.number.int({ min: low, max: Math.max(low, Math.min(high, low + 10)) });
  };
  const sequence = (): string => {
    let out = '';
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      const start = i;
      const first = atom();
      const count = repeats();
      const end = i;
      let piece = count === 0 ? '' : first;
      for (let n = 1; n < count; n++) {
        i = start;
        piece += atom(); // re-parse the atom, so each repetition of a group or class is drawn anew
      }
      i = end;
      out += piece;
    }
    return out;
  };
  const alternation = (): string => {
    const options = [sequence()];
    while (source[i] === '|') {
      i++;
      options.push(sequence());
    }
    return faker.helpers.arrayElement(options);
  };
  return alternation();
}

// ---- Containers

function generateArray(context: Context, s: SchemaObject, hints: GenerateHints, depth: number): unknown[] {
  const min = Math.max(0, Math.floor(num(s.minItems) ?? 0));
  const max = Math.max(min, Math.floor(num(s.maxItems) ?? Infinity));
  const length = depth > context.maxDepth
    ? min
    : context.faker.number.int({ min: Math.max(min, Math.min(1, max)), max: Math.min(max, min + 3) });
  const prefix: unknown[] = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest: unknown = Array.isArray(s.items) ? (s.additionalItems ?? {}) : (s.items ?? { type: 'string' });
  const out: unknown[] = [];
  const seen = new Set<string>();
  // uniqueItems over a small item space (an enum of 3) gives up after a few tries: fewer items, no endless loop.
  for (let tries = 0; out.length < length && tries < length * 5 + 10; tries++) {
    const itemSchema = out.length < prefix.length ? prefix[out.length] : rest;
    if (itemSchema === false) break;
    const value = generate(context, itemSchema, hints, depth + 1);
    const key = JSON.stringify(value);
    if (s.uniqueItems === true && seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}

function generateObject(context: Context, s: SchemaObject, hints: GenerateHints, depth: number): object {
  const props: SchemaObject = isObject(s.properties) ? s.properties : {};
  const listed: unknown[] = Array.isArray(s.required) ? s.required : [];
  const required = listed.filter((k): k is string => typeof k === 'string');
  const maxProperties = num(s.maxProperties) ?? Infinity;
  const optional = depth > context.maxDepth / 2
    ? []
    : Object.keys(props).filter((k) => !required.includes(k) && props[k] !== false);
  const included = new Set([...required, ...optional.slice(0, Math.max(0, maxProperties - required.length))]);
  const undeclared = required.filter((k) => !Object.hasOwn(props, k));
  const keys = [...Object.keys(props).filter((k) => included.has(k)), ...undeclared];
  const additional = s.additionalProperties;
  const extra = additional === false ? undefined : isObject(additional) ? additional : {};
  const out = {};
  for (const key of keys) {
    const schema = Object.hasOwn(props, key) ? props[key] : (extra ?? {});
    setOwn(out, key, generate(context, schema, { propertyName: key, collection: hints.collection }, depth + 1));
  }
  // A map (`additionalProperties` and no `properties`) gets a couple of entries, like real data.
  const isMap = Object.keys(props).length === 0 && isObject(additional) && depth <= context.maxDepth;
  const mapSize = isMap ? context.faker.number.int({ min: 1, max: 2 }) : 0;
  const wanted = Math.min(maxProperties, Math.max(num(s.minProperties) ?? 0, mapSize));
  for (let tries = 0; extra && Object.keys(out).length < wanted && tries < wanted * 5 + 10; tries++) {
    const key = context.faker.lorem.word();
    if (!Object.hasOwn(out, key)) setOwn(out, key, generate(context, extra, hints, depth + 1));
  }
  return out;
}
