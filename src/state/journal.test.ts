/**
 * The state file's journal in process: every change to the shared state is written before the
 * answer that follows it, compactions (the snapshot rewritten in slices while changes go on) lose
 * nothing, a copy of the files taken at any moment reads back every acknowledged record, and a
 * location that stops working is reported and refused, then recovered from.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildMock, type Mock, type BuildMockOptions } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { AUTH, petstore, ROOT } from '../test-support/petstore.js';
import { StateJournal } from './journal.js';
import { persistAnswers, persistenceRefusal } from './persistence.js';
import { exportSnapshot, missingCollections, type StateSnapshot } from './snapshot.js';
import { writeSnapshotFile } from './snapshot-writer.js';
import { readStateFile, StateFileError } from './state-file.js';
import type { CollectionSnapshot } from './state-store.js';
import { observeStore } from './observe-store.js';

const journals: StateJournal[] = [];
afterEach(async () => {
  for (const journal of journals.splice(0)) await journal.close().catch(() => undefined);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const folder = () => mkdtempSync(join(tmpdir(), 'journal-'));

/** A Petstore mock whose shared state is journaled to `dir/state.json`, answering through the server's wrapper. */
async function journaled(dir: string, options: Partial<ConstructorParameters<typeof StateJournal>[0]> = {}, mockOptions: BuildMockOptions = {}) {
  let journal: StateJournal | undefined;
  const mock = await petstore({ writable: () => (journal ? persistenceRefusal(journal) : undefined), persistence: () => journal!.health(), ...mockOptions });
  journal = new StateJournal({ file: join(dir, 'state.json'), generation: 1, syncMs: 20, retryMs: 50, ...options });
  journals.push(journal);
  await journal.start(mock.store, names(mock));
  const fetch = persistAnswers((request) => mock.app.fetch(request), journal);
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(
      new Request(`http://localhost${path}`, { method, headers: { ...AUTH, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return { mock, journal, send };
}

const names = (mock: Mock) => mock.collections.map((c) => c.name);

/** The state read back from the files, as the CLI reads it at start. */
function readBack(mock: Mock, file: string): StateSnapshot {
  const read = readStateFile(file, mock.collections, (data) => {
    const checked = mock.checkState(data);
    return typeof checked === 'string' ? checked : (missingCollections(checked, mock.collections) ?? checked);
  });
  return read.state!;
}

/** Collections without their empty nested scopes (the store may keep some, files do not). */
function normal(collections: Record<string, CollectionSnapshot>): Record<string, CollectionSnapshot> {
  return Object.fromEntries(
    Object.entries(collections).map(([name, c]) => [name, { nextInteger: c.nextInteger, scopes: Object.fromEntries(Object.entries(c.scopes).filter(([scope, records]) => scope === '' || records.length > 0)) }]),
  );
}

describe('the state journal', () => {
  it('writes every change before the answer, and reads back the same state, key sequences included', async () => {
    const dir = folder();
    const { mock, send } = await journaled(dir);
    const made = await send('POST', '/pets', { name: 'Rex', categoryId: 1 });
    expect(made.status).toBe(201);
    // The answer was held until the journal had the change: the file already says so.
    expect(readFileSync(join(dir, 'state.json.1.journal'), 'utf8')).toContain(`"k":${made.body.id},"r":{"name":"Rex"`);
    expect((await send('PATCH', `/pets/${made.body.id}`, { status: 'pending' })).status).toBe(200);
    const gone = await send('POST', '/pets', { name: 'Gone', categoryId: 2 });
    expect((await send('DELETE', `/pets/${gone.body.id}`)).status).toBe(204);
    // An order changes three collections (the order, the pet's stock and status).
    expect((await send('POST', '/store/orders', { petId: 1, quantity: 1 })).status).toBe(201);
    const state = readBack(mock, join(dir, 'state.json'));
    expect(normal(state.collections)).toEqual(normal(exportSnapshot(mock.store).collections));
    // The deleted pet's id stays used: the next one comes after it.
    expect(state.collections.pets.nextInteger).toBe(gone.body.id + 1);
  });

  it('reads back none of a request whose journal write was cut short, and every request before it whole', async () => {
    const dir = folder();
    const { mock, send } = await journaled(dir);
    const file = join(dir, 'state.json');
    const journal = join(dir, 'state.json.1.journal');
    const first = await send('POST', '/pets', { name: 'Whole', categoryId: 1 });
    expect(first.status).toBe(201);
    expect((await send('POST', '/store/orders', { petId: 1, quantity: 1 })).status).toBe(201); // three collections in one request
    const before = normal(exportSnapshot(mock.store).collections);
    // A create writes two records: the pet, then its inventory item (the Petstore rule).
    const cut = await send('POST', '/pets', { name: 'Cut', categoryId: 1 });
    expect(cut.status).toBe(201);
    const text = readFileSync(journal);
    const pet = text.indexOf(`{"op":"put","c":"pets","k":${cut.body.id},`);
    const item = text.indexOf(`{"op":"put","c":"inventory","k":${cut.body.id},`);
    expect(pet).toBeGreaterThan(0);
    expect(item).toBeGreaterThan(pet);
    // The disk filled up after the pet was written, before its inventory item: the file ends there.
    writeFileSync(journal, text.subarray(0, item));
    const state = readBack(mock, file);
    expect(state.collections.pets.scopes[''].map((p) => p.id)).not.toContain(cut.body.id);
    expect(state.collections.inventory.scopes[''].map((i) => i.petId)).not.toContain(cut.body.id);
    expect(normal(state.collections)).toEqual(before);
    expect(state.collections.pets.scopes[''].map((p) => p.id)).toContain(first.body.id);
  });

  it('says a change is written only once it is in the file', async () => {
    const dir = folder();
    const { mock, journal } = await journaled(dir);
    const file = join(dir, 'state.json.1.journal');
    mock.store.collection('pets').put({ id: 4242, name: 'Direct', categoryId: 1 });
    const written = journal.waitWritten();
    expect(written).toBeInstanceOf(Promise);
    expect(readFileSync(file, 'utf8')).not.toContain('"k":4242'); // not yet: the write is asynchronous
    expect(await written).toBe(true);
    // One line per write: the entries made in one turn of the event loop, here one.
    expect(readFileSync(file, 'utf8')).toBe('[{"op":"put","c":"pets","k":4242,"r":{"id":4242,"name":"Direct","categoryId":1}}]\n');
    expect(journal.waitWritten()).toBe(true); // nothing left to wait for
  });

  it('holds each answer until the changes before it are written, and turns a write that could not be into a 503', async () => {
    let release!: (ok: boolean) => void;
    let failing: string | undefined;
    const journal = { waitWritten: () => new Promise<boolean>((resolve) => (release = resolve)), get failing() { return failing; } } as unknown as StateJournal;
    const fetch = persistAnswers(() => new Response('{"id":1}', { status: 201 }), journal);
    const answer = (method: string) => {
      const state = { settled: false };
      const response = Promise.resolve(fetch(new Request('http://localhost/pets', { method }))).then((r) => ((state.settled = true), r));
      return { state, response };
    };
    const post = answer('POST');
    await sleep(20);
    expect(post.state.settled).toBe(false);
    release(true);
    expect((await post.response).status).toBe(201);

    const lost = answer('POST');
    await sleep(5);
    failing = 'Cannot write the journal x: EIO (i/o error)';
    release(false);
    const refused = await lost.response;
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: 'PERSISTENCE_FAILED', status: 503, message: expect.stringContaining('EIO') });
    const read = answer('GET');
    release(false);
    expect((await read.response).status).toBe(201); // a read is passed as it is
  });

  it('keeps the key sequence as the store does, through creates, deletes, clears and imports', async () => {
    const { store } = await petstore();
    const entries: string[] = [];
    const observed = observeStore(store, ['pets'], (entry) => entries.push(entry));
    const pets = store.collection('pets');
    const check = () => expect(observed.nextInteger('pets')).toBe(pets.export().nextInteger);
    check();
    pets.put({ id: pets.allocateInteger(), name: 'A', categoryId: 1 });
    pets.allocateInteger(); // allocated, never stored
    check();
    pets.delete(1);
    pets.put({ id: 500, name: 'B', categoryId: 1 });
    check();
    pets.import({ nextInteger: 900, scopes: { '': [{ id: 3, name: 'C', categoryId: 1 }] } });
    check();
    expect(entries.at(-1)).toBe('{"op":"next","c":"pets","n":900}');
    pets.clear();
    check();
    observed.detach();
    pets.put({ id: 7, name: 'D', categoryId: 1 });
    expect(entries.at(-1)).toBe('{"op":"clear","c":"pets"}'); // detached: no longer journaled
    expect(Object.hasOwn(pets, 'put')).toBe(false); // the collection's own methods are back
  });

  it('compacts while writes go on, and any copy of the files taken meanwhile reads back every acknowledged pet', async () => {
    const dir = folder();
    const file = join(dir, 'state.json');
    // Compacted as soon as the journal outgrows the snapshot, in slices of no time at all (a turn
    // every 64 records): many snapshots, each overlapping writes.
    const { mock, journal, send } = await journaled(dir, { compactBytes: 1, sliceMs: 0 });
    const acknowledged = new Set<number>();
    const removed = new Set<number>();
    const copies: Array<{ dir: string; acknowledged: number[]; removed: number[] }> = [];
    const copy = () => {
      const to = folder();
      // Journals first, then the snapshot: a snapshot renamed in between is newer and needs only newer journals.
      for (const name of readdirSync(dir).filter((n) => n.endsWith('.journal'))) {
        try {
          copyFileSync(join(dir, name), join(to, name));
        } catch {
          // deleted meanwhile: its snapshot is in place
        }
      }
      copyFileSync(file, join(to, 'state.json'));
      copies.push({ dir: to, acknowledged: [...acknowledged], removed: [...removed] });
    };
    for (let round = 0; round < 40; round++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send('POST', '/pets', { name: `P${round}-${i}`, categoryId: 1 })));
      for (const answer of answers) {
        expect(answer.status).toBe(201);
        acknowledged.add(answer.body.id);
      }
      const [first] = answers;
      expect((await send('DELETE', `/pets/${first.body.id}`)).status).toBe(204);
      acknowledged.delete(first.body.id);
      removed.add(first.body.id);
      copy();
      await sleep(round % 3);
    }
    // A compaction the last writes started may still be writing its snapshot (a .tmp, renamed when done): once it is done, none is left.
    await journal.settled();
    expect(readdirSync(dir).some((n) => n.endsWith('.tmp'))).toBe(false);
    const generations = readdirSync(dir).filter((n) => n.endsWith('.journal'));
    expect(Number(/\.(\d+)\.journal$/.exec(generations.at(-1)!)![1])).toBeGreaterThan(3); // it did compact, several times
    expect(normal(readBack(mock, file).collections)).toEqual(normal(exportSnapshot(mock.store).collections));
    for (const { dir: copied, acknowledged: before, removed: gone } of copies) {
      const pets = readBack(mock, join(copied, 'state.json')).collections.pets;
      const ids = new Set(pets.scopes[''].map((p) => p.id as number));
      expect(before.filter((id) => !ids.has(id))).toEqual([]);
      expect(gone.filter((id) => ids.has(id))).toEqual([]);
      expect(pets.nextInteger).toBeGreaterThan(Math.max(...before, ...gone));
    }
  });

  it('after a --watch reload, journals the new store from its own snapshot, and no longer the old one', async () => {
    const dir = folder();
    const file = join(dir, 'state.json');
    const { mock, journal } = await journaled(dir);
    const next = await petstore({ counts: { pets: 5 } });
    const held = journal.rebase(next.store, names(next));
    mock.store.collection('pets').put({ id: 999, name: 'Old store', categoryId: 1 }); // the old store, no longer saved
    next.store.collection('pets').put({ id: 77, name: 'New store', categoryId: 1 }); // held until the new snapshot is in place
    const written = journal.waitWritten();
    expect(written).toBeInstanceOf(Promise);
    expect(await held).toBeUndefined();
    expect(await written).toBe(true);
    const pets = readBack(next, file).collections.pets.scopes[''];
    expect(pets.map((p) => p.id)).toContain(77);
    expect(pets.map((p) => p.id)).not.toContain(999);
    expect(normal(readBack(next, file).collections)).toEqual(normal(exportSnapshot(next.store).collections));
  });

  it('reports a location that stops working, refuses writes with 503 meanwhile, and recovers once it works again', async () => {
    const parent = folder();
    const dir = join(parent, 'state');
    mkdirSync(dir);
    const { mock, journal, send } = await journaled(dir, {}, { selfCheck: false }); // /__health compared whole: without the self-check's counts
    const before = await send('POST', '/pets', { name: 'Before', categoryId: 1 });
    expect(before.status).toBe(201);
    // The directory replaced by a file: chmod would not stop root, this stops anyone.
    renameSync(dir, `${dir}.moved`);
    writeFileSync(dir, 'not a directory');
    for (let i = 0; i < 100 && journal.health().ok; i++) await sleep(10);
    const health = journal.health();
    expect(health).toMatchObject({ enabled: true, ok: false, error: expect.stringContaining('state.json') });
    expect(health.lastWrite).toMatch(/^\d{4}-\d\d-\d\dT/);
    const refused = await send('POST', '/pets', { name: 'Refused', categoryId: 1 });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ code: 'PERSISTENCE_FAILED', status: 503, message: expect.stringMatching(/^The state cannot be saved, so writes are refused until it can/) });
    expect(mock.store.collection('pets').where('name', 'Refused')).toEqual([]); // refused before the action
    expect((await send('GET', `/pets/${before.body.id}`)).status).toBe(200); // reads still work
    const probe = await mock.app.request('/__health');
    expect(probe.status).toBe(503);
    expect(await probe.json()).toEqual({ status: 'degraded', persistence: health });
    // The directory back: the whole state is written again and writes are accepted.
    rmSync(dir);
    renameSync(`${dir}.moved`, dir);
    for (let i = 0; i < 200 && !journal.health().ok; i++) await sleep(10);
    expect(journal.health()).toMatchObject({ ok: true, error: null });
    const after = await send('POST', '/pets', { name: 'After', categoryId: 1 });
    expect(after.status).toBe(201);
    expect(await (await mock.app.request('/__health')).json()).toMatchObject({ status: 'ok', persistence: { ok: true } });
    const ids = readBack(mock, join(dir, 'state.json')).collections.pets.scopes[''].map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([before.body.id, after.body.id]));
  });

  it('turns the 201 of a write whose change could not be written into a 503 (an admin write, past the gate)', async () => {
    const parent = folder();
    const dir = join(parent, 'state');
    mkdirSync(dir);
    const { journal } = await journaled(dir, { retryMs: 60_000 });
    renameSync(dir, `${dir}.moved`);
    writeFileSync(dir, 'not a directory');
    for (let i = 0; i < 100 && journal.health().ok; i++) await sleep(10);
    expect(journal.waitWritten()).toBe(false);
    const fetch = persistAnswers(() => new Response('{}', { status: 200, headers: { 'Access-Control-Allow-Origin': '*' } }), journal);
    const answer = await fetch(new Request('http://localhost/__admin/reset', { method: 'POST' }));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect((await fetch(new Request('http://localhost/pets'))).status).toBe(200); // a read passes
  });

  it('says /__health is fine, with no persistence, when there is no state file', async () => {
    const { app } = await petstore({ selfCheck: false });
    const response = await app.request('/__health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', persistence: { enabled: false, ok: true, lastWrite: null, error: null } });
  });

  it('writes a snapshot whole through buffers of any size, a record longer than one included', async () => {
    const dir = folder();
    const { store, collections } = await petstore();
    store.collection('pets').put({ id: 5000, name: 'Ünïcödé '.repeat(12), categoryId: 1, tags: ['x'.repeat(700)] });
    const file = join(dir, 'state.json');
    const names = collections.map((c) => c.name);
    for (const chunkBytes of [64, 256, 4096, 1 << 20]) {
      const size = await writeSnapshotFile(file, { store, names, nextInteger: (name) => store.collection(name).export().nextInteger }, 3, { sliceMs: 0, chunkBytes });
      const text = readFileSync(file, 'utf8');
      expect(Buffer.byteLength(text)).toBe(size);
      const data = JSON.parse(text);
      expect(data.journal).toEqual({ generation: 3 });
      expect(normal(data.collections)).toEqual(normal(exportSnapshot(store).collections));
    }
  });

  it('never throws from its clean-up: a snapshot that cannot be written rejects with the first error', async () => {
    const parent = folder();
    writeFileSync(join(parent, 'file'), 'x');
    const { store, collections } = await petstore();
    const written = writeSnapshotFile(join(parent, 'file', 'state.json'), { store, names: collections.map((c) => c.name), nextInteger: () => 1 }, 1, { sliceMs: 0 });
    await expect(written).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});

describe('reading the state file', () => {
  const write = (dir: string, data: unknown) => writeFileSync(join(dir, 'state.json'), JSON.stringify(data));

  it('ignores a last journal line cut short by a crash, and refuses a damaged one before it (a journal of an earlier version, a change per line)', async () => {
    const dir = folder();
    const { mock } = await journaled(dir);
    const file = join(dir, 'state.json');
    const journal = join(dir, 'state.json.1.journal');
    writeFileSync(journal, '{"op":"put","c":"pets","k":300,"r":{"id":300,"name":"Whole","categoryId":1}}\n{"op":"put","c":"pets","k":301,"r":{"id":3');
    const pets = readBack(mock, file).collections.pets;
    expect(pets.scopes[''].map((p) => p.id)).toContain(300);
    expect(pets.scopes[''].map((p) => p.id)).not.toContain(301);
    expect(pets.nextInteger).toBe(301);
    writeFileSync(journal, '{"op":"put","c":"pets",\n{"op":"del","c":"pets","k":1}\n');
    expect(() => readBack(mock, file)).toThrow(/^The journal .*state\.json\.1\.journal, line 1, is not valid JSON; the state file and its journals were left untouched/);
    writeFileSync(journal, '{"op":"put","c":"owners","k":1,"r":{"id":1}}\n');
    expect(() => readBack(mock, file)).toThrow(/line 1, names collection "owners", which is not in the document \(it has: pets, categories, orders, inventory\)/);
  });

  it('reads a journal line as a unit: a whole one applied, one cut short dropped whole, a damaged one before the last refused', async () => {
    const dir = folder();
    const { mock } = await journaled(dir);
    const file = join(dir, 'state.json');
    const journal = join(dir, 'state.json.1.journal');
    const pet = (id: number) => `{"op":"put","c":"pets","k":${id},"r":{"id":${id},"name":"P${id}","categoryId":1,"status":"available"}}`;
    const item = (id: number) => `{"op":"put","c":"inventory","k":${id},"r":{"petId":${id},"quantity":0,"status":"available"}}`;
    const ids = (state: StateSnapshot) => ({ pets: state.collections.pets.scopes[''].map((p) => p.id), items: state.collections.inventory.scopes[''].map((i) => i.petId) });
    // A line of an older journal (one entry), a whole unit, then a unit cut after its first entry.
    writeFileSync(journal, `${pet(299)}\n[${pet(300)},${item(300)}]\n[${pet(301)},`);
    let read = ids(readBack(mock, file));
    expect(read.pets).toEqual(expect.arrayContaining([299, 300]));
    expect(read.items).toContain(300);
    expect(read.pets).not.toContain(301);
    expect(readBack(mock, file).collections.pets.nextInteger).toBe(301);
    // A last unit that is whole JSON but lacks its newline was not written whole: dropped too.
    writeFileSync(journal, `[${pet(300)},${item(300)}]\n[${pet(301)},${item(301)}]`);
    read = ids(readBack(mock, file));
    expect(read.pets).toContain(300);
    expect(read.pets).not.toContain(301);
    expect(read.items).not.toContain(301);
    // A unit cut short with another after it is damage, not a crash: refused, and nothing is read.
    writeFileSync(journal, `[${pet(301)},\n[${pet(302)},${item(302)}]\n`);
    expect(() => readBack(mock, file)).toThrow(/^The journal .*state\.json\.1\.journal, line 1, is not valid JSON; the state file and its journals were left untouched/);
    writeFileSync(journal, `[${pet(301)},${item(301)}]\n[${pet(302)},{"op":"put","c":"owners","k":1,"r":{"id":1}}]\n`);
    expect(() => readBack(mock, file)).toThrow(/line 2, change 2, names collection "owners", which is not in the document/);
  });

  it('refuses a state missing a collection, or with one the document does not have, naming it', async () => {
    const dir = folder();
    const mock = await petstore();
    const whole = exportSnapshot(mock.store);
    const { orders: _orders, inventory: _inventory, ...partial } = whole.collections;
    write(dir, { ...whole, collections: partial });
    expect(() => readBack(mock, join(dir, 'state.json'))).toThrow(StateFileError);
    expect(() => readBack(mock, join(dir, 'state.json'))).toThrow(
      /does not fit the document: collections "orders", "inventory" are missing \(the document has: pets, categories, orders, inventory\); a state file holds every collection; it was left untouched/,
    );
    write(dir, { ...whole, collections: { ...whole.collections, owners: { nextInteger: 1, scopes: {} } } });
    expect(() => readBack(mock, join(dir, 'state.json'))).toThrow(/collection "owners" is not in the document/);
  });

  it('reads a state file without a journal (an export of GET /__admin/state), and starts journals past any on disk', async () => {
    const dir = folder();
    const mock = await petstore();
    write(dir, exportSnapshot(mock.store));
    writeFileSync(join(dir, 'state.json.7.journal'), '');
    const read = readStateFile(join(dir, 'state.json'), mock.collections, mock.checkState);
    expect(read.generation).toBe(8);
    expect(normal(read.state!.collections)).toEqual(normal(exportSnapshot(mock.store).collections));
  });

  it('starts from the seed when the state file was removed, saying its journals are ignored', async () => {
    const dir = folder();
    const mock = await petstore();
    writeFileSync(join(dir, 'state.json.3.journal'), '{"op":"clear","c":"pets"}\n');
    const read = readStateFile(join(dir, 'state.json'), mock.collections, mock.checkState);
    expect(read.state).toBeUndefined();
    expect(read.generation).toBe(4);
    expect(read.notes).toEqual([expect.stringMatching(/^1 journal file\(s\) next to .*state\.json have no state file \(it was removed\): ignored/)]);
  });
});

describe('the state journal on records keyed otherwise than by an id of their own', () => {
  /** A mock of a test document whose shared state is journaled to `dir/state.json`. */
  async function journaledDocument(dir: string, name: string, options: BuildMockOptions) {
    const document = await loadDocument(`${ROOT}test/documents/${name}`);
    const mock = buildMock(document, options);
    const journal = new StateJournal({ file: join(dir, 'state.json'), generation: 1, syncMs: 20, retryMs: 50 });
    journals.push(journal);
    await journal.start(mock.store, names(mock));
    const fetch = persistAnswers((request) => mock.app.fetch(request), journal);
    const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(new Request(`http://localhost${path}`, { method, headers: { ...AUTH, 'Content-Type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }));
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    };
    return { document, mock, journal, send };
  }

  it("reads back keys counted per parent with each parent's sequence, deletes included, from the journal and from the snapshot alone", async () => {
    const dir = folder();
    const file = join(dir, 'state.json');
    const { document, mock, journal, send } = await journaledDocument(dir, 'numbered-api.yaml', { counts: { projects: 2, issues: 0, comments: 0 } });
    for (const title of ['a', 'b', 'c']) expect((await send('POST', '/projects/1/issues', { title })).status).toBe(201);
    expect((await send('DELETE', '/projects/1/issues/3')).status).toBe(200);
    expect((await send('POST', '/projects/2/issues', { title: 'x' })).body.number).toBe(1);
    const sequences = { '1': 4, '2': 2 };
    expect(readBack(mock, file).collections.issues.sequences).toEqual(sequences);
    await journal.close(); // the whole state in the snapshot, the journal removed
    const state = readBack(mock, file);
    expect([state.collections.issues.sequences, state.collections.issues.scopes['1'].map((i) => i.number)]).toEqual([sequences, [1, 2]]);
    // A mock started from it gives project 1 its issue 4: 3 was given once, and is not given again.
    const again = buildMock(document, { counts: { projects: 2, issues: 0, comments: 0 } });
    expect(again.importState(again.store, state)).toBeUndefined();
    const next = await again.app.request('/projects/1/issues', { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: '{"title":"d"}' });
    expect(((await next.json()) as { number: number }).number).toBe(4);
  });

  it('reads back keyless records, twins included, each once, from the journal and from the snapshot alone', async () => {
    const dir = folder();
    const file = join(dir, 'state.json');
    const { mock, journal, send } = await journaledDocument(dir, 'pathless-api.yaml', { apiKeys: ['k-1'], counts: { default: 0, events: 2 } });
    const key = { 'X-Key': 'k-1' };
    for (let i = 0; i < 2; i++) expect((await send('POST', '/events', { type: 'note', message: 'twin' }, key)).status).toBe(201);
    const events = exportSnapshot(mock.store).collections.events.scopes[''];
    expect(events).toHaveLength(4);
    expect(readBack(mock, file).collections.events.scopes['']).toEqual(events);
    await journal.close();
    expect(readBack(mock, file).collections.events.scopes['']).toEqual(events);
  });
});
