/**
 * Values by name and by the document's examples, seen from the mock: a document in the shape of
 * Twilio's API of 2010 (test/documents/calls-2010-api.yaml: no `format` anywhere, the shapes only
 * in its examples) is served with RFC 2822 dates, relative URIs and prefixed identifiers; and the
 * records seeded for real documents keep to their schemas.
 */
import { describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../../mock/app.js';
import { loadDocument } from '../document/load-document.js';
import type { SchemaObject } from '../document/schema.js';
import { CORPUS, ROOT } from '../../test-support/petstore.js';
import { responseCheckerFor } from '../../test-support/response-checker.js';
import { createAjv } from '../validation/ajv-instance.js';
import { schemaCompiler } from '../validation/compile-schema.js';
import { SchemaConverter } from '../validation/to-json-schema.js';
import { createFaker } from './create-faker.js';

const CALLS = `${ROOT}test/documents/calls-2010-api.yaml`;
const BASIC = { Authorization: `Basic ${Buffer.from(`${DEMO_API_KEY}:token`).toString('base64')}` };
const RFC2822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} \+0000$/;
const LOREM = new Set<string>(createFaker().definitions.lorem.word as string[]);
const isLorem = (v: unknown) => typeof v === 'string' && v.split(/\s+/).every((w) => LOREM.has(w.toLowerCase()));

type Row = Record<string, unknown>;
/** Every record of a collection, in every scope. */
function recordsOf(exported: unknown, collection: string): Row[] {
  const scopes = (exported as Record<string, { scopes: Record<string, Row[]> }>)[collection]?.scopes ?? {};
  return Object.values(scopes).flat();
}

describe('a document whose examples alone say what its values look like (Twilio 2010)', () => {
  it('is seeded and served with values in the examples\' shapes, and no lorem ipsum', async () => {
    const document = await loadDocument(CALLS);
    const mock = buildMock(document, { counts: { default: 4 } });
    expect(mock.warnings).toEqual([]);
    const exported = mock.store.export();
    const accounts = recordsOf(exported, 'Accounts');
    const calls = recordsOf(exported, 'Calls');
    expect(accounts).toHaveLength(4);
    expect(calls.length).toBeGreaterThan(0);
    for (const account of accounts) {
      expect(account).toMatchObject({
        sid: expect.stringMatching(/^AC[0-9a-f]{32}$/),
        date_created: expect.stringMatching(RFC2822),
        date_updated: expect.stringMatching(RFC2822),
        uri: expect.stringMatching(/^\/2010-04-01\/Accounts\/AC[0-9a-f]{32}\.json$/),
        status: 'active',
      });
    }
    for (const call of calls) {
      expect(call).toMatchObject({
        sid: expect.stringMatching(/^CA[0-9a-f]{32}$/),
        to: expect.stringMatching(/^\+1415\d{7}$/),
        from: expect.stringMatching(/^\+1415\d{7}$/),
        date_created: expect.stringMatching(RFC2822),
        start_time: expect.stringMatching(RFC2822),
        price: expect.stringMatching(/^-?0\.\d{5}$/),
        price_unit: 'USD',
        duration: expect.stringMatching(/^\d{1,2}$/),
        api_version: '2010-04-01',
        direction: 'outbound-api',
        uri: expect.stringMatching(/^\/2010-04-01\/Accounts\/AC[0-9a-f]{32}\/Calls\/CA[0-9a-f]{32}\.json$/),
      });
    }
    for (const record of [...accounts, ...calls]) expect(Object.values(record).filter(isLorem), JSON.stringify(record)).toEqual([]);

    // As served, valid against the document: the account's key in the path is one of those `AC…` sids.
    const response = await mock.app.request(`/2010-04-01/Accounts/${accounts[0].sid}.json`, { headers: BASIC });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const read = mock.operations.find((op) => op.id === 'getAccount')!;
    expect(responseCheckerFor(document)(read, { status: 200, headers: response.headers, text })).toEqual([]);
    expect(JSON.parse(text)).toEqual(accounts[0]);
  });

  it('dates a created call now, in the shape of the examples, and gives it its own uri', async () => {
    const now = new Date('2031-05-06T07:08:09Z');
    const mock = buildMock(await loadDocument(CALLS), { counts: { default: 2 }, now: () => now });
    const account = recordsOf(mock.store.export(), 'Accounts')[0];
    const created = await mock.app.request(`/2010-04-01/Accounts/${account.sid}/Calls.json`, {
      method: 'POST',
      headers: { ...BASIC, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'To=%2B14155550134&From=%2B14155550199',
    });
    expect(created.status).toBe(201);
    const call = (await created.json()) as Row;
    expect(call).toMatchObject({ date_created: 'Tue, 06 May 2031 07:08:09 +0000', date_updated: 'Tue, 06 May 2031 07:08:09 +0000', uri: `/2010-04-01/Accounts/${account.sid}/Calls/${call.sid}.json` });
  });

  it('gives the same records for a seed, and others for another', async () => {
    const document = await loadDocument(CALLS);
    const once = buildMock(document, { seed: 5, counts: { default: 2 } }).store.export();
    expect(buildMock(document, { seed: 5, counts: { default: 2 } }).store.export()).toEqual(once);
    expect(buildMock(document, { seed: 6, counts: { default: 2 } }).store.export()).not.toEqual(once);
  });
});

describe("the document's examples, preferred where they fit", () => {
  it("make the first seeded records: Train Travel's stations as its examples give them, in turn, and the rest generated", async () => {
    const mock = buildMock(await loadDocument(`${CORPUS}/bump-train-travel.yaml`), { counts: { default: 4 } });
    const stations = recordsOf(mock.store.export(), 'stations');
    expect(stations[0]).toMatchObject({ name: 'Berlin Hauptbahnhof', address: 'Invalidenstraße 10557 Berlin, Germany', country_code: 'DE', timezone: 'Europe/Berlin' });
    expect(stations[1]).toMatchObject({ name: 'Paris Gare du Nord', address: '18 Rue de Dunkerque 75010 Paris, France', country_code: 'FR', timezone: 'Europe/Paris' });
    expect(stations[2].name).not.toMatch(/Berlin|Paris/);
    // An example its schema refuses (`4f4e4e1-…` is no UUID) is not taken; keys and references are the mock's.
    const bookings = recordsOf(mock.store.export(), 'bookings');
    expect(bookings[0]).toMatchObject({ passenger_name: 'John Doe', id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-/) });
    expect(bookings[0].trip_id).not.toBe('4f4e4e1-c824-4d63-b37a-d8d698862f1d');
  });

  it("give the size of numbers the schema leaves open: the Petstore 3's order quantities near its 7", async () => {
    const mock = buildMock(await loadDocument(`${CORPUS}/swagger-petstore3.yaml`), { counts: { default: 10 } });
    const orders = recordsOf(mock.store.export(), 'order');
    expect(orders[0].quantity).toBe(7);
    for (const order of orders) expect(order.quantity as number).toBeLessThanOrEqual(14);
  });
});

describe('the records seeded for real documents', () => {
  it.each([
    `${CORPUS}/apisguru-twilio-bulkexports.yaml`,
    `${CORPUS}/bump-train-travel.yaml`,
    `${CORPUS}/redocly-museum.yaml`,
    `${CORPUS}/swagger-petstore3.yaml`,
    `${CORPUS}/apisguru-1password-connect.yaml`,
    `${ROOT}test/documents/library-api.yaml`,
    `${ROOT}test/documents/issues-api.yaml`,
    CALLS,
  ])('are all valid against their schemas, for several seeds: %s', async (file) => {
    const document = await loadDocument(file);
    const ajv = createAjv(document.dialect);
    const validatorFor = schemaCompiler(ajv, new SchemaConverter(document.api, ajv, document.dialect), 'response');
    for (const seed of [1, 2, 3]) {
      const mock = buildMock(document, { seed, counts: { default: 5 } });
      // Seeding says nothing; a list's query parameters that filter nothing are said (src/mock/actions/list-filters.test.ts).
      expect(mock.warnings.filter((w) => !w.includes('could not apply the query parameter'))).toEqual([]);
      const exported = mock.store.export();
      for (const collection of mock.collections) {
        const validate = validatorFor(collection.schema as SchemaObject)!;
        for (const record of recordsOf(exported, collection.name)) {
          expect(validate(record), `${collection.name} ${JSON.stringify(record)}: ${JSON.stringify(validate.errors)}`).toBe(true);
        }
      }
    }
  });
});
