/**
 * Small helpers shared by the generator's modules.
 */
import type { Faker } from '@faker-js/faker';
import type { SchemaObject } from '../document/schema.js';

// A fixed window rather than faker.date.recent(), which moves with today's date and breaks seeding.
const DATE_WINDOW = { from: '2020-01-01T00:00:00Z', to: '2025-12-31T23:59:59Z' };

export const isObject = (v: unknown): v is SchemaObject => typeof v === 'object' && v !== null && !Array.isArray(v);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const own = <T>(table: Record<string, T>, key: unknown): T | undefined =>
  typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
export const attempt = <T>(make: () => T): T | undefined => { try { return make(); } catch { return undefined; } };
export const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
/** An instant in a fixed window (2020 to 2025). */
export const dateIn = (f: Faker): Date => f.date.between(DATE_WINDOW);
export const isoDateTime = (f: Faker): string => dateIn(f).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The characters of faker.string.alphanumeric(), in its order: digits, lower case, upper case. */
const ALPHANUMERIC = [...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'];

/**
 * The string f.string.alphanumeric(length) gives, from the same draws (Faker 10 picks each character
 * with helpers.arrayElement from this list), without rebuilding and filtering the list per call: that
 * was most of the cost of the photo URLs when seeding. A test checks that both still agree.
 */
export function alphanumeric(f: Faker, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += f.helpers.arrayElement(ALPHANUMERIC);
  return out;
}

/** Plain JSON from a document value: YAML hands over `Date`s, and callers may mutate what they get. */
export function toJson(value: unknown, s: SchemaObject): unknown {
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

