/**
 * The timestamps a server keeps, read from the clock whatever their shape: a date-time, a string
 * whose values are dates of another shape (Twilio's RFC 2822), a number of seconds (Stripe's `created`).
 */
import { describe, expect, it } from 'vitest';
import type { SchemaObject } from '../openapi/document/schema.js';
import { fillServerFields } from './server-fields.js';

const NOW = Date.UTC(2031, 4, 6, 7, 8, 9);
const schema: SchemaObject = {
  type: 'object',
  properties: {
    date_created: { type: 'string' },
    date_updated: { type: 'string', format: 'date-time-rfc-2822' },
    created: { type: 'integer' },
    updated: { type: 'integer' },
    created_at: { type: 'string', format: 'date-time' },
    modified: { type: 'string' },
    changed: { type: 'string', enum: ['yes', 'no'] },
  },
};
/** What generation makes for the record (from the document's examples): dates of 2010, seconds and milliseconds, a word. */
const generated = { date_created: 'Mon, 16 Aug 2010 03:45:01 +0000', date_updated: 'Mon, 16 Aug 2010 03:45:03 +0000', created: 1_281_930_301, updated: 1_281_930_301_000, modified: 'twice', changed: 'no' };
const fill = (record: Record<string, unknown>, change: 'create' | 'update') => {
  fillServerFields(schema, record, change, { now: () => NOW, generate: () => ({ ...generated }) }, new Set());
  return record;
};

describe('fillServerFields', () => {
  it('dates a create now, in the shape its values have: RFC 2822, seconds, milliseconds, ISO 8601', () => {
    expect(fill({}, 'create')).toMatchObject({
      date_created: 'Tue, 06 May 2031 07:08:09 +0000',
      date_updated: 'Tue, 06 May 2031 07:08:09 +0000',
      created: NOW / 1000,
      updated: NOW,
      created_at: '2031-05-06T07:08:09.000Z',
    });
  });

  it('leaves a value that is no date (a `modified` that is a word), and one held to an enum, as generated', () => {
    expect(fill({}, 'create')).toMatchObject({ modified: 'twice', changed: 'no' });
  });

  it('on an update refreshes the updated time in the shape it has, and keeps the created one', () => {
    const record = fill({ date_created: 'Mon, 16 Aug 2010 03:45:01 +0000', date_updated: '1 Aug 2010 03:45 GMT', created: 1_281_930_301 }, 'update');
    expect(record).toMatchObject({ date_created: 'Mon, 16 Aug 2010 03:45:01 +0000', date_updated: '6 May 2031 07:08 GMT', created: 1_281_930_301, updated: NOW });
  });
});
