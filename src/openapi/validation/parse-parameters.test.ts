import { describe, expect, it } from 'vitest';
import type { ParameterSpec, SchemaObject } from '../document/schema.js';
import { compileParameterParser, type RawParameters } from './parse-parameters.js';

const DEFAULT_STYLE = { path: 'simple', query: 'form', header: 'simple', cookie: 'form' } as const;

/** A parameter with OpenAPI's defaults, as the caller would pass it. */
function param(location: ParameterSpec['in'], name: string, schema: SchemaObject, extra: Partial<ParameterSpec> = {}): ParameterSpec {
  const style = extra.style ?? DEFAULT_STYLE[location];
  return { name, in: location, required: location === 'path', style, explode: style === 'form', schema, ...extra };
}

function request(raw: Partial<Omit<RawParameters, 'header'>> & { headers?: Record<string, string> } = {}): RawParameters {
  const headers = raw.headers ?? {};
  return { path: raw.path ?? {}, query: raw.query ?? '', header: (name) => headers[name] };
}

function parse(parameters: ParameterSpec[], raw: Parameters<typeof request>[0]) {
  return compileParameterParser(parameters)(request(raw));
}

const integer = { type: 'integer' };
const integers = { type: 'array', items: integer };
const strings = { type: 'array', items: { type: 'string' } };
const colour = { type: 'object', properties: { R: integer, G: integer, name: { type: 'string' } } };

describe('query parameters', () => {
  it('coerces a form primitive to its schema type', () => {
    const { values, problems } = parse([param('query', 'limit', integer)], { query: 'limit=20&other=x' });
    expect(values.query).toEqual({ limit: 20 });
    expect(problems).toEqual([]);
  });

  it('leaves undeclared parameters and absent optional ones out of the values', () => {
    const { values } = parse([param('query', 'limit', integer), param('query', 'offset', integer)], { query: 'limit=1&x=2' });
    expect(values.query).toEqual({ limit: 1 });
    expect(Object.hasOwn(values.query, 'offset')).toBe(false);
  });

  it('collects repeated keys into an array for an exploded form array', () => {
    expect(parse([param('query', 'ids', integers)], { query: 'ids=1&ids=2&ids=3' }).values.query).toEqual({ ids: [1, 2, 3] });
  });

  it('splits a non-exploded form array on commas, escaped or not', () => {
    const ids = param('query', 'ids', integers, { explode: false });
    expect(parse([ids], { query: 'ids=1,2,3' }).values.query).toEqual({ ids: [1, 2, 3] });
    expect(parse([ids], { query: 'ids=1%2C2' }).values.query).toEqual({ ids: [1, 2] });
  });

  it('makes a one-element array of a single value', () => {
    expect(parse([param('query', 'ids', integers)], { query: 'ids=7' }).values.query).toEqual({ ids: [7] });
  });

  it('splits spaceDelimited arrays on %20 and +', () => {
    const tags = param('query', 'tags', strings, { style: 'spaceDelimited', explode: false });
    expect(parse([tags], { query: 'tags=a%20b+c' }).values.query).toEqual({ tags: ['a', 'b', 'c'] });
  });

  it('splits pipeDelimited arrays on | and %7C', () => {
    const ids = param('query', 'ids', integers, { style: 'pipeDelimited', explode: false });
    expect(parse([ids], { query: 'ids=1|2%7C3' }).values.query).toEqual({ ids: [1, 2, 3] });
  });

  it('reads a deepObject from bracketed keys, escaped brackets included', () => {
    const filter = param('query', 'filter', colour, { style: 'deepObject', explode: true });
    const { values } = parse([filter], { query: 'filter[R]=100&filter%5BG%5D=200&filter[name]=red&filterX=1' });
    expect(values.query).toEqual({ filter: { R: 100, G: 200, name: 'red' } });
  });

  it('reads the properties of an exploded form object as top-level keys', () => {
    const { values } = parse([param('query', 'colour', colour)], { query: 'R=100&G=200&B=5' });
    expect(values.query).toEqual({ colour: { R: 100, G: 200 } });
  });

  it('reads a non-exploded form object from key,value pairs', () => {
    const { values } = parse([param('query', 'colour', colour, { explode: false })], { query: 'colour=R,100,G,200' });
    expect(values.query).toEqual({ colour: { R: 100, G: 200 } });
  });

  it('reads space- and pipe-delimited objects', () => {
    const space = param('query', 'colour', colour, { style: 'spaceDelimited', explode: false });
    const pipe = param('query', 'colour', colour, { style: 'pipeDelimited', explode: false });
    expect(parse([space], { query: 'colour=R%20100%20G%20200' }).values.query).toEqual({ colour: { R: 100, G: 200 } });
    expect(parse([pipe], { query: 'colour=R|100|G|200' }).values.query).toEqual({ colour: { R: 100, G: 200 } });
  });

  it('treats + as a space and decodes names as well as values', () => {
    const { values } = parse([param('query', 'full name', { type: 'string' })], { query: 'full+name=Ada+Lovelace%21' });
    expect(values.query).toEqual({ 'full name': 'Ada Lovelace!' });
  });

  it('reports a non-array parameter given more than once', () => {
    const { values, problems } = parse([param('query', 'limit', integer)], { query: 'limit=1&limit=2' });
    expect(problems).toEqual([{ path: 'query.limit', rule: 'repeated', message: 'must be given at most once' }]);
    expect(values.query).toEqual({});
  });

  it('reports a deepObject property given more than once', () => {
    const filter = param('query', 'filter', colour, { style: 'deepObject' });
    expect(parse([filter], { query: 'filter[R]=1&filter[R]=2' }).problems).toEqual([
      { path: 'query.filter.R', rule: 'repeated', message: 'must be given at most once' },
    ]);
  });

  it.each(['%E0%A4%A', '%zz', '100%', '%C3%28'])('reports the malformed percent-encoding %s instead of throwing', (bad) => {
    const { values, problems } = parse([param('query', 'q', { type: 'string' })], { query: `q=${bad}` });
    expect(problems).toEqual([{ path: 'query.q', rule: 'encoding', message: 'is not valid percent-encoded UTF-8' }]);
    expect(values.query).toEqual({});
  });

  it('ignores a malformed name, as it cannot be a declared parameter', () => {
    const { values, problems } = parse([param('query', 'q', { type: 'string' })], { query: '%zz=1&q=ok' });
    expect(values.query).toEqual({ q: 'ok' });
    expect(problems).toEqual([]);
  });

  it('ignores malformed values of undeclared parameters', () => {
    expect(parse([param('query', 'q', { type: 'string' })], { query: 'other=%zz' }).problems).toEqual([]);
  });

  it('keeps an empty value as an empty string for Ajv to judge', () => {
    expect(parse([param('query', 'limit', integer)], { query: 'limit=' }).values.query).toEqual({ limit: '' });
    expect(parse([param('query', 'flag', { type: 'boolean' })], { query: 'flag' }).values.query).toEqual({ flag: '' });
  });

  it('survives empty pairs and an empty query string', () => {
    expect(parse([param('query', 'a', integer)], { query: '&&a=1&' }).values.query).toEqual({ a: 1 });
    expect(parse([param('query', 'a', integer)], { query: '' }).values.query).toEqual({});
  });
});

describe('coercion', () => {
  const coerce = (schema: SchemaObject, text: string) =>
    parse([param('query', 'v', schema)], { query: `v=${encodeURIComponent(text)}` });

  it.each([
    ['42', 42],
    ['-7', -7],
    ['007', 7],
    ['-0', 0],
    ['9007199254740991', 9007199254740991],
  ])('turns the integer %s into %d', (text, expected) => {
    expect(coerce(integer, text).values.query.v).toBe(expected);
  });

  it.each(['1.5', '1e3', 'abc', ' 1', '0x10', ''])('keeps %j as a string when an integer is asked for', (text) => {
    expect(coerce(integer, text)).toEqual({ values: expect.objectContaining({ query: { v: text } }), problems: [] });
  });

  it.each(['9007199254740992', '-9007199254740993', '123456789012345678901234567890'])(
    'reports %s as beyond exact integers instead of rounding it',
    (text) => {
      const { values, problems } = coerce(integer, text);
      expect(problems).toEqual([
        {
          path: 'query.v',
          rule: 'int64',
          message: 'must be an integer between -9007199254740991 and 9007199254740991 (larger values cannot be handled exactly)',
        },
      ]);
      expect(values.query).toEqual({});
    },
  );

  it('names the array item that is beyond exact integers', () => {
    expect(coerce(integers, '1').problems).toEqual([]);
    const { problems } = parse([param('query', 'ids', integers)], { query: 'ids=1&ids=99999999999999999999' });
    expect(problems.map((problem) => problem.path)).toEqual(['query.ids.1']);
  });

  it.each([
    ['1.5', 1.5],
    ['-2', -2],
    ['.5', 0.5],
    ['3.', 3],
    ['1e3', 1000],
    ['-2.5E-2', -0.025],
  ])('turns the number %s into %d', (text, expected) => {
    expect(coerce({ type: 'number' }, text).values.query.v).toBe(expected);
  });

  it.each(['abc', '1e999', 'NaN', 'Infinity', '0x10', '1.2.3', '', '+1'])('keeps %j as a string when a number is asked for', (text) => {
    expect(coerce({ type: 'number' }, text).values.query.v).toBe(text);
  });

  it('does not backtrack catastrophically on a long almost-number', () => {
    const text = `${'1'.repeat(50_000)}x`;
    expect(coerce({ type: 'number' }, text).values.query.v).toBe(text);
  });

  it('turns only true and false into booleans', () => {
    expect(coerce({ type: 'boolean' }, 'true').values.query.v).toBe(true);
    expect(coerce({ type: 'boolean' }, 'false').values.query.v).toBe(false);
    expect(coerce({ type: 'boolean' }, 'TRUE').values.query.v).toBe('TRUE');
    expect(coerce({ type: 'boolean' }, '1').values.query.v).toBe('1');
  });

  it('keeps strings as they are, digits included', () => {
    expect(coerce({ type: 'string' }, '42').values.query.v).toBe('42');
  });

  it('uses the first non-null type of a 3.1 type array and does not coerce "null"', () => {
    expect(coerce({ type: ['null', 'integer'] }, '5').values.query.v).toBe(5);
    expect(coerce({ type: ['integer', 'null'] }, 'null').values.query.v).toBe('null');
    expect(coerce({ type: 'integer', nullable: true }, 'null').values.query.v).toBe('null');
  });

  it('infers arrays from items and objects from properties when type is missing', () => {
    expect(parse([param('query', 'ids', { items: integer })], { query: 'ids=1&ids=2' }).values.query).toEqual({ ids: [1, 2] });
    const filter = param('query', 'f', { properties: { n: integer } }, { style: 'deepObject' });
    expect(parse([filter], { query: 'f[n]=3' }).values.query).toEqual({ f: { n: 3 } });
  });

  it('leaves values as strings for an empty schema (content parameters)', () => {
    expect(coerce({}, '{"a":1}').values.query.v).toBe('{"a":1}');
  });

  it('coerces undeclared object properties by additionalProperties', () => {
    const filter = param('query', 'f', { type: 'object', additionalProperties: integer }, { style: 'deepObject' });
    expect(parse([filter], { query: 'f[a]=1&f[b]=x' }).values.query).toEqual({ f: { a: 1, b: 'x' } });
  });
});

describe('content parameters (JSON-encoded)', () => {
  const filter = param('query', 'filter', { type: 'object', properties: { limit: integer } }, { mediaType: 'application/json' });

  it('parses the whole value as JSON, whatever its schema\'s shape', () => {
    expect(parse([filter], { query: `filter=${encodeURIComponent('{"limit":2,"fields":["a","b"]}')}` }).values.query).toEqual({ filter: { limit: 2, fields: ['a', 'b'] } });
    const ids = param('query', 'ids', integers, { mediaType: 'application/json' });
    expect(parse([ids], { query: 'ids=[1,2]' }).values.query).toEqual({ ids: [1, 2] });
  });

  it('reports a value that is not JSON at the parameter, with the rule json', () => {
    expect(parse([filter], { query: 'filter={"limit":' }).problems).toEqual([{ path: 'query.filter', rule: 'json', message: 'is not valid JSON' }]);
  });

  it('reads JSON from headers, cookies and path segments too', () => {
    const where = (location: ParameterSpec['in']) => param(location, 'w', { type: 'object' }, { mediaType: 'application/json' });
    expect(parse([where('header')], { headers: { w: '{"a":1}' } }).values.header).toEqual({ w: { a: 1 } });
    expect(parse([where('cookie')], { headers: { cookie: `w=${encodeURIComponent('{"a":1}')}` } }).values.cookie).toEqual({ w: { a: 1 } });
    expect(parse([where('path')], { path: { w: '{"a":1}' } }).values.path).toEqual({ w: { a: 1 } });
  });

  it('keeps a value of another media type as its text', () => {
    const text = param('query', 'q', { type: 'object' }, { mediaType: 'text/plain' });
    expect(parse([text], { query: 'q=a,b' }).values.query).toEqual({ q: 'a,b' });
  });

  it('reports JSON nested deeper than a body may be, without parsing it', () => {
    expect(parse([filter], { query: `filter=${'['.repeat(100)}${']'.repeat(100)}` }).problems.map((p) => p.rule)).toEqual(['json']);
  });
});

describe('path parameters', () => {
  it('coerces a simple primitive', () => {
    expect(parse([param('path', 'petId', integer)], { path: { petId: '12' } }).values.path).toEqual({ petId: 12 });
  });

  it('splits a simple array on commas', () => {
    expect(parse([param('path', 'ids', integers)], { path: { ids: '1,2,3' } }).values.path).toEqual({ ids: [1, 2, 3] });
  });

  it('reads simple objects as k,v pairs or, exploded, as k=v', () => {
    expect(parse([param('path', 'c', colour)], { path: { c: 'R,100,G,200' } }).values.path).toEqual({ c: { R: 100, G: 200 } });
    const exploded = param('path', 'c', colour, { explode: true });
    expect(parse([exploded], { path: { c: 'R=100,G=200' } }).values.path).toEqual({ c: { R: 100, G: 200 } });
  });

  it('reads label primitives, arrays and objects', () => {
    const label = (schema: SchemaObject, explode: boolean) => param('path', 'v', schema, { style: 'label', explode });
    expect(parse([label(integer, false)], { path: { v: '.5' } }).values.path).toEqual({ v: 5 });
    expect(parse([label({ type: 'number' }, false)], { path: { v: '.1.5' } }).values.path).toEqual({ v: 1.5 });
    expect(parse([label(integers, false)], { path: { v: '.1.2' } }).values.path).toEqual({ v: [1, 2] });
    expect(parse([label(integers, false)], { path: { v: '.1,2' } }).values.path).toEqual({ v: [1, 2] });
    expect(parse([label(integers, true)], { path: { v: '.1.2' } }).values.path).toEqual({ v: [1, 2] });
    expect(parse([label(colour, false)], { path: { v: '.R.100.G.200' } }).values.path).toEqual({ v: { R: 100, G: 200 } });
    expect(parse([label(colour, true)], { path: { v: '.R=100.G=200' } }).values.path).toEqual({ v: { R: 100, G: 200 } });
  });

  it('reads matrix primitives, arrays and objects', () => {
    const matrix = (schema: SchemaObject, explode: boolean) => param('path', 'id', schema, { style: 'matrix', explode });
    expect(parse([matrix(integer, false)], { path: { id: ';id=5' } }).values.path).toEqual({ id: 5 });
    expect(parse([matrix({ type: 'string' }, false)], { path: { id: ';id' } }).values.path).toEqual({ id: '' });
    expect(parse([matrix(integers, false)], { path: { id: ';id=1,2' } }).values.path).toEqual({ id: [1, 2] });
    expect(parse([matrix(integers, true)], { path: { id: ';id=1;id=2' } }).values.path).toEqual({ id: [1, 2] });
    expect(parse([matrix(colour, false)], { path: { id: ';id=R,100,G,200' } }).values.path).toEqual({ id: { R: 100, G: 200 } });
    expect(parse([matrix(colour, true)], { path: { id: ';R=100;G=200' } }).values.path).toEqual({ id: { R: 100, G: 200 } });
  });

  it('keeps a matrix value without its ;name= prefix for Ajv to judge', () => {
    const id = param('path', 'id', integer, { style: 'matrix' });
    expect(parse([id], { path: { id: 'abc' } }).values.path).toEqual({ id: 'abc' });
  });

  it('reports a missing path parameter, even one named like an Object.prototype member', () => {
    const { problems } = parse([param('path', 'petId', integer), param('path', 'constructor', { type: 'string' })], {});
    expect(problems).toEqual([
      { path: 'path.petId', rule: 'required', message: 'is required' },
      { path: 'path.constructor', rule: 'required', message: 'is required' },
    ]);
  });
});

describe('header parameters', () => {
  it('reads a header by its lower-case name and keeps the declared name', () => {
    const { values } = parse([param('header', 'X-Rate-Limit', integer)], { headers: { 'x-rate-limit': '10' } });
    expect(values.header).toEqual({ 'X-Rate-Limit': 10 });
  });

  it('splits simple arrays and objects, trimming list whitespace', () => {
    const { values } = parse(
      [param('header', 'X-Ids', integers), param('header', 'X-Colour', colour, { explode: true })],
      { headers: { 'x-ids': '1, 2,3', 'x-colour': 'R=100, G=200' } },
    );
    expect(values.header).toEqual({ 'X-Ids': [1, 2, 3], 'X-Colour': { R: 100, G: 200 } });
  });

  it('reports a missing required header by its declared name', () => {
    const { problems } = parse([param('header', 'X-Request-Id', { type: 'string' }, { required: true })], {});
    expect(problems).toEqual([{ path: 'header.X-Request-Id', rule: 'required', message: 'is required' }]);
  });

  it('ignores Accept, Content-Type and Authorization parameters whatever their case', () => {
    const ignored = ['Accept', 'content-type', 'AUTHORIZATION'].map((name) => param('header', name, integer, { required: true }));
    const { values, problems } = parse(ignored, { headers: { accept: '1', 'content-type': '2', authorization: '3' } });
    expect(values.header).toEqual({});
    expect(problems).toEqual([]);
  });

  it('treats a null header as absent', () => {
    const parser = compileParameterParser([param('header', 'X-A', { type: 'string' }, { required: true })]);
    expect(parser({ path: {}, query: '', header: () => null }).problems).toHaveLength(1);
  });
});

describe('cookie parameters', () => {
  it('reads form cookies from the cookie header', () => {
    const { values } = parse([param('cookie', 'session', { type: 'string' }), param('cookie', 'count', integer)], {
      headers: { cookie: 'session=abc%20def; count=3; other=x' },
    });
    expect(values.cookie).toEqual({ session: 'abc def', count: 3 });
  });

  it('reads cookie arrays and objects', () => {
    const { values } = parse(
      [param('cookie', 'ids', integers, { explode: false }), param('cookie', 'c', colour, { explode: false })],
      { headers: { cookie: 'ids=1,2; c=R,100,G,200' } },
    );
    expect(values.cookie).toEqual({ ids: [1, 2], c: { R: 100, G: 200 } });
  });

  it('takes the first of two cookies with the same name and unquotes values', () => {
    expect(parse([param('cookie', 'a', integer)], { headers: { cookie: 'a="1"; a=2' } }).values.cookie).toEqual({ a: 1 });
  });

  it('reports a missing required cookie, with or without a cookie header', () => {
    const session = param('cookie', 'session', { type: 'string' }, { required: true });
    const expected = [{ path: 'cookie.session', rule: 'required', message: 'is required' }];
    expect(parse([session], {}).problems).toEqual(expected);
    expect(parse([session], { headers: { cookie: 'other=1; broken' } }).problems).toEqual(expected);
  });

  it('reports malformed percent-encoding in a cookie', () => {
    expect(parse([param('cookie', 'a', { type: 'string' })], { headers: { cookie: 'a=%zz' } }).problems).toEqual([
      { path: 'cookie.a', rule: 'encoding', message: 'is not valid percent-encoded UTF-8' },
    ]);
  });
});

describe('required parameters', () => {
  it('reports every missing required parameter at once', () => {
    const { problems } = parse(
      [
        param('path', 'id', integer),
        param('query', 'limit', integer, { required: true }),
        param('query', 'f', colour, { style: 'deepObject', required: true }),
        param('query', 'c', colour, { required: true }),
        param('header', 'X-Key', { type: 'string' }, { required: true }),
        param('cookie', 's', { type: 'string' }, { required: true }),
      ],
      { query: 'unrelated=1' },
    );
    expect(problems.map((problem) => `${problem.path} ${problem.rule} ${problem.message}`)).toEqual([
      'path.id required is required',
      'query.limit required is required',
      'query.f required is required',
      'query.c required is required',
      'header.X-Key required is required',
      'cookie.s required is required',
    ]);
  });

  it('does not also report a required parameter that was given but malformed', () => {
    const { problems } = parse([param('query', 'q', { type: 'string' }, { required: true })], { query: 'q=%zz' });
    expect(problems.map((problem) => problem.rule)).toEqual(['encoding']);
  });
});

describe('hostile input', () => {
  it('does not pollute Object.prototype through __proto__ or constructor keys', () => {
    const { values, problems } = parse(
      [
        param('query', 'filter', { type: 'object' }, { style: 'deepObject' }),
        param('query', '__proto__', { type: 'string' }),
        param('path', 'p', { type: 'object' }, { explode: true }),
      ],
      {
        query: 'filter[__proto__]=1&filter[constructor]=2&filter[polluted]=3&__proto__=x&constructor[prototype][polluted]=4',
        path: { p: '__proto__=1,constructor=2' },
      },
    );
    expect(problems).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(values.query.filter)).toBe(Object.prototype);
    expect(Object.keys(values.query.filter as object)).toEqual(['__proto__', 'constructor', 'polluted']);
    expect(Object.getOwnPropertyDescriptor(values.query, '__proto__')?.value).toBe('x');
    expect(Object.keys(values.path.p as object)).toEqual(['__proto__', 'constructor']);
  });

  it('does not throw on random bytes or huge inputs', () => {
    const parameters = [
      param('query', 'a', integers, { explode: false }),
      param('query', 'd', colour, { style: 'deepObject' }),
      param('query', 'c', colour),
      param('path', 'm', colour, { style: 'matrix', explode: true }),
      param('header', 'X-L', strings),
      param('cookie', 'k', integers),
    ];
    const parser = compileParameterParser(parameters);
    let seed = 1;
    const byte = () => (seed = (seed * 48271) % 2147483647) % 256;
    for (let round = 0; round < 200; round += 1) {
      const text = String.fromCharCode(...Array.from({ length: 64 }, byte));
      const raw: RawParameters = { path: { m: text }, query: text, header: () => text };
      expect(() => parser(raw)).not.toThrow();
    }
    const huge = `a=${'1,'.repeat(100_000)}&d[R]=${'9'.repeat(100_000)}`;
    expect(() => parser({ path: {}, query: huge, header: () => undefined })).not.toThrow();
  });
});
