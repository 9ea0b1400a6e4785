/**
 * Keys and scopes of any length on the PostgreSQL store, on a real PostgreSQL from Debian's
 * packages, through replicas in process, on test/documents/wiki-api.yaml (pages keyed by a name the
 * client chooses with no maxLength, tags and numbered revisions under each): a name longer than an
 * index row holds (about 2,700 bytes) is taken and read back exactly through every replica, as the
 * in-memory store takes it, never a 500, and so is a longer one an admin import brings. Also: the
 * rows of ordinary keys are as they were, a short key that reads like a long one's indexed form is
 * another key, and a database made by the version before (long keys stored as they were) is served
 * and kept by this one. The store level (put, replace, delete, drop, sequences): the conformance
 * suite (postgres-store.process.test.ts).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { ASCII, longText, MULTI_BYTE, utf8Length } from '../test-support/long-text.js';
import { caller, ROOT, type Call } from '../test-support/petstore.js';
import { postgresForTests } from '../test-support/postgres.js';
import { connectPostgres } from './postgres-stores.js';

const WIKI = `${ROOT}test/documents/wiki-api.yaml`;
const ADMIN_TOKEN = 'admin-secret';
const page = (name: string) => `/pages/${encodeURIComponent(name)}`;

/** Letters and digits, ten times each, a NUL and an é: 60,000 bytes of it, about 160 NULs written `\u0000`, still fit a body's 64 KiB. */
const RARE_NUL = [...'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(10), '\u0000', 'é'];
/** Names a request can carry: 3,000 bytes of ASCII, 10,000 of multi-byte text, 60,000 holding NULs. */
const NAMES = [longText(3_000, ASCII, 11), longText(10_000, MULTI_BYTE, 12), longText(60_000, RARE_NUL, 13)];

describe('keys and scopes of any length on the PostgreSQL store', () => {
  const postgres = postgresForTests();

  /** A replica of a wiki mock on the database and namespace: its requests, and what it reports as events (a lost database). */
  async function replica(url: string, namespace: string): Promise<{ call: Call; events: string[] }> {
    const events: string[] = [];
    const stores = await connectPostgres({ url, namespace, probeMs: 50, onEvent: (message) => events.push(message) });
    postgres.opened(stores);
    const mock = buildMock(await loadDocument(WIKI), { counts: { default: 0 }, adminToken: ADMIN_TOKEN, store: stores.make, persistence: () => stores.health() });
    await stores.ready();
    return { call: caller(mock), events };
  }

  async function client(url: string): Promise<pg.Client> {
    const connected = new pg.Client({ connectionString: url });
    await connected.connect();
    postgres.opened(connected);
    return connected;
  }

  it('takes a page named by 3,000, 10,000 and 60,000 bytes (201, where it was a 500), and its tags and revisions, read back exactly through another replica, deleted with them', async () => {
    const url = await postgres.server().createDatabase('requests');
    const writer = await replica(url, 'wiki');
    const reader = await replica(url, 'wiki');
    for (const [i, name] of NAMES.entries()) {
      const label = `a name of ${utf8Length(name)} bytes`;
      const tag = longText(3_000, ASCII, 20 + i);
      const created = await writer.call('POST', '/pages', { name, body: 'first' });
      expect([created.status, created.body], label).toEqual([201, { name, body: 'first' }]);
      expect((await writer.call('POST', `${page(name)}/tags`, { tag })).status, label).toBe(201);
      expect((await writer.call('POST', `${page(name)}/revisions`, { summary: 'one' })).body, label).toEqual({ number: 1, summary: 'one' });

      expect(await reader.call('GET', page(name)), label).toMatchObject({ status: 200, body: { name, body: 'first' } });
      expect(await reader.call('GET', `${page(name)}/tags/${encodeURIComponent(tag)}`), label).toMatchObject({ status: 200, body: { tag } });
      // Numbered within the page through either replica.
      expect((await reader.call('POST', `${page(name)}/revisions`, { summary: 'two' })).body, label).toEqual({ number: 2, summary: 'two' });
      expect((await writer.call('PUT', page(name), { name, body: 'second' })).status, label).toBe(200);
      expect((await reader.call('GET', page(name))).body, label).toEqual({ name, body: 'second' });
    }
    // A replica started after loads them from the tables.
    const late = await replica(url, 'wiki');
    const listed = (await writer.call('GET', '/pages')).body as Array<{ name: string }>;
    expect(listed.map((each) => each.name)).toEqual(NAMES);
    expect((await late.call('GET', '/pages')).body).toEqual(listed);
    expect((await late.call('GET', `${page(NAMES[2])}/revisions`)).body).toEqual([
      { number: 1, summary: 'one' },
      { number: 2, summary: 'two' },
    ]);

    // Deleted through one replica, with what is under it: gone through every replica, and from the tables.
    expect((await late.call('DELETE', page(NAMES[1]))).status).toBe(204);
    for (const { call } of [writer, reader, late]) {
      expect((await call('GET', page(NAMES[1]))).status).toBe(404);
      expect((await call('GET', '/pages')).body).toEqual(listed.filter((each) => each.name !== NAMES[1]));
    }
    const sql = await client(url);
    const { rows } = await sql.query("SELECT c, count(*)::int AS n FROM mock_records WHERE ns = 'wiki' GROUP BY c ORDER BY c");
    expect(rows).toEqual([
      { c: 'pages', n: 2 },
      { c: 'revisions', n: 4 },
      { c: 'tags', n: 2 },
    ]);
    expect([...writer.events, ...reader.events, ...late.events]).toEqual([]);
  });

  it('imports through the admin API a page named by 200,000 bytes, more than a request body carries, with a tag and a revision under it', async () => {
    const url = await postgres.server().createDatabase('import');
    const writer = await replica(url, 'import');
    const reader = await replica(url, 'import');
    const name = longText(200_000, MULTI_BYTE, 31);
    const collections = {
      pages: { nextInteger: 1, scopes: { '': [{ name, body: 'imported' }] } },
      tags: { nextInteger: 1, scopes: { [name]: [{ tag: name }] } },
      revisions: { nextInteger: 2, scopes: { [name]: [{ number: 1, summary: 'imported' }] }, sequences: { [name]: 2 } },
    };
    const imported = await writer.call('PUT', '/__admin/state', { format: 'petstore-mock-kit/state@1', collections }, { Authorization: `Bearer ${ADMIN_TOKEN}` });
    expect([imported.status, imported.body]).toMatchObject([200, { counts: { pages: 1, tags: 1, revisions: 1 } }]);
    expect((await reader.call('GET', page(name))).body).toEqual({ name, body: 'imported' });
    expect((await reader.call('GET', `${page(name)}/tags`)).body).toEqual([{ tag: name }]);
    expect((await reader.call('POST', `${page(name)}/revisions`, { summary: 'next' })).body).toEqual({ number: 2, summary: 'next' });
    const late = await replica(url, 'import');
    expect((await late.call('GET', `${page(name)}/revisions`)).body).toEqual([
      { number: 1, summary: 'imported' },
      { number: 2, summary: 'next' },
    ]);
    expect([...writer.events, ...reader.events]).toEqual([]);
  });

  it("keeps an ordinary key's row as it was (the key and the scope in their columns as sent), a long one's under a short form of its own with its text beside", async () => {
    const url = await postgres.server().createDatabase('rows');
    const { call } = await replica(url, 'rows');
    const long = NAMES[0];
    expect((await call('POST', '/pages', { name: 'Home' })).status).toBe(201);
    expect((await call('POST', '/pages/Home/tags', { tag: 'start' })).status).toBe(201);
    expect((await call('POST', '/pages', { name: long })).status).toBe(201);
    expect((await call('POST', `${page(long)}/tags`, { tag: long })).status).toBe(201);
    const sql = await client(url);
    const { rows } = await sql.query("SELECT c, s, k, s_full, k_full FROM mock_records WHERE ns = 'rows' ORDER BY position");
    expect(rows.slice(0, 2)).toEqual([
      { c: 'pages', s: '', k: 'Home', s_full: null, k_full: null },
      { c: 'tags', s: 'Home', k: 'start', s_full: null, k_full: null },
    ]);
    const short = `\u0001#${createHash('sha256').update(long).digest('hex')}`;
    expect(rows.slice(2)).toEqual([
      { c: 'pages', s: '', k: short, s_full: null, k_full: long },
      { c: 'tags', s: short, k: short, s_full: long, k_full: long },
    ]);
    // The query docs/replicas.md gives.
    const documented = await sql.query("SELECT coalesce(k_full, k) AS key, coalesce(raw, body::text) AS record FROM mock_records WHERE ns = 'rows' AND c = 'pages' ORDER BY position");
    expect(documented.rows.map(({ key, record }) => [key, JSON.parse(record)])).toEqual([
      ['Home', { name: 'Home' }],
      [long, { name: long }],
    ]);
  });

  it("tells a short key that reads like a long one's indexed form from the long one", async () => {
    const url = await postgres.server().createDatabase('lookalike');
    const first = await replica(url, 'lookalike');
    const long = NAMES[0];
    const lookalike = `\u0001#${createHash('sha256').update(long).digest('hex')}`;
    expect((await first.call('POST', '/pages', { name: long, body: 'long' })).status).toBe(201);
    expect((await first.call('POST', '/pages', { name: lookalike, body: 'short' })).status).toBe(201);
    expect((await first.call('POST', `${page(lookalike)}/revisions`, { summary: 'under the short one' })).body).toEqual({ number: 1, summary: 'under the short one' });
    const other = await replica(url, 'lookalike');
    expect((await other.call('GET', page(long))).body).toEqual({ name: long, body: 'long' });
    expect((await other.call('GET', page(lookalike))).body).toEqual({ name: lookalike, body: 'short' });
    expect((await other.call('GET', `${page(long)}/revisions`)).body).toEqual([]);
    expect((await other.call('POST', `${page(long)}/revisions`, { summary: 'under the long one' })).body).toEqual({ number: 1, summary: 'under the long one' });
  });

  it('serves and keeps a database made by the version before, whose keys and scopes past 1 KiB were stored as they were', async () => {
    const url = await postgres.server().createDatabase('before');
    const sql = await client(url);
    // The tables as the version before made them, and what it wrote for a page named by 2,000 bytes, a tag and a revision under it.
    await sql.query(`
      CREATE TABLE mock_spaces (ns text PRIMARY KEY, epoch bigint NOT NULL, horizon bigint NOT NULL DEFAULT 0, collections text NOT NULL, touched timestamptz NOT NULL DEFAULT now());
      CREATE TABLE mock_records (ns text NOT NULL, c text NOT NULL, s text NOT NULL, k text NOT NULL, position bigint NOT NULL, body jsonb, raw text, PRIMARY KEY (ns, c, s, k));
      CREATE INDEX mock_records_order ON mock_records (ns, c, s, position);
      CREATE TABLE mock_sequences (ns text NOT NULL, c text NOT NULL, s text NOT NULL, next bigint NOT NULL, PRIMARY KEY (ns, c, s));
      CREATE TABLE mock_changes (ns text NOT NULL, seq bigint NOT NULL, entries text NOT NULL, PRIMARY KEY (ns, seq));
      CREATE SEQUENCE mock_seq;
      CREATE SEQUENCE mock_position;
      INSERT INTO mock_spaces (ns, epoch, collections) VALUES ('before', nextval('mock_seq'), '["pages","tags","revisions"]');`);
    const name = longText(2_000, ASCII, 21);
    const put = (c: string, s: string, k: string, body: object) =>
      sql.query("INSERT INTO mock_records (ns, c, s, k, position, body) VALUES ('before', $1, $2, $3, nextval('mock_position'), $4)", [c, s, k, JSON.stringify(body)]);
    await put('pages', '', 'Home', { name: 'Home' });
    await put('pages', '', name, { name, body: 'old' });
    await put('tags', name, 'kept', { tag: 'kept' });
    await put('revisions', name, '1', { number: 1, summary: 'old' });
    await sql.query("INSERT INTO mock_sequences (ns, c, s, next) VALUES ('before', 'revisions', '', 2), ('before', 'revisions', $1, 2)", [name]);

    const { call, events } = await replica(url, 'before');
    expect((await call('GET', page(name))).body).toEqual({ name, body: 'old' });
    expect((await call('GET', `${page(name)}/tags/kept`)).body).toEqual({ tag: 'kept' });
    expect((await call('POST', `${page(name)}/revisions`, { summary: 'new' })).body).toEqual({ number: 2, summary: 'new' });
    // Replaced, not stored twice.
    expect((await call('PUT', page(name), { name, body: 'new' })).status).toBe(200);
    expect((await call('GET', '/pages')).body).toEqual([{ name: 'Home' }, { name, body: 'new' }]);
    const other = await replica(url, 'before');
    expect((await other.call('GET', `${page(name)}/revisions`)).body).toEqual([
      { number: 1, summary: 'old' },
      { number: 2, summary: 'new' },
    ]);
    // Deleted with what is under it: no row of it left, by its old form or its new one.
    expect((await other.call('DELETE', page(name))).status).toBe(204);
    const { rows } = await sql.query("SELECT c, k FROM mock_records WHERE ns = 'before'");
    expect(rows).toEqual([{ c: 'pages', k: 'Home' }]);
    expect((await sql.query("SELECT c, s FROM mock_sequences WHERE ns = 'before'")).rows).toEqual([{ c: 'revisions', s: '' }]);
    expect((await call('GET', '/pages')).body).toEqual([{ name: 'Home' }]);
    expect(events).toEqual([]);
  });
});
