/**
 * The kind of value a schema asks for (its first non-null type, an alias read as its type, else
 * inferred from its keywords), and the minimal value of each kind.
 */
import type { SchemaObject } from '../document/schema.js';
import { isObject, num, own } from './helpers.js';
import { INT_FORMATS } from './integer-formats.js';

export type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

const KINDS = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];
const TYPE_ALIASES: Record<string, Kind> = {
  int: 'integer', long: 'integer', float: 'number', double: 'number', bool: 'boolean', dict: 'object', list: 'array',
};

/** The type to generate: the first non-null one, an alias like `str` read as string, else inferred. */
export function kindOf(s: SchemaObject): Kind {
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

/** Whether a value is of the kind (an integer for `integer`, `null` for `null`). */
export function matchesKind(value: unknown, kind: Kind): boolean {
  if (kind === 'integer') return Number.isInteger(value);
  if (kind === 'array') return Array.isArray(value);
  if (kind === 'object') return isObject(value);
  return kind === 'null' ? value === null : typeof value === kind;
}

/** The smallest value of a kind: what a bound reached gives instead (the schema may refuse it, and seeding then warns). */
export function minimalValue(kind: Kind): unknown {
  return { string: '', number: 0, integer: 0, boolean: false, array: [], object: {}, null: null }[kind];
}
