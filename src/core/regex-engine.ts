/**
 * The document's `pattern`s (and `patternProperties` keys) run in linear time: translated from
 * JavaScript's syntax (Unicode mode, as Ajv compiles them) to RE2's and matched by re2js, so that
 * no pattern and no input can stall the mock or the suite (`^(a+)+$` against `aaa…a!` backtracks
 * for ever in RegExp). Plugged into Ajv as `code.regExp` (ajv-instance.ts).
 *
 * The rule for a pattern RE2 cannot run (a lookahead or lookbehind, a backreference, a count above
 * 1000): it is never run by a backtracking engine on what a client sends. It is not enforced
 * (every string matches it), and `unenforcedPatterns` names it, for the mock's start warnings and
 * the suite's report. A pattern that is not valid JavaScript still fails as it did with RegExp.
 *
 * Where JavaScript and RE2 read the same text differently, the translation says what JavaScript
 * means: `.` (no line terminator), `\s` (JavaScript's wider set), `[]` and `[^]`, `\uXXXX`,
 * `\u{…}`, `\cX`, `\0`, `\p{Letter}` and `\p{Script=Greek}`, a `[` inside a class.
 *
 * This module imports nothing of the project's: the generator uses it too (strings.ts).
 */
import { RE2JS } from 're2js';

/** What Ajv calls `test` on. `toString` tells patterns apart: Ajv keeps one compiled pattern per string. */
export interface PatternTester {
  test(text: string): boolean;
  toString(): string;
  /** Why the pattern is not enforced (RE2 cannot run it), if it is not. */
  readonly unenforced?: string;
}

/** A pattern RE2 cannot run, and why. */
export class UnsupportedPattern extends Error {
  override readonly name = 'UnsupportedPattern';
}

// JavaScript's `\s`: wider than RE2's `[\t\n\f\r ]`.
const SPACE_RANGES: Array<[number, number]> = [
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
];
const MAX_CODE_POINT = 0x10ffff;
const hex = (code: number) => `\\x{${code.toString(16)}}`;
const rangesText = (ranges: Array<[number, number]>) => ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('');
const complement = (ranges: Array<[number, number]>): Array<[number, number]> => {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
};
const SPACE = rangesText(SPACE_RANGES);
const NOT_SPACE = rangesText(complement(SPACE_RANGES));
/** JavaScript's `.` without the `s` flag: anything but a line terminator. */
const DOT = `[^\\n\\r${hex(0x2028)}${hex(0x2029)}]`;

// JavaScript's long General_Category names, for RE2, which knows the short ones.
const CATEGORIES: Record<string, string> = {
  Letter: 'L', Cased_Letter: 'LC', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm', Other_Letter: 'Lo',
  Mark: 'M', Combining_Mark: 'M', Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc', Enclosing_Mark: 'Me',
  Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl', Other_Number: 'No',
  Punctuation: 'P', punct: 'P', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd', Open_Punctuation: 'Ps', Close_Punctuation: 'Pe', Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf', Other_Punctuation: 'Po',
  Symbol: 'S', Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So',
  Separator: 'Z', Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp',
  Other: 'C', Control: 'Cc', cntrl: 'Cc', Format: 'Cf', Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
};

/** `\p{…}`'s body as the inside of an RE2 class: `Letter` is `\p{L}`, `Script=Greek` is `\p{Greek}`. */
function property(body: string, negated: boolean, inClass: boolean): string {
  const [name, value] = body.includes('=') ? body.split('=') : [undefined, body];
  if (name === 'Script_Extensions' || name === 'scx') throw new UnsupportedPattern(`\\p{${body}} (Script_Extensions)`);
  const ranges: Array<[number, number]> | undefined = name !== undefined ? undefined : value === 'Any' ? [[0, MAX_CODE_POINT]] : value === 'ASCII' ? [[0, 0x7f]] : undefined;
  const short = name === undefined || name === 'General_Category' || name === 'gc' ? (CATEGORIES[value] ?? value) : value;
  const inside = ranges ? rangesText(negated && inClass ? complement(ranges) : ranges) : short === 'LC' ? '\\p{Lu}\\p{Ll}\\p{Lt}' : `\\${negated && inClass ? 'P' : 'p'}{${short}}`;
  if (!inClass) return `[${negated ? '^' : ''}${inside}]`;
  if (negated && short === 'LC') throw new UnsupportedPattern(`\\P{${body}} inside a class`);
  // `\P{Any}` inside a class adds nothing.
  return inside;
}

/**
 * JavaScript's pattern (valid in Unicode mode) as RE2 reads it, meaning the same.
 * @throws UnsupportedPattern for what RE2 cannot run.
 */
export function toRe2Syntax(source: string): string {
  let i = 0;
  let out = '';
  const codePoint = (): number => {
    const code = source.codePointAt(i)!;
    i += code > 0xffff ? 2 : 1;
    return code;
  };
  /** After a `\`: the escape as RE2 text, `inClass` for what differs inside `[…]`. */
  const escape = (inClass: boolean): string => {
    const c = source[i++];
    switch (c) {
      case 'd': case 'D': case 'w': case 'W': return `\\${c}`;
      case 's': return inClass ? SPACE : `[${SPACE}]`;
      case 'S': return inClass ? NOT_SPACE : `[${NOT_SPACE}]`;
      case 'b': return inClass ? hex(8) : '\\b';
      case 'B': return '\\B';
      case 't': return hex(9);
      case 'n': return hex(10);
      case 'v': return hex(11);
      case 'f': return hex(12);
      case 'r': return hex(13);
      case '0': return hex(0);
      case 'c': return hex(source.charCodeAt(i++) % 32);
      case 'x': {
        const code = parseInt(source.slice(i, i + 2), 16);
        i += 2;
        return hex(code);
      }
      case 'u': {
        if (source[i] === '{') {
          const close = source.indexOf('}', i);
          const code = parseInt(source.slice(i + 1, close), 16);
          i = close + 1;
          return hex(code);
        }
        let code = parseInt(source.slice(i, i + 4), 16);
        i += 4;
        // A surrogate pair written as two escapes is one code point in Unicode mode.
        const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(source.slice(i));
        if (code >= 0xd800 && code <= 0xdbff && low) {
          code = 0x10000 + ((code - 0xd800) << 10) + (parseInt(low[1], 16) - 0xdc00);
          i += 6;
        }
        return hex(code);
      }
      case 'p': case 'P': {
        const close = source.indexOf('}', i);
        const body = source.slice(i + 1, close);
        i = close + 1;
        return property(body, c === 'P', inClass);
      }
      case 'k': throw new UnsupportedPattern('a backreference');
      default:
        if (/[1-9]/.test(c)) throw new UnsupportedPattern('a backreference');
        // An identity escape (`\.`, `\/`, `\-`): the character itself.
        i--;
        return hex(codePoint());
    }
  };
  const characterClass = (): string => {
    const negated = source[i] === '^';
    if (negated) i++;
    let body = '';
    // A `-` makes a range between two single characters; anywhere else it is itself.
    let single = false;
    while (source[i] !== ']') {
      let atom: string;
      if (source[i] === '-' && single && source[i + 1] !== ']') {
        i++;
        body += '-';
        single = false;
        continue;
      }
      if (source[i] === '\\') {
        i++;
        atom = escape(true);
      } else {
        atom = hex(codePoint());
      }
      const wasRangeEnd = body.endsWith('-');
      body += atom;
      single = !wasRangeEnd && /^\\x\{[0-9a-f]+\}$/.test(atom);
    }
    i++;
    // `[]` matches nothing and `[^]` anything, where RE2 would read `]` as the class's first character.
    if (body === '') return negated ? `[${rangesText([[0, MAX_CODE_POINT]])}]` : `[^${rangesText([[0, MAX_CODE_POINT]])}]`;
    return `[${negated ? '^' : ''}${body}]`;
  };
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      i++;
      out += escape(false);
    } else if (c === '[') {
      i++;
      out += characterClass();
    } else if (c === '.') {
      i++;
      out += DOT;
    } else if (c === '(' && source[i + 1] === '?') {
      const head = source.slice(i, i + 4);
      if (/^\(\?[=!]/.test(head)) throw new UnsupportedPattern('a lookahead');
      if (/^\(\?<[=!]/.test(head)) throw new UnsupportedPattern('a lookbehind');
      if (head.startsWith('(?<')) {
        // A named group: its name matters to no test, and RE2 allows fewer names than JavaScript.
        i = source.indexOf('>', i) + 1;
        out += '(';
      } else if (head.startsWith('(?:')) {
        i += 3;
        out += '(?:';
      } else {
        throw new UnsupportedPattern('a group with flags');
      }
    } else if ('()|^$*+?{},0123456789'.includes(c) || /[A-Za-z]/.test(c)) {
      i++;
      out += c;
    } else {
      out += hex(codePoint());
    }
  }
  return out;
}

const testers = new Map<string, PatternTester>();

/**
 * The tester for one pattern: RE2's, or one that lets every string pass (with `unenforced` saying
 * why) for a pattern RE2 cannot run. Throws RegExp's SyntaxError for a pattern JavaScript refuses.
 */
export function linearPattern(pattern: string, flags = 'u'): PatternTester {
  const key = `${flags}/${pattern}`;
  let tester = testers.get(key);
  if (tester) return tester;
  // Only compiled (never run): the syntax JavaScript accepts, refused as it was before.
  new RegExp(pattern, flags);
  const name = `/${pattern}/${flags}`;
  try {
    if (!flags.includes('u')) throw new UnsupportedPattern('not read in Unicode mode');
    const re2 = RE2JS.compile(toRe2Syntax(pattern));
    tester = { test: (text: string) => re2.test(text), toString: () => name };
  } catch (error) {
    const reason = error instanceof UnsupportedPattern ? `it has ${error.message}` : `RE2 refuses it: ${String((error as Error).message).replace(/^error parsing regexp: /, '')}`;
    tester = { test: () => true, toString: () => `${name} (not enforced)`, unenforced: reason };
  }
  if (testers.size >= 10_000) testers.clear();
  testers.set(key, tester);
  return tester;
}

/** Ajv's `code.regExp`: the document's patterns through `linearPattern`. */
export const linearRegExp = Object.assign((pattern: string, flags: string) => linearPattern(pattern, flags), { code: 'linearRegExp' });
