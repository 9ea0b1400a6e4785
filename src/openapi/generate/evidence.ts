/**
 * What a document's own examples say values look like, by property name: read once per document
 * from every example it gives (a media type's `example` and `examples`, a schema's `example`,
 * `examples` and `default`, a parameter's), so the generator can write `date_created` as the
 * document does (`Mon, 16 Aug 2010 03:45:01 +0000`) even where the schema says only `type: string`.
 */
import { isObject } from './helpers.js';
import { commonDateShape, type DateShape } from './shapes.js';

/** The examples of one property name, strings and numbers apart. */
export interface NameExamples {
  strings: readonly string[];
  numbers: readonly number[];
}

export interface Evidence {
  /** The examples the document gives for a property (or parameter) name; `DateCreated` and `date_created` are one name. */
  examples(name: string): NameExamples;
  /**
   * The examples given for one schema object: its own, and the values at its place in the examples
   * of the media types, parameters and schemas around it (`calls[0].sid` of a list's example is an
   * example of the Call schema's `sid`). Undefined when there are none.
   */
  examplesOf(schema: unknown): NameExamples | undefined;
  /** The shape most of the document's date-time examples have (`Mon, 16 Aug 2010 03:45:01 +0000`), dates without a time aside; undefined when it gives none. */
  dateShape(): DateShape | undefined;
}

const NONE: NameExamples = { strings: [], numbers: [] };
/** No document: no examples for any name. */
export const NO_EVIDENCE: Evidence = { examples: () => NONE, examplesOf: () => undefined, dateShape: () => undefined };

/** Examples kept per name, and values read per document: enough to see a shape, bounded for huge documents. */
const PER_NAME = 20;
const MAX_VALUES = 200_000;

/** `date_created`, `DateCreated` and `date-created` are one name. */
export const normaliseName = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

const cache = new WeakMap<object, Evidence>();

/** The evidence of a dereferenced document, read on first use and kept with it. */
export function documentEvidence(document: unknown): Evidence {
  if (!isObject(document)) return NO_EVIDENCE;
  let evidence = cache.get(document);
  if (!evidence) cache.set(document, (evidence = readEvidence(document)));
  return evidence;
}

type Found = { strings: string[]; numbers: number[] };

function add(entry: Found, value: string | number): void {
  const list: unknown[] = typeof value === 'string' ? entry.strings : entry.numbers;
  if (list.length < PER_NAME && !list.includes(value)) list.push(value);
}

const isScalar = (value: unknown): value is string | number => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

function readEvidence(document: object): Evidence {
  const found = new Map<string, Found>();
  const bySchema = new WeakMap<object, Found>();
  const seen = new Set<object>();
  let budget = MAX_VALUES;

  const record = (name: string, value: unknown): void => {
    const key = normaliseName(name);
    if (!key || !isScalar(value)) return;
    add(found.get(key) ?? found.set(key, { strings: [], numbers: [] }).get(key)!, value);
  };
  /** An example value set against the schema it is an example of, down through properties, items and branches. */
  const align = (schema: unknown, value: unknown, depth: number): void => {
    if (!isObject(schema) || --budget < 0 || depth > 32) return;
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches)) for (const branch of branches) align(branch, value, depth + 1);
    }
    if (Array.isArray(value)) {
      for (const item of value) align(schema.items, item, depth + 1);
    } else if (isObject(value)) {
      const properties = isObject(schema.properties) ? schema.properties : {};
      for (const [key, item] of Object.entries(value)) {
        align(Object.hasOwn(properties, key) ? properties[key] : schema.additionalProperties, item, depth + 1);
      }
    } else if (isScalar(value)) {
      add(bySchema.get(schema) ?? (bySchema.set(schema, { strings: [], numbers: [] }), bySchema.get(schema)!), value);
    }
  };
  /** Every example value a node gives: `example`, `x-example`, a list of `examples` or a map of Example Objects. */
  const valuesOf = (node: Record<string, unknown>): unknown[] => {
    const values = ['example', 'x-example'].filter((key) => key in node).map((key) => node[key]);
    const { examples } = node;
    if (Array.isArray(examples)) values.push(...examples);
    else if (isObject(examples)) for (const example of Object.values(examples)) if (isObject(example) && 'value' in example) values.push(example.value);
    return values;
  };
  /** Example data: each scalar under an object key is an example of that name (arrays of scalars too). */
  const readData = (value: unknown, name: string | undefined, depth: number): void => {
    if (--budget < 0 || depth > 32) return;
    if (Array.isArray(value)) {
      for (const item of value) readData(item, name, depth + 1);
    } else if (isObject(value)) {
      for (const [key, item] of Object.entries(value)) readData(item, key, depth + 1);
    } else if (name !== undefined) {
      record(name, value);
    }
  };
  /** The values a schema, parameter or header gives for itself. */
  const readOwn = (name: string, node: unknown): void => {
    if (!isObject(node)) return;
    for (const key of ['example', 'x-example', 'default']) if (key in node) readData(node[key], name, 0);
    readExamples(node.examples, name);
  };
  /** `examples`: a list of values (a 3.1 schema), or a map of Example Objects (a parameter, a media type). */
  const readExamples = (examples: unknown, name: string | undefined): void => {
    if (Array.isArray(examples)) for (const value of examples) readData(value, name, 0);
    else if (isObject(examples)) for (const example of Object.values(examples)) if (isObject(example) && 'value' in example) readData(example.value, name, 0);
  };
  /** The document's structure: schemas, parameters, media types, wherever they are. */
  const walk = (node: unknown): void => {
    if (--budget < 0 || typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    const object = node as Record<string, unknown>;
    // A parameter or header names itself: its examples are examples of that name.
    if (typeof object.name === 'string' && typeof object.in === 'string') readOwn(object.name, object);
    // A media type, parameter or header: its examples are of its schema; a schema's own are of itself.
    const values = valuesOf(object);
    if (values.length > 0) for (const value of values) align(isObject(object.schema) ? object.schema : object, value, 0);
    if (isObject(object.schema) && 'default' in object.schema) align(object.schema, object.schema.default, 0);
    for (const [key, value] of Object.entries(object)) {
      if (key === 'properties' && isObject(value)) {
        for (const [name, schema] of Object.entries(value)) {
          readOwn(name, schema);
          if (isObject(schema) && 'default' in schema) align(schema, schema.default, 0);
          walk(schema);
        }
      } else if (key === 'example' || key === 'x-example') {
        readData(value, undefined, 0);
      } else if (key === 'examples') {
        readExamples(value, undefined);
      } else {
        walk(value);
      }
    }
  };
  walk(document);
  let dates: DateShape | undefined | null = null;
  return {
    examples: (name) => found.get(normaliseName(name)) ?? NONE,
    examplesOf: (schema) => (isObject(schema) ? bySchema.get(schema) : undefined),
    dateShape: () => {
      if (dates === null) dates = commonDateShape([...found.values()].flatMap((entry) => entry.strings), (shape) => shape.kind !== 'date');
      return dates;
    },
  };
}
