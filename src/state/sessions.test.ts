import { describe, expect, it } from 'vitest';
import { AUTH, petstore } from '../test-support/petstore.js';

describe('sessions (X-Mock-Session)', () => {
  it('gives each session its own copy of the seeded state, invisible to the others and to the shared state', async () => {
    const { call, store } = await petstore();
    const alice = { 'X-Mock-Session': 'alice' };
    const created = await call('POST', '/pets', { name: 'OnlyAlice', categoryId: 1 }, alice);
    expect(created.body.id).toBe(21);
    expect((await call('GET', '/pets?id=21', undefined, alice)).body).toHaveLength(1);
    expect((await call('GET', '/pets?id=21', undefined, { 'X-Mock-Session': 'bob' })).body).toEqual([]);
    expect((await call('GET', '/pets?id=21')).body).toEqual([]);
    expect(store.collection('pets').size).toBe(20);
  });

  it('starts every session from the same seeded data as the shared state', async () => {
    const { call } = await petstore();
    const shared = (await call('GET', '/pets?limit=100')).body;
    expect((await call('GET', '/pets?limit=100', undefined, { 'X-Mock-Session': 'fresh' })).body).toEqual(shared);
  });

  it('refuses an invalid session name with 400 INVALID_SESSION', async () => {
    const { app } = await petstore();
    const response = await app.request('/pets', { headers: { ...AUTH, 'X-Mock-Session': 'a b/c' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'INVALID_SESSION', status: 400 });
  });

  it('keeps at most maxSessions sessions, dropping the least recently used', async () => {
    const { call, sessions } = await petstore({ maxSessions: 2 });
    await call('POST', '/pets', { name: 'A', categoryId: 1 }, { 'X-Mock-Session': 'a' });
    await call('GET', '/pets', undefined, { 'X-Mock-Session': 'b' });
    await call('GET', '/pets', undefined, { 'X-Mock-Session': 'a' }); // a is now the most recent
    await call('GET', '/pets', undefined, { 'X-Mock-Session': 'c' }); // b goes
    expect(sessions.names()).toEqual(['a', 'c']);
    expect((await call('GET', '/pets?id=21', undefined, { 'X-Mock-Session': 'a' })).body).toHaveLength(1);
  });
});
