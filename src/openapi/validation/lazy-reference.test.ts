import { describe, expect, it } from 'vitest';
import { createAjv } from './ajv-instance.js';
import { LAZY_REF, registerLazyReference } from './lazy-reference.js';

describe('lazy references', () => {
  it('compile the schema they stand for on the first value, and report its errors at their place', () => {
    const ajv = createAjv('3.0');
    registerLazyReference(ajv, 'x:/item');
    ajv.addSchema({ $id: 'x:/item', type: 'object', required: ['n'], properties: { n: { type: 'integer' } } });
    const validate = ajv.compile({ type: 'array', items: { [LAZY_REF]: 'x:/item' } });
    expect(ajv.schemas['x:/item']?.validate).toBeUndefined();
    expect(validate([])).toBe(true);
    expect(ajv.schemas['x:/item']?.validate).toBeUndefined(); // no value reached it yet
    expect(validate([{ n: 1 }, { n: 'two' }, {}])).toBe(false);
    expect(ajv.schemas['x:/item']?.validate).toBeDefined();
    expect(validate.errors!.map((e) => [e.instancePath, e.keyword])).toEqual([['/1/n', 'type'], ['/2', 'required']]);
  });

  it('let a schema that cannot be compiled accept anything, and say so once', () => {
    const ajv = createAjv('3.0');
    const warnings: string[] = [];
    registerLazyReference(ajv, 'x:/odd', (message) => warnings.push(message));
    ajv.addSchema({ $id: 'x:/odd', type: 'str' }, undefined, undefined, false); // not checked against the meta-schema
    const validate = ajv.compile({ type: 'object', properties: { odd: { [LAZY_REF]: 'x:/odd' } } });
    expect(validate({ odd: 1 }) && validate({ odd: 'x' })).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/^A schema cannot be compiled \(type must be JSONType.*\); the values it describes are not checked\.$/)]);
  });

  it('refuse a keyword naming no registered schema when the schema holding it is compiled', () => {
    const ajv = createAjv('3.0');
    registerLazyReference(ajv, 'x:/known');
    expect(() => ajv.compile({ properties: { a: { [LAZY_REF]: 'x:/unknown' } } })).toThrow(/no schema is registered under x:\/unknown/);
  });
});
