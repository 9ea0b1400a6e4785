/** An error response's generated example, given its status: the fields that carry it, and nothing else. */
import { describe, expect, it } from 'vitest';
import { errorExample } from './error-example.js';

describe('errorExample', () => {
  it("puts the status in `status` and the mock's code for it in `code` (the Petstore's getPet 404 read VALIDATION_FAILED, 599)", () => {
    expect(errorExample({ code: 'VALIDATION_FAILED', message: 'string', status: 599, details: [{ path: 'string' }] }, 404)).toEqual({ code: 'NOT_FOUND', message: 'string', status: 404, details: [{ path: 'string' }] });
    expect(errorExample({ code: 'x', status: 400 }, 410)).toEqual({ code: 'GONE', status: 410 });
  });

  it('fills a numeric code, `statusCode` and `error_code` too; leaves other fields, and a body that is not an object', () => {
    expect(errorExample({ code: 0, statusCode: 0, error_code: 'x', status: 'string', title: 'string' }, 503)).toEqual({ code: 503, statusCode: 503, error_code: 'SERVICE_UNAVAILABLE', status: 'string', title: 'string' });
    expect(errorExample(['string'], 404)).toEqual(['string']);
    expect(errorExample('string', 404)).toBe('string');
  });
});
