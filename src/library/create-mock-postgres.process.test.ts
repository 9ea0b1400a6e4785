/**
 * `createMock({ store: 'postgres://…' })`, the library's way to the PostgreSQL store, on a real
 * PostgreSQL server from Debian's packages: two mocks in one process naming the same database
 * share one state, as two replicas do; a database that cannot be used rejects with one sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, StoreStartError, type MockInstance } from '../index.js';
import { ROOT } from '../test-support/petstore.js';
import { freePort } from '../test-support/processes.js';
import { startPostgres, type RunningPostgres } from '../test-support/postgres.js';

const AUTH = { Authorization: 'Bearer petstore-demo-key', 'Content-Type': 'application/json' };

describe('createMock with a PostgreSQL store', () => {
  let server: RunningPostgres;
  const mocks: MockInstance[] = [];
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(mocks.map((mock) => mock.close()));
    await server?.stop();
  });

  it('shares one state between two mocks naming the same database and namespace, and keeps another namespace apart', async () => {
    const url = await server.createDatabase('library');
    const [one, two] = [await createMock({ store: url }), await createMock({ store: url })];
    const other = await createMock({ store: url, storeNamespace: 'other' });
    mocks.push(one, two, other);
    const created = await one.fetch('/pets', { method: 'POST', headers: AUTH, body: JSON.stringify({ name: 'Shared', categoryId: 1 }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const read = await two.fetch(`/pets?id=${id}`, { headers: AUTH });
    expect(await read.json()).toEqual([expect.objectContaining({ id, name: 'Shared' })]);
    // The same seed in the other namespace: the pet made in the first is not there, and its id is free.
    expect(await (await other.fetch(`/pets?id=${id}`, { headers: AUTH })).json()).toEqual([]);
    const health = (await (await one.fetch('/__health')).json()) as { status: string; persistence: { enabled: boolean; ok: boolean } };
    expect(health).toMatchObject({ status: 'ok', persistence: { enabled: true, ok: true } });
  });

  it('refuses, in one sentence, a namespace that holds the state of another document', async () => {
    const url = await server.createDatabase('two_documents');
    mocks.push(await createMock({ store: url, storeNamespace: 'petstore' }));
    const other = createMock({ spec: `${ROOT}test/documents/numbered-api.yaml`, store: url, storeNamespace: 'petstore' });
    await expect(other).rejects.toThrow(
      'The namespace "petstore" of this database holds the state of another document (collections pets, categories, orders, inventory; this one has projects, issues, comments); give this one a namespace of its own (--store-namespace).',
    );
    // Under a namespace of its own, it starts.
    mocks.push(await createMock({ spec: `${ROOT}test/documents/numbered-api.yaml`, store: url, storeNamespace: 'numbered' }));
  });

  it('rejects with one sentence, and no password, when the database cannot be reached', async () => {
    const port = await freePort();
    const refused = createMock({ store: `postgres://mock:secret-word@127.0.0.1:${port}/mock` });
    await expect(refused).rejects.toBeInstanceOf(StoreStartError);
    const message = ((await refused.catch((error: Error) => error)) as Error).message;
    expect(message).toMatch(new RegExp(`^Cannot use PostgreSQL at postgres://mock:\\*\\*\\*@127\\.0\\.0\\.1:${port}/mock: .+\\.$`));
    expect(message).not.toContain('secret-word');
    expect(message).not.toContain('\n');
  });
});
