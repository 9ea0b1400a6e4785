/**
 * The values the docs page's try-it panel starts from, read from the mock's records: each names a
 * record that exists, a delete is given a record it can take, and a nested record comes with the
 * keys of the records it is under. Each is checked by sending the request the page would.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { caller, CORPUS, petstore } from '../../test-support/petstore.js';
import { tryItValues } from './try-it-values.js';

/** The path with the values in it: `/pets/{petId}` -> `/pets/4`. */
function filled(path: string, values: Record<string, unknown> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (whole, name: string) => (name in values ? encodeURIComponent(String(values[name])) : whole));
}

describe('tryItValues', () => {
  it('gives every Petstore operation under a record real keys, and each reference a real record', async () => {
    const mock = await petstore();
    const values = tryItValues(mock.operations, mock.collections, mock.store);
    expect(Object.keys(values.parameters).sort()).toEqual(mock.operations.filter((op) => op.path.includes('{')).map((op) => `${op.method} ${op.path}`).sort());
    for (const op of mock.operations.filter((o) => o.method === 'get' && o.path.includes('{'))) {
      const { status } = await mock.call('GET', filled(op.path, values.parameters[`get ${op.path}`]));
      expect(status, op.path).toBe(200);
    }
    expect(values.references).toEqual({ categoryId: 1, petId: 1 });
    expect((await mock.call('POST', '/store/orders', { petId: values.references.petId, quantity: 1 })).status).toBe(201);
  });

  it('gives a delete a record nothing refers to: a pet without orders; a category only once no pet is in it', async () => {
    const mock = await petstore();
    const values = () => tryItValues(mock.operations, mock.collections, mock.store).parameters;
    const petId = values()['delete /pets/{petId}'].petId;
    expect((await mock.call('GET', `/store/orders?petId=${petId}`)).body).toEqual([]);
    // Every seeded category holds pets (the seed has none a delete can take): the first is given.
    expect(values()['delete /categories/{categoryId}']).toEqual({ categoryId: 1 });
    for (const pet of (await mock.call('GET', '/pets?categoryId=6&limit=100')).body) await mock.call('PATCH', `/pets/${pet.id}`, { categoryId: 1 });
    expect(values()['delete /categories/{categoryId}']).toEqual({ categoryId: 6 });
    expect((await mock.call('DELETE', '/categories/6')).status).toBe(204);
    expect((await mock.call('DELETE', `/pets/${petId}`)).status).toBe(204);
    // Other operations keep the first record.
    expect(values()['get /pets/{petId}']).toEqual({ petId: 1 });
  });

  it('gives a nested record with the key of the record it is under, and nothing for an empty collection', async () => {
    const mock = buildMock(await loadDocument(join(CORPUS, 'apisguru-1password-connect.yaml')));
    const call = caller(mock);
    const { parameters } = tryItValues(mock.operations, mock.collections, mock.store);
    const item = parameters['get /vaults/{vaultUuid}/items/{itemUuid}'];
    expect(Object.keys(item)).toEqual(['vaultUuid', 'itemUuid']);
    expect((await call('GET', `${filled('/vaults/{vaultUuid}/items/{itemUuid}', item)}`, undefined, { Authorization: `Bearer ${DEMO_API_KEY}` })).status).toBe(200);

    for (const collection of mock.collections) mock.store.collection(collection.name).clear();
    expect(tryItValues(mock.operations, mock.collections, mock.store)).toEqual({ parameters: {}, references: {} });
  });
});
