import { describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { ROOT } from '../test-support/petstore.js';
import { ContractContext } from './context.js';
import { checkRegistry } from './checks/index.js';
import { missingKey } from './phases/records.js';

const document = await loadDocument(`${ROOT}test/documents/folders-api.yaml`);
const context = () => new ContractContext({ document, baseUrl: 'http://cms.test' }, checkRegistry([]));

describe('the value of a parameter, from the operation itself', () => {
  it('names a field of the operation\'s own records for fields and sort, never one another operation\'s example shows', () => {
    const ctx = context();
    const list = ctx.operations.find((op) => op.id === 'listFolders')!;
    const parameter = (name: string) => list.parameters.find((p) => p.name === name)!;
    for (let draw = 0; draw < 20; draw++) {
      expect(['id', 'name', 'role', 'parent']).toContain(ctx.parameterValue(list, parameter('fields')));
      expect(['id', 'name', 'role', 'parent']).toContain(ctx.parameterValue(list, parameter('sort')));
    }
  });

  it('draws a key no record has from the key\'s schema alone: not a name the document\'s examples give (`authors`)', () => {
    const ctx = context();
    const collections = ctx.collections.find((c) => c.name === 'collections')!;
    const keys = Array.from({ length: 20 }, () => missingKey(ctx, collections));
    expect(keys.filter((key) => ['authors', 'books'].includes(String(key)))).toEqual([]);
    expect(keys.every((key) => typeof key === 'string' && /^[a-z][a-z_]{2,20}$/.test(key))).toBe(true);
  });
});
