/**
 * The PostgreSQL store when a write transaction fails after the request's work ran on the replica's
 * copy, when another process holds the namespace's lock, and how many sessions it keeps in the
 * database: on a real PostgreSQL from Debian's packages, in-process (the replicas, the balancer
 * and a database stopped mid-run are in replicas.process.test.ts).
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { fnv1a } from '../core/fnv.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { caller, FIXTURES, petstoreDocument } from '../test-support/petstore.js';
import { postgresForTests, startPostgres } from '../test-support/postgres.js';
import { until } from '../test-support/until.js';
import { connectPostgres, type PostgresStores } from './postgres-stores.js';

describe('the PostgreSQL store when the database refuses a write', () => {
  const postgres = postgresForTests();

  /** A Petstore mock on a database of its own, and a plain client of that database. */
  async function mockOn(name: string, options: { statementTimeoutMs?: number; onEvent?: (message: string) => void } = {}) {
    const url = await postgres.server().createDatabase(name);
    const stores = await connectPostgres({ url, namespace: name, probeMs: 50, ...options });
    postgres.opened(stores);
    const mock = buildMock(await petstoreDocument(), { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS, store: stores.make, persistence: () => stores.health() });
    await stores.ready();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    postgres.opened(client);
    return { mock, call: caller(mock), client, stores, url };
  }

  /** Another replica of a mock made by mockOn: it loads what the database holds. */
  async function replicaOf(url: string, name: string) {
    const stores = await connectPostgres({ url, namespace: name });
    postgres.opened(stores);
    const mock = buildMock(await petstoreDocument(), { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS, store: stores.make });
    await stores.ready();
    return caller(mock);
  }

  it('answers a write the database refuses with a 500 of its own: the writes committed with it succeed, /__health stays ready, the copy forgets what the database did not take', async () => {
    const events: string[] = [];
    const { call, client, url } = await mockOn('failing', { onEvent: (message) => events.push(message) });
    const before = await call('GET', '/pets?limit=100');
    // The database refuses any change that names the pet "Phantom", as a constraint or a trigger of the operator would.
    await client.query(`CREATE FUNCTION refuse_phantom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.entries LIKE '%"Phantom"%' THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
    await client.query('CREATE TRIGGER refuse_phantom BEFORE INSERT ON mock_changes FOR EACH ROW EXECUTE FUNCTION refuse_phantom()');

    // Sent together, so that they wait for the same group commit.
    const ordinary = (from: number) => Array.from({ length: 30 }, (_, i) => call('POST', '/pets', { name: `Ordinary ${from + i}`, categoryId: 1 }));
    const first = ordinary(0);
    const phantom = call('POST', '/pets', { name: 'Phantom', categoryId: 1 });
    const rest = ordinary(30);
    const refused = await phantom;
    expect(refused.status).toBe(500);
    expect(refused.body).toMatchObject({ status: 500, code: 'STORE_REFUSED' });
    expect(refused.body.message).toContain('refused for the test');
    const created = await Promise.all([...first, ...rest]);
    expect(created.map((answer) => answer.status)).toEqual(created.map(() => 201));
    // Not a lost database: never reported as one, and /__health ready.
    expect(events).toEqual([]);
    expect((await call('GET', '/__health')).status).toBe(200);

    // The work had put the pet (and its inventory item) in the copy: gone, the others there, on every read after and through another replica.
    const after = await call('GET', '/pets?limit=100');
    expect(after.status).toBe(200);
    expect(after.body).toEqual([...before.body, ...created.map((answer) => answer.body)].sort((a, b) => a.id - b.id));
    const { rows } = await client.query("SELECT count(*)::int AS n FROM mock_records WHERE body->>'name' = 'Phantom'");
    expect(rows[0].n).toBe(0);
    const other = await replicaOf(url, 'failing');
    expect((await other('GET', '/pets?limit=100')).body).toEqual(after.body);
    expect((await other('GET', '/inventory?limit=100')).body).toEqual((await call('GET', '/inventory?limit=100')).body);

    // The next write is taken, with a key the database never gave.
    const next = await call('POST', '/pets', { name: 'Real', categoryId: 1 });
    expect(next.status).toBe(201);
    expect((await call('GET', `/pets?id=${next.body.id}`)).body).toEqual([next.body]);
  });

  it('answers 503 when the connection is lost mid-commit, and the copy forgets what the database did not take', async () => {
    const events: string[] = [];
    const { call, client, stores } = await mockOn('cut', { onEvent: (message) => events.push(message) });
    const before = await call('GET', '/pets?limit=100');
    // The database ends the connection that appends the change naming "Cut", as a network cut or a restart would.
    await client.query(`CREATE FUNCTION cut_connection() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.entries LIKE '%"Cut"%' THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF; RETURN NEW; END $$`);
    await client.query('CREATE TRIGGER cut_connection BEFORE INSERT ON mock_changes FOR EACH ROW EXECUTE FUNCTION cut_connection()');
    const cut = await call('POST', '/pets', { name: 'Cut', categoryId: 1 });
    expect(cut.status).toBe(503);
    expect(cut.headers.get('retry-after')).toBe('1');
    expect(cut.body).toMatchObject({ status: 503, code: 'STORE_UNAVAILABLE' });
    expect(events).toEqual([expect.stringMatching(/^PostgreSQL cannot be used \(.+\): requests are answered 503 until it is back\.$/)]);
    await client.query('DROP TRIGGER cut_connection ON mock_changes');
    await until(() => stores.health().ok, 'the probe to find the database answering');
    const after = await call('GET', '/pets?limit=100');
    expect(after.body).toEqual(before.body);
  });

  it('keeps answering reads while another process holds the lock, and refuses writes with a 503 once the wait passes the statement timeout', async () => {
    const { call, client, stores } = await mockOn('locked', { statementTimeoutMs: 300 });
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [0x6d6f636b, fnv1a('locked') | 0]);
    const read = await call('GET', '/pets?limit=5');
    expect(read.status).toBe(200);
    const write = await call('POST', '/pets', { name: 'Waiting', categoryId: 1 });
    expect(write.status).toBe(503);
    expect(write.body.code).toBe('STORE_UNAVAILABLE');
    await client.query('COMMIT');
    // Back by itself: the probe finds the database answering, and the next write is taken.
    await until(() => stores.health().ok, 'the probe to find the database answering');
    expect(stores.health().ok).toBe(true);
    expect((await call('POST', '/pets', { name: 'Taken', categoryId: 1 })).status).toBe(201);
  });
});

describe('sessions of the PostgreSQL store', () => {
  it('keeps at most maxSessions session namespaces in the database, across replicas, dropping the least recently used; a dropped one starts from the seed', async () => {
    const server = await startPostgres();
    const opened: PostgresStores[] = [];
    try {
      const url = await server.createDatabase('sessions');
      /** A replica: its own connections and its own mock (which keeps up to 100 sessions in memory), the database keeping 3. */
      const replica = async () => {
        const stores = await connectPostgres({ url, namespace: 'bounded', maxSessions: 3 });
        opened.push(stores);
        const mock = buildMock(await petstoreDocument(), { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS, store: stores.make });
        await stores.ready();
        return caller(mock);
      };
      const [a, b] = [await replica(), await replica()];
      const inSession = (name: string) => ({ 'X-Mock-Session': name });
      const write = async (call: typeof a, session: string) => {
        const created = await call('POST', '/pets', { name: `Only in ${session}`, categoryId: 1 }, inSession(session));
        expect(created.status).toBe(201);
        return created.body.id as number;
      };
      const first = await write(a, 'one');
      await write(a, 'two');
      // Three more sessions through the other replica: the database keeps the 3 used last.
      for (const session of ['three', 'four', 'five']) await write(b, session);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query("SELECT ns FROM mock_spaces WHERE ns LIKE 'bounded/session/%' ORDER BY ns");
        expect(rows.map((row) => row.ns)).toEqual(['bounded/session/five', 'bounded/session/four', 'bounded/session/three']);
      } finally {
        await client.end();
      }
      // Session one, dropped, starts from the seed again through the replica that still held it: the pet written in it is gone.
      expect((await a('GET', `/pets?id=${first}`, undefined, inSession('one'))).body).toEqual([]);
      expect((await a('GET', '/pets?limit=100', undefined, inSession('one'))).headers.get('x-total-count')).toBe('20');
    } finally {
      for (const stores of opened) await stores.close();
      await server.stop();
    }
  });
});
