/**
 * The shapes read from examples (dates, identifiers, URLs, phone numbers, decimals) and what the
 * document's examples say by name (evidence.ts).
 */
import { describe, expect, it } from 'vitest';
import { createFaker } from './create-faker.js';
import { documentEvidence, NO_EVIDENCE } from './evidence.js';
import { commonDateShape, dateShapeOf, decimalShapeOf, formatDate, makeDecimal, makeToken, redrawIdentifiers, redrawPhone, tokenShapeOf } from './shapes.js';

const seeded = (seed: number) => {
  const faker = createFaker();
  faker.seed(seed);
  return faker;
};
const INSTANT = new Date('2010-08-16T03:45:01.250Z');

describe('date shapes', () => {
  it.each([
    ['Mon, 16 Aug 2010 03:45:01 +0000', 'Mon, 16 Aug 2010 03:45:01 +0000'],
    ['Tue, 07 Sep 2010 10:00:00 GMT', 'Mon, 16 Aug 2010 03:45:01 GMT'],
    ['7 Sep 2010 10:00 -0700', '15 Aug 2010 20:45 -0700'],
    ['2021-03-04T05:06:07Z', '2010-08-16T03:45:01Z'],
    ['2021-03-04T05:06:07.123456+02:00', '2010-08-16T05:45:01.250000+02:00'],
    ['2021-03-04 05:06:07', '2010-08-16 03:45:01'],
    ['2021-03-04', '2010-08-16'],
  ])('writes an instant as %s is written: %s', (example, expected) => {
    const shape = dateShapeOf(example)!;
    expect(formatDate(INSTANT, shape)).toBe(expected);
    expect(dateShapeOf(formatDate(INSTANT, shape))).toMatchObject({ kind: shape.kind, ...('zone' in shape ? { zone: shape.zone } : {}) });
  });

  it('knows no shape in other strings, and takes the shape most examples have', () => {
    for (const other of ['yesterday', '1000', '16/08/2010', 'Mon, 16 Aug 2010']) expect(dateShapeOf(other)).toBeUndefined();
    const rfc = 'Mon, 16 Aug 2010 03:45:01 +0000';
    expect(commonDateShape(['2021-03-04T05:06:07Z', rfc, rfc, 'x'])).toEqual(dateShapeOf(rfc));
    expect(commonDateShape(['2021-03-04', rfc], (s) => s.kind !== 'date')).toEqual(dateShapeOf(rfc));
  });
});

describe('identifier shapes', () => {
  it.each([
    [['CA1a2b3c4d5e6f708192a3b4c5d6e7f809'], /^CA[0-9a-f]{32}$/],
    [['cus_NffrFeUfNV2Hib', 'cus_AbCdEfGh012345'], /^cus_[0-9A-Za-z]{14}$/],
    [['sk_live_0123456789ab'], /^sk_live_[0-9a-f]{12}$/],
    [['12', '345'], /^\d{2,6}$/],
  ])('draws tokens in the shape of %j', (examples, shape) => {
    const token = tokenShapeOf(examples)!;
    const faker = seeded(1);
    for (let i = 0; i < 20; i++) expect(makeToken(faker, token)).toMatch(shape);
  });

  it('has no shape for examples with different prefixes or that are no tokens', () => {
    expect(tokenShapeOf(['CA1a2b3c4d5e6f708192a3b4c5d6e7f809', 'ACf3c0f4c2f7b74b6c8e0e7c29c4a2d7b1'])).toBeUndefined();
    expect(tokenShapeOf(['two words'])).toBeUndefined();
    expect(tokenShapeOf([])).toBeUndefined();
  });

  it('draws a URL\'s identifiers again and keeps the rest: versions, names, suffixes', () => {
    const example = '/2010-04-01/Accounts/ACf3c0f4c2f7b74b6c8e0e7c29c4a2d7b1/Calls/CA1a2b3c4d5e6f708192a3b4c5d6e7f809.json?Page=2';
    const drawn = redrawIdentifiers(seeded(2), example);
    expect(drawn).toMatch(/^\/2010-04-01\/Accounts\/AC[0-9a-f]{32}\/Calls\/CA[0-9a-f]{32}\.json\?Page=2$/);
    expect(drawn).not.toBe(example);
    expect(redrawIdentifiers(seeded(2), 'https://api.example.com/v1/Exports')).toBe('https://api.example.com/v1/Exports');
  });
});

describe('phone numbers and decimals', () => {
  it('keeps a phone number\'s country, area code and layout, and draws its last seven digits', () => {
    expect(redrawPhone(seeded(3), '+14155550134')).toMatch(/^\+1415\d{7}$/);
    expect(redrawPhone(seeded(3), '(415) 555-0134')).toMatch(/^\(415\) \d{3}-\d{4}$/);
  });

  it('writes decimals with the examples\' decimals and sign, up to twice the largest', () => {
    const shape = decimalShapeOf(['-0.03000', '-0.01000'])!;
    expect(shape).toEqual({ decimals: 5, negative: true, max: 0.06 });
    const faker = seeded(4);
    for (let i = 0; i < 20; i++) {
      const value = makeDecimal(faker, shape);
      expect(value).toMatch(/^-?0\.\d{5}$/);
      expect(Number(value)).toBeGreaterThanOrEqual(-0.06);
    }
    expect(decimalShapeOf(['12 items'])).toBeUndefined();
  });
});

describe('documentEvidence', () => {
  it('reads the examples once per document, by name in any spelling, and by the schema they are at', () => {
    const sid = { type: 'string' };
    const call = { type: 'object', properties: { sid, date_created: { type: 'string', example: 'Mon, 16 Aug 2010 03:45:01 +0000' } } };
    const document = {
      paths: { '/calls': { get: {
        parameters: [{ name: 'To', in: 'query', schema: { type: 'string' }, examples: { us: { value: '+14155550134' } } }],
        responses: { '200': { content: { 'application/json': { schema: { type: 'array', items: call }, example: [{ sid: 'CA1', date_created: 'Tue, 17 Aug 2010 03:45:01 +0000', extra: 2 }] } } } },
      } } },
    };
    const evidence = documentEvidence(document);
    expect(documentEvidence(document)).toBe(evidence);
    expect(evidence.examples('DateCreated').strings).toEqual(['Mon, 16 Aug 2010 03:45:01 +0000', 'Tue, 17 Aug 2010 03:45:01 +0000']);
    expect(evidence.examples('to').strings).toEqual(['+14155550134']);
    expect(evidence.examples('extra').numbers).toEqual([2]);
    expect(evidence.examplesOf(sid)?.strings).toEqual(['CA1']);
    expect(evidence.examplesOf({ type: 'string' })).toBeUndefined();
    expect(evidence.dateShape()).toEqual(dateShapeOf('Mon, 16 Aug 2010 03:45:01 +0000'));
    expect(NO_EVIDENCE.examples('sid').strings).toEqual([]);
  });

  it('ends on a document whose objects refer to each other, and on anything that is no document', () => {
    const schema: Record<string, unknown> = { type: 'object', example: { a: 'x' } };
    schema.properties = { a: schema, self: { items: schema } };
    expect(documentEvidence({ components: { schemas: { schema } } }).examples('a').strings).toEqual(['x']);
    for (const odd of [null, 'text', 42, []]) expect(documentEvidence(odd).examples('a').strings).toEqual([]);
  });
});
