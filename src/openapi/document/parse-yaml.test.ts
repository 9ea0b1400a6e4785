import { describe, expect, it } from 'vitest';
import { aliasBomb } from '../../test-support/document-bombs.js';
import { MAX_ALIAS_COUNT, parseYaml } from './parse-yaml.js';

describe('parseYaml', () => {
  it('reads YAML 1.2 as documents are written: merge keys, dates and yes as strings, aliases shared', () => {
    const parsed = parseYaml('base: &base {type: string}\nname:\n  <<: *base\n  maxLength: 5\nexample: 2007-12-25\nflag: yes\nagain: *base\n');
    expect(parsed).toEqual({ value: { base: { type: 'string' }, name: { type: 'string', maxLength: 5 }, example: '2007-12-25', flag: 'yes', again: { type: 'string' } } });
    const value = (parsed as { value: { base: object; again: object } }).value;
    expect(value.again).toBe(value.base); // one object, not a copy: what expands it is bounded apart (document-bounds.ts)
  });

  it('says each problem with its line and column', () => {
    expect(parseYaml('a: 1\na: 2\n')).toEqual({ problem: 'Map keys must be unique (2:1)' });
    expect(parseYaml('a: 1\n---\nb: 2\n')).toEqual({ problem: 'Source contains multiple documents; please use YAML.parseAllDocuments() (2:1)' });
    expect(parseYaml('a: [1,\n')).toEqual({ problem: 'Flow sequence in block collection must be sufficiently indented and end with a ] (2:1)' });
    expect(parseYaml('a: {x: 1}\nb: *nothing\n')).toEqual({ problem: 'the alias *nothing (2:4) names no anchor set before it' });
  });

  it('refuses aliases past the bound, naming the alias that passed it, and takes them under it', () => {
    expect(MAX_ALIAS_COUNT).toBe(10_000);
    expect(parseYaml(aliasBomb(6))).toEqual({ problem: 'its YAML aliases expand past the bound of 10,000 alias uses (each counted with the aliases inside what it names), at *e (17:10)', refused: true });
    // Nine uses of an anchor holding nine uses of ... four deep: 6,561 uses as yaml counts them.
    const under = parseYaml(aliasBomb(5)) as { value: Record<string, unknown> };
    expect(JSON.stringify(under.value['x-e']).match(/"x"/g)).toHaveLength(9 ** 5);
  });

  it('refuses an alias inside the node it names', () => {
    expect(parseYaml('a: &a [1, *a]\n')).toEqual({ problem: 'the alias *a (1:11) is inside the node it names, so the document would hold itself', refused: true });
    expect(parseYaml('a: &a {b: {c: *a}}\n')).toMatchObject({ refused: true });
    expect(parseYaml('a: &a [1]\nb: &a [*a]\n')).toMatchObject({ refused: true }); // the anchor before the alias is b's own
    // The same name anchored again names the new node from there on.
    expect(parseYaml('a: &a [1]\nb: [*a]\nc: &a [2]\nd: *a\n')).toEqual({ value: { a: [1], b: [[1]], c: [2], d: [2] } });
  });
});
