/**
 * "A write fails alone, on every store" (issue 37) on the PostgreSQL store, on a real PostgreSQL
 * from Debian's packages, through replicas in process: the examples (a lone surrogate in a
 * pet's name, a NUL in a key the client chose, each among 60 concurrent creates), then the property
 * of src/test-support/unusual-text.ts, read back through a second replica after each run and a
 * third started after the last. The in-memory store and the state file:
 * src/robustness/unusual-text-stores.integration.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { caller, FIXTURES, petstoreDocument, ROOT, type Call } from '../test-support/petstore.js';
import { startPostgres, type RunningPostgres } from '../test-support/postgres.js';
import { checkUnusualText, LABELS_DOCUMENT } from '../test-support/unusual-text.js';
import { connectPostgres, type PostgresStores } from './postgres-stores.js';

const SEED = Number(process.env.FUZZ_SEED) || 20_261_128;
const RUNS = Number(process.env.FUZZ_RUNS) || 40;

describe('arbitrary Unicode through the PostgreSQL store, with ordinary writes alongside', () => {
  let server: RunningPostgres;
  const opened: PostgresStores[] = [];
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    for (const stores of opened.reverse()) await stores.close();
    await server?.stop();
  });

  /**
   * A replica of a mock on the namespace (the Petstore, or the labels document): its own
   * connections, what they report as events, and its requests.
   */
  async function replica(namespace: string, labels = false) {
    const events: string[] = [];
    const stores = await connectPostgres({ url: server.url, namespace, probeMs: 50, onEvent: (message) => events.push(message) });
    opened.push(stores);
    const document = labels ? await loadDocument(`${ROOT}${LABELS_DOCUMENT}`) : await petstoreDocument();
    const mock = buildMock(document, { ...(labels ? {} : { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS }), store: stores.make, persistence: () => stores.health() });
    await stores.ready();
    return { call: caller(mock), events };
  }

  /** 60 ordinary creates sent with `odd` in the middle, so that they wait for the same group commit; every one must be taken. */
  async function among(call: Call, path: string, ordinary: (i: number) => unknown, odd: () => ReturnType<Call>) {
    const before = Array.from({ length: 30 }, (_, i) => call('POST', path, ordinary(i)));
    const answer = odd();
    const health = call('GET', '/__health');
    const after = Array.from({ length: 30 }, (_, i) => call('POST', path, ordinary(30 + i)));
    const created = await Promise.all([...before, ...after]);
    expect(created.map((each) => each.status)).toEqual(created.map(() => 201));
    expect((await health).status, 'GET /__health while the writes were under way').toBe(200);
    expect((await call('GET', '/__health')).status).toBe(200);
    return { answer: await answer, created };
  }

  it('POST /pets {"name":"\\ud800","categoryId":1} among 60 creates: 400 for it alone, the 60 taken, /__health ready', async () => {
    const { call, events } = await replica('pets');
    const { answer, created } = await among(call, '/pets', (i) => ({ name: `Ordinary ${i}`, categoryId: 1 }), () => call('POST', '/pets', '{"name":"\\ud800","categoryId":1}'));
    expect([answer.status, answer.body]).toEqual([400, expect.objectContaining({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ path: 'body.name', rule: 'unicode' })] })]);
    expect(events).toEqual([]);
    const other = await replica('pets');
    const listed = (await other.call('GET', '/pets?limit=100')).body as Array<{ id: number }>;
    expect(listed.filter((pet) => created.some((each) => each.body.id === pet.id))).toEqual(created.map((each) => each.body).sort((a, b) => a.id - b.id));
  });

  it('a NUL in a key the client chose, among 60 creates: taken, and read back exactly through another replica, with the notes under it', async () => {
    const { call, events } = await replica('nul-key', true);
    const { answer } = await among(call, '/labels', (i) => ({ name: `ordinary ${i}` }), () => call('POST', '/labels', '{"name":"a\\u0000b","color":"\\u0000"}'));
    expect([answer.status, answer.body]).toEqual([201, { name: 'a\u0000b', color: '\u0000' }]);
    expect((await call('POST', '/labels/a%00b/notes', { text: 'under a\u0000b' })).status).toBe(201);
    expect(events).toEqual([]);
    const other = await replica('nul-key', true);
    expect((await other.call('GET', '/labels/a%00b')).body).toEqual({ name: 'a\u0000b', color: '\u0000' });
    expect((await other.call('GET', '/labels/a%00b/notes')).body).toEqual([{ id: expect.any(Number), text: 'under a\u0000b' }]);
    expect((await other.call('GET', '/labels')).body).toEqual((await call('GET', '/labels')).body);
  });

  it('no 5xx, every ordinary write taken, lone surrogates refused with a 400, the rest read back exactly through every replica', async () => {
    const writer = await replica('property', true);
    const reader = await replica('property', true);
    await checkUnusualText(
      {
        call: writer.call,
        readers: async () => [reader.call],
        // A replica started after the last run loads the tables rather than following the log.
        finally: async () => [(await replica('property', true)).call],
      },
      { seed: SEED, runs: RUNS },
    );
    expect([...writer.events, ...reader.events]).toEqual([]);
  });
});
