/**
 * What the suite varies when a server refuses a valid body for a rule the document does not state
 * (`priority must be <= 3` where the document allows any integer, `slug must be unique`): the
 * values the document allows for one property, small and typical ones first; the properties a
 * server's error names; and the values that may have to be unique (slugs, e-mails, names, keys),
 * made fresh so that no example is ever sent twice as it stands.
 */
import type { SchemaObject } from '../openapi/document/schema.js';

/** Names of values a server may keep unique: `slug`, `email`, `authorEmail`, `username`, `handle`, `apiKey`, `code`, `name`. */
const UNIQUE_NAME = /(slug|e?mail|username|login|handle|key|code|name)$/;
const UNIQUE_FORMAT = new Set(['email', 'idn-email', 'hostname', 'idn-hostname']);

/** The type of a property schema, the one that is not null. */
export function typeOf(schema: SchemaObject | undefined): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  return Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
}

/** True for a string property whose name or format says a server may hold its values unique. */
export function mayBeUnique(name: string, schema: SchemaObject | undefined): boolean {
  if (!schema || typeOf(schema) !== 'string' || Array.isArray(schema.enum) || schema.const !== undefined) return false;
  return UNIQUE_FORMAT.has(String(schema.format)) || UNIQUE_NAME.test(name.toLowerCase().replace(/[_-]/g, ''));
}

/**
 * Another value like `value`, carrying `suffix` (unique to this run and value): `ann+c1a2b3c4d1@example.com`
 * for an e-mail, `hello-world-c1a2b3c4d1` otherwise, shortened to the schema's maxLength.
 */
export function freshVariant(value: unknown, schema: SchemaObject, suffix: string): string {
  const text = typeof value === 'string' && value !== '' ? value : 'contract';
  const at = text.lastIndexOf('@');
  if (String(schema.format).endsWith('email')) {
    const [local, domain] = at > 0 ? [text.slice(0, at), text.slice(at + 1)] : [text, 'example.com'];
    return `${local}+${suffix}@${domain}`;
  }
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const head = text.slice(0, Math.max(0, max - suffix.length - 1));
  return head ? `${head}-${suffix}` : suffix.slice(-max);
}

/**
 * The values to try for one property, typical first, each one the document allows (the caller
 * confirms them with the validator): its examples and default, the first of an enum, small numbers
 * (an unbounded integer also tries 1, 2, 3; a bounded one its lowest values), both booleans, and
 * null where the property is nullable.
 */
export function typicalValues(schema: SchemaObject | undefined): unknown[] {
  if (!schema || typeof schema !== 'object') return [];
  const values: unknown[] = [schema.example, ...(Array.isArray(schema.examples) ? schema.examples : []), schema.default];
  if (Array.isArray(schema.enum)) values.push(...schema.enum.slice(0, 2));
  const type = typeOf(schema);
  if (type === 'integer' || type === 'number') {
    const low = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) + (schema.exclusiveMinimum === true ? 1 : 0) : typeof schema.exclusiveMinimum === 'number' ? Math.floor(schema.exclusiveMinimum) + 1 : 1;
    const start = low <= 1 ? 1 : low;
    values.push(start, start + 1, start + 2, low);
  }
  if (type === 'boolean') values.push(true, false);
  if (schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null'))) values.push(null);
  const seen = new Set<string>();
  return values.filter((v) => v !== undefined && !seen.has(JSON.stringify(v)) && seen.add(JSON.stringify(v)));
}

/** The properties (of `names`) a server's answer names as words: `priority` in `{"message":"priority must be <= 3"}`. */
export function namedProperties(answer: string, names: string[]): string[] {
  const words = new Set(answer.split(/[^A-Za-z0-9_$]+/));
  return names.filter((name) => words.has(name));
}
