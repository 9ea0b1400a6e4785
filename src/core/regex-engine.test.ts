/**
 * The document's patterns in linear time (regex-engine.ts): the same verdicts as RegExp for the
 * patterns documents use, `^(a+)+$` against a long `aaa…a!` decided at once, and the rule for a
 * pattern RE2 cannot run (not enforced, and named).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../test-support/petstore.js';
import { createAjv } from '../openapi/validation/ajv-instance.js';
import { linearPattern, linearRegExp, toRe2Syntax } from './regex-engine.js';
import { describeUnenforced, unenforcedPatterns } from '../openapi/validation/unenforced-patterns.js';

const EVIL = '^(a+)+$';
const EVIL_INPUT = `${'a'.repeat(5000)}!`;

describe('the linear-time engine', () => {
  // The patterns of the corpus documents (test/corpus/*.yaml) and the bundled Petstore, then
  // what JavaScript and RE2 read differently: `.`, `\s`, `[]`, `[^]`, escapes, Unicode properties.
  const TABLE: Array<[string, string[]]> = [
    ['(\\d{4})-(\\d{2})-(\\d{2})', ['2024-01-31', 'x2024-01-31y', '2024-1-31', '']],
    ['^[\\da-z]{26}$', ['01arz3ndektsv4rrffq69g5fav', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '01arz3ndektsv4rrffq69g5fa', '01arz3ndektsv4rrffq69g5fav\n']],
    ['^JS[0-9a-fA-F]{32}$', [`JS${'aF09'.repeat(8)}`, `JS${'aF09'.repeat(8)}0`, `js${'a'.repeat(32)}`]],
    ['^([01]\\d|2[0-3]):?([0-5]\\d)$', ['23:59', '2359', '24:00', '9:30', '09:30\n']],
    ['^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$', ['Wed, 21 Oct 2015 07:28:00 GMT', 'Wed, 21 Oct 2015 07:28:00 UTC']],
    ['^@-?[0-9]+$', ['@12', '@-3', '@', '12']],
    ['^Bearer ', ['Bearer abc', 'bearer abc', ' Bearer']],
    ['^.+$', ['abc', 'a\rb', 'a\nb', 'a\u2028b', '😀', '\ud83d', '']],
    ['^.$', ['😀', 'é', '\r', '\u2029', '\ud83d\ude00x']],
    ['^\\s*\\S+\\s*$', [' a ', '\u00a0a\ufeff', '\u3000x\u2003', 'a b', '\v\va']],
    ['^[\\s,]+$', [' ,\t', '\u00a0', ',x']],
    ['^[^\\s]+$', ['abc', 'a\u00a0c', 'a\u2028']],
    ['^[^]*$', ['anything\nat all', '']],
    ['[]', ['', 'a']],
    ['^[]\\]$|^a$', ['a', ']', '']],
    ['^[[:alpha:]\\]+$', ['a]', '[:]]]', 'abc', 'a']],
    ['^[a-z-0]+$', ['a-0', 'z', '5']],
    ['^[+--]$', [',', '+', '-', '.']],
    ['^\\p{L}[\\p{L}\\p{Mn}\' -]*$', ['Zoë', "O'Brien", 'Ἀθῆναι', 'Jean-Luc', 'R2D2', '']],
    ['^\\p{Letter}+$', ['Ωμέγα', 'abc1']],
    ['^\\p{Script=Greek}+$', ['Ωμέγα', 'Omega']],
    ['^\\P{L}+$', ['123 !', '12a']],
    ['^[\\P{Lu}]+$', ['abc', 'aBc']],
    ['^\\p{Lu}\\p{Ll}+$', ['Émile', 'émile']],
    ['^[\\u0041-\\u005A]+$', ['ABC', 'abc']],
    ['^\\u{1F600}$', ['😀', '😁']],
    ['^\\uD83D\\uDE00$', ['😀', '😁']],
    ['^\\x41\\cJ\\0$', ['A\n\0', 'A\n0']],
    ['^a\\/b\\.c[\\-]?$', ['a/b.c', 'a/b.c-', 'a/bxc']],
    ['\\bword\\b', ['a word here', 'swordfish']],
    ['^(?:[a-z0-9!#$%&\'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&\'*+/=?^_`{|}~-]+)*)@example\\.com$', ['jo.doe@example.com', 'jo..doe@example.com']],
    ['^(?<year>\\d{4})-(?<month>\\d{2})$', ['2024-05', '2024-5']],
    ['^[A-Z]{2}\\d{2}[A-Z0-9]{1,30}$', ['GB82WEST12345698765432', 'gb82']],
    ['^\\d+(\\.\\d{1,2})?$', ['10', '10.5', '10.555', '.5']],
    ['^$', ['', '\n']],
    ['abc$', ['xabc', 'abc\n']],
    ['^(a+)+$', ['aaaa', 'aaab']],
  ];

  it.each(TABLE)('%s: the same verdict as RegExp, in linear time', (pattern, samples) => {
    const tester = linearPattern(pattern);
    expect(tester.unenforced).toBeUndefined();
    const native = new RegExp(pattern, 'u');
    expect(samples.map((s) => [s, tester.test(s)])).toEqual(samples.map((s) => [s, native.test(s)]));
  });

  it('reads `.`, `\\s` and `\\S` as JavaScript does, for every character of the Basic Multilingual Plane', () => {
    const differ: string[] = [];
    for (const pattern of ['^.$', '^\\s$', '^\\S$', '^[\\s]$', '^[^\\s]$', '^[\\S]$', '^[^\\S]$']) {
      const tester = linearPattern(pattern);
      const native = new RegExp(pattern, 'u');
      for (let code = 0; code <= 0xffff; code++) {
        const text = String.fromCharCode(code);
        if (tester.test(text) !== native.test(text)) differ.push(`${pattern} U+${code.toString(16)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('decides ^(a+)+$ against 5000 a and a ! (RegExp backtracks for ever: each a doubles its time)', () => {
    expect(linearPattern(EVIL).test(EVIL_INPUT)).toBe(false);
    expect(linearPattern(EVIL).test('a'.repeat(5000))).toBe(true);
  });

  it('is the engine of every validator, for pattern and for patternProperties', () => {
    for (const dialect of ['3.0', '3.1'] as const) {
      const ajv = createAjv(dialect);
      // Checked first: with RegExp instead, the next lines would hold this test for ever rather than fail.
      expect(ajv.opts.code.regExp).toBe(linearRegExp);
      const validate = ajv.compile({ type: 'object', properties: { text: { type: 'string', pattern: EVIL } }, patternProperties: { [EVIL]: { type: 'number' } } });
      expect(validate({ text: EVIL_INPUT, [EVIL_INPUT]: 'not a number, but its name does not match' })).toBe(false);
      expect(validate.errors?.map((e) => `${e.instancePath} ${e.message}`)).toEqual(['/text must match pattern "^(a+)+$"']);
      expect(validate({ text: 'aaa', aaaa: 'x' })).toBe(false);
      expect(validate.errors?.map((e) => `${e.instancePath} ${e.message}`)).toEqual(['/aaaa must be number']);
    }
  });

  it('keeps each pattern apart in a validator (Ajv keeps one per pattern, by its text)', () => {
    const validate = createAjv('3.1').compile({ type: 'array', prefixItems: [{ type: 'string', pattern: '^a$' }, { type: 'string', pattern: '^b$' }] });
    expect(validate(['a', 'b'])).toBe(true);
    expect(validate(['b', 'a'])).toBe(false);
  });

  it('refuses a pattern JavaScript refuses, as RegExp did (its schema is not compiled, with a warning)', () => {
    expect(() => linearPattern('(')).toThrow(SyntaxError);
    expect(() => linearPattern('a{,5}')).toThrow(SyntaxError);
    expect(() => createAjv('3.0').compile({ type: 'string', pattern: '[' })).toThrow(/Invalid regular expression/);
  });

  it('writes what JavaScript means where RE2 reads the text otherwise', () => {
    expect(toRe2Syntax('^a.b$')).toBe('^a[^\\n\\r\\x{2028}\\x{2029}]b$');
    expect(toRe2Syntax('[]a')).toBe('[^\\x{0}-\\x{10ffff}]a');
    expect(toRe2Syntax('\\p{Letter}')).toBe('[\\p{L}]');
  });
});

describe('a pattern RE2 cannot run: not enforced, and named', () => {
  const UNSUPPORTED: Array<[string, RegExp]> = [
    ['^(?=.*[A-Z])(?=.*\\d).{8,}$', /^it has a lookahead$/],
    ['^(?!admin$)\\w+$', /^it has a lookahead$/],
    ['(?<=\\$)\\d+', /^it has a lookbehind$/],
    ['^(a)\\1$', /^it has a backreference$/],
    ['^(?<q>["\'])\\w+\\k<q>$', /^it has a backreference$/],
    ['^[a-z]{1,5000}$', /^RE2 refuses it: invalid repeat count/],
  ];

  it.each(UNSUPPORTED)('%s: every string passes it, never a backtracking match', (pattern, reason) => {
    const tester = linearPattern(pattern);
    expect(tester.unenforced).toMatch(reason);
    expect(['', 'anything', EVIL_INPUT].map((s) => tester.test(s))).toEqual([true, true, true]);
  });

  it('a validator lets every value pass it, and checks the rest of the schema as before', () => {
    const validate = createAjv('3.0').compile({ type: 'string', minLength: 2, pattern: '^(?=[A-Z])\\w+$' });
    expect(validate('lower')).toBe(true);
    expect(validate('x')).toBe(false);
  });

  it('is reported once per pattern, with where the document has it and the rule', () => {
    const lookahead = '^(?=[A-Z])\\w+$';
    const api = {
      openapi: '3.1.0',
      paths: { '/users': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } } } } } },
      components: {
        schemas: {
          User: {
            type: 'object',
            properties: {
              code: { type: 'string', pattern: lookahead },
              again: { type: 'string', pattern: lookahead },
              // A property called `default`, and one called `pattern`, are schemas like any other.
              default: { type: 'string', pattern: '(a)\\1' },
              pattern: { type: 'string', pattern: '^[a-z]+$' },
              tags: { type: 'object', patternProperties: { '^(?!x-)': { type: 'string' } } },
            },
            // Values, not schemas: never reported.
            example: { pattern: '(?=data)' },
            default: { code: 'A1' },
          },
        },
      },
    };
    const found = unenforcedPatterns(api);
    expect(found).toEqual([
      { pattern: lookahead, where: '#/components/schemas/User/properties/code/pattern', more: 1, reason: 'it has a lookahead' },
      { pattern: '(a)\\1', where: '#/components/schemas/User/properties/default/pattern', more: 0, reason: 'it has a backreference' },
      { pattern: '^(?!x-)', where: '#/components/schemas/User/properties/tags/patternProperties/^(?!x-)', more: 0, reason: 'it has a lookahead' },
    ]);
    expect(describeUnenforced(found[0])).toBe(
      'The pattern "^(?=[A-Z])\\\\w+$" at #/components/schemas/User/properties/code/pattern (and 1 other place) is not enforced: it has a lookahead, which a linear-time engine cannot run, and a backtracking one never runs on what clients send; every string passes it.',
    );
  });
});

describe('every Ajv that validates what others send is made by createAjv', () => {
  it('no other module makes one: the meta-schema validators, built from the meta-schema only, are the one exception', () => {
    const makers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(path);
        else if (/\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.test.ts') && /new Ajv|new \w*Ajv\w*\(|from 'ajv-draft-04'|require\('ajv-draft-04'\)/.test(readFileSync(join(ROOT, path), 'utf8'))) makers.push(path);
      }
    };
    for (const dir of ['src', 'scripts', 'bench']) walk(dir);
    // meta-schemas.ts makes the build's (and, before a build, the sources') meta-schema validators.
    expect(makers.sort()).toEqual(['src/openapi/document/meta-schema/meta-schemas.ts', 'src/openapi/validation/ajv-instance.ts']);
  });
});
