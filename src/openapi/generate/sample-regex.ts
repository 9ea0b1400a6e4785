/**
 * A regex sampler for what faker.helpers.fromRegExp lacks: groups, alternation and `\\d`-style
 * escapes. Callers check the result against the pattern; this never throws on odd patterns.
 */
import type { Faker } from '@faker-js/faker';
import { own } from './helpers.js';

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const ESCAPES: Record<string, string> = {
  d: DIGITS, w: LOWER + UPPER + DIGITS + '_', s: ' ', D: LOWER + UPPER, W: '-.', S: LOWER + UPPER + DIGITS,
};

/** Samples a regex, covering what fromRegExp lacks: groups, alternation and `\d`-style escapes. */
export function sampleRegex(faker: Faker, source: string): string {
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
