/**
 * Realistic JSON values from dereferenced OpenAPI 3.0/3.1 Schema Objects, drawn from Faker so a
 * seeded Faker gives the same data on every run. Seeds the mock server's store and fills response
 * bodies for any document, so it never throws, always terminates on circular schemas and always
 * returns something JSON-serialisable.
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
  /** How deep optional content is generated; deeper, only what is required. Default 4. */
  maxDepth?: number;
}

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';
interface Context { faker: Faker; maxDepth: number }

const KINDS = new Set<string>(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
const TYPE_ALIASES: Record<string, Kind> = { int: 'integer', long: 'integer', float: 'number', double: 'number', bool: 'boolean', dict: 'object', map: 'object', list: 'array' };
const COMPOSITION = ['allOf', 'oneOf', 'anyOf'];
// A fixed window rather than "recent", which depends on today's date and would break seeding.
const DATE_WINDOW = { from: '2020-01-01T00:00:00Z', to: '2025-12-31T23:59:59Z' };

const isObject = (value: unknown): value is SchemaObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const own = <T>(table: Record<string, T>, key: unknown): T | undefined => (typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined);
const omit = (s: SchemaObject, keys: string[]): SchemaObject => Object.fromEntries(Object.entries(s).filter(([k]) => !keys.includes(k)));
const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const isoDateTime = (f: Faker): string => f.date.between(DATE_WINDOW).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Returns a function that generates one value for a schema, drawing all randomness from `faker`
 * (so a seeded faker gives the same values every run).
 *
 * @example
 * const faker = new Faker({ locale: [en] }); faker.seed(42);
 * const generate = createGenerator(faker);
 * generate(petSchema, { collection: 'pets' }); // { id: 412, name: 'Bella', photoUrls: ['https://…'], … }
 */
export function createGenerator(faker: Faker, options: GeneratorOptions = {}): (schema: SchemaObject, hints?: GenerateHints) => unknown {
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
  const constant = 'const' in schema ? toJson(schema.const, schema) : undefined;
  if (constant !== undefined) return constant;
  const fromExtension = callXFaker(faker, schema['x-faker'], schema);
  if (fromExtension !== undefined) return fromExtension;
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

function kindOf(s: SchemaObject): Kind {
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === 'string');
  const chosen = types.find((t) => t !== 'null') ?? types[0];
  if (chosen === 'number' && /^int(32|64)$/.test(s.format)) return 'integer';
  if (chosen !== undefined) return KINDS.has(chosen) ? (chosen as Kind) : (own(TYPE_ALIASES, chosen.toLowerCase()) ?? 'string');
  if (isObject(s.properties) || isObject(s.additionalProperties) || Array.isArray(s.required) || 'minProperties' in s) return 'object';
  if ('items' in s || 'prefixItems' in s || 'minItems' in s || 'maxItems' in s) return 'array';
  if (/^int(32|64)$/.test(s.format)) return 'integer';
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) => num(s[k]) !== undefined)) return 'number';
  return 'string';
}

function matchesKind(value: unknown, kind: Kind): boolean {
  if (kind === 'integer') return Number.isInteger(value);
  if (kind === 'number') return typeof value === 'number';
  if (kind === 'array') return Array.isArray(value);
  if (kind === 'object') return isObject(value);
  return kind === 'null' ? value === null : typeof value === kind;
}

/** Plain JSON for a document value: YAML may hand us `Date`s, and callers may mutate what they get. */
function toJson(value: unknown, s: SchemaObject): unknown {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return undefined;
    const iso = value.toISOString();
    return s.format === 'date' || (s.format !== 'date-time' && iso.endsWith('T00:00:00.000Z')) ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'object' && value !== null) {
    try { return JSON.parse(JSON.stringify(value)); } catch { return undefined; }
  }
  return ['string', 'boolean'].includes(typeof value) || value === null ? value : undefined;
}

/** `x-faker: animal.petName` or `{ "lorem.words": 3 }`; undefined when it names nothing usable. */
function callXFaker(faker: Faker, spec: unknown, s: SchemaObject): unknown {
  const entry = typeof spec === 'string' ? [spec] : isObject(spec) ? Object.entries(spec)[0] : undefined;
  const path = entry?.[0];
  // Documents come from anywhere: never let one reach Function through the prototype chain.
  if (typeof path !== 'string' || /(^|\.)(constructor|prototype|__proto__)(\.|$)/.test(path)) return undefined;
  let owner: unknown = faker;
  let target: unknown = faker;
  for (const part of path.replace(/^faker\./, '').split('.')) {
    owner = target;
    target = isObject(target) || typeof target === 'function' ? (target as SchemaObject)[part] : undefined;
  }
  if (typeof target !== 'function') return undefined;
  try { return toJson(target.apply(owner, entry!.slice(1)), s); } catch { return undefined; }
}

function pickEnum(faker: Faker, s: SchemaObject, kind: Kind): unknown {
  const values = s.enum.map((v: unknown) => toJson(v, s)).filter((v: unknown) => v !== undefined);
  const typed = values.filter((v: unknown) => (s.type === undefined ? v !== null : matchesKind(v, kind)));
  return typed.length > 0 ? faker.helpers.arrayElement(typed) : (values[0] ?? null);
}

function minimalValue(kind: Kind): unknown {
  return { string: '', number: 0, integer: 0, boolean: false, array: [], object: {}, null: null }[kind];
}

// ---- Composition: allOf is merged, oneOf/anyOf pick one branch merged with its parent's siblings.

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
    out = chosen ? applyDiscriminator(mergeSchemas(omit(out, [key]), chosen.schema), chosen.raw, true) : omit(out, [key]);
  }
  seen.delete(schema);
  // A concrete subtype generated directly (Dog = allOf[Pet, …]) still names itself when mapped.
  return choices.length === 0 ? applyDiscriminator(out, schema, false) : out;
}

const TAKE_MAX = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const TAKE_MIN = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

function mergeSchemas(a: SchemaObject, b: SchemaObject): SchemaObject {
  const out: SchemaObject = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    if (mine === undefined) out[key] = value;
    else if (key === 'properties' && isObject(mine) && isObject(value)) {
      const merged: SchemaObject = { ...mine };
      for (const [name, sub] of Object.entries(value)) merged[name] = Object.hasOwn(mine, name) && mine[name] !== sub ? { allOf: [mine[name], sub] } : sub;
      out.properties = merged;
    } else if (key === 'required' && Array.isArray(mine) && Array.isArray(value)) out.required = [...new Set([...mine, ...value])];
    else if (typeof mine === 'number' && typeof value === 'number' && TAKE_MAX.includes(key)) out[key] = Math.max(mine, value);
    else if (typeof mine === 'number' && typeof value === 'number' && TAKE_MIN.includes(key)) out[key] = Math.min(mine, value);
    else if (key === 'type') out.type = commonTypes(mine, value) ?? mine;
    else if (key === 'enum' && Array.isArray(mine) && Array.isArray(value)) {
      const common = mine.filter((v) => value.some((w) => JSON.stringify(w) === JSON.stringify(v)));
      if (common.length > 0) out.enum = common;
    } else if ((key === 'items' || key === 'additionalProperties') && isObject(mine) && isObject(value) && mine !== value) out[key] = { allOf: [mine, value] };
    // Any other keyword: the first schema that says something wins.
  }
  return out;
}

/** The types both accept (an integer is a number), or undefined when they share none. */
function commonTypes(a: unknown, b: unknown): string | string[] | undefined {
  const as = (Array.isArray(a) ? a : [a]).filter((t) => typeof t === 'string');
  const bs = (Array.isArray(b) ? b : [b]).filter((t) => typeof t === 'string');
  const common = [...new Set(as.flatMap((t) => (bs.includes(t) ? [t] : (t === 'number' && bs.includes('integer')) || (t === 'integer' && bs.includes('number')) ? ['integer'] : [])))];
  return common.length === 0 ? undefined : common.length === 1 ? common[0] : common;
}

function chooseBranch(context: Context, parent: SchemaObject, branches: unknown[], seen: Set<SchemaObject>) {
  const options = branches.filter(isObject).map((raw) => ({ raw, schema: normalize(context, raw, seen) })).filter(({ schema }) => {
    const contradicts = parent.type !== undefined && schema.type !== undefined && commonTypes(parent.type, schema.type) === undefined;
    const onlyNot = Object.keys(schema).length === 1 && 'not' in schema;
    return !contradicts && !onlyNot && !(Array.isArray(schema.enum) && schema.enum.length === 0);
  });
  const nonNull = options.filter(({ schema }) => kindOf(schema) !== 'null');
  const objects = kindOf(parent) === 'object' ? nonNull.filter(({ schema }) => kindOf(schema) === 'object' && Array.isArray(schema.required) && schema.required.length > 0) : [];
  const pool = objects.length > 0 ? objects : nonNull.length > 0 ? nonNull : options;
  if (pool.length === 0) return undefined;
  // With a discriminator the branches are subtypes: vary them, so a seeded store holds cats and dogs.
  return isObject(parent.discriminator) ? context.faker.helpers.arrayElement(pool) : pool[0];
}

/** Pins the discriminator property to the branch's name: its mapping key, else its title. */
function applyDiscriminator(s: SchemaObject, branch: SchemaObject, useTitle: boolean): SchemaObject {
  const d = s.discriminator;
  if (!isObject(d) || typeof d.propertyName !== 'string') return s;
  const props = isObject(s.properties) ? s.properties : {};
  const current = isObject(props[d.propertyName]) && Object.hasOwn(props, d.propertyName) ? props[d.propertyName] : { type: 'string' };
  const title = typeof branch.title === 'string' ? branch.title : undefined;
  const mapped = Object.entries(isObject(d.mapping) ? d.mapping : {}).find(([, target]) => target === branch || (typeof target === 'string' && title !== undefined && target.split('/').pop() === title));
  // An enum or const on the property already names the branch, and is what validation checks.
  const value = mapped?.[0] ?? (useTitle && !('const' in current) && !Array.isArray(current.enum) ? title : undefined);
  if (value === undefined) return s;
  const required = [...new Set([...(Array.isArray(s.required) ? s.required : []), d.propertyName])];
  return { ...s, properties: { ...props, [d.propertyName]: { ...current, const: value } }, required };
}

// ---- Scalars

function generateNumber(faker: Faker, s: SchemaObject, integer: boolean): number {
  let low = num(s.minimum);
  let high = num(s.maximum);
  let lowOpen = s.exclusiveMinimum === true;
  let highOpen = s.exclusiveMaximum === true;
  const exclusiveLow = num(s.exclusiveMinimum);
  const exclusiveHigh = num(s.exclusiveMaximum);
  if (exclusiveLow !== undefined && (low === undefined || exclusiveLow >= low)) [low, lowOpen] = [exclusiveLow, true];
  if (exclusiveHigh !== undefined && (high === undefined || exclusiveHigh <= high)) [high, highOpen] = [exclusiveHigh, true];
  const multipleOf = num(s.multipleOf) !== undefined && s.multipleOf > 0 && (!integer || Number.isInteger(s.multipleOf)) ? s.multipleOf : undefined;
  // Every value is k * step; plain numbers get two decimals, like prices and measurements.
  const step = multipleOf ?? (integer ? 1 : 0.01);
  let kLow = low === undefined ? undefined : lowOpen ? Math.floor(low / step) + 1 : Math.ceil(low / step);
  let kHigh = high === undefined ? undefined : highOpen ? Math.ceil(high / step) - 1 : Math.floor(high / step);
  if (kLow !== undefined && kHigh !== undefined && kLow > kHigh) {
    if (!integer && multipleOf === undefined && low! < high!) return (low! + high!) / 2;
    kHigh = kLow;
  }
  // Small, realistic values: at most ~1000 above the minimum, or from 0 when the range allows.
  const span = Math.min(1e6, Math.max(1, Math.floor(1000 / step)));
  const limit = Math.floor((integer && s.format === 'int32' ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER) / step);
  let from = kLow ?? (kHigh === undefined || kHigh >= 0 ? 0 : kHigh - span);
  if (kLow !== undefined && kLow <= 0 && (kHigh === undefined || kHigh >= 0)) from = 0;
  from = Math.min(Math.max(from, -limit), limit);
  const to = Math.min(Math.max(Math.min(kHigh ?? Infinity, from + span), from), limit);
  const value = faker.number.int({ min: from, max: to }) * step;
  const decimals = (String(step).split('.')[1] ?? '').length;
  const rounded = decimals > 0 ? Number(value.toFixed(Math.min(decimals, 20))) : value;
  return rounded === 0 ? 0 : rounded;
}

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
  regex: () => '^[a-z]+$', phone: (f) => f.phone.number(),
};

const PEOPLE = /^(users?|people|persons?|customers?|owners?|employees?|members?|authors?|accounts?|contacts?|staff|students?|patients?)$/i;
const ANIMALS = /^(pets?|animals?|dogs?|cats?|birds?|horses?)$/i;
const BY_PROPERTY: [RegExp, (f: Faker, collection?: string) => string][] = [
  [/^(id|uuid|guid)$|_id$|[a-z0-9]Id$|ID$/, (f) => f.string.uuid()],
  [/^(first|given)_?name$/i, (f) => f.person.firstName()],
  [/^(last|family|sur)_?name$/i, (f) => f.person.lastName()],
  [/^(full_?|display_?)?name$/i, (f, c) => (c && ANIMALS.test(c) ? f.animal.petName() : c && PEOPLE.test(c) ? f.person.fullName() : capitalise(f.word.noun()))],
  [/user_?name|login|nickname/i, (f) => f.internet.username()],
  [/e_?mail/i, (f) => f.internet.email()],
  [/phone|mobile|^tel|fax/i, (f) => f.phone.number()],
  [/password|secret/i, (f) => f.internet.password({ length: 12 })],
  [/^title$|headline|subject/i, (f) => capitalise(f.lorem.words(3))],
  [/description|summary|bio|comment|note|message|text/i, (f) => f.lorem.sentence()],
  [/(At|Date|Time|_at|_date|_on)$|^(date|time|timestamp)$/, isoDateTime],
  [/city|town/i, (f) => f.location.city()],
  [/country_?code/i, (f) => f.location.countryCode()],
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
  [/slug/i, (f) => f.lorem.slug()],
];

function generateString(faker: Faker, s: SchemaObject, hints: GenerateHints): string {
  const min = Math.max(0, Math.floor(num(s.minLength) ?? 0));
  const max = Math.max(min, Math.floor(num(s.maxLength) ?? Infinity));
  const fits = (v: string) => v.length >= min && v.length <= max;
  if (typeof s.pattern === 'string') {
    const regex = compileRegex(s.pattern);
    const matched = regex && (fromPattern(faker, s.pattern, regex, fits) ?? documentedString(faker, s, (v) => regex.test(v)));
    if (matched) return matched;
  }
  const format = own(FORMATS, s.format);
  const name = hints.propertyName ?? '';
  const heuristic = format ? undefined : BY_PROPERTY.find(([test]) => test.test(name));
  const value = format?.(faker) ?? heuristic?.[1](faker, hints.collection)
    ?? (faker.datatype.boolean() ? documentedString(faker, s, fits) : undefined) ?? faker.lorem.words({ min: 1, max: 3 });
  return fitLength(faker, value, min, max);
}

/** One of the schema's own `example`/`examples`/`default` strings that passes `accept`. */
function documentedString(faker: Faker, s: SchemaObject, accept: (v: string) => boolean): string | undefined {
  const candidates = [s.example, ...(Array.isArray(s.examples) ? s.examples : []), s.default].map((v) => toJson(v, s));
  const usable = candidates.filter((v): v is string => typeof v === 'string' && accept(v));
  return usable.length > 0 ? faker.helpers.arrayElement(usable) : undefined;
}

function fitLength(faker: Faker, value: string, min: number, max: number): string {
  const cut = value.length > max ? value.slice(0, max).trimEnd() : value;
  return cut.length < min ? cut + faker.string.alpha({ length: min - cut.length, casing: 'lower' }) : cut;
}

function compileRegex(pattern: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try { return new RegExp(pattern, flags); } catch { /* try the next flags */ }
  }
  return undefined;
}

/** A string matching `regex`, preferring one that `fits`; Faker first, then our own sampler. */
function fromPattern(faker: Faker, pattern: string, regex: RegExp, fits: (v: string) => boolean): string | undefined {
  let fallback: string | undefined;
  for (let attempt = 0; attempt < 10; attempt++) {
    let candidate: string | undefined;
    try { candidate = attempt < 3 ? faker.helpers.fromRegExp(pattern) : sampleRegex(faker, pattern); } catch { continue; }
    if (!regex.test(candidate)) continue;
    if (fits(candidate)) return candidate;
    fallback ??= candidate;
  }
  return fallback;
}

const DIGITS = '0123456789';
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const ESCAPES: Record<string, string> = { d: DIGITS, w: `${LETTERS}${DIGITS}_`, s: ' ', D: LETTERS, W: '-.', S: LETTERS + DIGITS };

/** Samples a regex, covering what fromRegExp lacks: groups, alternation, `\d`-style escapes. */
function sampleRegex(faker: Faker, source: string): string {
  let i = 0;
  const pick = (chars: string): string => (chars ? faker.helpers.arrayElement([...chars]) : '');
  const escape = (): string => {
    const e = source[i++] ?? '';
    if (Object.hasOwn(ESCAPES, e)) return ESCAPES[e];
    if (e === 'p' || e === 'P') { i = source.indexOf('}', i) + 1 || source.length; return LETTERS; }
    const hex = e === 'x' ? /^[\da-f]{2}/i.exec(source.slice(i)) : e === 'u' ? /^\{[\da-f]+\}|^[\da-f]{4}/i.exec(source.slice(i)) : null;
    if (hex) { i += hex[0].length; return String.fromCodePoint(parseInt(hex[0].replace(/[{}]/g, ''), 16)); }
    if (/[bB1-9]/.test(e)) return '';
    return own({ n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', 0: '\0' }, e) ?? e;
  };
  const charClass = (): string => {
    const negate = source[i] === '^';
    if (negate) i++;
    let set = '';
    while (i < source.length && source[i] !== ']') {
      const first = source[i++] === '\\' ? escape() : source[i - 1];
      if (first.length === 1 && source[i] === '-' && i + 1 < source.length && source[i + 1] !== ']') {
        i++;
        const last = source[i++] === '\\' ? escape() : source[i - 1];
        const [a, b] = [first.codePointAt(0)!, (last.codePointAt(0) ?? 0) + 0];
        for (let c = a; c <= Math.min(b, a + 255); c++) set += String.fromCodePoint(c);
      } else set += first;
    }
    i++;
    if (!negate) return set;
    const outside = (chars: string) => [...chars].filter((ch) => !set.includes(ch)).join('');
    return outside(LETTERS + DIGITS) || outside(PRINTABLE);
  };
  const atom = (): string => {
    const c = source[i++];
    if (c === '[') return pick(charClass());
    if (c === '\\') return pick(escape());
    if (c === '.') return pick(LETTERS + DIGITS);
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
  const quantifier = (): [number, number] => {
    const q = source[i];
    const braces = q === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i)) : null;
    const range: [number, number] | undefined = q === '*' ? [0, 3] : q === '+' ? [1, 4] : q === '?' ? [0, 1]
      : braces ? [+braces[1], braces[2] === undefined ? +braces[1] : braces[3] ? Math.min(+braces[3], +braces[1] + 10) : +braces[1] + 3] : undefined;
    if (!range) return [1, 1];
    i += braces ? braces[0].length : 1;
    if (source[i] === '?' || source[i] === '+') i++; // lazy or possessive: same strings
    return range;
  };
  const sequence = (): string => {
    let out = '';
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      const start = i;
      let piece = atom();
      const [low, high] = quantifier();
      const after = i;
      const count = faker.number.int({ min: low, max: Math.max(low, high) });
      if (count === 0) piece = '';
      for (let n = 1; n < count; n++) { i = start; piece += atom(); }
      i = after;
      out += piece;
    }
    return out;
  };
  const alternation = (): string => {
    const options = [sequence()];
    while (source[i] === '|') { i++; options.push(sequence()); }
    return faker.helpers.arrayElement(options);
  };
  return alternation();
}

// ---- Containers

function generateArray(context: Context, s: SchemaObject, hints: GenerateHints, depth: number): unknown[] {
  const min = Math.max(0, Math.floor(num(s.minItems) ?? 0));
  const max = Math.max(min, Math.floor(num(s.maxItems) ?? Infinity));
  const length = depth > context.maxDepth ? min : context.faker.number.int({ min: Math.max(min, Math.min(1, max)), max: Math.min(max, min + 3) });
  const prefix: unknown[] = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest: unknown = Array.isArray(s.items) ? (s.additionalItems ?? {}) : (s.items ?? { type: 'string' });
  const out: unknown[] = [];
  const seen = new Set<string>();
  // uniqueItems over a small item space (an enum of 3) gives up after a few tries: fewer items, no loop.
  for (let attempt = 0; out.length < length && attempt < length * 5 + 10; attempt++) {
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

function generateObject(context: Context, s: SchemaObject, hints: GenerateHints, depth: number): Record<string, unknown> {
  const props: SchemaObject = isObject(s.properties) ? s.properties : {};
  const required = (Array.isArray(s.required) ? s.required : []).filter((k: unknown): k is string => typeof k === 'string');
  const maxProperties = num(s.maxProperties) ?? Infinity;
  const optional = depth > context.maxDepth / 2 ? [] : Object.keys(props).filter((k) => !required.includes(k) && props[k] !== false);
  const included = new Set([...required, ...optional.slice(0, Math.max(0, maxProperties - required.length))]);
  const keys = [...Object.keys(props).filter((k) => included.has(k)), ...required.filter((k) => !Object.hasOwn(props, k))];
  const extra = s.additionalProperties === false ? undefined : isObject(s.additionalProperties) ? s.additionalProperties : {};
  const out: Record<string, unknown> = {};
  // defineProperty, so a property named `__proto__` is data rather than a prototype change.
  const set = (key: string, value: unknown) => Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  for (const key of keys) {
    set(key, generate(context, Object.hasOwn(props, key) ? props[key] : extra ?? {}, { propertyName: key, collection: hints.collection }, depth + 1));
  }
  const isMap = Object.keys(props).length === 0 && isObject(s.additionalProperties) && depth <= context.maxDepth;
  const wanted = Math.min(maxProperties, Math.max(num(s.minProperties) ?? 0, isMap ? context.faker.number.int({ min: 1, max: 2 }) : 0));
  for (let attempt = 0; extra && Object.keys(out).length < wanted && attempt < wanted * 5 + 10; attempt++) {
    const key = context.faker.lorem.word();
    if (!Object.hasOwn(out, key)) set(key, generate(context, extra, hints, depth + 1));
  }
  return out;
}
