import { describe, expect, it } from 'vitest';
import type { Operation } from '../../openapi/operations/operation.js';
import { FITS_OF_INTENT, type Case, type Intent } from '../case.js';
import { statusRule } from './status-rule.js';

/** A case of an operation that declares these statuses. */
const caseOf = (declared: string[], intent: Intent, fits = FITS_OF_INTENT[intent]): Case => ({
  operation: { responses: declared.map((status) => ({ status })) } as unknown as Operation,
  method: 'GET',
  path: '/things/1',
  headers: {},
  label: 'a case',
  intent,
  fits,
});

describe('the one status rule', () => {
  it('holds a request without credentials to the 401 the operation declares, so a 403 breaks it', () => {
    expect(statusRule(caseOf(['200', '401'], 'unauthenticated'))).toEqual({ promised: [401], open: [], refusals: [401] });
    expect(statusRule(caseOf(['200', '403'], 'unauthenticated'))).toEqual({ promised: [403], open: [], refusals: [403] });
  });

  it('accepts 401 or 403 for credentials where the operation declares neither (the undeclared one is then a gap)', () => {
    expect(statusRule(caseOf(['200'], 'unauthenticated'))).toEqual({ promised: [], open: ['credentials'], refusals: [401, 403] });
  });

  it('holds bad input to the declared 400 or 422, and takes any 4xx where neither is declared', () => {
    expect(statusRule(caseOf(['200', '400', '404'], 'invalid'))).toEqual({ promised: [400], open: [], refusals: [400] });
    expect(statusRule(caseOf(['200', '4XX'], 'invalid'))).toEqual({ promised: [400, 422], open: [], refusals: [400, 422] });
    expect(statusRule(caseOf(['200', 'default'], 'invalid'))).toEqual({ promised: [], open: ['input'], refusals: ['4XX'] });
  });

  it('leaves the answer open where one of a case\'s faults has no declared status (a bad path key on an operation that declares only 404)', () => {
    expect(statusRule(caseOf(['200', '404'], 'invalid', [400, 422, 404]))).toEqual({ promised: [404], open: ['input'], refusals: ['4XX'] });
    expect(statusRule(caseOf(['200', '400', '404'], 'invalid', [400, 422, 404]))).toEqual({ promised: [400, 404], open: [], refusals: [400, 404] });
    expect(statusRule(caseOf(['201', '400'], 'invalid', [400, 422, 415]))).toEqual({ promised: [400], open: ['media type'], refusals: ['4XX'] });
  });

  it('has nothing to say about a valid case', () => {
    expect(statusRule(caseOf(['200', '400'], 'valid'))).toBeUndefined();
  });
});
