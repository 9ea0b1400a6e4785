/**
 * The tests' PostgreSQL (postgres.ts), a real server from Debian's packages: it takes a write and
 * reads it back; killed (SIGKILL), it refuses connections, and started again on the same port and
 * data it still has the committed row; stopped, it leaves no process, no shared memory and no
 * directory; two run side by side; and what a test file left running is cleaned up after it.
 * Starts child processes (no build needed: nothing of dist/ is used).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUpAll } from './processes.js';
import { sharedMemoryExists, sharedMemoryId, startPostgres, type RunningPostgres } from './postgres.js';

const clients: pg.Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.end().catch(() => {})));
});

/** A connected client; its 'error' events (a server killed under it) are the test's to see through its queries. */
async function connect(connectionString: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString });
  client.on('error', () => {});
  clients.push(client);
  await client.connect();
  return client;
}

/** Whether a process of that id still exists (a zombie too). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** Whether a process of that id runs: neither gone nor a zombie (a killed postmaster's children are orphans: their reaping is init's). */
function runs(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/stat`)) return false;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

/** The real user id a process runs as (/proc/PID/status). */
const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

describe('startPostgres', () => {
  it('runs a server on 127.0.0.1 that keeps a committed row through a SIGKILL and a restart, then stops leaving nothing', async () => {
    const postgres = await startPostgres();
    expect(postgres.url).toBe(`postgres://postgres@127.0.0.1:${postgres.port}/postgres`);

    const client = await connect(postgres.url);
    const settings = await client.query<{ listen: string; socket: string; data: string; encoding: string }>(
      "SELECT current_setting('listen_addresses') AS listen, current_setting('unix_socket_directories') AS socket, current_setting('data_directory') AS data, current_setting('server_encoding') AS encoding",
    );
    expect(settings.rows[0]).toEqual({ listen: '127.0.0.1', socket: postgres.directory, data: join(postgres.directory, 'data'), encoding: 'UTF8' });
    const [postmaster] = postgres.pids();
    // PostgreSQL refuses root: run as root, the tests run it as another user.
    if (process.getuid?.() === 0) expect(uidOf(postmaster)).not.toBe(0);

    await client.query('CREATE TABLE pets (id integer PRIMARY KEY, name text NOT NULL)');
    await client.query('INSERT INTO pets (id, name) VALUES ($1, $2)', [1, 'Rex']);
    expect((await client.query('SELECT id, name FROM pets')).rows).toEqual([{ id: 1, name: 'Rex' }]);

    const killed = postgres.pids();
    expect(killed.length).toBeGreaterThan(1); // the postmaster and its children (checkpointer, walwriter, the backend...)
    postgres.kill();
    // The open connection is cut, and no new one is taken.
    await expect(client.query('SELECT 1')).rejects.toThrow(/terminated|ECONNRESET|EPIPE|not queryable/i);
    await expect(connect(postgres.url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(postgres.pids()).toEqual([]);

    await postgres.restart();
    expect(killed.some((pid) => postgres.pids().includes(pid))).toBe(false);
    const again = await connect(postgres.url);
    expect((await again.query('SELECT id, name FROM pets')).rows).toEqual([{ id: 1, name: 'Rex' }]);

    const running = postgres.pids();
    expect(running[0]).not.toBe(postmaster);
    await postgres.stop();
    expect(running.filter(exists)).toEqual([]);
    expect(existsSync(postgres.directory)).toBe(false);
  });

  it('leaves no shared memory and no directory when stopped after a kill', async () => {
    const postgres = await startPostgres();
    const id = sharedMemoryId(join(postgres.directory, 'data'));
    expect(id).toBeDefined();
    expect(sharedMemoryExists(id!)).toBe(true);
    const pids = postgres.pids();
    postgres.kill();
    await postgres.stop();
    expect(pids.filter(runs)).toEqual([]);
    expect(sharedMemoryExists(id!)).toBe(false);
    expect(existsSync(postgres.directory)).toBe(false);
  });

  it('runs two servers side by side, each with its own data, and creates databases', async () => {
    const [a, b] = await Promise.all([startPostgres(), startPostgres()]);
    try {
      expect(a.port).not.toBe(b.port);
      expect(a.directory).not.toBe(b.directory);
      await (await connect(a.url)).query('CREATE TABLE only_in_a (id integer)');
      const tableIn = async (url: string) => (await (await connect(url)).query("SELECT to_regclass('only_in_a') AS t")).rows[0].t;
      expect(await tableIn(a.url)).toBe('only_in_a');
      expect(await tableIn(b.url)).toBeNull();

      const url = await b.createDatabase('store-test');
      expect(url).toBe(`postgres://postgres@127.0.0.1:${b.port}/store-test`);
      expect((await (await connect(url)).query('SELECT current_database() AS db')).rows).toEqual([{ db: 'store-test' }]);
    } finally {
      await Promise.all(clients.splice(0).map((client) => client.end().catch(() => {})));
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('is cleaned up after the test file when a test does not stop it (after-each-file.ts)', async () => {
    const postgres = await startPostgres();
    const pids = postgres.pids();
    expect(pids.length).toBeGreaterThan(1);
    // What the setup file of every test file runs after it, whatever failed.
    await cleanUpAll();
    expect(pids.filter(runs)).toEqual([]);
    expect(existsSync(postgres.directory)).toBe(false);
    await expect(connect(postgres.url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
