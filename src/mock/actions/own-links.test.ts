/**
 * A record's links to itself (Twilio's `uri`, Train Travel's `links.self`) name that record on the
 * mock, at the URL the client reached it under: seeded and created records alike, in-process and
 * behind MSW with a base of the app's own. Following one reads the record.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type MockInstance } from '../../index.js';
import { mswHandlers } from '../../msw.js';
import { CORPUS, ROOT } from '../../test-support/petstore.js';

const TELEPHONY = `${ROOT}test/documents/form-fields-api.yaml`;
const TRAIN = `${CORPUS}/bump-train-travel.yaml`;
const basic = { Authorization: `Basic ${btoa('k-1:')}` };
const form = { ...basic, 'Content-Type': 'application/x-www-form-urlencoded' };
const bearer = { Authorization: 'Bearer k-1' };
const RAIL = '/rest/Train+Travel+API/1.0.0';

let telephony: MockInstance;
let train: MockInstance;
let server: ReturnType<typeof setupServer>;
beforeAll(async () => {
  telephony = await createMock({ spec: TELEPHONY, apiKeys: ['k-1'], counts: { default: 3 }, selfCheck: true });
  train = await createMock({ spec: TRAIN, apiKeys: ['k-1'], counts: { default: 3 }, selfCheck: true });
  server = setupServer(...mswHandlers(telephony, { baseUrl: 'http://app.test/tel' }), ...mswHandlers(train, { baseUrl: 'http://app.test/rail' }));
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => server.close());

type Message = { sid: string; uri: string };
const json = async <T>(response: Response | Promise<Response>) => (await (await response).json()) as T;

describe("Twilio-style `uri` (a path)", () => {
  it('names the seeded record itself, and reads it', async () => {
    const { accounts } = await json<{ accounts: Array<{ sid: string; uri: string }> }>(telephony.fetch('/2010-04-01/Accounts.json', { headers: basic }));
    for (const account of accounts) expect(account.uri).toBe(`/2010-04-01/Accounts/${account.sid}.json`);
    const { messages } = await json<{ messages: Message[] }>(telephony.fetch(`/2010-04-01/Accounts/${accounts[0].sid}/Messages.json`, { headers: basic }));
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(await json(telephony.fetch(message.uri, { headers: basic }))).toEqual(message);
  });

  it('names a created message, not another one, and follows it behind MSW under the app\'s base', async () => {
    const { accounts } = await json<{ accounts: Array<{ sid: string }> }>(fetch('http://app.test/tel/Accounts.json', { headers: basic }));
    const sid = accounts[0].sid;
    const created = await json<Message>(fetch(`http://app.test/tel/Accounts/${sid}/Messages.json`, { method: 'POST', headers: form, body: 'To=%2B15005550006&Body=Hi' }));
    expect(created.uri).toBe(`/tel/Accounts/${sid}/Messages/${created.sid}.json`);
    expect(await json(fetch(new URL(created.uri, 'http://app.test'), { headers: basic }))).toEqual(created);
    // In-process, the same record names itself under the document's base path.
    expect((await json<Message>(telephony.fetch(`/2010-04-01/Accounts/${sid}/Messages/${created.sid}.json`, { headers: basic }))).uri).toBe(`/2010-04-01/Accounts/${sid}/Messages/${created.sid}.json`);
    expect(telephony.selfCheck).toMatchObject({ violations: 0 });
  });
});

describe('`links.self` (an absolute URI)', () => {
  type Booking = { id: string; links: { self: string } };

  it('is the URL of the booking where the client reached the mock: http://localhost in-process, the app\'s origin and base behind MSW', async () => {
    const { data } = await json<{ data: Booking[] }>(train.fetch(`${RAIL}/bookings`, { headers: bearer }));
    expect(data.length).toBeGreaterThan(0);
    for (const booking of data) expect(booking.links.self).toBe(`http://localhost${RAIL}/bookings/${booking.id}`);
    const behind = await json<{ data: Booking[] }>(fetch('http://app.test/rail/bookings', { headers: bearer }));
    for (const booking of behind.data) {
      expect(booking.links.self).toBe(`http://app.test/rail/bookings/${booking.id}`);
      expect((await json<Booking>(fetch(booking.links.self, { headers: bearer }))).id).toBe(booking.id);
    }
  });

  it('names a created booking', async () => {
    const { data } = await json<{ data: Array<{ trip_id: string }> }>(train.fetch(`${RAIL}/bookings`, { headers: bearer }));
    const body = JSON.stringify({ trip_id: data[0].trip_id, passenger_name: 'Ada Lovelace' });
    const created = await fetch('http://app.test/rail/bookings', { method: 'POST', headers: { ...bearer, 'Content-Type': 'application/json' }, body });
    expect(created.status).toBe(201);
    const booking = (await created.json()) as Booking;
    expect(booking.links.self).toBe(`http://app.test/rail/bookings/${booking.id}`);
    expect(train.selfCheck).toMatchObject({ violations: 0 });
  });

  it('is the same for the same seed (the state holds it against the document\'s server)', async () => {
    const again = await createMock({ spec: TRAIN, apiKeys: ['k-1'], counts: { default: 3 } });
    const read = async (mock: MockInstance) => json(mock.fetch(`${RAIL}/bookings`, { headers: bearer }));
    expect(await read(again)).toEqual(await read(await createMock({ spec: TRAIN, apiKeys: ['k-1'], counts: { default: 3 } })));
    const stored = again.snapshot().collections.bookings;
    expect(JSON.stringify(stored)).toContain(`"https://try.microcks.io${RAIL}/bookings/`);
  });
});
