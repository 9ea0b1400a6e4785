/** A step's value taken from an earlier step is told from a value that merely looks like one. */
import { describe, expect, it } from 'vitest';
import { isFromStep } from './sequence.js';

describe('isFromStep', () => {
  it('is an object holding only a step number', () => {
    expect(isFromStep({ $fromStep: 0 })).toBe(true);
    expect(isFromStep({ $fromStep: 3 })).toBe(true);
  });

  it('is not a value a body may carry as it stands', () => {
    for (const value of [null, 0, '$fromStep', [], { $fromStep: '0' }, { $fromStep: 1, name: 'Rex' }, { fromStep: 1 }]) expect(isFromStep(value), JSON.stringify(value)).toBe(false);
  });
});
