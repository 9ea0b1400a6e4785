import { describe, expect, it } from 'vitest';
import { petstore } from '../../test-support/petstore.js';

describe('CRUD inferred from the document', () => {
  it('creates a pet with a fresh id and a Location, reads it back, finds it in the list', async () => {
    const { call } = await petstore();
    const created = await call('POST', '/pets', { name: 'Rex', categoryId: 1 });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 21, name: 'Rex', categoryId: 1, status: 'available' });
    expect(created.headers.get('Location')).toBe('/pets/21');
    expect((await call('GET', '/pets/21')).body).toEqual(created.body);
    const list = await call('GET', '/pets?id=21');
    expect(list.body).toEqual([created.body]);
  });

  it('never reuses an id, even after a delete', async () => {
    const { call } = await petstore();
    const first = await call('POST', '/categories', { name: 'Rabbits' });
    expect((await call('DELETE', `/categories/${first.body.id}`)).status).toBe(204);
    const second = await call('POST', '/categories', { name: 'Ferrets' });
    expect(second.body.id).toBe(first.body.id + 1);
  });

  it('replaces every field with PUT, removing the ones left out', async () => {
    const { call } = await petstore();
    expect((await call('GET', '/categories/2')).body.description).toBeDefined();
    const { body } = await call('PUT', '/categories/2', { name: 'Felines' });
    expect(body).toEqual({ id: 2, name: 'Felines' });
    expect((await call('GET', '/categories/2')).body).toEqual(body);
    const pet = (await call('PUT', '/pets/2', { name: 'Whiskers', categoryId: 2 })).body;
    expect(pet).toEqual({ id: 2, name: 'Whiskers', categoryId: 2, status: 'available' }); // status left out: the default again
  });

  it('merges only the fields sent with PATCH', async () => {
    const { call } = await petstore();
    const before = (await call('GET', '/pets/3')).body;
    const { status, body } = await call('PATCH', '/pets/3', { name: 'Sleepy' });
    expect(status).toBe(200);
    expect(body).toEqual({ ...before, name: 'Sleepy' });
    expect((await call('PATCH', '/pets/3', {})).status).toBe(400); // minProperties: 1
  });

  it('deletes with 204, then reads, updates and deletes give 404 with an Error', async () => {
    const { call } = await petstore();
    const { body } = await call('POST', '/categories', { name: 'Insects' });
    expect((await call('DELETE', `/categories/${body.id}`)).status).toBe(204);
    for (const [method, payload] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
      const response = await call(method, `/categories/${body.id}`, payload);
      expect(response.status, method).toBe(404);
      expect(response.body).toEqual({ code: 'NOT_FOUND', message: `No category has id ${body.id}.`, status: 404 });
    }
  });

  it('lists in id order, a page at a time, with X-Total-Count and Link', async () => {
    const { call } = await petstore();
    const first = await call('GET', '/pets?limit=5');
    expect(first.body.map((p: { id: number }) => p.id)).toEqual([1, 2, 3, 4, 5]);
    expect(first.headers.get('X-Total-Count')).toBe('20');
    expect(first.headers.get('Link')).toBe('</pets?limit=5&offset=5>; rel="next"');
    const last = await call('GET', '/pets?limit=5&offset=15');
    expect(last.body.map((p: { id: number }) => p.id)).toEqual([16, 17, 18, 19, 20]);
    expect(last.headers.get('Link')).toBe('</pets?limit=5&offset=10>; rel="prev"');
    expect((await call('GET', '/pets?offset=40')).body).toEqual([]);
  });

  it('uses the default page size of the document (20)', async () => {
    const { call } = await petstore({ counts: { pets: 30 } });
    const page = await call('GET', '/pets');
    expect(page.body).toHaveLength(20);
    expect(page.headers.get('X-Total-Count')).toBe('30');
  });

  it('filters by every declared filter, a repeated filter matching any of its values', async () => {
    const { call, store } = await petstore({ counts: { pets: 60 } });
    const pets = [...store.collection('pets').all()];
    const expectIds = async (query: string, predicate: (p: Record<string, unknown>) => boolean) => {
      const { body, headers } = await call('GET', `/pets?limit=100&${query}`);
      const expected = pets.filter(predicate).map((p) => p.id);
      expect(expected.length, query).toBeGreaterThan(0);
      expect(body.map((p: { id: number }) => p.id), query).toEqual(expected);
      expect(headers.get('X-Total-Count')).toBe(String(expected.length));
    };
    await expectIds('status=sold', (p) => p.status === 'sold');
    await expectIds('status=sold&status=pending', (p) => p.status === 'sold' || p.status === 'pending');
    await expectIds('categoryId=2', (p) => p.categoryId === 2);
    await expectIds('categoryId=2&status=available', (p) => p.categoryId === 2 && p.status === 'available');
    await expectIds('id=3&id=7', (p) => p.id === 3 || p.id === 7);
  });

  it('gives an empty page, not an error, when nothing matches', async () => {
    const { call } = await petstore();
    const { body: category } = await call('POST', '/categories', { name: 'Unicorns' });
    const { status, body, headers } = await call('GET', `/pets?categoryId=${category.id}`);
    expect([status, body, headers.get('X-Total-Count')]).toEqual([200, [], '0']);
  });

  it('keeps a key the client chooses, refuses one already taken with 409, and gives a Location without a doubled slash', async () => {
    const { buildMock } = await import('../app.js');
    const { loadDocument } = await import('../../openapi/document/load-document.js');
    const { ROOT } = await import('../../test-support/petstore.js');
    const mock = buildMock(await loadDocument(`${ROOT}test/documents/projects-api.yaml`), { counts: { default: 0 } });
    const post = (body: unknown) => mock.app.request('/projects/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const created = await post({ key: 'ANYDOC', name: 'Any document' });
    expect([created.status, created.headers.get('Location'), await created.json()]).toEqual([201, '/projects/ANYDOC', { key: 'ANYDOC', name: 'Any document' }]);
    expect((await mock.app.request('/projects/ANYDOC')).status).toBe(200);
    const again = await post({ key: 'ANYDOC', name: 'Another' });
    expect([again.status, await again.text()]).toEqual([409, '']); // the document declares its 409 without a body
    expect(((await (await mock.app.request('/projects/ANYDOC')).json()) as { name: string }).name).toBe('Any document');
  });
});
