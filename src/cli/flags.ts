/**
 * Command-line flags read against a table, for both subcommands (`serve` and `contract`): pure
 * (argv in, values or one line out). Every mistake in how flags are written (an unknown flag, a
 * value missing or not wanted, a single-value flag given twice) becomes one line naming the flag
 * and what it accepts, taken from the same table the values are checked against later, so the
 * two never disagree.
 *
 * Written here rather than with node:util's parseArgs, whose messages run to several sentences,
 * which keeps the last of a repeated flag silently, and whose behaviour varies between Node versions.
 */
import { closest, orList } from '../core/closest-words.js';

export { closest, orList };

/** One flag of a command's table (its key is the long name, without the dashes). */
export interface FlagSpec {
  /** `boolean` flags take no value; `string` flags take exactly one each time they are given. */
  readonly type: 'boolean' | 'string';
  /** A one-letter alias: `h` for `-h`. */
  readonly short?: string;
  /** May be given several times, every value kept in order (`--api-key a --api-key b`). */
  readonly multiple?: boolean;
  /** The value's placeholder, as the help writes it: `N`, `FILE|URL`. */
  readonly value?: string;
  /** What the value may be, a phrase that completes "must be ...": `an integer from 0 to 65535`. */
  readonly accepts?: string;
}

/** A command's flags, by long name. */
export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** The values read for a table: `true` for a boolean flag given, a list for a `multiple` one, else the string; flags not given are absent. */
export type FlagValues<T extends FlagTable> = {
  [K in keyof T]?: T[K] extends { type: 'boolean' } ? boolean : T[K] extends { multiple: true } ? string[] : string;
};

/** Flags read without a mistake: their values, and the other arguments in order. */
export interface ParsedFlags<T extends FlagTable> {
  values: FlagValues<T>;
  positionals: string[];
}

/** The one line that says what is wrong, ending with where to read the help. */
export interface FlagError {
  error: string;
}

/**
 * Where to read the help: a command's, or the top-level one without a command.
 *
 * @example seeHelp('contract') // '(see petstore-mock-kit contract --help)'
 */
export function seeHelp(command?: string): string {
  return `(see petstore-mock-kit ${command ? `${command} ` : ''}--help)`;
}

/**
 * Reads `argv` against `table`. Accepts `--name value`, `--name=value`, `-x value`, `-xvalue`
 * (a string flag's alias), `-hv` (boolean aliases together) and `--` (everything after it is
 * positional). A value may begin with '-' when it is not flag-like (`--seed -1`) or follows '='.
 * The first mistake, in the order written, is the answer.
 *
 * @param command the subcommand whose help the message points to.
 * @example parseFlags(['--prot', '3'], { port: { type: 'string' } }, 'serve') // { error: 'Unknown flag --prot; did you mean --port? (see petstore-mock-kit serve --help)' }
 */
export function parseFlags<T extends FlagTable>(argv: readonly string[], table: T, command: string): ParsedFlags<T> | FlagError {
  const values: Record<string, string | string[] | boolean> = {};
  const positionals: string[] = [];
  const fail = (sentence: string): FlagError => ({ error: `${sentence} ${seeHelp(command)}` });
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const uses = readFlags(arg, table);
    if (uses === undefined) {
      positionals.push(arg);
      continue;
    }
    for (const use of uses) {
      if (use.name === undefined) {
        const near = closest(use.written.replace(/^--?/, ''), Object.keys(table));
        return fail(`Unknown flag ${printable(use.written)}${near.length ? `; did you mean ${orList(near.map((n) => `--${n}`))}?` : '.'}`);
      }
      const spec = table[use.name];
      if (spec.type === 'boolean') {
        if (use.inline !== undefined) return fail(`${use.written} takes no value.`);
        values[use.name] = true;
        continue;
      }
      let value = use.inline;
      const next = argv[i + 1];
      if (value === undefined && next !== undefined && !looksLikeFlag(next)) value = argv[++i];
      if (value === undefined || value === '') return fail(needsValue(use.written, spec, value === undefined && next !== undefined && isUnknownDashed(next, table)));
      const before = values[use.name];
      if (spec.multiple) values[use.name] = [...((before as string[] | undefined) ?? []), value];
      else if (before !== undefined) return fail(`${use.written} was given twice (${quoted(before as string)}, then ${quoted(value)}); it takes one value.`);
      else values[use.name] = value;
    }
  }
  return { values: values as FlagValues<T>, positionals };
}

/**
 * The sentence for a value that breaks a flag's rule, from the table's phrase; `source` names
 * where the value came from when not the flag (an environment variable), and `secret` leaves
 * the value out (a key or a token).
 *
 * @example invalidValue({ port: { type: 'string', accepts: 'an integer from 0 to 65535' } }, 'port', 'abc') // '--port must be an integer from 0 to 65535, not "abc".'
 */
export function invalidValue<T extends FlagTable>(table: T, name: keyof T & string, value: string, options: { source?: string; secret?: boolean } = {}): string {
  const must = `${options.source ?? `--${name}`} must be ${table[name].accepts ?? 'a valid value'}`;
  return options.secret ? `${must}.` : `${must}, not ${quoted(value)}.`;
}



/**
 * A value as a message quotes it: on one line (control characters escaped), at most 60 characters.
 *
 * @example quoted('a\nb') // '"a\\nb"'
 */
export function quoted(value: string): string {
  return `"${printable(value)}"`;
}

/** Text from the command line made safe for a one-line message: control characters escaped, long text cut. */
function printable(text: string): string {
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return shown.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** One flag as written in an argument: its name in the table (undefined when unknown) and a value after `=` or glued to its alias. */
interface FlagUse {
  name?: string;
  written: string;
  inline?: string;
}

/** The flags an argument holds (several for `-hv`), or undefined for a positional argument. */
function readFlags(arg: string, table: FlagTable): FlagUse[] | undefined {
  const long = /^--([^=]+)(?:=([\s\S]*))?$/.exec(arg);
  if (long) return [{ name: Object.hasOwn(table, long[1]) ? long[1] : undefined, written: `--${long[1]}`, inline: long[2] }];
  if (!/^-[^-]/.test(arg)) return undefined; // a value, or '-'
  const byShort = (letter: string) => Object.keys(table).find((name) => table[name].short === letter);
  const first = byShort(arg[1]);
  if (arg.length === 2) return [{ name: first, written: arg }];
  if (first !== undefined && table[first].type === 'string') return [{ name: first, written: arg.slice(0, 2), inline: arg.slice(2).replace(/^=/, '') }];
  const letters = [...arg.slice(1)].map(byShort);
  if (letters.every((name) => name !== undefined && table[name].type === 'boolean')) return letters.map((name, i) => ({ name, written: `-${arg[i + 1]}` }));
  // A long flag written with one dash (-port), or an unknown alias: named whole, up to any '='.
  return [{ written: arg.split('=')[0] }];
}

/** An argument that is a flag rather than a value: `--x`, `--`, `-x` (not `-`, nor a negative number). */
function looksLikeFlag(arg: string): boolean {
  return arg.startsWith('--') || /^-[^\d.]/.test(arg);
}

/** `-abc123` after a flag: one dash and unknown, so perhaps a value meant for that flag. */
function isUnknownDashed(arg: string, table: FlagTable): boolean {
  return /^-[^-]/.test(arg) && looksLikeFlag(arg) && (readFlags(arg, table) ?? []).some((use) => use.name === undefined);
}

/** `--port needs a value: an integer from 0 to 65535.`, with how to write one that begins with '-' when `dashed` (a long flag only). */
function needsValue(written: string, spec: FlagSpec, dashed: boolean): string {
  const sentence = `${written} needs a value${spec.accepts ? `: ${spec.accepts}` : ''}`;
  return dashed && written.startsWith('--') ? `${sentence} (one beginning with "-" is written ${written}=${spec.value ?? 'VALUE'}).` : `${sentence}.`;
}
