/**
 * Shapes read from a document's examples and values made in them: dates (RFC 2822 like
 * `Mon, 16 Aug 2010 03:45:01 +0000`, ISO 8601, date only), identifiers with a prefix (`AC` and 32
 * hex digits, `cus_` and 14 letters or digits), URLs whose identifiers are drawn again, phone
 * numbers and decimal strings. Every draw comes from the Faker given, so a seed gives the same values.
 */
import type { Faker } from '@faker-js/faker';

// ---- Dates

export type DateShape =
  /** `Mon, 16 Aug 2010 03:45:01 +0000` (RFC 2822; `GMT` for the HTTP date of RFC 9110). */
  | { kind: 'rfc2822'; weekday: boolean; padDay: boolean; seconds: boolean; zone: string; offset: number }
  /** `2010-08-16T03:45:01Z`, `2010-08-16 03:45:01.123+02:00`... */
  | { kind: 'iso'; separator: string; seconds: boolean; fraction: number; zone: string; offset: number }
  | { kind: 'date' };

/** ISO 8601 date-time in UTC, to the second: what a date gets when nothing in the document says otherwise. */
export const ISO_DATE_TIME: DateShape = { kind: 'iso', separator: 'T', seconds: true, fraction: 0, zone: 'Z', offset: 0 };
export const DATE_ONLY: DateShape = { kind: 'date' };

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const RFC2822 = new RegExp(
  `^(?:(?:${DAYS.join('|')}), )?(\\d{1,2}) (?:${MONTHS.join('|')}) \\d{4} \\d{2}:\\d{2}(:\\d{2})? ([+-]\\d{4}|GMT|UTC|UT|Z)$`,
);
const ISO = /^\d{4}-\d{2}-\d{2}([T ])\d{2}:\d{2}(:\d{2}(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Minutes east of UTC for `+0000`, `-07:00`, `GMT`... */
function offsetOf(zone: string): number {
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The shape of a date string, or undefined when it is none of the shapes known here. */
export function dateShapeOf(example: string): DateShape | undefined {
  const rfc = RFC2822.exec(example);
  if (rfc) {
    const zone = rfc[3];
    return { kind: 'rfc2822', weekday: example.includes(','), padDay: rfc[1].length === 2, seconds: rfc[2] !== undefined, zone, offset: offsetOf(zone) };
  }
  const iso = ISO.exec(example);
  if (iso) {
    const zone = iso[4] ?? '';
    return { kind: 'iso', separator: iso[1], seconds: iso[2] !== undefined, fraction: iso[3]?.length ?? 0, zone, offset: offsetOf(zone) };
  }
  return DATE.test(example) ? DATE_ONLY : undefined;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The instant `date` written in `shape` (in the shape's own offset). */
export function formatDate(date: Date, shape: DateShape): string {
  if (shape.kind === 'date') return date.toISOString().slice(0, 10);
  const local = new Date(date.getTime() + shape.offset * 60_000);
  const [year, month, day] = [local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()];
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}${shape.seconds ? `:${pad(local.getUTCSeconds())}` : ''}`;
  if (shape.kind === 'rfc2822') {
    const weekday = shape.weekday ? `${DAYS[local.getUTCDay()]}, ` : '';
    return `${weekday}${shape.padDay ? pad(day) : day} ${MONTHS[month]} ${year} ${time} ${shape.zone}`;
  }
  const fraction = shape.seconds && shape.fraction > 0 ? `.${pad(local.getUTCMilliseconds(), 3).padEnd(shape.fraction, '0').slice(0, shape.fraction)}` : '';
  return `${pad(year, 4)}-${pad(month + 1)}-${pad(day)}${shape.separator}${time}${fraction}${shape.zone}`;
}

/** The shape most of `examples` have (the first seen on a tie), or undefined when none has a known one. */
export function commonDateShape(examples: Iterable<string>, accept: (shape: DateShape) => boolean = () => true): DateShape | undefined {
  const counts = new Map<string, { shape: DateShape; count: number }>();
  for (const example of examples) {
    const shape = dateShapeOf(example);
    if (!shape || !accept(shape)) continue;
    const key = JSON.stringify(shape);
    const entry = counts.get(key) ?? counts.set(key, { shape, count: 0 }).get(key)!;
    entry.count++;
  }
  let best: { shape: DateShape; count: number } | undefined;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best?.shape;
}

// ---- Identifiers

/** A prefix, then letters or digits of one alphabet: `AC` and 32 hex digits. */
export interface TokenShape {
  prefix: string;
  alphabet: readonly string[];
  min: number;
  max: number;
}

const ALPHABETS = [
  '0123456789',
  '0123456789abcdef',
  '0123456789ABCDEF',
  'abcdefghijklmnopqrstuvwxyz',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '0123456789abcdefghijklmnopqrstuvwxyz',
  '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-',
].map((alphabet) => ({ alphabet: [...alphabet], set: new Set(alphabet) }));
const TOKEN = /^[A-Za-z0-9_-]{1,80}$/;

/** The narrowest alphabet holding every character of `body` (an index into ALPHABETS), or -1. */
function alphabetOf(body: string): number {
  return ALPHABETS.findIndex(({ set }) => [...body].every((c) => set.has(c)));
}

/**
 * One token split into a prefix and a body: up to its last `_` or `-` (`cus_`, `sk_test_`), else
 * capitals before a body without any (`AC` of `ACf3c0…`), else no prefix.
 */
function splitToken(token: string): { prefix: string; alphabet: number; length: number } {
  const separated = /^([A-Za-z0-9]+[_-])+(?=[A-Za-z0-9]{4,}$)/.exec(token);
  const capitals = separated ? undefined : /^[A-Z]{1,4}(?=[^A-Z]{4,}$)/.exec(token);
  const prefix = separated?.[0] ?? capitals?.[0] ?? '';
  const body = token.slice(prefix.length);
  return { prefix, alphabet: alphabetOf(body), length: body.length };
}

/**
 * The shape every example shares (`AC` and 32 hex digits), or undefined when they are not all
 * identifiers or have different prefixes. A short body gets room for a million values at least,
 * so that records still get distinct keys (`"1"` as the only example gives up to 6 digits).
 */
export function tokenShapeOf(examples: readonly string[], room = 1e6): TokenShape | undefined {
  if (examples.length === 0 || !examples.every((e) => TOKEN.test(e))) return undefined;
  const parts = examples.map(splitToken);
  if (parts.some((p) => p.prefix !== parts[0].prefix || p.alphabet < 0)) return undefined;
  const index = Math.max(...parts.map((p) => p.alphabet));
  const alphabet = ALPHABETS[index].alphabet;
  const min = Math.min(...parts.map((p) => p.length));
  let max = Math.max(...parts.map((p) => p.length));
  while (alphabet.length ** max < room) max++;
  return { prefix: parts[0].prefix, alphabet, min, max };
}

export function makeToken(f: Faker, shape: TokenShape): string {
  const length = shape.min === shape.max ? shape.min : f.number.int({ min: shape.min, max: shape.max });
  let out = shape.prefix;
  for (let i = 0; i < length; i++) out += f.helpers.arrayElement(shape.alphabet);
  return out;
}

/** The example with each identifier in it (10 letters or digits or more, one a digit) drawn again in its own shape. */
export function redrawIdentifiers(f: Faker, example: string): string {
  return example.replace(/[A-Za-z0-9]{10,}/g, (run) => {
    const shape = /\d/.test(run) ? tokenShapeOf([run], 0) : undefined;
    return shape ? makeToken(f, { ...shape, max: shape.min }) : run;
  });
}

// ---- Phone numbers and numbers written as strings

/** A phone number written for people: `(415) 555-0134`, `+44 20 7946 0958`. */
export const PHONE = /^\+?[\d\s().-]{7,24}$/;

/** The example with its last 7 digits drawn again: the same country, area code and layout. */
export function redrawPhone(f: Faker, example: string): string {
  const chars = [...example];
  for (let i = chars.length - 1, left = 7; i >= 0 && left > 0; i--) {
    if (chars[i] >= '0' && chars[i] <= '9') {
      chars[i] = String(f.number.int(9));
      left--;
    }
  }
  return chars.join('');
}

export const DECIMAL = /^-?\d{1,15}(\.\d{1,10})?$/;

/** Decimal strings like the examples (`-0.03000`): as many decimals, the same sign, up to twice the largest. */
export interface DecimalShape { decimals: number; negative: boolean; max: number }

export function decimalShapeOf(examples: readonly string[]): DecimalShape | undefined {
  if (examples.length === 0 || !examples.every((e) => DECIMAL.test(e))) return undefined;
  const decimals = Math.max(...examples.map((e) => e.split('.')[1]?.length ?? 0));
  const largest = Math.max(...examples.map((e) => Math.abs(Number(e))));
  return { decimals, negative: examples.every((e) => e.startsWith('-')), max: largest > 0 ? largest * 2 : 100 };
}

export function makeDecimal(f: Faker, shape: DecimalShape): string {
  const scale = 10 ** shape.decimals;
  const value = f.number.int({ min: 0, max: Math.max(1, Math.round(shape.max * scale)) }) / scale;
  return `${shape.negative && value > 0 ? '-' : ''}${value.toFixed(shape.decimals)}`;
}
