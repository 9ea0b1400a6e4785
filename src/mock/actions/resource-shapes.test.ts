/**
 * The mock on documents shaped unlike the Petstore (test/documents/library-api.yaml): every answer
 * is checked against the document by the walk, and each test asserts what a real server would
 * keep: reads after writes, scoping, 404 after delete.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../test-support/petstore.js';
import { walk } from '../../test-support/walk.js';

const LIBRARY = `${ROOT}test/documents/library-api.yaml`;
const KEY = { 'X-Library-Key': 'k-1' };
const NOW = new Date('2031-05-06T07:08:09.000Z');
const library = (counts: Record<string, number> = { default: 0 }) => walk(LIBRARY, { apiKeys: ['k-1'], counts, now: () => NOW }, KEY);

describe('server-filled fields', () => {
  it('fills what the client may not send: the key, timestamps from the clock, declared defaults', async () => {
    const { call } = await library();
    const created = await call('POST', '/v2/members', { name: 'Ada' });
    expect([created.status, created.body]).toEqual([201, { id: 1, name: 'Ada', plan: 'basic', createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() }]);
    expect((await call('GET', '/v2/members/1')).body).toEqual(created.body);
  });

  it('keeps them through an update, and moves the updated time with the clock', async () => {
    let now = NOW.getTime();
    const { call } = await walk(LIBRARY, { apiKeys: ['k-1'], counts: { default: 0 }, now: () => new Date(now) }, KEY);
    await call('POST', '/v2/members', { name: 'Ada', email: 'ada@example.com' });
    now += 60_000;
    const patched = await call('PATCH', '/v2/members/1', { plan: 'plus' }, { 'Content-Type': 'application/merge-patch+json' });
    expect(patched.body).toEqual({ id: 1, name: 'Ada', email: 'ada@example.com', plan: 'plus', createdAt: NOW.toISOString(), updatedAt: new Date(now).toISOString() });
  });
});

describe('merge-patch (RFC 7396)', () => {
  it('changes the fields sent, removes those sent as null, and refuses to remove a field every record has', async () => {
    const { call } = await library();
    await call('POST', '/v2/members', { name: 'Ada', email: 'ada@example.com' });
    const patch = (body: unknown) => call('PATCH', '/v2/members/1', body, { 'Content-Type': 'application/merge-patch+json' });
    expect((await patch({ email: null, name: 'Ada L.' })).body).toMatchObject({ name: 'Ada L.', plan: 'basic' });
    expect((await call('GET', '/v2/members/1')).body).not.toHaveProperty('email');
    const refused = await call('PATCH', '/v2/members/1', { plan: null }, { 'Content-Type': 'application/merge-patch+json' });
    expect([refused.status, refused.headers.get('content-type'), refused.body.detail]).toEqual([400, 'application/problem+json', expect.stringContaining('plan')]);
    expect((await call('GET', '/v2/members/1')).body.plan).toBe('basic');
    // Plain JSON is not the media type the document declares for this PATCH.
    expect((await call('PATCH', '/v2/members/1', { name: 'X' })).status).toBe(415);
  });
});

describe('form-encoded bodies', () => {
  it('stores a member created from a form like one created from JSON', async () => {
    const { call } = await library();
    const created = await call('POST', '/v2/members', 'name=Grace+Hopper&email=grace%40example.com&plan=plus', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect([created.status, created.body]).toEqual([201, { id: 1, name: 'Grace Hopper', email: 'grace@example.com', plan: 'plus', createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() }]);
    expect((await call('GET', '/v2/members')).body).toEqual([created.body]);
  });
});

describe('nested records that carry their parent', () => {
  it('gives a loan its member from the path, scopes it, and drops it with its member', async () => {
    const { call } = await library();
    await call('POST', '/v2/members', { name: 'Ada' });
    await call('POST', '/v2/members', { name: 'Grace' });
    const loan = await call('POST', '/v2/members/1/loans', { itemId: 7, dueDate: '2031-06-01' });
    expect([loan.status, loan.body]).toEqual([201, { id: 1, memberId: 1, itemId: 7, dueDate: '2031-06-01', returned: false }]);
    expect((await call('GET', '/v2/members/1/loans')).body).toEqual([loan.body]);
    expect((await call('GET', '/v2/members/2/loans')).body).toEqual([]);
    expect((await call('GET', '/v2/members/2/loans/1')).status).toBe(404);
    expect((await call('GET', '/v2/members/9/loans')).status).toBe(404);
    expect((await call('DELETE', '/v2/members/1')).status).toBe(204);
    expect((await call('GET', '/v2/members/1/loans/1')).status).toBe(404);
  });
});

describe('seeded nested records', () => {
  it('carry the key of the member they were dealt to', async () => {
    const { call } = await library({ members: 2, loans: 4, items: 0 });
    for (const member of (await call('GET', '/v2/members')).body as Array<{ id: number }>) {
      const loans: Array<{ memberId: number }> = (await call('GET', `/v2/members/${member.id}/loans`)).body;
      expect([loans.length, loans.every((loan) => loan.memberId === member.id)]).toEqual([2, true]);
    }
  });
});

describe('records whose schema is a discriminated oneOf', () => {
  it('stores each kind as sent, filters by kind, replaces one kind with another, and forgets a deleted one', async () => {
    const { call } = await library();
    const book = await call('POST', '/v2/items', { kind: 'book', title: 'Dune', pages: 412 });
    const audio = await call('POST', '/v2/items', { kind: 'audiobook', title: 'Dune', minutes: 1260, narrator: 'Scott Brick' });
    expect([book.status, book.body, audio.body]).toEqual([201, { id: 1, kind: 'book', title: 'Dune', pages: 412 }, { id: 2, kind: 'audiobook', title: 'Dune', minutes: 1260, narrator: 'Scott Brick' }]);
    expect((await call('GET', '/v2/items/2')).body).toEqual(audio.body);
    expect((await call('GET', '/v2/items?kind=book')).body.data).toEqual([book.body]);
    expect((await call('POST', '/v2/items', { kind: 'book', title: 'No pages' })).status).toBe(400);
    const replaced = await call('PUT', '/v2/items/1', { kind: 'audiobook', title: 'Dune', minutes: 1300 });
    expect(replaced.body).toEqual({ id: 1, kind: 'audiobook', title: 'Dune', minutes: 1300 });
    expect((await call('GET', '/v2/items?kind=book')).body.data).toEqual([]);
    expect((await call('DELETE', '/v2/items/2')).status).toBe(204);
    expect((await call('GET', '/v2/items/2')).status).toBe(404);
    expect((await call('GET', '/v2/items/999')).status).toBe(404);
  });

  it('seeds both kinds, each valid for its own branch', async () => {
    const { call } = await library({ default: 12 });
    const kinds = new Set((await call('GET', '/v2/items?limit=50')).body.data.map((item: { kind: string }) => item.kind));
    expect(kinds).toEqual(new Set(['book', 'audiobook']));
  });
});

describe('cursor pages (the cursor in the body)', () => {
  it('walks every record once, page by page, and ends with a null cursor', async () => {
    const { call } = await library({ default: 23 });
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { body: { data: Array<{ id: number }>; next_cursor: string | null } } = await call('GET', `/v2/items?limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.data.map((item) => item.id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect([pages, seen]).toEqual([3, Array.from({ length: 23 }, (_, i) => i + 1)]);
    expect((await call('GET', '/v2/items?cursor=not-a-cursor')).status).toBe(400);
  });
});

describe('paths with a format suffix, form bodies and updates by POST (Twilio style)', () => {
  const SUFFIX = `${ROOT}test/documents/suffix-api.yaml`;
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
  const basic = { Authorization: `Basic ${Buffer.from('k-1:').toString('base64')}` };

  it('keeps records under .json paths: string keys from their pattern, the parent from the path, 404 after delete', async () => {
    const { call } = await walk(SUFFIX, { apiKeys: ['k-1'], counts: { default: 0 }, now: () => NOW }, basic);
    const account = await call('POST', '/2010-04-01/Accounts.json', 'FriendlyName=Ops', form);
    expect(account.status).toBe(201);
    const sid = account.body.sid as string;
    expect([sid, account.body.FriendlyName, account.body.status, account.body.date_created]).toEqual([expect.stringMatching(/^AC[0-9a-f]{32}$/), 'Ops', 'active', NOW.toISOString()]);
    expect(account.headers.get('location')).toBe(`/2010-04-01/Accounts/${sid}.json`);
    expect((await call('GET', `/2010-04-01/Accounts/${sid}.json`)).body).toEqual(account.body);
    const updated = await call('POST', `/2010-04-01/Accounts/${sid}.json`, 'Status=suspended', form);
    expect([updated.status, updated.body.Status, updated.body.sid]).toEqual([200, 'suspended', sid]);
    expect((await call('GET', '/2010-04-01/Accounts.json')).body.accounts).toEqual([updated.body]);

    const message = await call('POST', `/2010-04-01/Accounts/${sid}/Messages.json`, 'To=%2B15005550006&Body=Hello', form);
    expect([message.status, message.body.account_sid, message.body.To, message.body.Body]).toEqual([201, sid, '+15005550006', 'Hello']);
    const path = `/2010-04-01/Accounts/${sid}/Messages/${message.body.sid}.json`;
    expect((await call('GET', path)).body).toEqual(message.body);
    expect((await call('GET', `/2010-04-01/Accounts/AC${'0'.repeat(32)}/Messages.json`)).status).toBe(404);
    expect((await call('DELETE', path)).status).toBe(204);
    expect((await call('GET', path)).status).toBe(404);
    expect((await call('GET', `/2010-04-01/Accounts/${sid}/Messages.json`)).body.messages).toEqual([]);
  });
});

describe("operations bound by what they carry (Swagger's Petstore 3)", () => {
  it('replaces the pet its body names with PUT /pet, and lists by status below the collection path', async () => {
    const { call } = await walk(`${ROOT}test/corpus/swagger-petstore3.yaml`, { counts: { default: 0 } }, { api_key: 'petstore-demo-key', Authorization: 'Bearer petstore-demo-key' });
    const pet = (await call('POST', '/api/v3/pet', { name: 'Rex', photoUrls: [], status: 'available' })).body;
    await call('POST', '/api/v3/pet', { name: 'Tom', photoUrls: [], status: 'sold' });
    const replaced = await call('PUT', '/api/v3/pet', { id: pet.id, name: 'Rex II', photoUrls: ['a.png'], status: 'pending' });
    expect([replaced.status, replaced.body]).toEqual([200, { id: pet.id, name: 'Rex II', photoUrls: ['a.png'], status: 'pending' }]);
    expect((await call('GET', `/api/v3/pet/${pet.id}`)).body).toEqual(replaced.body);
    expect((await call('GET', '/api/v3/pet/findByStatus?status=pending')).body).toEqual([replaced.body]);
    expect((await call('GET', '/api/v3/pet/findByStatus?status=available')).body).toEqual([]);
    expect((await call('PUT', '/api/v3/pet', { id: 999, name: 'Nobody', photoUrls: [] })).status).toBe(404);
  });
});

describe('server-chosen keys', () => {
  it('fit the path parameter as well as the record property (the path constrains what the property leaves open)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-'));
    writeFileSync(
      join(dir, 'openapi.yaml'),
      `openapi: 3.0.3
info: { title: Airports, version: 1.0.0 }
paths:
  /airports:
    get: { operationId: listAirports, responses: { '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Airport' } } } } } } }
    post:
      operationId: createAirport
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } } }
      responses: { '201': { description: Created., content: { application/json: { schema: { $ref: '#/components/schemas/Airport' } } } } }
  /airports/{code}:
    get:
      operationId: getAirport
      parameters: [{ name: code, in: path, required: true, schema: { type: string, pattern: '^[A-Z]{3}$' } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Airport' } } } }
        '404': { description: None. }
components:
  schemas:
    Airport: { type: object, required: [code, name], properties: { code: { type: string, readOnly: true }, name: { type: string } } }
`,
    );
    const { call } = await walk(join(dir, 'openapi.yaml'), { counts: { default: 5 } });
    const codes = ((await call('GET', '/airports')).body as Array<{ code: string }>).map((a) => a.code);
    const created = await call('POST', '/airports', { name: 'Gatwick' });
    codes.push(created.body.code);
    expect(codes.every((code) => /^[A-Z]{3}$/.test(code))).toBe(true);
    expect((await call('GET', `/airports/${created.body.code}`)).body).toEqual(created.body);
  });
});
