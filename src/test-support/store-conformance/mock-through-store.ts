/**
 * Part of the store conformance suite (../store-conformance.ts): the mock through the store.
 * Scripted walks are sent both to a mock built on the store and to one on the in-memory store, every
 * answer compared pairwise and checked against the document, the states compared after every write.
 */
import { describe, expect, it } from 'vitest';
import { buildMock, type BuildMockOptions, type Mock } from '../../mock/app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { DEFAULT_PLUGINS } from '../../plugins/index.js';
import type { MockPlugin } from '../../mock/registries/extension.js';
import type { CollectionSnapshot } from '../../state/state-store.js';
import { AUTH, FIXTURES, ROOT, SPEC } from '../petstore.js';
import { walk, type Answer, type WalkCall } from '../walk.js';
import type { ConformanceSuite } from './store-under-test.js';
import { withoutEmptyScopes } from './subjects.js';


/**
 * A plugin with a seed hook that does nothing. The mock seeds the in-memory store one collection
 * at a time, on its first use, unless a plugin's seed hooks need the whole state, and seeds any
 * other store whole at start, from one Faker stream: with a seed hook both are seeded whole, and the
 * same seed gives both mocks the same records.
 */
const SEED_WHOLE: MockPlugin = { name: 'seed-whole', mock: (parts) => (parts.seedHooks.push(() => undefined), true) };

/** The headers compared between the two mocks' answers: all of them but the clock's. */
function comparedHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => name !== 'date'));
}

/** An answer as compared: parsed JSON where it is JSON (property order is not the store's to keep), else its text. */
function compared(answer: Answer): { status: number; headers: Record<string, string>; body: unknown } {
  return { status: answer.status, headers: comparedHeaders(answer.headers), body: answer.body === undefined ? answer.text : answer.body };
}

/** Declares the walks (inside the suite's `describe('the mock through it')`). */
export function describeMockThroughStore(suite: ConformanceSuite): void {
      /**
       * The same document served twice, from the same seed: on the store, and on the in-memory
       * store. `send` sends a request to both, compares the answers, and gives back the in-memory
       * store's; after a write, the states the admin API exports are compared too (the session's
       * for a request in one).
       */
      async function twoMocks(file: string, options: BuildMockOptions, headers: Record<string, string> = {}, { checked = true } = {}) {
        const shared: BuildMockOptions = { seed: 11, now: () => new Date('2026-05-06T07:08:09.000Z'), ...options, plugins: [...(options.plugins ?? []), SEED_WHOLE] };
        const serve = (options: BuildMockOptions) => (checked ? walk(file, options, headers) : unchecked(file, options, headers));
        const reference = await serve(shared);
        const subject = await serve({ ...shared, store: (collections, budget) => suite.under.make(collections, budget) });
        const sameState = async (session?: string) => {
          const sessionHeader: Record<string, string> = session ? { 'X-Mock-Session': session } : {};
          const [a, b] = [await reference.call('GET', '/__admin/state', undefined, sessionHeader), await subject.call('GET', '/__admin/state', undefined, sessionHeader)];
          expect(a.status).toBe(200);
          const normal = (answer: Answer) => Object.fromEntries(Object.entries(answer.body.collections as Record<string, CollectionSnapshot>).map(([name, snapshot]) => [name, withoutEmptyScopes(snapshot)]));
          expect(normal(b), `the state${session ? ` of session ${session}` : ''}`).toEqual(normal(a));
          // The shared state's records (sessions are held otherwise by the in-memory store: copied on their first write).
          const sharedRecords = (mock: Mock) => mock.budget.records - mock.budget.sessions.records;
          expect(sharedRecords(subject), 'the records the shared state counts in the budget').toBe(sharedRecords(reference));
          return a.body;
        };
        const send: WalkCall = async (method, path, body, more = {}) => {
          const a = await reference.call(method, path, body, more);
          const b = await subject.call(method, path, body, more);
          expect(compared(b), `${method} ${path}`).toEqual(compared(a));
          if (method !== 'GET') await sameState(more['X-Mock-Session']);
          return a;
        };
        return { send, sameState, reference: reference as Mock, subject: subject as Mock };
      }
      const statusOf = (answer: Answer) => answer.status;

      /** A mock and its `call`, as `walk` makes them, but with answers the document does not declare let through (a 507). */
      async function unchecked(file: string, options: BuildMockOptions, headers: Record<string, string>): Promise<Mock & { call: WalkCall }> {
        const mock = buildMock(await loadDocument(file), options);
        const call: WalkCall = async (method, path, body, more = {}) => {
          const init: RequestInit = { method, headers: { ...headers, ...more } };
          if (body !== undefined) {
            init.body = JSON.stringify(body);
            (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
          }
          const response = await mock.app.request(path, init);
          const text = await response.text();
          return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
        };
        return { ...mock, call };
      }

      it('answers a walk through the Petstore as the in-memory store does: lists filtered and paged, creates, updates, deletes, the business rules, sessions, reset, export and import', async () => {
        const { send, sameState } = await twoMocks(SPEC, { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS }, AUTH);
        await sameState();
        const lists = ['', '?limit=5', '?status=sold', '?status=sold&categoryId=1', '?status=available&status=pending&limit=5&offset=2', '?categoryId=2&status=sold', '?id=3&id=4'];
        for (const query of lists) expect(statusOf(await send('GET', `/pets${query}`)), query).toBe(200);
        const created = await send('POST', '/pets', { name: 'Rex', categoryId: 1 });
        expect(created.status).toBe(201);
        const id = created.body.id as number;
        expect((await send('GET', created.headers.get('location')!)).body).toEqual(created.body);
        expect(statusOf(await send('PATCH', '/pets/3', { status: 'sold' }))).toBe(200);
        expect(statusOf(await send('PUT', '/pets/4', { name: 'Max', categoryId: 2, status: 'pending' }))).toBe(200);
        const gone = (await send('POST', '/pets', { name: 'Gone', categoryId: 2, status: 'sold' })).body.id as number;
        expect(statusOf(await send('DELETE', `/pets/${gone}`))).toBe(204);
        expect(statusOf(await send('GET', `/pets/${gone}`))).toBe(404);
        for (const query of lists) await send('GET', `/pets${query}`);
        // A deleted id is not given again; the new pet is listed last.
        const next = await send('POST', '/pets', { name: 'Bella', categoryId: 3 });
        expect(next.body.id).toBe(gone + 1);
        expect((await send('GET', '/pets?limit=100')).body.at(-1)).toEqual(next.body);
        // The business rules read and change several collections in one request.
        expect(statusOf(await send('PUT', `/store/inventory/${id}`, { quantity: 1 }))).toBe(200);
        const order = await send('POST', '/store/orders', { petId: id, quantity: 1 });
        expect(order.status).toBe(201);
        expect((await send('GET', `/store/inventory/${id}`)).body.quantity).toBe(0);
        await send('PATCH', `/store/orders/${order.body.id}`, { complete: true });
        await send('GET', `/store/orders?petId=${id}`);
        await send('GET', '/store/orders?complete=true&limit=3');
        await send('DELETE', '/categories/6');
        await send('GET', '/store/inventory?limit=50');

        // A session: its own records, the shared state untouched, back to the seed on its reset.
        const session = { 'X-Mock-Session': 'conformance' };
        const mine = await send('POST', '/pets', { name: 'Mine', categoryId: 1 }, session);
        expect(mine.status).toBe(201);
        await send('DELETE', '/pets/1', undefined, session);
        expect((await send('GET', '/pets?limit=100', undefined, session)).body).toContainEqual(mine.body);
        expect((await send('GET', '/pets?limit=100')).body).not.toContainEqual(mine.body);
        expect(statusOf(await send('GET', '/pets/1'))).toBe(200);
        expect(statusOf(await send('POST', '/__admin/reset', undefined, session))).toBe(200);
        expect((await send('GET', '/pets?limit=100', undefined, session)).body).not.toContainEqual(mine.body);

        // Export, then import a changed state: what it holds is served, and keys go on past it.
        const exported = await sameState();
        const pets = exported.collections.pets as CollectionSnapshot;
        const kept = pets.scopes[''].slice(0, 3);
        expect(statusOf(await send('PUT', '/__admin/state', { format: exported.format, collections: { pets: { ...pets, scopes: { '': kept } } } }))).toBe(200);
        expect((await send('GET', '/pets?limit=100')).body).toEqual(kept);
        expect((await send('POST', '/pets', { name: 'After', categoryId: 1 })).body.id).toBe(pets.nextInteger);
        // A state that is not one is refused whole.
        expect(statusOf(await send('PUT', '/__admin/state', { format: exported.format, collections: { pets: { nextInteger: 1, scopes: { '': [{ name: 'No id' }] } } } }))).toBe(400);
        await send('GET', '/pets?limit=100');

        // Reset: the seed again, as at the start.
        expect(statusOf(await send('POST', '/__admin/reset'))).toBe(200);
        for (const query of lists) await send('GET', `/pets${query}`);
      });

      it('answers a walk through nested collections as the in-memory store does: numbers counted per project, comments two levels down, children gone with their parent', async () => {
        const { send, sameState } = await twoMocks(`${ROOT}test/documents/numbered-api.yaml`, { counts: { projects: 3, issues: 6, comments: 6 } });
        await sameState();
        const project = await send('POST', '/projects', { name: 'New' });
        expect(project.status).toBe(201);
        const p = project.body.id as number;
        const numbers: number[] = [];
        for (const title of ['First', 'Second']) numbers.push((await send('POST', `/projects/${p}/issues`, { title })).body.number);
        expect(numbers).toEqual([1, 2]);
        expect((await send('DELETE', `/projects/${p}/issues/2`)).body).toEqual({});
        expect((await send('POST', `/projects/${p}/issues`, { title: 'Third' })).body.number).toBe(3);
        const seeded = (await send('GET', '/projects/1/issues')).body.map((issue: { number: number }) => issue.number);
        expect((await send('POST', '/projects/1/issues', { title: 'Next' })).body.number).toBe(Math.max(...seeded) + 1);
        const comment = await send('POST', `/projects/${p}/issues/1/comments`, { body: 'a' });
        expect(comment.status).toBe(201);
        await send('POST', `/projects/${p}/issues/1/comments`, { body: 'b' });
        await send('POST', '/projects/1/issues/1/comments', { body: 'c' });
        await send('GET', `/projects/${p}/issues/1/comments`);
        expect((await send('GET', `/projects/${p}/issues/1/comments/${comment.body.id}`)).body).toEqual(comment.body);
        expect((await send('DELETE', `/projects/${p}/issues/1/comments/${comment.body.id}`)).body).toEqual({ deleted: true, id: comment.body.id });
        // Deleting an issue takes its comments.
        expect(statusOf(await send('DELETE', `/projects/${p}/issues/1`))).toBe(200);
        expect(statusOf(await send('GET', `/projects/${p}/issues/1/comments`))).toBe(404);
        const comments = (await sameState()).collections.comments as CollectionSnapshot;
        expect(comments.scopes[`${p}/1`] ?? [], 'the comments of the deleted issue, in the state').toEqual([]);
        expect(statusOf(await send('GET', '/projects/99/issues'))).toBe(404);
        for (const path of ['/projects', '/projects/1/issues', '/projects/2/issues', `/projects/${p}/issues`]) await send('GET', path);

        // Export and import keep each project's count, even of a project whose issues are all gone.
        const exported = await sameState();
        const issues = exported.collections.issues as CollectionSnapshot;
        expect(issues.sequences?.[String(p)], 'the export holds the count of each project').toBe(4);
        const emptied = { ...issues, scopes: { ...issues.scopes, [String(p)]: [] } };
        expect(statusOf(await send('PUT', '/__admin/state', { format: exported.format, collections: { issues: emptied } }))).toBe(200);
        expect((await send('GET', `/projects/${p}/issues`)).body).toEqual([]);
        expect((await send('POST', `/projects/${p}/issues`, { title: 'Fourth' })).body.number).toBe(4);

        // A session counts on its own.
        const session = { 'X-Mock-Session': 'nested' };
        expect((await send('POST', '/projects/1/issues', { title: 'In a session' }, session)).body.number).toBe(Math.max(...seeded) + 1);
        expect(statusOf(await send('POST', '/__admin/reset'))).toBe(200);
        for (const path of ['/projects', '/projects/1/issues', '/projects/1/issues/1/comments']) await send('GET', path);
      });

      it('answers a walk through keys clients choose as the in-memory store does: listed in the order created, a key taken refused, a new parent under an old key counting from 1', async () => {
        const { send, sameState } = await twoMocks(`${ROOT}test/documents/issues-api.yaml`, { counts: { projects: 2, issues: 3 } });
        await sameState();
        for (const key of ['ZZ', 'AA', 'MM']) expect(statusOf(await send('POST', '/projects', { key, name: `Project ${key}` })), key).toBe(201);
        expect((await send('GET', '/projects')).body.slice(-3).map((project: { key: string }) => project.key)).toEqual(['ZZ', 'AA', 'MM']);
        expect(statusOf(await send('POST', '/projects', { key: 'AA', name: 'Again' }))).toBe(409);
        expect((await send('POST', '/projects/ZZ/issues', { title: 'One' })).body.number).toBe(1);
        expect((await send('POST', '/projects/ZZ/issues', { title: 'Two' })).body.number).toBe(2);
        expect((await send('PATCH', '/projects/ZZ/issues/1', { title: 'One, changed' })).body.title).toBe('One, changed');
        await send('GET', '/projects/ZZ/issues');
        expect(statusOf(await send('DELETE', '/projects/ZZ'))).toBe(204);
        expect(statusOf(await send('GET', '/projects/ZZ/issues'))).toBe(404);
        expect(statusOf(await send('POST', '/projects', { key: 'ZZ', name: 'Back' }))).toBe(201);
        expect((await send('POST', '/projects/ZZ/issues', { title: 'Fresh' })).body.number).toBe(1);
        for (const path of ['/projects', '/projects/ZZ/issues', '/projects/AA/issues']) await send('GET', path);
        const exported = await sameState();
        expect(statusOf(await send('PUT', '/__admin/state', exported))).toBe(200);
        await send('GET', '/projects');
      });

      it('answers a walk through records with no key and collections with no item path as the in-memory store does', async () => {
        const { send, sameState } = await twoMocks(`${ROOT}test/documents/pathless-api.yaml`, { counts: { default: 2 }, apiKeys: ['k-1'] }, { 'X-Key': 'k-1' });
        await sameState();
        const member = await send('POST', '/members', { name: 'Ada' });
        expect(member.status).toBe(201);
        const m = member.body.id as number;
        const loans = [await send('POST', `/members/${m}/loans`, { itemId: 3, due: '2027-01-15' }), await send('POST', `/members/${m}/loans`, { itemId: 4, due: '2027-02-01' })];
        expect((await send('GET', `/members/${m}/loans`)).body).toEqual(loans.map((loan) => loan.body));
        // Twins kept, in order; filtered and paged like any list.
        const before = (await send('GET', '/events?limit=100')).body.length as number;
        for (const event of [{ type: 'note', message: 'Hello' }, { type: 'opened', message: 'Door' }, { type: 'note', message: 'Hello' }]) expect(statusOf(await send('POST', '/events', event))).toBe(201);
        const events = (await send('GET', '/events?limit=100')).body;
        expect(events.slice(before).map((event: { message: string }) => event.message)).toEqual(['Hello', 'Door', 'Hello']);
        await send('GET', '/events?type=note');
        await send('GET', '/events?limit=2&offset=1');
        // A create nothing lists is held all the same (the admin API's export shows it).
        expect(statusOf(await send('POST', `/members/${m}/tokens`, { ttl: 120 }))).toBe(201);
        expect(((await sameState()).collections.tokens as CollectionSnapshot).scopes[String(m)]).toHaveLength(1);
        await send('GET', `/members/${m}/visits`);
        await send('GET', '/reports/daily');
        expect(statusOf(await send('DELETE', `/members/${m}`))).toBe(200);
        expect(statusOf(await send('GET', `/members/${m}/loans`))).toBe(404);
        const exported = await sameState();
        for (const name of ['loans', 'tokens', 'visits']) expect((exported.collections[name] as CollectionSnapshot).scopes[String(m)] ?? [], `the ${name} of the deleted member, in the state`).toEqual([]);
        expect(statusOf(await send('POST', '/__admin/reset'))).toBe(200);
        expect(statusOf(await send('PUT', '/__admin/state', exported))).toBe(200);
        expect((await send('GET', '/events?limit=100')).body).toEqual(events);
      });

      it('refuses creates past the bound on records as the in-memory store does, for the shared state and for sessions', async () => {
        // Nothing seeded; at most 6 records, 3 of them in sessions. The document declares no 507: the answers are compared, not checked against it.
        const { send } = await twoMocks(`${ROOT}test/documents/pathless-api.yaml`, { counts: { default: 0 }, limits: { maxRecords: 6 }, apiKeys: ['k-1'] }, { 'X-Key': 'k-1' }, { checked: false });
        const session = { 'X-Mock-Session': 'small' };
        const creates = async (times: number, headers: Record<string, string> = {}) => {
          const statuses: number[] = [];
          for (let i = 0; i < times; i++) statuses.push(statusOf(await send('POST', '/members', { name: `M${i}` }, headers)));
          return statuses;
        };
        expect(await creates(4, session), 'a session: its share').toEqual([201, 201, 201, 507]);
        // The shared state keeps its room: the session holding records is dropped to make it.
        expect(await creates(8), 'the shared state: the whole bound').toEqual([201, 201, 201, 201, 201, 201, 507, 507]);
        expect((await send('GET', '/members', undefined, session)).body, 'the session dropped: from the seed again').toEqual([]);
        expect(statusOf(await send('DELETE', '/members/1'))).toBe(200);
        expect(await creates(2), 'room again after a delete').toEqual([201, 507]);
      });
}
