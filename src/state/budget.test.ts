import { describe, expect, it } from 'vitest';
import { AUTH, petstore } from '../test-support/petstore.js';
import { SESSION_RESTARTED_HEADER } from './sessions.js';

const json = { ...AUTH, 'Content-Type': 'application/json' };

describe('bounded state', () => {
  it('refuses a create past the record limit with 507 and an Error, and takes one again after a delete', async () => {
    const mock = await petstore({ counts: { default: 0 }, fixtures: {}, limits: { maxRecords: 3 } });
    const post = (name: string) => mock.app.request('/categories', { method: 'POST', headers: json, body: JSON.stringify({ name }) });
    for (const name of ['a', 'b', 'c']) expect((await post(name)).status).toBe(201);
    const refused = await post('d');
    const body = (await refused.json()) as { code: string; message: string; status: number };
    expect([refused.status, body.code, body.status]).toEqual([507, 'STORAGE_FULL', 507]);
    expect(body.message).toMatch(/holds 3 records, its limit \(--max-records 3\)/);
    expect((await mock.app.request('/categories/1', { method: 'DELETE', headers: AUTH })).status).toBe(204);
    expect((await post('d')).status).toBe(201);
  });

  it('counts the size of the records held, and refuses once it passes the bound', async () => {
    const mock = await petstore({ counts: { default: 0 }, fixtures: {}, limits: { maxBytes: 1000 } });
    const post = () => mock.app.request('/categories', { method: 'POST', headers: json, body: JSON.stringify({ name: 'n', description: 'x'.repeat(200) }) });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post()).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 507]);
  });

  it('refuses writes when the heap guard says the process is close to its limit', async () => {
    let pressure = false;
    const mock = await petstore({ counts: { default: 0 }, limits: { heapPressure: () => pressure } });
    const post = () => mock.app.request('/categories', { method: 'POST', headers: json, body: JSON.stringify({ name: 'n' }) });
    expect((await post()).status).toBe(201);
    pressure = true;
    const refused = await post();
    expect([refused.status, ((await refused.json()) as { message: string }).message]).toEqual([507, expect.stringContaining('close to its memory limit')]);
  });
});

describe('sessions', () => {
  it('share the seeded state until they write, then copy only what they change, counted in the same bound', async () => {
    const mock = await petstore({ counts: { default: 50 } });
    const before = mock.budget.records;
    const session = { ...json, 'X-Mock-Session': 'demo' };
    expect((await mock.app.request('/pets?limit=5', { headers: session })).status).toBe(200);
    const template = mock.budget.records - before; // the one pristine copy every session reads
    expect((await mock.app.request('/pets?limit=5', { headers: { ...session, 'X-Mock-Session': 'other' } })).status).toBe(200);
    expect(mock.budget.records - before).toBe(template); // a second session costs nothing until it writes
    expect((await mock.app.request('/categories', { method: 'POST', headers: session, body: JSON.stringify({ name: 'Mine' }) })).status).toBe(201);
    const categories = mock.store.counts().categories;
    expect(mock.budget.records - before).toBe(template + categories + 1); // its copy of categories, with the new one
    await expect((await mock.app.request('/categories?limit=100', { headers: { ...session, 'X-Mock-Session': 'other' } })).json()).resolves.toHaveLength(categories);
    await mock.app.request('/__admin/reset', { method: 'POST', headers: { 'X-Mock-Session': 'demo', 'Content-Type': 'application/json' } });
    expect(mock.budget.records - before).toBe(template); // the dropped session's copy is given back
  });

  it('tell a client whose session was evicted that it starts again from the seed, once', async () => {
    const warnings: string[] = [];
    const mock = await petstore({ maxSessions: 2, onWarning: (w) => warnings.push(w) });
    const get = (name: string) => mock.app.request('/pets?limit=1', { headers: { ...AUTH, 'X-Mock-Session': name } });
    for (const name of ['a', 'b', 'c']) expect((await get(name)).headers.get(SESSION_RESTARTED_HEADER)).toBeNull();
    expect(warnings).toEqual([expect.stringMatching(/^session a was evicted \(2 sessions at most/)]);
    expect((await get('a')).headers.get(SESSION_RESTARTED_HEADER)).toBe('evicted');
    expect((await get('a')).headers.get(SESSION_RESTARTED_HEADER)).toBeNull();
    expect(mock.sessions.evictedNames()).toEqual(['b']);
    const view = await mock.app.request('/__admin/sessions');
    expect(await view.json()).toEqual({ max: 2, active: ['c', 'a'], evicted: ['b'] });
  });
});

describe('the admin seed', () => {
  it('refuses counts past the bound before seeding anything', async () => {
    const mock = await petstore({ limits: { maxRecords: 1000 } });
    const before = mock.store.counts();
    const seed = (counts: Record<string, number>) =>
      mock.app.request('/__admin/seed', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ counts }) });
    const refused = await seed({ pets: 1_000_000 });
    expect([refused.status, ((await refused.json()) as { message: string }).message]).toEqual([507, expect.stringMatching(/ask for \d+ records, more than the mock holds \(--max-records 1000\)/)]);
    expect(mock.store.counts()).toEqual(before);
    expect((await seed({ pets: 100 })).status).toBe(200);
    expect(mock.store.counts().pets).toBe(100);
  });
});
