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

describe('imports (PUT /__admin/state)', () => {
  const admin = { 'Content-Type': 'application/json' };
  const categories = (n: number, description = '') => ({
    format: 'petstore-mock-kit/state@1',
    collections: { categories: { nextInteger: n + 1, scopes: { '': Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `c${i + 1}`, ...(description && { description }) })) } } },
  });
  const put = (mock: Awaited<ReturnType<typeof petstore>>, state: unknown, headers: Record<string, string> = {}) =>
    mock.app.request('/__admin/state', { method: 'PUT', headers: { ...admin, ...headers }, body: JSON.stringify(state) });
  const exported = async (mock: Awaited<ReturnType<typeof petstore>>, headers: Record<string, string> = {}) => (await mock.app.request('/__admin/state', { headers })).json();

  it('refuses one with more records than --max-records whole, with 507 and nothing applied', async () => {
    const mock = await petstore({ limits: { maxRecords: 1000 } });
    const before = await exported(mock);
    const refused = await put(mock, categories(1001));
    const body = (await refused.json()) as { code: string; message: string; status: number };
    expect([refused.status, body.code, body.status]).toEqual([507, 'STORAGE_FULL', 507]);
    expect(body.message).toMatch(/^The state was not imported \(nothing changed\): it has 1001 records \([\d.]+ MiB\), and the shared state would then hold \d+ records, more than the mock holds \(--max-records 1000\)\.$/);
    expect(await exported(mock)).toEqual(before);
    expect((await put(mock, categories(900))).status).toBe(200); // it replaces the categories: what it leaves fits
    expect(mock.store.counts().categories).toBe(900);
  });

  it('refuses one past --max-state-mb whole, with 507 and nothing applied', async () => {
    const mock = await petstore({ limits: { maxBytes: 100_000 } });
    const before = await exported(mock);
    const refused = await put(mock, categories(300, 'x'.repeat(490)));
    const body = (await refused.json()) as { code: string; message: string };
    expect([refused.status, body.code]).toEqual([507, 'STORAGE_FULL']);
    expect(body.message).toMatch(/it has 300 records \([\d.]+ MiB\), and the shared state would then hold [\d.]+ MiB of records, more than the mock holds \(--max-state-mb 0\)/);
    expect(await exported(mock)).toEqual(before);
  });

  it("refuses one into a session past the sessions' share, and leaves the session as it was", async () => {
    const mock = await petstore({ counts: { default: 0 }, fixtures: {}, limits: { maxRecords: 100 } });
    const session = { 'X-Mock-Session': 'big' };
    expect((await put(mock, categories(40), session)).status).toBe(200);
    const other = { ...json, 'X-Mock-Session': 'other' };
    for (let i = 0; i < 5; i++) expect((await mock.app.request('/categories', { method: 'POST', headers: other, body: JSON.stringify({ name: 'n' }) })).status).toBe(201);
    const refused = await put(mock, categories(51), session);
    expect(refused.status).toBe(507);
    expect(((await refused.json()) as { message: string }).message).toMatch(/it has 51 records .*, and for this session sessions would hold 51 records, more than their share \(50, half of --max-records 100\)/);
    expect(((await exported(mock, session)) as { collections: { categories: { scopes: { '': unknown[] } } } }).collections.categories.scopes[''].length).toBe(40);
    expect(mock.sessions.names()).toEqual(['other', 'big']); // nobody dropped for an import refused anyway
  });
});

describe("sessions' share of the bound", () => {
  const post = (mock: Awaited<ReturnType<typeof petstore>>, session?: string) =>
    mock.app.request('/categories', { method: 'POST', headers: { ...json, ...(session && { 'X-Mock-Session': session }) }, body: JSON.stringify({ name: 'n' }) });

  it('drops the least recently used other session when a session write would pass it, and never takes the shared state\'s room', async () => {
    const warnings: string[] = [];
    // Nothing seeded: 40 records at most, 20 of them for sessions together.
    const mock = await petstore({ counts: { default: 0 }, fixtures: {}, limits: { maxRecords: 40 }, onWarning: (w) => warnings.push(w) });
    for (const name of ['s1', 's2', 's3', 's4']) for (let i = 0; i < 5; i++) expect((await post(mock, name)).status).toBe(201);
    expect(mock.budget.sessions.records).toBe(20);
    expect((await post(mock, 's5')).status).toBe(201); // s1, the least recently used, makes room
    expect(warnings).toEqual([expect.stringMatching(/^session s1 was evicted \(sessions together hold at most 20 records and [\d.]+ MiB, half of --max-records and --max-state-mb; least recently used first\)/)]);
    expect(await (await mock.app.request('/__admin/sessions')).json()).toEqual({ max: 100, active: ['s2', 's3', 's4', 's5'], evicted: ['s1'] });
    const back = await mock.app.request('/categories', { headers: { ...AUTH, 'X-Mock-Session': 's1' } });
    expect([back.status, back.headers.get(SESSION_RESTARTED_HEADER), await back.json()]).toEqual([200, 'evicted', []]);
    // The shared state keeps its room: all 40 records, sessions dropped as it needs them.
    for (let i = 0; i < 40; i++) expect((await post(mock)).status).toBe(201);
    expect(mock.store.counts().categories).toBe(40);
    expect(mock.sessions.names()).toEqual(['s1']); // it holds nothing of its own: dropping it would give no room
    expect(mock.sessions.evictedNames()).toEqual(['s2', 's3', 's4', 's5']);
    expect((await post(mock)).status).toBe(507); // its own records only
    expect((await post(mock, 's1')).status).toBe(507); // and sessions cannot take the shared state's room either
  });

  it('refuses with 507 a session that alone would pass its share, while shared writes go on', async () => {
    const mock = await petstore({ counts: { default: 0 }, fixtures: {}, limits: { maxRecords: 40 } });
    for (let i = 0; i < 20; i++) expect((await post(mock, 'greedy')).status).toBe(201);
    const refused = await post(mock, 'greedy');
    const body = (await refused.json()) as { code: string; message: string };
    expect([refused.status, body.code]).toEqual([507, 'STORAGE_FULL']);
    expect(body.message).toMatch(/sessions would hold 21 records, more than their share \(20, half of --max-records 40\)/);
    expect((await post(mock)).status).toBe(201);
    expect(mock.sessions.names()).toEqual(['greedy']); // kept: refused, not dropped
  });

  it('refuses a session with 507 when the seeded copy it would read does not fit in the share', async () => {
    const mock = await petstore({ limits: { maxRecords: 100 } }); // about 70 records seeded: more than the 50 of the share
    const refused = await mock.app.request('/pets', { headers: { ...AUTH, 'X-Mock-Session': 'a' } });
    const body = (await refused.json()) as { code: string; message: string };
    expect([refused.status, body.code]).toEqual([507, 'STORAGE_FULL']);
    expect(body.message).toMatch(/^No session can be started: it reads a copy of the seeded state \(\d+ records, [\d.]+ MiB\), and sessions would hold \d+ records, more than their share \(50, half of --max-records 100\)\.$/);
    expect((await mock.app.request('/pets')).status).toBe(401); // (no key) the shared state answers as ever
    expect((await post(mock)).status).toBe(201);
  });

  it('drops sessions to make room for an import into the shared state', async () => {
    const mock = await petstore({ counts: { default: 0 }, fixtures: {}, limits: { maxRecords: 40 } });
    for (let i = 0; i < 10; i++) expect((await post(mock, 'a')).status).toBe(201);
    const state = { format: 'petstore-mock-kit/state@1', collections: { categories: { nextInteger: 41, scopes: { '': Array.from({ length: 40 }, (_, i) => ({ id: i + 1, name: `c${i + 1}` })) } } } };
    const imported = await mock.app.request('/__admin/state', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(state) });
    expect(imported.status).toBe(200);
    expect([mock.store.counts().categories, mock.sessions.evictedNames()]).toEqual([40, ['a']]);
  });

  it('counts the seeded copy sessions read, and the copy a first write makes, in their share', async () => {
    const mock = await petstore({ limits: { maxRecords: 300 } }); // about 70 records seeded
    const seeded = mock.budget.records;
    expect(seeded).toBeGreaterThan(50);
    expect(seeded).toBeLessThan(150);
    expect((await post(mock, 'a')).status).toBe(201); // the seeded copy, a copy of the categories and one more
    expect(mock.budget.sessions.records).toBe(seeded + mock.store.counts().categories + 1);
  });
});

describe('the state a mock starts with', () => {
  it('refuses fixtures past --max-records at start, in a sentence', async () => {
    const categories = Array.from({ length: 11 }, (_, i) => ({ id: i + 1, name: `c${i + 1}` }));
    await expect(petstore({ counts: { default: 0 }, fixtures: { categories }, limits: { maxRecords: 10 } })).rejects.toThrow(
      'The fixtures hold 11 records, more than the mock holds (--max-records 10).',
    );
  });

  it('refuses a seed past --max-state-mb at start, in a sentence', async () => {
    await expect(petstore({ counts: { default: 50 }, limits: { maxBytes: 10_000 } })).rejects.toThrow(/^The seeded state \(fixtures and generated records\) holds [\d.]+ MiB of records, more than the mock holds \(--max-state-mb 0\)\.$/);
  });
});
