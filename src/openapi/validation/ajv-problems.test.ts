import { describe, expect, it } from 'vitest';
import { createAjv } from './ajv-instance.js';
import { toProblems } from './ajv-problems.js';

const ajv = createAjv('3.0');
const problemsOf = (schema: object, value: unknown) => {
  const validate = ajv.compile(schema);
  validate(value);
  return toProblems(validate.errors, 'body').map((p) => `${p.path}: ${p.message}`);
};

describe('toProblems', () => {
  it('reports a value that fits no branch of a oneOf or anyOf once, at its place', () => {
    const branches = [{ type: 'string' }, { type: 'integer' }];
    for (const keyword of ['oneOf', 'anyOf']) {
      expect(problemsOf({ type: 'object', properties: { value: { [keyword]: branches } } }, { value: true })).toEqual(['body.value: must be string or integer']);
    }
    // Branches that refuse the value for something else than its type: the keyword's own message, once.
    const bounded = { anyOf: [{ type: 'string', maxLength: 2 }, { type: 'integer' }] };
    expect(problemsOf({ type: 'object', properties: { value: bounded } }, { value: 'abc' })).toEqual(['body.value: must match a schema in anyOf']);
  });

  it('keeps what the branches found inside the value, each at its own place, in place of the keyword', () => {
    const objects = { oneOf: [{ type: 'object', required: ['a'] }, { type: 'object', required: ['b'], properties: { c: { maximum: 5 } } }] };
    expect(problemsOf({ type: 'object', properties: { value: objects } }, { value: { c: 6 } })).toEqual(['body.value.a: is required', 'body.value.b: is required', 'body.value.c: must be <= 5']);
  });

  it('keeps the problems of other places beside a failed oneOf', () => {
    const schema = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } };
    expect(problemsOf(schema, { value: null, name: 5 })).toEqual(['body.name: must be string', 'body.value: must be string or integer']);
    expect(problemsOf(schema, { value: null })).toEqual(['body.name: is required', 'body.value: must be string or integer']);
  });
});
