import { describe, expect, it } from 'vitest';
import { cassetteOf, parseCassette, writeCassette } from './cassette.js';
import type { Cassette } from './sequence.js';

const cassette: Cassette = {
  version: 1,
  document: { title: 'Petstore', version: '1.0.0' },
  seed: 42,
  failures: [
    {
      kind: 'sequence',
      collection: 'pets',
      check: 'use_after_delete',
      operationId: 'getPet',
      received: '200 for a read after delete',
      documented: '404',
      steps: [
        { operationId: 'createPet', label: 'create a pets record', body: { name: 'Rex' } },
        { operationId: 'deletePet', label: 'delete it', params: { petId: { $fromStep: 0 } } },
        { operationId: 'getPet', label: 'read it', params: { petId: { $fromStep: 0 } } },
      ],
      repro: ['curl -X POST ...', 'curl -X DELETE ...', 'curl -X GET ...'],
      seed: 42,
      path: '3:1',
      tried: 12,
      shrinks: 4,
    },
  ],
};

describe('cassette files', () => {
  it('read back what was written', () => {
    expect(parseCassette(writeCassette(cassette))).toEqual(cassette);
  });

  it('are written only when exploration found failures', () => {
    expect(cassetteOf({ seed: 3, explored: [] }, { title: 'T', version: '1' })).toBeUndefined();
    expect(cassetteOf({ seed: 3 }, { title: 'T', version: '1' })).toBeUndefined();
    expect(cassetteOf({ seed: 42, explored: cassette.failures }, { title: 'Petstore', version: '1.0.0' })).toEqual(cassette);
  });

  it('read a failure that does not say its kind as one request (input) when it has one step, else as a sequence', () => {
    const { kind: _kind, collection: _collection, ...older } = cassette.failures[0];
    const oneStep = { ...older, steps: [older.steps[0]], repro: [older.repro[0]] };
    const read = parseCassette(JSON.stringify({ ...cassette, failures: [older, oneStep] }));
    expect(typeof read === 'string' ? read : read.failures.map((f) => [f.kind, f.collection])).toEqual([
      ['sequence', undefined],
      ['input', undefined],
    ]);
    const input = { ...oneStep, kind: 'input' };
    expect(parseCassette(JSON.stringify({ ...cassette, failures: [input] }))).toEqual({ ...cassette, failures: [input] });
  });

  it.each([
    ['not json', 'it is not JSON'],
    ['[1]', 'it is not a JSON object'],
    ['{"version":2}', 'its version is 2, and this suite reads version 1'],
    ['{"failures":[]}', 'its version is missing, and this suite reads version 1'],
    [JSON.stringify({ ...cassette, seed: -1 }), 'its seed is not a non-negative integer'],
    [JSON.stringify({ ...cassette, failures: [{ ...cassette.failures[0], steps: [] }] }), 'its failures[0] has no steps'],
    [JSON.stringify({ ...cassette, failures: [{ ...cassette.failures[0], check: 1 }] }), 'its failures[0] has no check string'],
    [JSON.stringify({ ...cassette, failures: [{ ...cassette.failures[0], kind: 'stateful' }] }), 'its failures[0].kind is "stateful", not input or sequence'],
    [JSON.stringify({ ...cassette, failures: [{ ...cassette.failures[0], collection: 3 }] }), 'its failures[0].collection is not the name of the collection of a sequence'],
    [JSON.stringify({ ...cassette, failures: [{ ...cassette.failures[0], kind: 'input' }] }), 'its failures[0].collection is not the name of the collection of a sequence'],
    [JSON.stringify({ ...cassette, failures: [{ ...cassette.failures[0], steps: [{ operationId: 'getPet', label: 'read', params: { petId: { $fromStep: 0 } } }] }] }), 'its failures[0].steps[0] refers to step 0, which does not come before it'],
  ])('are refused with the reason when they are not cassettes: %s', (text, reason) => {
    expect(parseCassette(text)).toBe(reason);
  });
});
