import { describe, expect, it } from 'vitest';
import { validateMetaSchema } from './validate-meta-schema.js';

describe('validateMetaSchema (precompiled by the build)', () => {
  it('accepts valid 3.0 and 3.1 documents', () => {
    expect(validateMetaSchema({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} }, '3.0')).toBeUndefined();
    expect(validateMetaSchema({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} }, '3.1')).toBeUndefined();
  });

  it('names the problem of an invalid document in words', () => {
    const invalid = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/a': { get: { responses: {}, parameters: [{ name: 'q' }] } } } };
    expect(validateMetaSchema(invalid, '3.0')).toBe('#/paths/~1a/get/parameters/0 lacks the required field `schema`');
    expect(validateMetaSchema({ openapi: '3.0.3', paths: {} }, '3.0')).toBe('the document lacks the required field `info`');
  });

  it('names the fields allowed where one is unknown, from the meta-schema written beside the validators', () => {
    expect(validateMetaSchema({ openapi: '3.1.0', info: { title: 't', version: '1', contakt: {} }, paths: {} }, '3.1')).toBe(
      'unknown field `contakt` at #/info (allowed: title, summary, description, termsOfService, contact, license, version and x- extensions); did you mean `contact`?',
    );
    const strin = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { X: { type: 'strin' } } } };
    expect(validateMetaSchema(strin, '3.0')).toBe('`strin` is not a type at #/components/schemas/X/type; did you mean `string`?');
  });
});
