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
    // Branches that refuse more than the type: the keyword's own message, once.
    const objects = { oneOf: [{ type: 'object', required: ['a'] }, { type: 'object', required: ['b'] }] };
    expect(problemsOf({ type: 'object', properties: { value: objects } }, { value: {} })).toEqual(['body.value: must match exactly one schema in oneOf']);
  });

  it('keeps the problems of other places beside a failed oneOf', () => {
    const schema = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } };
    expect(problemsOf(schema, { value: null, name: 5 })).toEqual(['body.name: must be string', 'body.value: must be string or integer']);
    expect(problemsOf(schema, { value: null })).toEqual(['body.name: is required', 'body.value: must be string or integer']);
  });
});
