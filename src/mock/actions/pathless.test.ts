/**
 * Collections the document implies without an item path (test/documents/pathless-api.yaml): a
 * list and a create on one path, a create nothing lists, a list of records nothing creates, and
 * records with no key at all. Every answer is checked against the document by the walk.
 */
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../test-support/petstore.js';
import { walk } from '../../test-support/walk.js';

const LENDING = `${ROOT}test/documents/pathless-api.yaml`;
const NOW = new Date('2031-05-06T07:08:09.000Z');
const lending = (counts: Record<string, number> = { default: 0 }) => walk(LENDING, { apiKeys: ['k-1'], counts, now: () => NOW }, { 'X-Key': 'k-1' });

describe('a list and a create on a path with no item path (/members/{memberId}/loans)', () => {
  it('keeps what was created, under its own member only, and answers what was sent', async () => {
    const { call } = await lending();
    await call('POST', '/members', { name: 'Ada' });
    await call('POST', '/members', { name: 'Grace' });
    const loan = await call('POST', '/members/1/loans', { itemId: 3, due: '2027-01-15' });
    expect([loan.status, loan.body.itemId, loan.body.due, loan.body.id, loan.body.memberId]).toEqual([201, 3, '2027-01-15', 1, 1]);
    // No item path: nowhere for a Location to lead.
    expect(loan.headers.get('location')).toBeNull();
    const second = await call('POST', '/members/1/loans', { itemId: 4, due: '2027-02-01' });
    expect((await call('GET', '/members/1/loans')).body).toEqual([loan.body, second.body]);
    expect((await call('GET', '/members/2/loans')).body).toEqual([]);
    // Under a member that does not exist: 404, as for any nested collection.
    expect((await call('GET', '/members/9/loans')).status).toBe(404);
    expect((await call('POST', '/members/9/loans', { itemId: 1, due: '2027-01-15' })).status).toBe(404);
    // The loans go with their member.
    expect((await call('DELETE', '/members/1')).status).toBe(200);
    expect((await call('GET', '/members/1/loans')).status).toBe(404);
  });

  it('seeds loans and deals them to the members, each carrying its member', async () => {
    const { call } = await lending({ default: 0, members: 2, loans: 6 });
    for (const member of (await call('GET', '/members')).body as Array<{ id: number }>) {
      const loans: Array<{ memberId: number }> = (await call('GET', `/members/${member.id}/loans`)).body;
      expect([loans.length, loans.every((loan) => loan.memberId === member.id)]).toEqual([3, true]);
    }
  });
});

describe('records with no key (the event log of /events)', () => {
  it('keeps every one created, twins included, in order, filtered and paged like any list', async () => {
    const { call } = await lending();
    const note = await call('POST', '/events', { type: 'note', message: 'Hello' });
    expect([note.status, note.body]).toEqual([201, { type: 'note', message: 'Hello', at: NOW.toISOString() }]);
    await call('POST', '/events', { type: 'opened', message: 'Door' });
    await call('POST', '/events', { type: 'note', message: 'Hello' });
    expect((await call('GET', '/events')).body.map((e: { message: string }) => e.message)).toEqual(['Hello', 'Door', 'Hello']);
    expect((await call('GET', '/events?type=note')).body).toEqual([note.body, note.body]);
    const page = await call('GET', '/events?limit=1&offset=1');
    expect([page.body, page.headers.get('x-total-count')]).toEqual([[{ type: 'opened', message: 'Door', at: NOW.toISOString() }], '3']);
  });

  it('are seeded when nothing else fills the list', async () => {
    const { call } = await lending({ default: 4 });
    expect((await call('GET', '/events')).body).toHaveLength(4);
  });
});

describe('a create that nothing lists (POST /members/{memberId}/tokens, 201)', () => {
  it('stores what it answers, under its member, and is not seeded', async () => {
    const mock = await lending({ default: 3 });
    expect(mock.store.collection('tokens').size).toBe(0);
    const token = await mock.call('POST', '/members/2/tokens', { ttl: 120 });
    expect(token.status).toBe(201);
    expect(token.body).toEqual({ ttl: 120, member_id: 2, token: expect.stringMatching(/^tok_[0-9a-f]{16}$/), created_at: NOW.toISOString() });
    expect(mock.store.export().tokens.scopes['2']).toEqual([token.body]);
    expect((await mock.call('POST', '/members/9/tokens', { ttl: 120 })).status).toBe(404);
  });
});

describe('a list nothing creates', () => {
  it('lists the seeded records, a member its own visits, a report page its reports', async () => {
    const { call } = await lending({ default: 0, members: 2, visits: 4, daily: 5 });
    expect((await call('GET', '/members/1/visits')).body).toHaveLength(2);
    const reports = await call('GET', '/reports/daily');
    expect([reports.body.reports.length, reports.body.total]).toEqual([5, 5]);
  });
});

describe('what stays answered from the document', () => {
  it('says why', async () => {
    const { answers } = await lending();
    const reasons = Object.fromEntries(answers.filter((a) => a.from === 'static').map((a) => [a.operationId, a.reason]));
    expect(reasons).toEqual({
      listCards: expect.stringContaining('lists records of members on a path of its own'),
      search: expect.stringContaining('answers no `201 Created`, with no list of its records beside it'),
    });
    expect(answers.find((a) => a.operationId === 'createLoan')).toMatchObject({ from: 'state', collection: 'loans', action: 'create' });
  });

  it('carries the request where the answer has a place for it, as long as the answer stays valid', async () => {
    const { call } = await lending();
    const found = await call('POST', '/search', { query: 'dune', limit: 3 });
    expect([found.body.query, found.body.limit]).toEqual(['dune', 3]);
    // The answer allows a limit of 5 at most: 8 is not carried, the query still is.
    const capped = await call('POST', '/search', { query: 'dune', limit: 8 });
    expect([capped.body.query, capped.body.limit === 8]).toEqual(['dune', false]);
    expect((await call('POST', '/search', { query: 'ada' })).body.query).toBe('ada');
  });
});

describe('a DELETE whose declared answer is an empty object', () => {
  it('answers {} rather than the record', async () => {
    const { call } = await lending();
    await call('POST', '/members', { name: 'Ada' });
    const deleted = await call('DELETE', '/members/1');
    expect([deleted.status, deleted.body]).toEqual([200, {}]);
    expect((await call('GET', '/members/1')).status).toBe(404);
  });
});
