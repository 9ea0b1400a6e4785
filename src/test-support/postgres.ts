/**
 * A real PostgreSQL server for tests, from Debian's packages (`apt-get install -y postgresql`,
 * done by .ci/run), never a mock of the database: a cluster of its own in a temporary directory
 * under the run's TMPDIR, on a free port of 127.0.0.1, with its unix socket in that directory.
 *
 * PostgreSQL refuses to run as root: when the tests do, initdb and the server run as the
 * `postgres` user Debian's package creates, else as nobody, through setpriv, and the directory is
 * theirs. The server (`postgres` itself, not pg_ctl's detached daemon) is a tracked child, and the
 * whole instance is cleaned up after the test file whatever failed (processes.ts
 * `cleanUpAfterFile`: its processes killed, its shared memory and its directory removed);
 * `stop()` does it gracefully before that.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { cleanUpAfterFile, freePort, track } from './processes.js';
import { reachableTempDir } from './reachable.js';

/** The superuser initdb makes, and the database every cluster has. */
export const SUPERUSER = 'postgres';
const DATABASE = 'postgres';

/** Only ends what hangs (a start, a shutdown, processes that do not go away): never reached by a working server. */
const HANG_LIMIT_MS = 120_000;

export interface RunningPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`: the superuser, trusted on 127.0.0.1. */
  readonly url: string;
  readonly port: number;
  /** The instance's temporary directory: the cluster (`data/`) and the unix socket. */
  readonly directory: string;
  /** The server's processes now running: the postmaster first, then its children (none once stopped or killed). */
  pids(): number[];
  /** A fast shutdown (clients disconnected, a checkpoint), then the directory removed. */
  stop(): Promise<void>;
  /** SIGKILL to the postmaster and all its children, as a crash would, returning once none runs: for fault tests. */
  kill(): void;
  /** Starts the server again on the same port and data (after `kill()`, with crash recovery; one still running is shut down first). */
  restart(): Promise<void>;
  /** Creates a database; resolves with its URL. */
  createDatabase(name: string): Promise<string>;
}

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * Debian's binaries: `/usr/lib/postgresql/<version>/bin` of the newest version present, else
 * `initdb` on PATH and the `postgres` beside it (or on PATH). `pg_ctl` is not used: the server
 * runs as a child of the tests.
 */
export function findPostgres(): PostgresBinaries | undefined {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+(\.\d+)?$/.test(v)) : [];
  const [major, minor] = [(v: string) => Number(v.split('.')[0]), (v: string) => Number(v.split('.')[1] ?? 0)];
  versions.sort((a, b) => major(b) - major(a) || minor(b) - minor(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres'))) return { initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres') };
  }
  const onPath = (name: string) =>
    (process.env.PATH ?? '')
      .split(':')
      .filter(Boolean)
      .map((dir) => join(dir, name))
      .find((path) => existsSync(path));
  const initdb = onPath('initdb');
  if (!initdb) return undefined;
  const beside = join(dirname(realpathSync(initdb)), 'postgres');
  const postgres = existsSync(beside) ? beside : onPath('postgres');
  return postgres ? { initdb, postgres } : undefined;
}

/** Who runs initdb and the server: the tests' own user, or (as root) `postgres`, else nobody, through setpriv. */
function runAs(): { uid: number; gid: number; prefix: string[] } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));
  if (!setpriv) throw new Error('PostgreSQL refuses to run as root, and setpriv (util-linux) is not there to run it as another user.');
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === 'postgres');
  const [uid, gid] = entry ? [Number(entry[2]), Number(entry[3])] : [65534, 65534];
  return { uid, gid, prefix: [setpriv, `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups'] };
}

/** Starts a PostgreSQL server of its own (see the file); rejects in one sentence where PostgreSQL is not installed. */
export async function startPostgres(): Promise<RunningPostgres> {
  const binaries = findPostgres();
  if (!binaries) {
    throw new Error('This test needs PostgreSQL (initdb and postgres, looked for in /usr/lib/postgresql/*/bin and on PATH): apt-get install -y postgresql (.ci/run does it).');
  }
  const user = runAs();
  // Under the run's TMPDIR, which other users may pass through (global-setup.ts), else under /tmp: the server's user reaches it.
  const dir = reachableTempDir('postgres-');
  const data = join(dir, 'data');
  let server: Server | undefined;
  let port = 0;
  let stopped = false;
  const running = () => server !== undefined && !reaped(server.child);

  const kill = () => {
    if (running()) killAll(server!.child.pid!);
  };
  /** Resolves once the postmaster, gone, is reaped by us (its pid no longer its own). */
  const gone = async () => {
    if (server) await withinLimit(server.exited, () => 'PostgreSQL was not reaped');
  };
  /** The instance's processes killed, its shared memory and its directory removed: after a failure, and after the test file. */
  const discard = async () => {
    stopped = true;
    kill();
    await gone();
    removeSharedMemory(data);
    rmSync(dir, { recursive: true, force: true });
  };
  const forget = cleanUpAfterFile(discard);

  const start = async (first: boolean) => {
    // A port another test took between freePort() and the bind: another port, on the first start only.
    for (let attempt = 1; ; attempt++) {
      if (first) port = await freePort();
      server = launch(binaries.postgres, user?.prefix ?? [], dir, data, port);
      try {
        await acceptsConnections(server, url(port, DATABASE));
        return;
      } catch (error) {
        kill();
        await gone();
        if (!(first && attempt < 3 && /could not bind|Address already in use/.test(server.output()))) throw error;
      }
    }
  };
  /** A fast shutdown (SIGINT: clients disconnected, a checkpoint): the postmaster exits after its children. */
  const shutDown = async () => {
    if (!running()) return gone();
    server!.child.kill('SIGINT');
    await withinLimit(server!.exited, () => 'PostgreSQL did not shut down');
  };

  try {
    if (user) chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
    await run(binaries.initdb, user?.prefix ?? [], dir, ['-D', data, '-U', SUPERUSER, '-E', 'UTF8', '--no-locale', '--no-sync', '--auth=trust']);
    // Trust on 127.0.0.1 and the socket only (the socket's directory is the server's user's alone).
    writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    await start(true);
  } catch (error) {
    forget();
    await discard();
    throw error;
  }

  return {
    get url() {
      return url(port, DATABASE);
    },
    get port() {
      return port;
    },
    directory: dir,
    // A postmaster killed and not yet reaped is a zombie: not running.
    pids: () => (running() && isRunning(server!.child.pid!) ? [server!.child.pid!, ...childrenOf(server!.child.pid!)] : []),
    async stop() {
      if (stopped) return;
      stopped = true;
      forget();
      try {
        await shutDown();
      } finally {
        await discard();
      }
    },
    kill,
    async restart() {
      if (stopped) throw new Error('This PostgreSQL was stopped: its directory is gone.');
      await shutDown();
      await start(false);
    },
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url(port, DATABASE) });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return url(port, name);
    },
  };
}

const url = (port: number, database: string) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

/** What initdb and the server get: no PG* variable of the environment the tests run in, no locale. */
const environment = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' });

/** Output kept for an error message: the last 64 kB. */
function collect(child: ChildProcess): () => string {
  let out = '';
  const add = (chunk: Buffer) => (out = (out + chunk).slice(-65_536));
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => out;
}

/** Runs initdb to its end; rejects with its output when it fails. */
function run(command: string, prefix: string[], cwd: string, args: string[]): Promise<void> {
  const [file, ...rest] = [...prefix, command, ...args];
  const child = track(spawn(file, rest, { cwd, env: environment() }));
  const output = collect(child);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${command} failed (${signal ?? `exit ${code}`}): ${output()}`))));
  });
}

interface Server {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the postmaster is gone and reaped: how it ended. */
  exited: Promise<string>;
}

/** The server as a tracked child of the tests: on 127.0.0.1 only, its socket in its directory. */
function launch(postgres: string, prefix: string[], dir: string, data: string, port: number): Server {
  const args = ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`];
  const [file, ...rest] = [...prefix, postgres, ...args];
  const child = track(spawn(file, rest, { cwd: dir, env: environment() }));
  const output = collect(child);
  const exited = new Promise<string>((resolve) => {
    child.on('error', (error) => resolve(String(error)));
    child.on('exit', (code, signal) => resolve(signal ?? `exit ${code}`));
  });
  return { child, output, exited };
}

/** Resolves once a client connects and runs a query; rejects if the server exits first, or after HANG_LIMIT_MS. */
async function acceptsConnections(server: Server, connectionString: string): Promise<void> {
  let exit: string | undefined;
  void server.exited.then((how) => (exit = how));
  const deadline = Date.now() + HANG_LIMIT_MS;
  for (;;) {
    if (exit) throw new Error(`PostgreSQL exited (${exit}) before it accepted connections: ${server.output()}`);
    const client = new pg.Client({ connectionString });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      const code = (error as { code?: string }).code ?? '';
      // Not listening yet, or listening and still starting up or recovering (57P03).
      if (!['ECONNREFUSED', 'ECONNRESET', '57P03'].includes(code) && !/terminated unexpectedly/.test(String(error))) throw error;
    }
    if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections in ${HANG_LIMIT_MS / 1000} s: ${server.output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Resolves with `work`; rejects after HANG_LIMIT_MS, saying what hung. */
async function withinLimit<T>(work: Promise<T>, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what()} after ${HANG_LIMIT_MS / 1000} s.`)), HANG_LIMIT_MS)));
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reaped by us: its pid is no longer its own. */
const reaped = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null || child.pid === undefined;

/** The postmaster's child processes (backends, checkpointer, walwriter...), from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat && stat.ppid === pid && stat.state !== 'Z') children.push(Number(entry));
  }
  return children;
}

/** A process's state and parent, or undefined when it is gone. */
function readStat(pid: number): { state: string; ppid: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
  const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid) };
}

/** Running: neither gone nor a zombie (which holds nothing: no port, no shared memory). */
const isRunning = (pid: number) => {
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z';
};

/**
 * SIGKILL to the postmaster and every child of it, as a crash would, and returns once none runs
 * (so its port refuses connections and its clients' connections are cut). The postmaster is
 * stopped (SIGSTOP) first, so that it starts no child between the listing and the kill (each child
 * leads a process group of its own: a group kill would miss them), and killed last, so that no
 * child outlives it long enough to see it die and tell its client so.
 */
function killAll(pid: number): void {
  process.kill(pid, 'SIGSTOP');
  const pids = [...childrenOf(pid), pid];
  for (const each of pids) {
    try {
      process.kill(each, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  // A killed process dies at once, though not within the kill() call: waited for here, synchronously (kill() is).
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + HANG_LIMIT_MS;
  while (pids.some(isRunning)) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL's processes ${pids.filter(isRunning).join(', ')} still ran ${HANG_LIMIT_MS / 1000} s after SIGKILL.`);
    Atomics.wait(pause, 0, 0, 1);
  }
}

/**
 * The System V shared memory segment a killed server leaves (its id on line 7 of postmaster.pid;
 * a graceful shutdown removes both), removed: no instance leaves one behind.
 */
function removeSharedMemory(data: string): void {
  const id = sharedMemoryId(data);
  if (id !== undefined && sharedMemoryExists(id)) execFileSync('ipcrm', ['-m', String(id)], { stdio: 'pipe' });
}

/** The id of a server's System V shared memory segment, from its postmaster.pid (absent after a graceful shutdown). */
export function sharedMemoryId(data: string): number | undefined {
  let line: string | undefined;
  try {
    line = readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[6];
  } catch {
    return undefined;
  }
  const id = Number(line?.trim().split(/\s+/)[1]);
  return line && Number.isInteger(id) ? id : undefined;
}

/** True while the segment of that id exists (/proc/sysvipc/shm: key, then shmid). */
export function sharedMemoryExists(id: number): boolean {
  return readFileSync('/proc/sysvipc/shm', 'utf8')
    .split('\n')
    .slice(1)
    .some((line) => line.trim() !== '' && Number(line.trim().split(/\s+/)[1]) === id);
}

/** What a test opens on a server: a store's connections (`close`) or a plain client (`end`). */
type Opened = { close(): Promise<void> } | pg.Client;

/**
 * One PostgreSQL server for the describe block it is called in: started before its tests, and
 * after them what they opened on it closed (last opened first), then the server stopped.
 *
 * @example const postgres = postgresForTests(); const url = await postgres.server().createDatabase('a'); postgres.opened(stores)
 */
export function postgresForTests(): { server: () => RunningPostgres; opened: <T extends Opened>(thing: T) => T } {
  let server: RunningPostgres | undefined;
  const opened: Opened[] = [];
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    for (const thing of opened.reverse()) await (thing instanceof pg.Client ? thing.end() : thing.close());
    await server?.stop();
  });
  return { server: () => server!, opened: (thing) => (opened.push(thing), thing) };
}
