import { describe, expect, it } from 'vitest';
import type { ParameterSpec, SchemaObject } from '../openapi/document/schema.js';
import { compileParameterParser } from '../openapi/validation/parse-parameters.js';
import { breaks } from './confirmation.js';
import { writeParameter } from './write-parameter.js';

const integers = { type: 'array', items: { type: 'integer' } };
const colour = { type: 'object', properties: { R: { type: 'integer' }, G: { type: 'integer' } } };

function spec(location: ParameterSpec['in'], schema: SchemaObject, extra: Partial<ParameterSpec> = {}): ParameterSpec {
  const style = extra.style ?? (location === 'query' || location === 'cookie' ? 'form' : 'simple');
  return { name: 'p', in: location, required: true, style, explode: style === 'form', schema, ...extra };
}

/** What the mock's parser reads back from a written value. */
function readBack(parameter: ParameterSpec, value: unknown): unknown {
  const written = writeParameter(parameter, value);
  const headers: Record<string, string> = { ...(written.header === undefined ? {} : { p: written.header }), ...(written.cookie === undefined ? {} : { cookie: written.cookie }) };
  const { values, problems } = compileParameterParser([parameter])({ path: {}, query: written.query ?? '', header: (name) => headers[name] });
  expect(problems).toEqual([]);
  return values[parameter.in].p;
}

describe('a parameter written as a client sends it reads back as the same value through the mock\'s parser', () => {
  it('in every query style: form exploded and not, space- and pipe-delimited, deepObject', () => {
    expect(readBack(spec('query', integers), [1, 2])).toEqual([1, 2]);
    expect(readBack(spec('query', integers, { explode: false }), [1, 2])).toEqual([1, 2]);
    expect(readBack(spec('query', integers, { style: 'spaceDelimited', explode: false }), [1, 2])).toEqual([1, 2]);
    expect(readBack(spec('query', integers, { style: 'pipeDelimited', explode: false }), [1, 2])).toEqual([1, 2]);
    expect(readBack(spec('query', colour, { style: 'deepObject', explode: true }), { R: 1, G: 2 })).toEqual({ R: 1, G: 2 });
    expect(readBack(spec('query', colour), { R: 1, G: 2 })).toEqual({ R: 1, G: 2 });
    expect(readBack(spec('query', colour, { explode: false }), { R: 1, G: 2 })).toEqual({ R: 1, G: 2 });
    expect(readBack(spec('query', { type: 'string' }), 'a b&c=d')).toBe('a b&c=d');
  });

  it('in headers and cookies', () => {
    expect(readBack(spec('header', integers), [1, 2])).toEqual([1, 2]);
    expect(readBack(spec('header', colour, { explode: true }), { R: 1, G: 2 })).toEqual({ R: 1, G: 2 });
    expect(readBack(spec('cookie', integers, { explode: false }), [1, 2])).toEqual([1, 2]);
  });

  it('as JSON for a parameter given as content: application/json, wherever it goes', () => {
    const filter = { limit: 2, fields: ['id', 'title'] };
    for (const location of ['query', 'header', 'cookie'] as const) {
      expect(readBack(spec(location, { type: 'object' }, { mediaType: 'application/json' }), filter)).toEqual(filter);
    }
    expect(writeParameter(spec('query', { type: 'object' }, { name: 'filter', mediaType: 'application/json' }), filter).query).toBe(`filter=${encodeURIComponent(JSON.stringify(filter))}`);
  });
});

describe('a problem breaks the rule a negative case claims', () => {
  const problem = (path: string, rule: string) => ({ path, rule, message: '' });

  it('at its place or below it, by one of its rules', () => {
    expect(breaks([problem('body.pages', 'maximum')], { at: 'body.pages', rules: ['maximum', 'exclusiveMaximum'] })).toBe(true);
    expect(breaks([problem('query.ids.0', 'type')], { at: 'query.ids', rules: ['type'] })).toBe(true);
  });

  it('not elsewhere, nor by another rule', () => {
    expect(breaks([problem('body.pagesTotal', 'maximum')], { at: 'body.pages', rules: ['maximum'] })).toBe(false);
    expect(breaks([problem('body.pages', 'type')], { at: 'body.pages', rules: ['maximum'] })).toBe(false);
    expect(breaks([], { at: 'body.pages', rules: ['maximum'] })).toBe(false);
  });
});
