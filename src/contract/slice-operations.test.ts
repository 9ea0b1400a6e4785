import { describe, expect, it } from 'vitest';
import { buildOperations } from '../openapi/operations/build-operations.js';
import { petstoreDocument } from '../test-support/petstore.js';
import { sliceOperations } from './slice-operations.js';

describe('sliceOperations', () => {
  it('splits the Petstore into slices that hold every operation once, a collection whole in one slice', async () => {
    const operations = buildOperations((await petstoreDocument()).api);
    const slices = [1, 2, 3, 4].map((k) => sliceOperations(operations, [k, 4]));
    expect(slices.flat().sort()).toEqual(operations.map((op) => op.id).sort());
    for (const slice of slices) expect(slice.length).toBeGreaterThan(0);
    const sliceOf = (id: string) => slices.findIndex((slice) => slice.includes(id));
    expect(sliceOf('getPet')).toBe(sliceOf('createPet'));
    expect(sliceOf('listOrders')).not.toBe(sliceOf('listPets'));
  });

  it('refuses a slice outside 1..n', () => {
    expect(() => sliceOperations([], [0, 2])).toThrow(RangeError);
    expect(() => sliceOperations([], [3, 2])).toThrow(RangeError);
  });
});
