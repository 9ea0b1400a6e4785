import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/api-error.js';
import { applyPatch, patchKindOf } from './patch.js';

const record = { id: 1, name: 'Ada', tags: ['a', 'b'], address: { city: 'London', zip: 'N1' } };
const writable = new Set(['name', 'tags', 'address', 'email']);

describe('patches by media type', () => {
  it('tells the kind from the declared media type', () => {
    expect([patchKindOf('application/merge-patch+json'), patchKindOf('application/json-patch+json; charset=utf-8'), patchKindOf('application/json'), patchKindOf(undefined)]).toEqual([
      'merge-patch',
      'json-patch',
      'fields',
      'fields',
    ]);
  });

  it('merge-patch: null removes, objects merge recursively, arrays are replaced, the key is not writable (RFC 7396)', () => {
    expect(applyPatch('merge-patch', record, { name: null, address: { zip: null, street: 'Main' }, tags: ['c'], id: 9 }, writable)).toEqual({
      id: 1,
      tags: ['c'],
      address: { city: 'London', street: 'Main' },
    });
    expect(record.address).toEqual({ city: 'London', zip: 'N1' }); // the stored record is not touched
  });

  it('fields: a shallow merge, a null kept as a value', () => {
    expect(applyPatch('fields', record, { address: { city: 'Paris' }, email: null }, writable)).toEqual({ ...record, address: { city: 'Paris' }, email: null });
  });

  it('JSON Patch: applies add, remove, replace, move, copy and test in order (RFC 6902)', () => {
    const patched = applyPatch(
      'json-patch',
      record,
      [
        { op: 'test', path: '/name', value: 'Ada' },
        { op: 'add', path: '/tags/-', value: 'c' },
        { op: 'remove', path: '/tags/0' },
        { op: 'replace', path: '/address/city', value: 'Paris' },
        { op: 'copy', from: '/address/zip', path: '/email' },
        { op: 'move', from: '/email', path: '/name' },
      ],
      writable,
    );
    expect(patched).toEqual({ id: 1, name: 'N1', tags: ['b', 'c'], address: { city: 'Paris', zip: 'N1' } });
  });

  it('JSON Patch: refuses a failed test (409), a field the request may not write and a malformed operation (400), changing nothing', () => {
    const failed = applyPatch('json-patch', record, [{ op: 'replace', path: '/name', value: 'X' }, { op: 'test', path: '/name', value: 'Ada' }], writable);
    expect(failed).toMatchObject({ status: 409, code: 'PATCH_FAILED' });
    expect(applyPatch('json-patch', record, [{ op: 'replace', path: '/id', value: 2 }], writable)).toMatchObject({ status: 400 });
    expect(applyPatch('json-patch', record, [{ op: 'rename', path: '/name' }], writable)).toBeInstanceOf(ApiError);
    expect(applyPatch('json-patch', record, { op: 'add' }, writable)).toBeInstanceOf(ApiError);
    expect(applyPatch('json-patch', record, [{ op: 'remove', path: '/nope' }], new Set(['nope']))).toMatchObject({ status: 409 });
    expect(record.name).toBe('Ada');
  });
});
