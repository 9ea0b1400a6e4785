/**
 * The state file on the real CLI (dist/cli.js: `npm run build` first): a location that cannot be
 * used stops the start in one line; a location that stops working while serving is reported by
 * GET /__health and refuses writes with 503, until it works again; a kill -9 in the middle of a
 * burst of creates loses no acknowledged pet and issues no acknowledged id again; a journal write
 * cut short (a file size limit reached in the middle of a request's changes) reads back none of
 * that request; a partial state file is refused; a --watch reload goes on persisting.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SPEC } from './test-support/petstore.js';
import { CLI, startCli, startProcess, track } from './test-support/processes.js';
import { copyCli, reachableTempDir } from './test-support/reachable.js';

const AUTH = { Authorization: 'Bearer petstore-demo-key' };
const JSON_AUTH = { ...AUTH, 'Content-Type': 'application/json' };
const children: Array<{ kill: (s: NodeJS.Signals) => boolean }> = [];
afterEach(() => children.splice(0).forEach((c) => c.kill('SIGKILL')));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const folders: string[] = [];
afterAll(() => folders.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
/** A temporary directory, removed after the tests; one that nobody can reach where the CLI runs as nobody. */
const folder = (reachable = false) => {
  const dir = reachable ? reachableTempDir('persist-') : mkdtempSync(join(tmpdir(), 'persist-'));
  folders.push(dir);
  return dir;
};
const isRoot = process.getuid?.() === 0;
/** Permissions do not stop root: as root, the CLI is run as nobody where setpriv is there to do it. */
const asNobody = isRoot && existsSync('/usr/bin/setpriv') ? ['/usr/bin/setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : undefined;

/** A state file the CLI wrote whole: started on it, answered once, stopped with SIGTERM (exit 0). */
async function stoppedStateFile(): Promise<string> {
  const file = join(folder(), 'state.json');
  const server = await cli(['--state-file', file]);
  // An answer first: the CLI sets its signal handlers just after its banner.
  expect((await fetch(`${server.url}/__health`)).status).toBe(200);
  const exited = new Promise((r) => server.child.on('exit', r));
  server.child.kill('SIGTERM');
  expect(await exited).toBe(0);
  return file;
}

async function cli(args: string[]) {
  const started = await startCli(args);
  children.push(started.child);
  return started;
}

function run(args: string[], as: string[] = [], cli = CLI): Promise<{ code: number | null; stderr: string }> {
  const [command, ...prefix] = [...as, process.execPath];
  const child = track(spawn(command, [...prefix, cli, 'serve', '--port', '0', ...args]));
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

const createPet = (url: string, name: string) => fetch(`${url}/pets`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name, categoryId: 1 }) });

async function petIds(url: string): Promise<number[]> {
  const state = (await (await fetch(`${url}/__admin/state`)).json()) as { collections: { pets: { scopes: { '': Array<{ id: number }> } } } };
  return state.collections.pets.scopes[''].map((p) => p.id);
}

async function waitFor(condition: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(25);
  }
}

describe('a state file location that cannot be used', () => {
  const oneLine = async (args: string[], message: RegExp, as?: string[], cli?: string) => {
    const { code, stderr } = await run(args, as, cli);
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
  };

  it('stops the start in one line when its directory is missing or not a directory, or the file is a directory', async () => {
    const dir = folder();
    await oneLine(['--state-file', join(dir, 'missing', 'state.json')], /^Cannot keep the state in .*missing\/state\.json: the directory .*missing does not exist\.\n$/);
    writeFileSync(join(dir, 'plain'), 'x');
    await oneLine(['--state-file', join(dir, 'plain', 'state.json')], /^Cannot keep the state in .*: .*plain is not a directory\.\n$/);
    await oneLine(['--state-file', join(dir, 'plain', 'sub', 'state.json')], /^Cannot keep the state in .*: a part of .*plain\/sub is not a directory\.\n$/);
    mkdirSync(join(dir, 'state.json'));
    await oneLine(['--state-file', join(dir, 'state.json')], /^Cannot keep the state in .*state\.json: it is not a regular file\.\n$/);
  });

  it.skipIf(isRoot && !asNobody)('stops the start in one line when its directory is not writable, or not searchable', async () => {
    // Nobody reaches neither the checkout nor TMPDIR where they sit under a private folder: a copy of the CLI, in a folder every user reaches.
    const dir = folder(Boolean(asNobody));
    const cli = asNobody ? copyCli(dir) : undefined;
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    if (asNobody) for (const path of [dir, locked]) chownSync(path, 65534, 65534);
    chmodSync(locked, 0o500);
    await oneLine(['--state-file', join(locked, 'state.json')], /^Cannot keep the state in .*: the directory .*locked is not writable by this process\.\n$/, asNobody, cli);
    chmodSync(locked, 0o600);
    await oneLine(['--state-file', join(locked, 'state.json')], /^Cannot keep the state in .*: the directory .*locked is not searchable \(x permission\) by this process\.\n$/, asNobody, cli);
    chmodSync(locked, 0o700);
  });

  // As root no permission stops a write; /proc takes no new file from anyone.
  it.runIf(process.platform === 'linux')('stops the start in one line when the first write fails, whoever runs it', async () => {
    await oneLine(['--state-file', '/proc/petstore-mock-state.json'], /^Cannot (keep|write) the state (in|file) \/proc\/petstore-mock-state\.json: .+\.\n$/);
  });
});

describe('a state file location that stops working while serving', () => {
  it('is reported by GET /__health; writes get 503 and reads still work; once it works again, so do writes', async () => {
    const dir = join(folder(), 'state');
    mkdirSync(dir);
    const file = join(dir, 'state.json');
    const server = await cli(['--state-file', file]);
    const health = async () => ({ status: (await fetch(`${server.url}/__health`)).status, body: await (await fetch(`${server.url}/__health`)).json() });
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok', persistence: { enabled: true, ok: true, error: null, lastWrite: expect.any(String) } } });
    const before = (await (await createPet(server.url, 'Before')).json()) as { id: number };

    // The directory replaced by a file (chmod would not stop root).
    renameSync(dir, `${dir}.moved`);
    writeFileSync(dir, 'not a directory');
    await waitFor(async () => (await fetch(`${server.url}/__health`)).status === 503, 3_000);
    const degraded = await health();
    expect(degraded.body).toMatchObject({ status: 'degraded', persistence: { enabled: true, ok: false, lastWrite: expect.any(String), error: expect.stringContaining('state.json') } });
    const refused = await createPet(server.url, 'Refused');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('Retry-After')).toBe('1');
    expect(await refused.json()).toEqual({ code: 'PERSISTENCE_FAILED', status: 503, message: expect.stringContaining('writes are refused') });
    expect((await fetch(`${server.url}/pets/${before.id}`, { headers: AUTH })).status).toBe(200);
    expect(server.output()).toMatch(/warning: .*state\.json.*; writes are refused \(503\) until it can be written again\.\n/);

    rmSync(dir);
    renameSync(`${dir}.moved`, dir);
    await waitFor(async () => (await fetch(`${server.url}/__health`)).status === 200, 5_000);
    expect(server.output()).toMatch(/warning: The state file .* is written again; writes are accepted\.\n/);
    const after = (await (await createPet(server.url, 'After')).json()) as { id: number };

    server.child.kill('SIGKILL');
    const restarted = await cli(['--state-file', file]);
    const ids = await petIds(restarted.url);
    expect(ids).toEqual(expect.arrayContaining([before.id, after.id]));
    const names = ((await (await fetch(`${restarted.url}/pets?limit=100`, { headers: AUTH })).json()) as Array<{ name: string }>).map((p) => p.name);
    expect(names).not.toContain('Refused');
  });
});

describe('a kill -9 in the middle of a burst of creates', () => {
  it('loses no acknowledged pet, and issues no acknowledged id again', async () => {
    const file = join(folder(), 'state.json');
    const first = await cli(['--state-file', file]);
    const acknowledged: number[] = [];
    let killed = false;
    // Eight clients creating pets one after another, until the server is gone.
    const client = async (n: number) => {
      for (let i = 0; ; i++) {
        try {
          const response = await createPet(first.url, `Burst ${n}-${i}`);
          if (response.status === 201) acknowledged.push(((await response.json()) as { id: number }).id);
        } catch {
          if (killed) return;
          throw new Error('a request failed before the kill');
        }
      }
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    await waitFor(() => acknowledged.length >= 400, 20_000);
    killed = true;
    first.child.kill('SIGKILL');
    await Promise.all(clients);
    expect(acknowledged.length).toBeGreaterThanOrEqual(400);

    const second = await cli(['--state-file', file]);
    expect(second.banner).toMatch(/\(from the state file\)/);
    const ids = new Set(await petIds(second.url));
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    const taken = new Set(acknowledged);
    for (let i = 0; i < 20; i++) {
      const created = (await (await createPet(second.url, `After ${i}`)).json()) as { id: number };
      expect(taken.has(created.id)).toBe(false);
      expect(created.id).toBeGreaterThan(Math.max(...acknowledged));
    }
  });
});

describe('a journal write cut short in the middle of a request', () => {
  // A file size limit (RLIMIT_FSIZE, what a full disk does to the last write): the write crossing
  // it is cut where it reaches it (a short write), the next one fails with EFBIG.
  const PRLIMIT = '/usr/bin/prlimit';
  const names = Array.from({ length: 40 }, (_, i) => `Fill ${String(i).padStart(3, '0')}`);
  const createAll = async (url: string) => {
    const answers: Array<{ status: number; id?: number }> = [];
    for (const name of names) {
      const response = await createPet(url, name);
      answers.push({ status: response.status, id: response.status === 201 ? ((await response.json()) as { id: number }).id : undefined });
      if (response.status !== 201) break;
    }
    return answers;
  };
  const state = async (url: string) => (await (await fetch(`${url}/__admin/state`)).json()) as { collections: Record<string, { scopes: { '': Array<Record<string, number>> } }> };

  it.skipIf(!existsSync(PRLIMIT))('reads back none of that request (not the pet without its inventory item), and every request before it', async () => {
    // Where the journal holds a request's inventory item (after its pet), from a run without a limit: the same creates give the same lines.
    const measured = join(folder(), 'state.json');
    const first = await cli(['--state-file', measured]);
    const made = await createAll(first.url);
    expect(made.every((a) => a.status === 201)).toBe(true);
    first.child.kill('SIGKILL');
    const snapshotBytes = readFileSync(measured).length;
    const journal = readFileSync(`${measured}.1.journal`, 'utf8');
    // The first request whose inventory item starts past the snapshot's size (the snapshot must fit under the limit).
    const k = made.findIndex((a) => Buffer.byteLength(journal.slice(0, journal.indexOf(`{"op":"put","c":"inventory","k":${a.id},`))) > snapshotBytes + 64);
    expect(k).toBeGreaterThan(0);
    const itemAt = Buffer.byteLength(journal.slice(0, journal.indexOf(`{"op":"put","c":"inventory","k":${made[k].id},`)));
    expect(journal.indexOf(`{"op":"put","c":"pets","k":${made[k].id},`)).toBeLessThan(journal.indexOf(`{"op":"put","c":"inventory","k":${made[k].id},`));

    // The same creates with the file size limited to the middle of request k's inventory item.
    const file = join(folder(), 'state.json');
    const limited = await startProcess(PRLIMIT, [`--fsize=${itemAt + 20}`, process.execPath, CLI, 'serve', '--port', '0', '--state-file', file], /listening on http:\/\/\S+[\s\S]*try /, { PORT: '' });
    children.push(limited.child);
    const url = /listening on (http:\/\/\S+)/.exec(limited.output())![1];
    const answers = await createAll(url);
    limited.child.kill('SIGKILL');
    expect(answers.map((a) => a.status)).toEqual([...Array(k).fill(201), 503]);
    expect(answers.slice(0, k).map((a) => a.id)).toEqual(made.slice(0, k).map((a) => a.id));
    expect(readFileSync(`${file}.1.journal`).length).toBe(itemAt + 20); // the pet of request k is on disk, its item only in part

    const restarted = await cli(['--state-file', file]);
    const { collections } = await state(restarted.url);
    const pets = collections.pets.scopes[''].map((p) => p.id);
    const items = collections.inventory.scopes[''].map((i) => i.petId);
    expect(pets).not.toContain(made[k].id);
    expect(items).not.toContain(made[k].id);
    expect(pets).toEqual(expect.arrayContaining(made.slice(0, k).map((a) => a.id!)));
    expect(pets.filter((id) => !items.includes(id))).toEqual([]); // every pet has its inventory item
    // The next pet is made whole, with its inventory item.
    const next = await createPet(restarted.url, 'After the cut');
    expect(next.status).toBe(201);
    const { id } = (await next.json()) as { id: number };
    expect((await fetch(`${restarted.url}/store/inventory/${id}`, { headers: AUTH })).status).toBe(200);
  });
});

describe('a partial state file', () => {
  it('is refused at start, naming the collections missing or unknown, and left untouched', async () => {
    const file = await stoppedStateFile();
    const whole = JSON.parse(readFileSync(file, 'utf8'));
    expect(whole.journal.generation).toBe(2); // the whole state written again at the stop, the journal removed
    expect(readdirSync(dirname(file))).toEqual(['state.json']);
    expect(Object.keys(whole.collections)).toEqual(['pets', 'categories', 'orders', 'inventory']); // what the mock writes is whole

    delete whole.collections.orders;
    const partial = JSON.stringify(whole);
    writeFileSync(file, partial);
    const missing = await run(['--state-file', file]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^The state file .*state\.json does not fit the document: collection "orders" is missing \(the document has: pets, categories, orders, inventory\); a state file holds every collection; it was left untouched; fix it or remove it to start from the seed\.\n$/);
    expect(readFileSync(file, 'utf8')).toBe(partial);

    whole.collections.orders = { nextInteger: 1, scopes: {} };
    whole.collections.owners = { nextInteger: 1, scopes: {} };
    writeFileSync(file, JSON.stringify(whole));
    const unknown = await run(['--state-file', file]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/does not fit the document: collection "owners" is not in the document/);
  });
});

describe('a state file past --max-records', () => {
  it('is refused at start in one line, saying how many records against the limit, and left untouched', async () => {
    const file = await stoppedStateFile();
    const written = readFileSync(file, 'utf8');
    const held = Object.values(JSON.parse(written).collections as Record<string, { scopes: Record<string, unknown[]> }>).reduce(
      (sum, c) => sum + Object.values(c.scopes).reduce((n, records) => n + records.length, 0),
      0,
    );
    expect(held).toBeGreaterThan(30);
    const refused = await run(['--state-file', file, '--count', '0', '--max-records', '30']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`^The state file .*state\\.json was not loaded: it has ${held} records \\([\\d.]+ MiB\\), and the shared state would then hold ${held} records, more than the mock holds \\(--max-records 30\\); it was left untouched\\.\n$`));
    expect(readFileSync(file, 'utf8')).toBe(written);
  });
});

describe('a --watch reload with a state file', () => {
  it('goes on saving the state of the reloaded document', async () => {
    const dir = folder();
    const spec = join(dir, 'openapi.yaml');
    copyFileSync(SPEC, spec);
    const file = join(dir, 'state.json');
    const server = await cli(['--spec', spec, '--watch', '--state-file', file]);
    const before = (await (await createPet(server.url, 'Before reload')).json()) as { id: number };
    writeFileSync(spec, `${readFileSync(spec, 'utf8')}\n# edited\n`);
    await waitFor(() => server.output().includes('Reloaded'));
    const after = (await (await createPet(server.url, 'After reload')).json()) as { id: number };
    expect(after.id).toBe(before.id + 1);
    server.child.kill('SIGKILL');
    const restarted = await cli(['--spec', spec, '--state-file', file]);
    expect(await petIds(restarted.url)).toEqual(expect.arrayContaining([before.id, after.id]));
  });
});
