import { describe, expect, it } from 'vitest';
import { validateMetaSchema } from './validate-meta-schema.js';

describe('validateMetaSchema (precompiled by the build)', () => {
  it('accepts valid 3.0 and 3.1 documents', () => {
    expect(validateMetaSchema({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} }, '3.0')).toBeUndefined();
    expect(validateMetaSchema({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} }, '3.1')).toBeUndefined();
  });

  it('names the first problem of an invalid document', () => {
    const invalid = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/a': { get: { responses: {}, parameters: [{ name: 'q' }] } } } };
    expect(validateMetaSchema(invalid, '3.0')).toBe("#/paths/~1a/get/parameters/0 must have required property 'schema'");
    expect(validateMetaSchema({ openapi: '3.0.3', paths: {} }, '3.0')).toBe("# must have required property 'info'");
  });
});
