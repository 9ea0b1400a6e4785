/**
 * Turns a request's path, query, header and cookie parameters into the values their OpenAPI
 * `style`/`explode` and schemas describe (`?ids=1,2` → `[1, 2]`), so that Ajv, which does not
 * coerce, can validate them afterwards. Only the shape and primitive types are handled here:
 * ranges, enums and formats are Ajv's job.
 *
 * Everything that depends on the operation is decided once in `compileParameterParser`; the
 * function it returns only splits, decodes and converts strings.
 *
 * A parameter given as `content` rather than `schema` is one value in that media type: a JSON one
 * is parsed (its text is not taken apart by a style), any other kept as text.
 *
 * `allowEmptyValue` (deprecated) and `allowReserved` are ignored: an empty value is kept as ''
 * for Ajv to judge, and every value is percent-decoded whether reserved characters were escaped
 * or not. Delimiters are looked for after decoding, so `%2C` splits like `,` (as most clients
 * escape the comma, this is what they mean).
 */
import type { ParameterSpec, SchemaObject } from '../document/schema.js';
import type { Problem } from '../../core/problem.js';
import { setOwn } from '../../core/own-property.js';
import { append, decodeComponent, decodeQueryComponent, QueryString, type Multimap } from '../../core/query-string.js';
import { jsonDepth, MAX_JSON_DEPTH } from './body-decoders.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';

export interface RawParameters {
  /** Path parameters by name, already percent-decoded by the router. */
  path: Record<string, string>;
  /** The query, parsed once per request; or its raw text without `?` (may be ''), NOT decoded. */
  query: QueryString | string;
  /** A function returning a request header by lower-case name, or undefined/null. */
  header: (name: string) => string | undefined | null;
}

export interface ParsedParameters {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  cookie: Record<string, unknown>;
}

/** Converts one string to the schema's type; may report a problem at `at`. */
type Coerce = (text: string, at: string, problems: Problem[]) => unknown;
/** Name → raw (undecoded) values in order of appearance, for the query string and cookies. */
type Pair = [key: string, text: string];
/** A property name with its raw values. */
type Entry = [key: string, raws: string[]];
/** Percent-decodes, returning undefined when the text is malformed. */
type Decode = (text: string) => string | undefined;
interface RequestState { raw: RawParameters; query?: Multimap; cookie?: Multimap; problems: Problem[] }
/** Reads one parameter: `undefined` when absent; anything when it reported a problem. */
type Read = (state: RequestState) => unknown;
interface Reader { location: ParameterSpec['in']; name: string; at: string; required: boolean; read: Read }
/** How one property of an object parameter is converted; array properties collect repeated keys. */
interface Field { array: boolean; coerce: Coerce }
interface ObjectPlan { keys: string[]; field: (key: string) => Field }
/** How a path or header style takes a single string apart. */
interface TextStyle { primitive: (text: string) => string; array: (text: string) => string[]; object: (text: string) => Pair[] }

/** OpenAPI: header parameters named Accept, Content-Type or Authorization "SHALL be ignored". */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
const INTEGER = /^-?\d+$/;
// Fraction digits only follow a literal dot, so no two quantifiers compete for the same digits:
// no catastrophic backtracking on long inputs.
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
// The OpenAPI 3.0 examples table writes non-exploded label arrays as `.a.b.c`, RFC 6570 as `.a,b,c`: accept both.
const LABEL_SEPARATOR = /[.,]/;
const INT64_MESSAGE =
  `must be an integer between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER} (larger values cannot be handled exactly)`;

/**
 * Compiles, once per operation, a function that deserialises and coerces its parameters.
 * A parameter with a problem is left out of `values`, so the caller can drop Ajv's findings for it.
 *
 * @example
 * const parse = compileParameterParser([
 *   { name: 'ids', in: 'query', required: true, style: 'form', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
 * ]);
 * parse({ path: {}, query: 'ids=1,2', header: () => undefined });
 * // → { values: { path: {}, query: { ids: [1, 2] }, header: {}, cookie: {} }, problems: [] }
 */
export function compileParameterParser(
  parameters: ParameterSpec[],
): (raw: RawParameters) => { values: ParsedParameters; problems: Problem[] } {
  const readers = parameters.flatMap((spec) => compileReader(spec) ?? []);
  const needsQuery = readers.some((reader) => reader.location === 'query');
  const needsCookie = readers.some((reader) => reader.location === 'cookie');

  return (raw) => {
    const problems: Problem[] = [];
    const values: ParsedParameters = { path: {}, query: {}, header: {}, cookie: {} };
    const state: RequestState = {
      raw,
      problems,
      query: needsQuery ? (typeof raw.query === 'string' ? new QueryString(raw.query) : raw.query).entries() : undefined,
      cookie: needsCookie ? parseCookies(raw.header('cookie') ?? '') : undefined,
    };
    for (const reader of readers) {
      const before = problems.length;
      const value = reader.read(state);
      if (problems.length > before) continue;
      if (value === undefined) {
        if (reader.required) problems.push({ path: reader.at, rule: 'required', message: 'is required' });
      } else {
        setOwn(values[reader.location], reader.name, value);
      }
    }
    return { values, problems };
  };
}

function compileReader(spec: ParameterSpec): Reader | undefined {
  const { name, explode } = spec;
  const at = `${spec.in}.${name}`;
  const reader = (read: Read): Reader => ({ location: spec.in, name, at, required: spec.required, read });
  switch (spec.in) {
    case 'query':
    case 'cookie':
      return reader(compileFormLike(spec, at, spec.in));
    case 'header': {
      const lower = name.toLowerCase();
      if (IGNORED_HEADERS.has(lower)) return undefined;
      return reader(compileText(spec, at, simpleStyle(explode, true), (state) => state.raw.header(lower) ?? undefined));
    }
    case 'path': {
      const style =
        spec.style === 'label' ? labelStyle(explode) : spec.style === 'matrix' ? matrixStyle(name, explode) : simpleStyle(explode, false);
      // hasOwn first: a parameter called `constructor` must not find Object.prototype's.
      const get = ({ raw }: RequestState) =>
        Object.hasOwn(raw.path, name) && typeof raw.path[name] === 'string' ? raw.path[name] : undefined;
      return reader(compileText(spec, at, style, get));
    }
    default:
      return undefined;
  }
}

/** Path and header parameters: one string, taken apart by the style. */
function compileText(spec: ParameterSpec, at: string, style: TextStyle, get: (state: RequestState) => string | undefined): Read {
  const { shape, coerce } = compileValue(spec);
  const plan = compileObject(spec.schema);
  return (state) => {
    const text = get(state);
    if (text === undefined) return undefined;
    if (shape === 'array') return coerceItems(style.array(text), coerce, at, state.problems);
    if (shape === 'object') return toObject(style.object(text), plan, at, state.problems);
    return coerce(style.primitive(text), at, state.problems);
  };
}

/** Query (`form`, `spaceDelimited`, `pipeDelimited`, `deepObject`) and cookie (`form`) parameters. */
function compileFormLike(spec: ParameterSpec, at: string, source: 'query' | 'cookie'): Read {
  const { name, schema, style, explode } = spec;
  const { shape, coerce } = compileValue(spec);
  const plan = compileObject(schema);
  const decode = source === 'query' ? decodeQueryComponent : decodeComponent;
  const delimiter = source === 'cookie' ? ',' : style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';

  if (shape === 'object' && style === 'deepObject' && source === 'query') {
    // `filter[color]=red&filter[size]=2` → `{ color: 'red', size: 2 }`
    const open = `${name}[`;
    return (state) => {
      const entries: Entry[] = [];
      for (const [key, raws] of state.query ?? []) {
        if (key.length > open.length && key.startsWith(open) && key.endsWith(']')) entries.push([key.slice(open.length, -1), raws]);
      }
      return readObject(entries, decode, plan, at, state.problems);
    };
  }
  if (shape === 'object' && explode) {
    // Exploded form objects have no name of their own: each declared property is a key of its own.
    return (state) => {
      const entries = plan.keys.flatMap((key): Entry[] => {
        const raws = state[source]?.get(key);
        return raws === undefined ? [] : [[key, raws]];
      });
      return readObject(entries, decode, plan, at, state.problems);
    };
  }
  return (state) => {
    const raws = state[source]?.get(name);
    if (raws === undefined) return undefined;
    const texts = decodeAll(raws, decode, at, state.problems);
    if (shape === 'array') {
      return coerceItems(explode ? texts : texts.flatMap((text) => text.split(delimiter)), coerce, at, state.problems);
    }
    // Browsers send a cookie twice when two paths set it, the most specific first: that one wins.
    if (texts.length > 1 && source === 'query') state.problems.push(repeated(at));
    const text = texts[0] ?? '';
    return shape === 'object' ? toObject(pairsOf(text.split(delimiter)), plan, at, state.problems) : coerce(text, at, state.problems);
  };
}

/** Builds an object from its properties' raw values, or returns undefined when none was given. */
function readObject(entries: Entry[], decode: Decode, plan: ObjectPlan, at: string, problems: Problem[]): unknown {
  if (entries.length === 0) return undefined;
  const pairs = entries.flatMap(([key, raws]) =>
    decodeAll(raws, decode, `${at}.${key}`, problems).map((text): Pair => [key, text]),
  );
  return toObject(pairs, plan, at, problems);
}

function decodeAll(raws: string[], decode: Decode, at: string, problems: Problem[]): string[] {
  const texts: string[] = [];
  for (const raw of raws) {
    const text = decode(raw);
    if (text === undefined) problems.push({ path: at, rule: 'encoding', message: 'is not valid percent-encoded UTF-8' });
    else texts.push(text);
  }
  return texts;
}

function simpleStyle(explode: boolean, trim: boolean): TextStyle {
  // Header lists may have optional whitespace after commas (RFC 9110 §5.6.1).
  const split = trim ? (text: string) => text.split(',').map((part) => part.trim()) : (text: string) => text.split(',');
  return { primitive: (text) => text, array: split, object: (text) => (explode ? assignmentsOf : pairsOf)(split(text)) };
}

/** `.1.2.3`; objects `.R.100.G.200` or, exploded, `.R=100.G=200`. */
function labelStyle(explode: boolean): TextStyle {
  const strip = (text: string) => (text.startsWith('.') ? text.slice(1) : text);
  const split = (text: string) => strip(text).split(explode ? '.' : LABEL_SEPARATOR);
  return { primitive: strip, array: split, object: (text) => (explode ? assignmentsOf : pairsOf)(split(text)) };
}

/** `;id=1,2`, exploded `;id=1;id=2`; objects `;id=R,100,G,200` or, exploded, `;R=100;G=200`. */
function matrixStyle(name: string, explode: boolean): TextStyle {
  const assigned = `${name}=`;
  // A value without its `;name=` is kept as it is, for Ajv to judge.
  const valueOf = (segment: string) => (segment.startsWith(assigned) ? segment.slice(assigned.length) : segment === name ? '' : segment);
  const value = (text: string) => (text.startsWith(';') ? valueOf(text.slice(1)) : text);
  const segments = (text: string) => (text.startsWith(';') ? text.slice(1) : text).split(';');
  return {
    primitive: value,
    array: (text) => (explode ? segments(text).map(valueOf) : value(text).split(',')),
    object: (text) => (explode ? assignmentsOf(segments(text)) : pairsOf(value(text).split(','))),
  };
}

/** `['R', '100', 'G', '200']` → `[['R', '100'], ['G', '200']]`. */
function pairsOf(parts: string[]): Pair[] {
  const pairs: Pair[] = [];
  for (let i = 0; i < parts.length; i += 2) pairs.push([parts[i], parts[i + 1] ?? '']);
  return pairs;
}

/** `['R=100', 'G=200']` → `[['R', '100'], ['G', '200']]`. */
function assignmentsOf(parts: string[]): Pair[] {
  return parts.map((part): Pair => {
    const eq = part.indexOf('=');
    return eq === -1 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
  });
}

function coerceItems(texts: string[], coerce: Coerce, at: string, problems: Problem[]): unknown[] {
  return texts.map((text, index) => coerce(text, `${at}.${index}`, problems));
}

function toObject(pairs: Pair[], plan: ObjectPlan, at: string, problems: Problem[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, text] of pairs) {
    const field = plan.field(key);
    const where = `${at}.${key}`;
    const seen = Object.hasOwn(object, key);
    if (field.array) {
      const list = (seen ? object[key] : setOwn(object, key, [])) as unknown[];
      list.push(field.coerce(text, `${where}.${list.length}`, problems));
    } else if (seen) {
      problems.push(repeated(where));
    } else {
      setOwn(object, key, field.coerce(text, where, problems));
    }
  }
  return object;
}

function compileObject(schema: SchemaObject): ObjectPlan {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const fields = new Map<string, Field>();
  for (const key of Object.keys(properties)) fields.set(key, compileField(properties[key]));
  const other = compileField(isRecord(schema.additionalProperties) ? schema.additionalProperties : undefined);
  return { keys: [...fields.keys()], field: (key) => fields.get(key) ?? other };
}

function compileField(schema: unknown): Field {
  const array = typeOf(schema) === 'array';
  return { array, coerce: compileCoerce(array ? (schema as SchemaObject).items : schema) };
}

/**
 * How a parameter's text becomes its value: taken apart by the shape of its schema and coerced, or,
 * for a `content` parameter, read whole as its media type (`?filter={"limit":2}`, JSON-encoded).
 */
function compileValue(spec: ParameterSpec): { shape: string | undefined; coerce: Coerce } {
  if (spec.mediaType !== undefined) return { shape: undefined, coerce: isJsonMediaType(parseMediaType(spec.mediaType)?.essence ?? '') ? coerceJson : keepString };
  const schema: SchemaObject = spec.schema;
  const shape = typeOf(schema);
  return { shape, coerce: compileCoerce(shape === 'array' ? schema.items : schema) };
}

/** A JSON-encoded value, parsed (nested no deeper than a body may be), or a problem. */
function coerceJson(text: string, at: string, problems: Problem[]): unknown {
  try {
    if (jsonDepth(text) <= MAX_JSON_DEPTH) return JSON.parse(text);
  } catch {
    // reported below
  }
  problems.push({ path: at, rule: 'json', message: 'is not valid JSON' });
  return text;
}

function compileCoerce(schema: unknown): Coerce {
  return COERCERS.get(typeOf(schema)) ?? keepString;
}

// Strings that do not fit their type are kept as they are: Ajv then reports "must be integer" and the like.
const keepString: Coerce = (text) => text;

function coerceInteger(text: string, at: string, problems: Problem[]): unknown {
  if (!INTEGER.test(text)) return text;
  const value = Number(text);
  if (Number.isSafeInteger(value)) return value === 0 ? 0 : value; // no -0
  // Never round silently: 9007199254740993 would become ...992 and name another resource.
  problems.push({ path: at, rule: 'int64', message: INT64_MESSAGE });
  return text;
}

function coerceNumber(text: string): unknown {
  const value = NUMBER.test(text) ? Number(text) : NaN;
  return Number.isFinite(value) ? value : text;
}

function coerceBoolean(text: string): unknown {
  return text === 'true' ? true : text === 'false' ? false : text;
}

const COERCERS = new Map<string | undefined, Coerce>([
  ['integer', coerceInteger],
  ['number', coerceNumber],
  ['boolean', coerceBoolean],
]);

/**
 * The type a schema asks for: a 3.1 type array gives its first non-null type; an untyped schema
 * is an array if it has `items`, an object if it has `properties`, else undefined (kept a string).
 */
function typeOf(schema: unknown): string | undefined {
  if (!isRecord(schema)) return undefined;
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((entry): entry is string => typeof entry === 'string' && entry !== 'null');
  if (schema.items !== undefined) return 'array';
  if (schema.properties !== undefined) return 'object';
  return undefined;
}

function isRecord(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `a=1; b="2"` → `a → ['1'], b → ['2']`; values stay encoded until read. */
function parseCookies(header: string): Multimap {
  const map: Multimap = new Map();
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue; // RFC 6265 §5.2: a cookie without `=` is ignored
    const value = part.slice(eq + 1).trim();
    const quoted = value.length >= 2 && value.startsWith('"') && value.endsWith('"');
    append(map, part.slice(0, eq).trim(), quoted ? value.slice(1, -1) : value);
  }
  return map;
}

function repeated(path: string): Problem {
  return { path, rule: 'repeated', message: 'must be given at most once' };
}
