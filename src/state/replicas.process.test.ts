/**
 * Replicas of the built CLI (dist/cli.js: `npm run build` first) sharing their state in one real
 * PostgreSQL (src/test-support/postgres.ts), behind the round-robin balancer of
 * examples/balancer.mjs, as replicas are run on one machine. What the store promises (postgres-store.ts)
 * is checked from outside, over HTTP: a replica started after another loads what that one wrote;
 * concurrent creates through both get distinct ids and are read back through each; concurrent
 * orders never sell more than the stock; a replica killed with SIGKILL loses no write it
 * acknowledged; a database lost while serving is answered with 503 and found again by itself,
 * losing nothing acknowledged; a database that cannot be reached stops the start in one line that
 * shows no password; the admin API's reset and import through one replica are what the other
 * serves.
 *
 * Each test has a database of its own (`createDatabase`), so no test depends on what another left.
 * Waits are bounded loops on a condition, never sleeps; counts are bounded and stay on loopback.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../core/package-root.js';
import { startPostgres, type RunningPostgres } from '../test-support/postgres.js';
import { freePort, runCli, startCli, startProcess, type StartedProcess } from '../test-support/processes.js';
import { until } from '../test-support/until.js';

const AUTH = { Authorization: 'Bearer petstore-demo-key' };
const JSON_AUTH = { ...AUTH, 'Content-Type': 'application/json' };
const BALANCER = join(PACKAGE_ROOT, 'examples/balancer.mjs');

let postgres: RunningPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.stop());

/** The processes a test started, killed after it (after-each-file.ts would, later): their connections and their CPU freed for the next test. */
const children: StartedProcess['child'][] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill('SIGKILL')));

let databases = 0;
/** A database of the test's own, in the file's PostgreSQL. */
const freshDatabase = () => postgres.createDatabase(`replicas_${++databases}`);

/** A replica: the CLI keeping its state in `store` under the namespace given. */
async function replica(store: string, namespace = 'shared', more: string[] = []) {
  const started = await startCli(['--store', store, '--store-namespace', namespace, ...more]);
  children.push(started.child);
  return started;
}

/** The round-robin balancer of examples/balancer.mjs in front of the replicas given, on a free port. */
async function balancer(...upstreams: string[]) {
  const started = await startProcess(process.execPath, [BALANCER, '0', ...upstreams], /balancing http:\/\/\S+ over/);
  children.push(started.child);
  return { ...started, url: /balancing (http:\/\/\S+) over/.exec(started.output())![1] };
}

/** Runs `task` for 0..count-1 with at most `concurrency` under way at once (each worker keeps its connection). */
async function inParallel<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

interface Answer {
  status: number;
  retryAfter: string | null;
  body: any;
}

/** One request, answered: the status, Retry-After and the JSON body (null when there is none). */
async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { ...init, headers: { ...JSON_AUTH, ...(init.headers as Record<string, string>) } });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('Retry-After'), body: text ? JSON.parse(text) : null };
}

const createPet = (base: string, name: string) => call(`${base}/pets`, { method: 'POST', body: JSON.stringify({ name, categoryId: 1, status: 'available' }) });
const getPet = (base: string, id: number) => call(`${base}/pets/${id}`);

/** The whole state as the admin API exports it (loopback). */
async function stateOf(base: string): Promise<{ format: string; collections: Record<string, { scopes: Record<string, Array<Record<string, unknown>>> }> }> {
  const answer = await call(`${base}/__admin/state`);
  expect(answer.status).toBe(200);
  return answer.body;
}

const petsIn = async (base: string) => (await stateOf(base)).collections.pets.scopes[''] as Array<{ id: number; name: string }>;

/** The acknowledged pets that `base` does not return with their name (GET /pets/{id}): what was lost. */
async function lostThrough(base: string, acknowledged: ReadonlyArray<{ id: number; name: string }>): Promise<number[]> {
  const read = await inParallel(acknowledged.length, 50, (i) => getPet(base, acknowledged[i].id));
  return acknowledged.filter((pet, i) => read[i].status !== 200 || read[i].body.name !== pet.name).map((pet) => pet.id);
}

/** The refusal of a store that cannot be used: 503, Retry-After, the document's error shape. */
function expectStoreUnavailable(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(answer.retryAfter).toBe('1');
  expect(answer.body).toEqual({ status: 503, code: 'STORE_UNAVAILABLE', message: expect.stringContaining('PostgreSQL') });
}

describe('replicas sharing their state in PostgreSQL, behind a balancer', () => {
  it('the second replica loads what the first seeded and wrote; a pet created through one is read through the other', async () => {
    const store = await freshDatabase();
    const a = await replica(store);
    expect(a.banner).toMatch(/records\s+pets 20, categories 6, orders 20, inventory 20 \(seed 1\)/);
    expect(a.banner).toMatch(/state\s+PostgreSQL postgres:\/\/postgres@127\.0\.0\.1:\d+\/replicas_\d+, namespace shared/);
    const early = await createPet(a.url, 'Written before B started');
    expect(early.status).toBe(201);

    // B finds the namespace seeded and loads it: its banner says so, and counts the pet A wrote (a seed of its own would count 20).
    const b = await replica(store);
    expect(b.banner).toMatch(/records\s+pets 21, categories 6, orders 20, inventory 21 \(loaded from PostgreSQL, namespace shared, seeded there by another replica\)/);
    expect(await getPet(b.url, early.body.id)).toMatchObject({ status: 200, body: { id: early.body.id, name: 'Written before B started' } });
    const listA = await call(`${a.url}/pets?limit=100`);
    expect(listA.status).toBe(200);
    expect(listA.body).toHaveLength(21);
    expect(await call(`${b.url}/pets?limit=100`)).toEqual(listA);

    // Written through B, read through A, directly; and through the balancer, read through both.
    const fromB = await createPet(b.url, 'Written through B');
    expect(fromB.status).toBe(201);
    expect(fromB.body.id).not.toBe(early.body.id);
    expect(await getPet(a.url, fromB.body.id)).toMatchObject({ status: 200, body: { name: 'Written through B' } });
    const lb = await balancer(a.url, b.url);
    const balanced = await Promise.all([createPet(lb.url, 'Balanced 1'), createPet(lb.url, 'Balanced 2')]);
    expect(balanced.map((answer) => answer.status)).toEqual([201, 201]);
    for (const pet of balanced) {
      for (const base of [a.url, b.url]) expect(await getPet(base, pet.body.id)).toMatchObject({ status: 200, body: { name: pet.body.name } });
    }
    expect(await call(`${b.url}/pets?limit=100`)).toEqual(await call(`${a.url}/pets?limit=100`));
  });

  it('2,000 creates from 50 concurrent connections through the balancer get 2,000 distinct ids, each read back through both replicas', async () => {
    const store = await freshDatabase();
    // Started together: both race to seed the namespace; one seeds it, the other loads it.
    const [a, b] = await Promise.all([replica(store), replica(store)]);
    const lb = await balancer(a.url, b.url);

    const created = await inParallel(2000, 50, (i) => createPet(lb.url, `Burst ${i}`));
    expect(created.filter((answer) => answer.status !== 201)).toEqual([]);
    const ids = created.map((answer) => answer.body.id as number);
    expect(new Set(ids).size).toBe(2000);
    const acknowledged = created.map((answer, i) => ({ id: answer.body.id as number, name: `Burst ${i}` }));
    expect(created.every((answer, i) => answer.body.name === `Burst ${i}`)).toBe(true);

    expect(await lostThrough(a.url, acknowledged)).toEqual([]);
    expect(await lostThrough(b.url, acknowledged)).toEqual([]);
    // Both hold the same 2,020 pets, in the same order.
    const [petsA, petsB] = await Promise.all([petsIn(a.url), petsIn(b.url)]);
    expect(petsA).toHaveLength(2020);
    expect(petsB).toEqual(petsA);
  });

  it('500 orders of one unit for a pet with a stock of 100 through the balancer: exactly 100 placed, 400 refused with a declared 409, the stock 0 on both', async () => {
    const store = await freshDatabase();
    const [a, b] = await Promise.all([replica(store), replica(store)]);
    const lb = await balancer(a.url, b.url);
    const pet = await createPet(a.url, 'In demand');
    expect(pet.status).toBe(201);
    const petId = pet.body.id as number;
    expect(await call(`${b.url}/store/inventory/${petId}`, { method: 'PUT', body: JSON.stringify({ quantity: 100 }) })).toMatchObject({ status: 200, body: { petId, quantity: 100, status: 'available' } });

    // All 500 under way at once, alternating between the replicas: the lock of the namespace orders them.
    const answers = await inParallel(500, 500, () => call(`${lb.url}/store/orders`, { method: 'POST', body: JSON.stringify({ petId, quantity: 1 }) }));
    const placed = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    expect(placed).toHaveLength(100);
    expect(new Set(placed.map((answer) => answer.body.id)).size).toBe(100);
    expect(refused).toHaveLength(400);
    // The stock reaches 0 with the 100th order, which makes the pet pending (spec/openapi.yaml, placeOrder):
    // the orders after it are refused as orders of a pet that is not available, the 409 the document declares for them.
    for (const answer of refused) {
      expect(answer.body).toEqual({ status: 409, code: 'PET_NOT_AVAILABLE', message: `Pet ${petId} is pending, not available.` });
    }

    for (const base of [a.url, b.url]) {
      expect(await call(`${base}/store/inventory/${petId}`)).toMatchObject({ status: 200, body: { petId, quantity: 0, status: 'pending' } });
      const orders = await call(`${base}/store/orders?petId=${petId}&limit=100`);
      expect(orders.status).toBe(200);
      expect(orders.body.map((order: { id: number }) => order.id).sort()).toEqual(placed.map((answer) => answer.body.id).sort());
    }
    // One more unit in stock: a single order of 2 is refused for the stock, the other 409 the document declares.
    expect((await call(`${a.url}/store/inventory/${petId}`, { method: 'PUT', body: JSON.stringify({ quantity: 1 }) })).status).toBe(200);
    expect(await call(`${lb.url}/store/orders`, { method: 'POST', body: JSON.stringify({ petId, quantity: 2 }) })).toMatchObject({
      status: 409,
      body: { status: 409, code: 'INSUFFICIENT_STOCK' },
    });
  });

  it('kill -9 of a replica under write load loses no acknowledged create: all are read through the survivor and through a replica started again', async () => {
    const store = await freshDatabase();
    const [victim, survivor] = await Promise.all([replica(store), replica(store)]);
    const lb = await balancer(victim.url, survivor.url);

    const acknowledged: Array<{ id: number; name: string; through: 'victim' | 'balancer' }> = [];
    const unanswered: number[] = [];
    let killed = false;
    let stop = false;
    let issued = 0;
    /** Creates through `base` until told to stop (or, on the victim, once it is killed); at most 3,000 in all. */
    const writer = async (base: string, through: 'victim' | 'balancer') => {
      while (!stop && issued < 3000 && !(through === 'victim' && killed)) {
        const name = `${through} ${issued++}`;
        try {
          const answer = await createPet(base, name);
          if (answer.status === 201) acknowledged.push({ id: answer.body.id, name, through });
          else unanswered.push(answer.status);
        } catch {
          // The victim died with the request under way: not acknowledged, so not counted.
        }
      }
    };
    const writers = [...Array.from({ length: 12 }, () => writer(lb.url, 'balancer')), ...Array.from({ length: 6 }, () => writer(victim.url, 'victim'))];

    await until(() => acknowledged.filter((pet) => pet.through === 'victim').length >= 100, 'creates acknowledged by the victim directly');
    const exited = new Promise((resolve) => victim.child.once('exit', (_code, signal) => resolve(signal)));
    victim.child.kill('SIGKILL');
    killed = true;
    expect(await exited).toBe('SIGKILL');
    const before = acknowledged.length;
    // The balancer goes on, skipping the dead replica: writes keep being acknowledged by the survivor.
    await until(() => acknowledged.length >= before + 100, 'creates acknowledged after the kill');
    stop = true;
    await Promise.all(writers);

    const throughVictim = acknowledged.filter((pet) => pet.through === 'victim').length;
    expect(throughVictim).toBeGreaterThanOrEqual(100);
    expect(new Set(acknowledged.map((pet) => pet.id)).size).toBe(acknowledged.length);
    // The balancer answers 502 for a request the victim had begun to receive when it died; nothing else fails.
    expect(unanswered.filter((status) => status !== 502)).toEqual([]);

    const lost = await lostThrough(survivor.url, acknowledged);
    expect(lost).toHaveLength(0);
    const restarted = await replica(store);
    expect(await lostThrough(restarted.url, acknowledged)).toHaveLength(0);
    expect(await petsIn(restarted.url)).toEqual(await petsIn(survivor.url));
  });

  it('a database that cannot be reached at start stops the CLI in one line, without the password', async () => {
    const port = await freePort();
    const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--store', `postgres://user:secret@127.0.0.1:${port}/db`]);
    expect(code).not.toBe(0);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(new RegExp(`Cannot use PostgreSQL at postgres://user:\\*\\*\\*@127\\.0\\.0\\.1:${port}/db: .*ECONNREFUSED`));
    expect(stdout + stderr).not.toContain('secret');
  });

  it('holds --max-records on the shared total: creates sent at once to both replicas stop at the bound, and both refuse the next with 507', async () => {
    const store = await freshDatabase();
    // The seed holds 66 records (20 pets, 6 categories, 20 orders, 20 inventory items); a pet
    // created adds two (the pet and its inventory item): 100 records leave room for 17 pets.
    const [a, b] = await Promise.all([replica(store, 'shared', ['--max-records', '100']), replica(store, 'shared', ['--max-records', '100'])]);
    const answers = await inParallel(60, 60, (i) => createPet(i % 2 ? b.url : a.url, `Bounded ${i}`));
    const placed = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(placed).toHaveLength(17);
    for (const answer of refused) expect(answer).toMatchObject({ status: 507, body: { status: 507, code: 'STORAGE_FULL' } });
    for (const base of [a.url, b.url]) {
      const state = await stateOf(base);
      const records = Object.values(state.collections).reduce((sum, collection) => sum + Object.values(collection.scopes).reduce((n, list) => n + list.length, 0), 0);
      expect(records, base).toBe(100);
      expect((await createPet(base, 'One more')).status, base).toBe(507);
    }
  });

  it('an admin reset, and an import, through one replica are what the other serves', async () => {
    const store = await freshDatabase();
    const [a, b] = await Promise.all([replica(store), replica(store)]);
    const seeded = await stateOf(a.url);
    expect(await stateOf(b.url)).toEqual(seeded);

    // Changes through both, then a reset through A: B serves the seed again.
    for (const base of [a.url, b.url]) expect((await createPet(base, 'Before the reset')).status).toBe(201);
    expect((await call(`${a.url}/store/inventory/1`, { method: 'PUT', body: JSON.stringify({ quantity: 99_999 }) })).status).toBe(200);
    expect(await stateOf(b.url)).not.toEqual(seeded);
    const reset = await call(`${a.url}/__admin/reset`, { method: 'POST' });
    expect(reset).toMatchObject({ status: 200, body: { reset: 'shared' } });
    const afterReset = await stateOf(a.url);
    expect(await stateOf(b.url)).toEqual(afterReset);
    expect(afterReset.collections.pets.scopes[''].map((pet) => pet.name)).toEqual(seeded.collections.pets.scopes[''].map((pet) => pet.name));

    // An import through B (three pets, renamed): A serves exactly it.
    const imported = structuredClone(afterReset);
    imported.collections.pets.scopes[''] = imported.collections.pets.scopes[''].slice(0, 3).map((pet) => ({ ...pet, name: `Imported ${String(pet.id)}` }));
    const put = await call(`${b.url}/__admin/state`, { method: 'PUT', body: JSON.stringify(imported) });
    expect(put.status).toBe(200);
    const afterImport = await stateOf(a.url);
    expect(afterImport).toEqual(await stateOf(b.url));
    expect(afterImport.collections.pets.scopes['']).toEqual(imported.collections.pets.scopes['']);
    const listed = await call(`${a.url}/pets?limit=100`);
    expect(listed.body.map((pet: { name: string }) => pet.name)).toEqual(imported.collections.pets.scopes[''].map((pet) => pet.name));
  });

  // Last: it stops the file's PostgreSQL (and starts it again).
  it('the database killed and started again mid-run: 503 STORE_UNAVAILABLE and a degraded health while it is down, then both replicas serve again by themselves, nothing acknowledged lost', async () => {
    const store = await freshDatabase();
    const [a, b] = await Promise.all([replica(store), replica(store)]);
    const lb = await balancer(a.url, b.url);

    // Creates through the balancer until the database is killed: some are under way when it dies.
    const acknowledged: Array<{ id: number; name: string }> = [];
    const failed: Answer[] = [];
    let up = true;
    let issued = 0;
    const writer = async () => {
      while (up && issued < 3000) {
        const name = `Before ${issued++}`;
        const answer = await createPet(lb.url, name);
        if (answer.status === 201) acknowledged.push({ id: answer.body.id, name });
        else failed.push(answer);
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    await until(() => acknowledged.length >= 100, 'creates acknowledged before the database is killed');
    postgres.kill();
    up = false;
    await Promise.all(writers);
    // A write cut by the kill is answered 503 STORE_UNAVAILABLE, never otherwise (whether its commit reached the database, the replica cannot know: it is not counted either way).
    // A replica survives the loss of its database (a connection cut under a write transaction once ended the process, unhandled).
    for (const { child } of [a, b]) expect(child.exitCode).toBeNull();
    for (const answer of failed) expectStoreUnavailable(answer);

    // Down: health says degraded (once a query or the probe has failed), reads and writes are refused, on both replicas and through the balancer.
    const refusedNames: string[] = [];
    for (const base of [a.url, b.url]) {
      await until(async () => (await fetch(`${base}/__health`)).status === 503, 'the health check to report the database lost');
      const health = await call(`${base}/__health`);
      expect(health).toMatchObject({ status: 503, body: { status: 'degraded', persistence: { enabled: true, ok: false, error: expect.any(String) } } });
      expectStoreUnavailable(await call(`${base}/pets?limit=5`));
      expectStoreUnavailable(await getPet(base, acknowledged[0].id));
      const name = `Refused by ${base}`;
      refusedNames.push(name);
      expectStoreUnavailable(await createPet(base, name));
    }
    expectStoreUnavailable(await createPet(lb.url, 'Refused by the balancer'));
    refusedNames.push('Refused by the balancer');

    await postgres.restart();
    // Back: each replica finds it by itself (its probe, or its next request), with no restart of its own.
    for (const base of [a.url, b.url]) {
      await until(async () => (await call(`${base}/pets?limit=5`)).status === 200, 'reads to be served again');
      await until(async () => (await createPet(base, `After, through ${base}`)).status === 201, 'writes to be accepted again');
      await until(async () => (await fetch(`${base}/__health`)).status === 200, 'the health check to report the database back');
      expect(await call(`${base}/__health`)).toMatchObject({ status: 200, body: { status: 'ok', persistence: { enabled: true, ok: true, error: null } } });
    }
    const after = await inParallel(20, 10, (i) => createPet(lb.url, `After ${i}`));
    expect(after.map((answer) => answer.status)).toEqual(Array(20).fill(201));

    for (const base of [a.url, b.url]) {
      expect(await lostThrough(base, acknowledged)).toHaveLength(0);
      const names = (await petsIn(base)).map((pet) => pet.name);
      expect(names.filter((name) => refusedNames.includes(name))).toEqual([]);
    }
    expect(await petsIn(b.url)).toEqual(await petsIn(a.url));
  });
});
