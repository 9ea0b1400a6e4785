import { describe, expect, it } from 'vitest';
import { closest, invalidValue, orList, parseFlags, quoted, type FlagTable } from './flags.js';

const TABLE = {
  port: { type: 'string', value: 'N', accepts: 'an integer from 0 to 65535' },
  token: { type: 'string', value: 'TOKEN', accepts: 'an API key' },
  'api-key': { type: 'string', multiple: true, value: 'KEY' },
  'max-records': { type: 'string', value: 'N' },
  'max-state-mb': { type: 'string', value: 'N' },
  header: { type: 'string', short: 'H', multiple: true, value: "'N: V'", accepts: '"Name: value"' },
  watch: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies FlagTable;

const parse = (argv: string[]) => parseFlags(argv, TABLE, 'serve');
const error = (argv: string[]) => {
  const parsed = parse(argv);
  if (!('error' in parsed)) throw new Error(`no error for ${argv.join(' ')}`);
  expect(parsed.error).not.toMatch(/\n/);
  return parsed.error;
};

describe('parseFlags', () => {
  it('reads every way of writing a flag, keeping positionals and what follows --', () => {
    expect(parse(['serve', '--port', '8080', '--token=-abc', '-H', 'A: 1', '-HB:2', '--api-key', 'k1', '--api-key=k2', '-hv', '--watch', '--', '--port'])).toEqual({
      values: { port: '8080', token: '-abc', header: ['A: 1', 'B:2'], 'api-key': ['k1', 'k2'], help: true, version: true, watch: true },
      positionals: ['serve', '--port'],
    });
    expect(parse([])).toEqual({ values: {}, positionals: [] });
  });

  it('takes a negative number or a lone dash as a value', () => {
    expect(parse(['--port', '-1', '--token', '-'])).toMatchObject({ values: { port: '-1', token: '-' } });
  });

  it('names an unknown flag, with the flags it is close to', () => {
    expect(error(['--prot', '3'])).toBe('Unknown flag --prot; did you mean --port? (see petstore-mock-kit serve --help)');
    expect(error(['--Port=3'])).toBe('Unknown flag --Port; did you mean --port? (see petstore-mock-kit serve --help)');
    expect(error(['-port', '3'])).toBe('Unknown flag -port; did you mean --port? (see petstore-mock-kit serve --help)');
    expect(error(['--wach'])).toBe('Unknown flag --wach; did you mean --watch? (see petstore-mock-kit serve --help)');
    expect(error(['--max-record', '1'])).toBe('Unknown flag --max-record; did you mean --max-records? (see petstore-mock-kit serve --help)');
    expect(error(['--api'])).toBe('Unknown flag --api; did you mean --api-key? (see petstore-mock-kit serve --help)');
    expect(error(['--max', '1'])).toBe('Unknown flag --max; did you mean --max-records or --max-state-mb? (see petstore-mock-kit serve --help)');
    expect(error(['--nope'])).toBe('Unknown flag --nope. (see petstore-mock-kit serve --help)');
    expect(error(['-x'])).toBe('Unknown flag -x. (see petstore-mock-kit serve --help)');
    expect(error(['-hx'])).toBe('Unknown flag -hx. (see petstore-mock-kit serve --help)');
    expect(error(['--bad\nflag'])).toBe('Unknown flag --bad\\nflag. (see petstore-mock-kit serve --help)');
  });

  it('says a string flag needs a value, and what it accepts, when none follows', () => {
    expect(error(['--port'])).toBe('--port needs a value: an integer from 0 to 65535. (see petstore-mock-kit serve --help)');
    expect(error(['--port', '--watch'])).toBe('--port needs a value: an integer from 0 to 65535. (see petstore-mock-kit serve --help)');
    expect(error(['--port='])).toBe('--port needs a value: an integer from 0 to 65535. (see petstore-mock-kit serve --help)');
    expect(error(['--port', '--'])).toBe('--port needs a value: an integer from 0 to 65535. (see petstore-mock-kit serve --help)');
    expect(error(['-H'])).toBe('-H needs a value: "Name: value". (see petstore-mock-kit serve --help)');
    expect(error(['--api-key'])).toBe('--api-key needs a value. (see petstore-mock-kit serve --help)');
    // What follows looks like a value meant for it: how to write one that begins with '-'.
    expect(error(['--token', '-abc123'])).toBe('--token needs a value: an API key (one beginning with "-" is written --token=TOKEN). (see petstore-mock-kit serve --help)');
  });

  it('refuses a value for a boolean flag', () => {
    expect(error(['--watch=yes'])).toBe('--watch takes no value. (see petstore-mock-kit serve --help)');
    expect(error(['--help='])).toBe('--help takes no value. (see petstore-mock-kit serve --help)');
  });

  it('refuses a single-value flag given twice, rather than keeping the last', () => {
    expect(error(['--port', '1', '--port', '2'])).toBe('--port was given twice ("1", then "2"); it takes one value. (see petstore-mock-kit serve --help)');
    expect(error(['--port=1', '--watch', '--port=1'])).toBe('--port was given twice ("1", then "1"); it takes one value. (see petstore-mock-kit serve --help)');
    expect(parse(['--watch', '--watch'])).toMatchObject({ values: { watch: true } });
  });

  it('reports the first mistake as written', () => {
    expect(error(['--port', '--prot'])).toMatch(/^--port needs a value/);
    expect(error(['--prot', '--port'])).toMatch(/^Unknown flag --prot/);
  });

  it('points to the help of the command it is given', () => {
    expect(parseFlags(['--x'], TABLE, 'contract')).toEqual({ error: 'Unknown flag --x. (see petstore-mock-kit contract --help)' });
  });
});

describe('the helpers', () => {
  it('invalidValue: the flag, the phrase and the value, on one line', () => {
    expect(invalidValue(TABLE, 'port', 'abc')).toBe('--port must be an integer from 0 to 65535, not "abc".');
    expect(invalidValue(TABLE, 'port', 'abc', { source: 'PORT' })).toBe('PORT must be an integer from 0 to 65535, not "abc".');
    expect(invalidValue(TABLE, 'token', 'secret value', { secret: true })).toBe('--token must be an API key.');
    expect(invalidValue(TABLE, 'port', '1\r\n2\u2028')).toBe('--port must be an integer from 0 to 65535, not "1\\r\\n2\\u2028".');
  });

  it('quoted: cuts long values', () => {
    expect(quoted('x'.repeat(100))).toBe(`"${'x'.repeat(57)}..."`);
  });

  it('orList and closest', () => {
    expect(orList(['a'])).toBe('a');
    expect(orList(['a', 'b'])).toBe('a or b');
    expect(orList(['silent', 'error', 'info', 'debug'])).toBe('silent, error, info or debug');
    expect(closest('contrac', ['serve', 'contract', 'help'])).toEqual(['contract']);
    expect(closest('srve', ['serve', 'contract', 'help'])).toEqual(['serve']);
    expect(closest('hlp', ['serve', 'contract', 'help'])).toEqual(['help']);
    expect(closest('launch', ['serve', 'contract', 'help'])).toEqual([]);
    expect(closest('spce', ['spec', 'seed'])).toEqual(['spec']); // a swap counts one
    expect(closest('sped', ['spec', 'seed'])).toEqual(['spec', 'seed']);
  });
});
