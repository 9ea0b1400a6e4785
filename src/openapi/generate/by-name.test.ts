/**
 * Values from a property's name and the document's examples where the schema leaves them open:
 * each rule of the table, the schema still deciding where it says something, the same values for
 * a seed, and the shape of the document's own examples followed (RFC 2822 dates, relative URIs,
 * prefixed identifiers, E.164 numbers only where the examples are).
 */
import { describe, expect, it } from 'vitest';
import type { SchemaObject } from '../document/schema.js';
import { RULES, snakeName } from './by-name.js';
import { createFaker } from './create-faker.js';
import { createGenerator } from './from-schema.js';

/** A document in which `schema` answers a list, with `example` as the list's example (the generator reads examples from it). */
function documentWith(schema: SchemaObject, example?: unknown): object {
  const content = { 'application/json': { schema: { type: 'array', items: schema }, ...(example === undefined ? {} : { example: [example] }) } };
  return { openapi: '3.0.3', paths: { '/things': { get: { responses: { '200': { description: 'ok', content } } } } } };
}

function generatorFor(seed: number, document?: object) {
  const faker = createFaker();
  faker.seed(seed);
  return createGenerator(faker, { document });
}

/** Values of one property named `name`, over `count` seeds, with `examples` of it in the document's example. */
function valuesOf(name: string, schema: SchemaObject = { type: 'string' }, examples: unknown[] = [], options: { count?: number; collection?: string } = {}): unknown[] {
  const thing: SchemaObject = { type: 'object', required: [name], properties: { [name]: schema } };
  const document = documentWith(thing);
  const list = (document as any).paths['/things'].get.responses['200'].content['application/json'];
  if (examples.length > 0) list.example = examples.map((value) => ({ [name]: value }));
  return Array.from({ length: options.count ?? 20 }, (_, seed) => (generatorFor(seed, document)(thing, { collection: options.collection }) as Record<string, unknown>)[name]);
}

const LOREM = new Set<string>(createFaker().definitions.lorem.word as string[]);
/** Lorem ipsum: every word from Faker's Latin list. */
const isLorem = (v: unknown) => typeof v === 'string' && v.split(/\s+/).every((w) => LOREM.has(w.toLowerCase().replace(/\W/g, '')));
const all = (values: unknown[], test: (v: any) => boolean) => values.every(test);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const RFC2822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} \+0000$/;
const E164 = /^\+[1-9]\d{6,14}$/;
const SID = 'CA1a2b3c4d5e6f708192a3b4c5d6e7f809';

/**
 * One case per rule of the table, by its `what`: a property it serves, and what its values are.
 * A rule added without a case here fails the first test.
 */
const CASES: Record<string, { name: string; schema?: SchemaObject; examples?: unknown[]; collection?: string; test: (v: any) => boolean }> = {
  'an identifier in the shape of the examples (`AC` + 32 hex digits), else a UUID': { name: 'call_sid', examples: [SID], test: (v) => /^CA[0-9a-f]{32}$/.test(v) && v !== SID },
  'a UUID': { name: 'reference', examples: ['0b6a4c0e-3f55-4d5c-9a53-0d1f6a6b2c71'], test: (v) => UUID.test(v) },
  'a time zone (`Europe/Berlin`)': { name: 'timeZone', test: (v) => /^[A-Z][A-Za-z_]+\/[A-Za-z_/-]+$/.test(v) },
  'seconds since 1970 (milliseconds if the examples are)': { name: 'created_at', schema: { type: 'integer' }, test: (v) => v >= 1_577_836_800 && v < 1_767_225_600 },
  'a date-time in the shape of the examples, or of the document\'s other dates (RFC 2822, ISO 8601); a date for `*_day`, `birthday`': { name: 'date_created', test: (v) => ISO.test(v) },
  'a picture\'s URL': { name: 'avatar', test: (v) => v.startsWith('https://picsum.photos/') },
  'a URL like the examples (relative where they are), its identifiers drawn again; else an https URL': { name: 'uri', test: (v) => /^https:\/\/[a-z0-9.-]+\.[a-z]+\/?$/.test(v) },
  'an email address': { name: 'email', test: (v) => /^[^@\s]+@[^@\s]+\.[a-z]+$/.test(v) },
  'a phone number like the examples (E.164 where they are), else E.164': { name: 'phone', test: (v) => E164.test(v) },
  'a password': { name: 'password', test: (v) => v.length === 12 },
  'a first name': { name: 'firstName', test: (v) => /^[A-Z]/.test(v) && !v.includes(' ') && !isLorem(v) },
  'a last name': { name: 'last_name', test: (v) => /^[A-Z]/.test(v) && !isLorem(v) },
  'a user name': { name: 'username', test: (v) => !/\s/.test(v) && !isLorem(v) },
  'a file name': { name: 'file_name', test: (v) => /^[\w-]+\.\w+$/.test(v) },
  'a company': { name: 'company', test: (v) => !isLorem(v) },
  'a product': { name: 'product_name', test: (v) => v.split(' ').length >= 2 && !isLorem(v) },
  'a person\'s name': { name: 'passenger_name', test: (v) => v.includes(' ') && !isLorem(v) },
  'a name: a pet\'s in pets, a person\'s in users, else a noun': { name: 'friendly_name', collection: 'users', test: (v) => v.includes(' ') && !isLorem(v) },
  'a title: a book\'s in books, else a short phrase': { name: 'title', collection: 'books', test: (v) => (createFaker().definitions.book.title as string[]).includes(v) },
  'a sentence': { name: 'description', test: (v) => /[.!?]$/.test(v) && v.split(' ').length >= 4 && !isLorem(v) },
  'a city': { name: 'city', test: (v) => !isLorem(v) },
  'a country code (ISO 3166, two or three letters as the examples)': { name: 'country_code', test: (v) => /^[A-Z]{2}$/.test(v) },
  'a country': { name: 'birth_country', test: (v) => v.length > 3 && !isLorem(v) },
  'an IP address': { name: 'ip_address', test: (v) => /^(\d{1,3}\.){3}\d{1,3}$/.test(v) },
  'an IPv6 address': { name: 'ipv6', test: (v) => /^[0-9a-f:]+$/.test(v) && v.includes(':') },
  'a MAC address': { name: 'macAddress', test: (v) => /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/.test(v) },
  'a street address': { name: 'street', test: (v) => /^\d+ \S/.test(v) },
  'a postal code': { name: 'postal_code', test: (v) => /\d/.test(v) },
  'a region': { name: 'region', test: (v) => !isLorem(v) },
  'a latitude': { name: 'latitude', schema: { type: 'number' }, test: (v) => v >= -90 && v <= 90 },
  'a longitude': { name: 'lng', schema: { type: 'string' }, test: (v) => /^-?\d+\.\d{6}$/.test(v) && Math.abs(Number(v)) <= 180 },
  'a colour (`#a6b29d` where the examples are hex)': { name: 'colour', examples: ['#ff0000'], test: (v) => /^#[0-9a-f]{6}$/.test(v) },
  'a language or locale (`en`, `en-US`, as the examples)': { name: 'locale', test: (v) => /^[a-z]{2}-[A-Z]{2}$/.test(v) },
  'a currency: one of the examples (`USD`), else an ISO 4217 code': { name: 'currency', test: (v) => /^[A-Z]{3}$/.test(v) },
  'a decimal string with the examples\' decimals and sign (`-0.03000`), else two decimals': { name: 'price', test: (v) => /^\d{1,4}\.\d{2}$/.test(v) },
  'a year': { name: 'year', schema: { type: 'integer' }, test: (v) => v >= 1990 && v <= 2025 },
  'a version: one of the examples, else semver': { name: 'version', test: (v) => /^\d+\.\d+\.\d+$/.test(v) },
  'an HTTP method': { name: 'webhook_method', test: (v) => ['GET', 'POST'].includes(v) },
  'a host name': { name: 'hostname', test: (v) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(v) },
  'a slug': { name: 'slug', test: (v) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(v) },
  'a media type': { name: 'content_type', test: (v) => /^[a-z]+\/[a-z0-9.+-]+$/.test(v) },
  'an ISBN': { name: 'isbn', test: (v) => /^97[89]-[\d-]{13}$/.test(v) },
  'a tag': { name: 'tag', test: (v) => /^[a-z-]+$/.test(v) },
  'a status: one of the examples, else `active`, `pending` or `inactive`': { name: 'status', test: (v) => ['active', 'pending', 'inactive'].includes(v) },
};

describe('values by name (the rules of by-name.ts)', () => {
  it('has a case below for every rule of the table', () => {
    expect(RULES.map((rule) => rule.what).filter((what) => !(what in CASES))).toEqual([]);
  });

  it.each(Object.entries(CASES))('%s', (_, { name, schema, examples, collection, test }) => {
    const values = valuesOf(name, schema, examples, { collection });
    const failed = values.filter((v) => !test(v));
    expect(failed, `${name}: ${JSON.stringify(values.slice(0, 3))}`).toEqual([]);
  });

  it('reads names in any case: camelCase, PascalCase, snake_case and acronyms are one name', () => {
    expect(['dateCreated', 'DateCreated', 'date_created', 'date-created'].map(snakeName)).toEqual(Array(4).fill('date_created'));
    expect(['userID', 'HTTPMethod', 'AccountSid', 'photoUrls'].map(snakeName)).toEqual(['user_id', 'http_method', 'account_sid', 'photo_urls']);
    expect(all(valuesOf('DateCreated'), (v) => ISO.test(v))).toBe(true);
    // Words that merely end like a rule's name are not taken: `paid` is no id, `description` no date, `format` no time.
    expect(all(valuesOf('paid'), (v) => !UUID.test(v))).toBe(true);
    expect(all(valuesOf('season', { type: 'integer', maximum: 10 }), (v) => v <= 10)).toBe(true);
    expect(all(valuesOf('format'), (v) => !ISO.test(v))).toBe(true);
  });
});

describe('the document\'s examples decide the shape', () => {
  it('writes dates as the property\'s examples do: RFC 2822, ISO 8601 with an offset and milliseconds, a date alone', () => {
    expect(all(valuesOf('date_created', undefined, ['Mon, 16 Aug 2010 03:45:01 +0000']), (v) => RFC2822.test(v))).toBe(true);
    expect(all(valuesOf('updated', undefined, ['2021-03-04T05:06:07.123+02:00']), (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+02:00$/.test(v))).toBe(true);
    expect(all(valuesOf('due_date', undefined, ['2024-05-01']), (v) => /^\d{4}-\d{2}-\d{2}$/.test(v))).toBe(true);
    // The offset is applied, not just written: the same instant as in UTC.
    const offsetOnes = valuesOf('updated', undefined, ['2021-03-04T05:06:07+05:30']) as string[];
    expect(all(offsetOnes, (v) => { const t = Date.parse(v); return t >= Date.parse('2020-01-01T00:00:00Z') && t <= Date.parse('2025-12-31T23:59:59Z'); })).toBe(true);
  });

  it('writes a date that has no examples as the document\'s other dates are written, else in ISO 8601; a day has no time', () => {
    const call: SchemaObject = { type: 'object', required: ['start_time', 'day'], properties: { date_created: { type: 'string' }, start_time: { type: 'string' }, day: { type: 'string' } } };
    const document = documentWith(call, { date_created: 'Mon, 16 Aug 2010 03:45:01 +0000' });
    const values = Array.from({ length: 10 }, (_, seed) => generatorFor(seed, document)(call) as Record<string, string>);
    expect(all(values, (v) => RFC2822.test(v.start_time) && /^\d{4}-\d{2}-\d{2}$/.test(v.day))).toBe(true);
    expect(all(valuesOf('start_time'), (v) => ISO.test(v))).toBe(true);
  });

  it('writes URIs relative where the examples are, with fresh identifiers in the examples\' shape', () => {
    const example = `/2010-04-01/Accounts/ACf3c0f4c2f7b74b6c8e0e7c29c4a2d7b1/Calls/${SID}.json`;
    const values = valuesOf('uri', undefined, [example]) as string[];
    expect(all(values, (v) => /^\/2010-04-01\/Accounts\/AC[0-9a-f]{32}\/Calls\/CA[0-9a-f]{32}\.json$/.test(v))).toBe(true);
    expect(new Set(values).size).toBe(values.length);
  });

  it('derives an identifier\'s prefix and alphabet from its examples when they all share one', () => {
    expect(all(valuesOf('id', undefined, ['cus_NffrFeUfNV2Hib', 'cus_AbCdEfGh012345']), (v) => /^cus_[A-Za-z0-9]{14}$/.test(v))).toBe(true);
    expect(all(valuesOf('sid', undefined, [SID, 'ACf3c0f4c2f7b74b6c8e0e7c29c4a2d7b1']), (v) => UUID.test(v))).toBe(true); // two prefixes: no shape
    const numbers = valuesOf('id', undefined, ['1']) as string[];
    expect(all(numbers, (v) => /^\d{1,6}$/.test(v))).toBe(true);
    expect(new Set(numbers).size).toBeGreaterThan(15); // room for distinct keys
  });

  it('takes `to` and `from` for phone numbers only where the examples are phone numbers', () => {
    expect(all(valuesOf('to', undefined, ['+14155550134']), (v) => E164.test(v) && v.startsWith('+1415'))).toBe(true);
    expect(all(valuesOf('to'), (v) => !E164.test(v))).toBe(true);
    expect(valuesOf('from', undefined, ['client:alice'])).toEqual(Array(20).fill('client:alice'));
    expect(all(valuesOf('to_formatted', undefined, ['(415) 555-0134']), (v) => /^\(415\) \d{3}-\d{4}$/.test(v))).toBe(true);
  });

  it('leaves a rule whose name fits but whose examples do not: `queue_time: "1000"` is a number of milliseconds, not a date', () => {
    expect(all(valuesOf('queue_time', undefined, ['1000']), (v) => /^\d{1,4}$/.test(v) && Number(v) <= 2000)).toBe(true);
    expect(all(valuesOf('price', undefined, ['-0.03000']), (v) => /^-?\d\.\d{5}$/.test(v) && Number(v) <= 0)).toBe(true);
    expect(all(valuesOf('created', { type: 'integer' }, [1_700_000_000_000]), (v) => v > 1e12)).toBe(true);
    expect(all(valuesOf('created', { type: 'integer', maximum: 50 }, [3]), (v) => v <= 50)).toBe(true); // not a time
  });

  it('uses the examples themselves where no rule knows the name, and words only where there are none', () => {
    expect(all(valuesOf('direction', undefined, ['inbound', 'outbound-api']), (v) => ['inbound', 'outbound-api'].includes(v))).toBe(true);
    expect(all(valuesOf('status', undefined, ['queued', 'ringing']), (v) => ['queued', 'ringing'].includes(v))).toBe(true);
    expect(all(valuesOf('api_version', undefined, ['2010-04-01']), (v) => v === '2010-04-01')).toBe(true);
    expect(all(valuesOf('direction'), isLorem)).toBe(true);
  });

  it('reads examples wherever the document gives them: a media type\'s Example Objects, a schema\'s 3.1 examples, a parameter\'s, any spelling of the name', () => {
    const call: SchemaObject = { type: 'object', required: ['dateCreated'], properties: { dateCreated: { type: 'string' } } };
    const fromParameter = { openapi: '3.0.3', paths: { '/calls': { get: { parameters: [{ name: 'DateCreated', in: 'query', schema: { type: 'string' }, example: 'Mon, 16 Aug 2010 03:45:01 +0000' }] } } } };
    const fromExamples = { openapi: '3.1.0', paths: { '/calls': { get: { responses: { '200': { content: { 'application/json': { schema: call, examples: { one: { value: { dateCreated: 'Mon, 16 Aug 2010 03:45:01 +0000' } } } } } } } } } } };
    const fromSchema = { openapi: '3.1.0', components: { schemas: { Call: { ...call, examples: [{ dateCreated: 'Mon, 16 Aug 2010 03:45:01 +0000' }] } } } };
    for (const document of [fromParameter, fromExamples, fromSchema]) {
      expect(RFC2822.test((generatorFor(1, document)(call) as Record<string, string>).dateCreated), JSON.stringify(document)).toBe(true);
    }
  });

  it('takes the examples at the schema\'s own place first: two resources\' `sid`s keep their own prefixes', () => {
    const account: SchemaObject = { type: 'object', required: ['sid'], properties: { sid: { type: 'string' } } };
    const call: SchemaObject = { type: 'object', required: ['sid'], properties: { sid: { type: 'string' } } };
    const document = {
      openapi: '3.0.3',
      paths: {
        '/accounts': { get: { responses: { '200': { content: { 'application/json': { schema: account, example: { sid: 'ACf3c0f4c2f7b74b6c8e0e7c29c4a2d7b1' } } } } } } },
        '/calls': { get: { responses: { '200': { content: { 'application/json': { schema: { type: 'object', properties: { calls: { type: 'array', items: call } } }, example: { calls: [{ sid: SID }] } } } } } } },
      },
    };
    const generate = generatorFor(3, document);
    expect((generate(account) as any).sid).toMatch(/^AC[0-9a-f]{32}$/);
    expect((generate(call) as any).sid).toMatch(/^CA[0-9a-f]{32}$/);
    // A copy of the schema (a collection's key) follows the schema it was copied from.
    expect(generate({ type: 'string' }, { propertyName: 'sid', examplesOf: call.properties!.sid })).toMatch(/^CA[0-9a-f]{32}$/);
  });
});

describe('the schema still decides', () => {
  const rfc = ['Mon, 16 Aug 2010 03:45:01 +0000'];
  it('keeps to format, pattern, enum and const over names and examples', () => {
    expect(all(valuesOf('date_created', { type: 'string', format: 'date' }, rfc), (v) => /^\d{4}-\d{2}-\d{2}$/.test(v))).toBe(true);
    expect(all(valuesOf('date_created', { type: 'string', pattern: '^X\\d{3}$' }, rfc), (v) => /^X\d{3}$/.test(v))).toBe(true);
    expect(valuesOf('email', { type: 'string', enum: ['x'] }, [], { count: 5 })).toEqual(Array(5).fill('x'));
    expect(valuesOf('uri', { type: 'string', const: 'fixed' }, ['/a/b'], { count: 5 })).toEqual(Array(5).fill('fixed'));
    expect(all(valuesOf('status', { type: 'integer', minimum: 3, maximum: 4 }), (v) => v === 3 || v === 4)).toBe(true);
  });

  it('keeps to lengths and bounds: a value that does not fit is made again, else cut or padded', () => {
    expect(all(valuesOf('description', { type: 'string', maxLength: 10 }), (v) => v.length <= 10)).toBe(true);
    expect(all(valuesOf('uri', { type: 'string', minLength: 60 }), (v) => v.length >= 60)).toBe(true);
    expect(all(valuesOf('created_at', { type: 'integer', maximum: 1000 }), (v) => v <= 1000)).toBe(true);
    expect(all(valuesOf('latitude', { type: 'number', minimum: 100 }), (v) => v >= 100)).toBe(true);
    expect(all(valuesOf('year', { type: 'integer', multipleOf: 7 }), (v) => v % 7 === 0)).toBe(true);
  });

  it('prefers a realistic value that matches a pattern: a `date` with a pattern of digits is a real date', () => {
    const values = valuesOf('date', { type: 'string', format: 'date', pattern: '(\\d{4})-(\\d{2})-(\\d{2})' }) as string[];
    expect(all(values, (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)))).toBe(true);
  });
});

describe('determinism', () => {
  it('gives the same values for a seed and document, whatever was generated before, and others for another seed', () => {
    const call: SchemaObject = { type: 'object', required: ['sid', 'date_created', 'uri', 'to'], properties: { sid: { type: 'string' }, date_created: { type: 'string' }, uri: { type: 'string' }, to: { type: 'string' } } };
    const document = documentWith(call, { sid: SID, date_created: 'Mon, 16 Aug 2010 03:45:01 +0000', uri: `/Calls/${SID}.json`, to: '+14155550134' });
    const first = generatorFor(7, document)(call);
    const other = generatorFor(7, documentWith(call));
    other(call); // another document first: nothing carries over
    expect(generatorFor(7, document)(call)).toEqual(first);
    expect(generatorFor(8, document)(call)).not.toEqual(first);
    expect(first).toMatchObject({ sid: expect.stringMatching(/^CA/), date_created: expect.stringMatching(RFC2822), uri: expect.stringMatching(/^\/Calls\/CA[0-9a-f]{32}\.json$/), to: expect.stringMatching(E164) });
  });
});
