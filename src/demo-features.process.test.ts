/**
 * Demo features on the real CLI: the state file across restarts (and a kill -9), a state file that
 * cannot be used, the clock set with --now, and watch mode.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, SPEC } from './test-support/petstore.js';
import { CLI, startCli, track } from './test-support/processes.js';

const AUTH = { Authorization: 'Bearer petstore-demo-key' };
const children: Array<{ kill: (s: NodeJS.Signals) => boolean }> = [];
afterEach(() => children.splice(0).forEach((c) => c.kill('SIGKILL')));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dir = () => mkdtempSync(join(tmpdir(), 'demo-'));

async function cli(args: string[]) {
  const started = await startCli(args);
  children.push(started.child);
  return started;
}

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = track(spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args]));
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

const createPet = (url: string, name: string) =>
  fetch(`${url}/pets`, { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) }).then((r) => r.json() as Promise<{ id: number }>);

describe('--state-file', () => {
  it('keeps the state across a clean restart, ids included', async () => {
    const file = join(dir(), 'state.json');
    const first = await cli(['--state-file', file]);
    const pet = await createPet(first.url, 'Persistent');
    const gone = await createPet(first.url, 'Deleted');
    expect((await fetch(`${first.url}/pets/${gone.id}`, { method: 'DELETE', headers: AUTH })).status).toBe(204);
    const exited = new Promise((r) => first.child.on('exit', r));
    first.child.kill('SIGTERM');
    await exited;
    const second = await cli(['--state-file', file]);
    expect(second.banner).toMatch(/records   pets 21, categories 6, orders 20, inventory 21 \(from the state file\)/);
    expect(await (await fetch(`${second.url}/pets?id=${pet.id}`, { headers: AUTH })).json()).toEqual([{ id: pet.id, name: 'Persistent', categoryId: 1, status: 'available' }]);
    expect((await fetch(`${second.url}/pets/${gone.id}`, { headers: AUTH })).status).toBe(404);
    expect((await createPet(second.url, 'Next')).id).toBe(gone.id + 1); // ids are never reused
  });

  it('loses at most the debounce interval on kill -9', async () => {
    const file = join(dir(), 'state.json');
    const first = await cli(['--state-file', file]);
    const pet = await createPet(first.url, 'Survivor');
    await sleep(400); // longer than the 200 ms debounce
    first.child.kill('SIGKILL');
    const second = await cli(['--state-file', file]);
    expect(await (await fetch(`${second.url}/pets?id=${pet.id}`, { headers: AUTH })).json()).toHaveLength(1);
  });

  it('writes atomically: the file is always a whole, valid state', async () => {
    const file = join(dir(), 'state.json');
    const server = await cli(['--state-file', file]);
    for (let i = 0; i < 20; i++) {
      await createPet(server.url, `Pet ${i}`);
      if (existsSync(file)) expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('petstore-mock-kit/state@1');
      await sleep(15);
    }
  });

  it('stops on a corrupt or schema-invalid state file with a clear message, and never overwrites it', async () => {
    const folder = dir();
    const corrupt = join(folder, 'corrupt.json');
    writeFileSync(corrupt, '{"format": "petstore-mock-kit/state@1", "collec');
    const a = await run(['--state-file', corrupt]);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/^The state file .*corrupt\.json is not valid JSON .*; it was left untouched; fix it or remove it to start from the seed\.\n$/);
    expect(readFileSync(corrupt, 'utf8')).toBe('{"format": "petstore-mock-kit/state@1", "collec');

    const invalid = join(folder, 'invalid.json');
    const text = JSON.stringify({ format: 'petstore-mock-kit/state@1', collections: { pets: { nextInteger: 2, scopes: { '': [{ id: 1, name: 99, categoryId: 1 }] } } } });
    writeFileSync(invalid, text);
    const b = await run(['--state-file', invalid]);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/does not fit the document: pets: record 1 \(id 1\) does not match the schema: name: must be string; it was left untouched/);
    expect(readFileSync(invalid, 'utf8')).toBe(text);
  });
});

describe('--now and the sunset', () => {
  it('answers the deprecated operation normally before the sunset and 410 SUNSET after it', async () => {
    const before = await cli(['--now', '2027-06-29T23:59:00Z']);
    const ok = await fetch(`${before.url}/pets/1`, { headers: AUTH });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('Sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    const after = await cli(['--now', '2027-07-01']);
    const gone = await fetch(`${after.url}/pets/1`, { headers: AUTH });
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ code: 'SUNSET', status: 410, message: expect.stringMatching(/^GET \/pets\/\{petId\} was sunset on 2027-06-30/) });
    expect(gone.headers.get('Sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    expect((await fetch(`${after.url}/pets?id=1`, { headers: AUTH })).status).toBe(200); // the replacement still answers
  });
});

describe('--watch', () => {
  it('reloads an edited document, keeping the state its schemas still accept, and keeps the old one on a broken edit', async () => {
    const folder = dir();
    const spec = join(folder, 'openapi.yaml');
    copyFileSync(SPEC, spec);
    const server = await cli(['--spec', spec, '--fixtures', FIXTURES, '--watch']);
    const pet = await createPet(server.url, 'Watched');
    const original = readFileSync(spec, 'utf8');

    // A compatible edit: a new optional pet field. The pet created before is still there.
    writeFileSync(spec, original.replace("        status:\n          $ref: '#/components/schemas/PetStatus'\n    Pet:", "        nickname:\n          type: string\n          maxLength: 30\n        status:\n          $ref: '#/components/schemas/PetStatus'\n    Pet:"));
    await waitFor(() => server.output().includes('Reloaded'));
    expect(server.output()).toMatch(/state kept for pets, categories, orders, inventory/);
    const renamed = await fetch(`${server.url}/pets/${pet.id}`, { method: 'PUT', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: '{"name":"Watched","categoryId":1,"nickname":"Wat"}' });
    expect(await renamed.json()).toMatchObject({ id: pet.id, name: 'Watched', nickname: 'Wat' });

    // A broken edit: the running document stays.
    writeFileSync(spec, `${original}\n  broken: [\n`);
    await waitFor(() => server.output().includes('Kept the running document'));
    expect((await fetch(`${server.url}/pets/${pet.id}`, { headers: AUTH })).status).toBe(200);

    // An incompatible edit: pets now require a field the stored ones lack, so pets are reseeded.
    writeFileSync(spec, original.replace("      required: [ name, categoryId ]\n      properties:\n        name:\n          type: string\n          minLength: 1\n          maxLength: 100", "      required: [ name, categoryId, species ]\n      properties:\n        species:\n          type: string\n          maxLength: 30\n        name:\n          type: string\n          minLength: 1\n          maxLength: 100"));
    await waitFor(() => (server.output().match(/Reloaded/g) ?? []).length >= 2);
    expect(server.output()).toMatch(/reseeded pets/);
  });
});

async function waitFor(condition: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(50);
  }
}

describe('scenarios, chaos, sessions and the admin API over a real socket', () => {
  it('answers Prefer scenarios, sessions and the admin token through the CLI', async () => {
    const server = await cli(['--admin-token', 'admin-token-7']);
    const forced = await fetch(`${server.url}/pets`, { headers: { ...AUTH, Prefer: 'code=400, delay=120' } });
    expect(forced.status).toBe(400);
    expect(await forced.json()).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(await (await fetch(`${server.url}/pets?__example=empty`, { headers: AUTH })).json()).toEqual([]);
    expect((await fetch(`${server.url}/pets`, { method: 'POST', headers: { ...AUTH, 'X-Mock-Session': 'ci-job-1', 'Content-Type': 'application/json' }, body: '{"name":"Job one","categoryId":1}' })).status).toBe(201);
    expect(await (await fetch(`${server.url}/pets?id=21`, { headers: AUTH })).json()).toEqual([]);
    expect((await fetch(`${server.url}/__admin/state`, { headers: AUTH })).status).toBe(401);
    expect((await fetch(`${server.url}/__admin/reset`, { method: 'POST', headers: { Authorization: 'Bearer admin-token-7', 'Content-Type': 'application/json' } })).status).toBe(200);
  });

  it('injects faults and latency from --error-rate and --delay', async () => {
    const faulty = await cli(['--error-rate', '1']);
    const response = await fetch(`${faulty.url}/pets`, { headers: AUTH });
    expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([500, 'INJECTED_FAULT']);
    const slow = await cli(['--delay', '150']);
    const started = performance.now();
    await fetch(`${slow.url}/pets?limit=1`, { headers: AUTH });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });
});
