/**
 * Creates from form fields spelled otherwise than the record (test/documents/form-fields-api.yaml,
 * in Twilio's style): what was sent is kept under the record's names, and every property the
 * server owns is filled. Every answer is checked against the document by the walk.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../openapi/document/load-document.js';
import { ROOT } from '../../test-support/petstore.js';
import { walk } from '../../test-support/walk.js';

const TELEPHONY = `${ROOT}test/documents/form-fields-api.yaml`;
const NOW = new Date('2031-05-06T07:08:09.000Z');
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const telephony = () => walk(TELEPHONY, { apiKeys: ['k-1'], counts: { default: 0 }, now: () => NOW }, { Authorization: `Basic ${Buffer.from('k-1:').toString('base64')}` });
const declared = async (schema: string) => Object.keys((await loadDocument(TELEPHONY)).api.components!.schemas![schema].properties!).sort();

describe('a create from PascalCase form fields', () => {
  it('keeps each field under the property spelled like it (`FriendlyName` is `friendly_name`), and fills every property the server owns', async () => {
    const { call } = await telephony();
    const account = await call('POST', '/2010-04-01/Accounts.json', 'FriendlyName=Ops', FORM);
    expect(account.status).toBe(201);
    expect(account.body).toMatchObject({ friendly_name: 'Ops', sid: expect.stringMatching(/^AC[0-9a-f]{32}$/), status: 'active', date_created: NOW.toISOString(), date_updated: NOW.toISOString() });
    expect(Object.keys(account.body).sort()).toEqual(await declared('Account'));
    expect((await call('GET', `/2010-04-01/Accounts/${account.body.sid}.json`)).body).toEqual(account.body);
    // An update by POST is matched the same way.
    const updated = await call('POST', `/2010-04-01/Accounts/${account.body.sid}.json`, 'Status=suspended', FORM);
    expect([updated.body.status, updated.body.friendly_name]).toEqual(['suspended', 'Ops']);
  });

  it('makes a message as full as a seeded one: what was sent, and the rest generated, all of it read back', async () => {
    const { call } = await telephony();
    const sid = (await call('POST', '/2010-04-01/Accounts.json', 'FriendlyName=Ops', FORM)).body.sid;
    const message = await call('POST', `/2010-04-01/Accounts/${sid}/Messages.json`, 'To=%2B15005550006&From=%2B15005550001&Body=Hello', FORM);
    expect(message.status).toBe(201);
    expect(message.body).toMatchObject({ to: '+15005550006', from: '+15005550001', body: 'Hello', account_sid: sid, sid: expect.stringMatching(/^SM[0-9a-f]{32}$/) });
    expect(Object.keys(message.body).sort()).toEqual(await declared('Message'));
    expect((await call('GET', `/2010-04-01/Accounts/${sid}/Messages/${message.body.sid}.json`)).body).toEqual(message.body);
    expect((await call('GET', `/2010-04-01/Accounts/${sid}/Messages.json?To=%2B15005550006`)).body.messages).toEqual([message.body]);
  });

  it('makes up nothing the client could have sent and did not: null where the schema allows it, else left out', async () => {
    const { call } = await telephony();
    const account = await call('POST', '/2010-04-01/Accounts.json', '', FORM);
    expect(account.body.friendly_name).toBeNull();
    const sid = account.body.sid;
    const number = await call('POST', `/2010-04-01/Accounts/${sid}/IncomingPhoneNumbers/Local.json`, 'PhoneNumber=%2B15005550007', FORM);
    expect(number.body).toMatchObject({ phone_number: '+15005550007', account_sid: sid, sid: expect.stringMatching(/^PN[0-9a-f]{32}$/), capabilities: expect.any(Object) });
    // `FriendlyName` and `VoiceUrl` are the client's to send: not sent, not made up.
    expect(Object.keys(number.body)).not.toContain('friendly_name');
    expect(Object.keys(number.body)).not.toContain('voice_url');
  });
});

describe('numbers bought on a path with no item path (IncomingPhoneNumbers/Local.json)', () => {
  it('are listed under the account that bought them only', async () => {
    const { call } = await telephony();
    const [first, other] = await Promise.all([call('POST', '/2010-04-01/Accounts.json', 'FriendlyName=A', FORM), call('POST', '/2010-04-01/Accounts.json', 'FriendlyName=B', FORM)]);
    const bought = await call('POST', `/2010-04-01/Accounts/${first.body.sid}/IncomingPhoneNumbers/Local.json`, 'PhoneNumber=%2B15005550007&FriendlyName=Main', FORM);
    expect(bought.body.friendly_name).toBe('Main');
    expect((await call('GET', `/2010-04-01/Accounts/${first.body.sid}/IncomingPhoneNumbers/Local.json`)).body.incoming_phone_numbers).toEqual([bought.body]);
    expect((await call('GET', `/2010-04-01/Accounts/${other.body.sid}/IncomingPhoneNumbers/Local.json`)).body.incoming_phone_numbers).toEqual([]);
  });
});

describe('an action answered from the document (POST /Lookups.json)', () => {
  it('carries the fields sent where its answer has them, and keeps to the schema', async () => {
    const { call } = await telephony();
    const found = await call('POST', '/2010-04-01/Lookups.json', 'PhoneNumber=%2B15005550006&CountryCode=GB', FORM);
    expect([found.body.phone_number, found.body.country_code]).toEqual(['+15005550006', 'GB']);
    // FR is no country the answer allows: the number is carried, the country is not.
    const other = await call('POST', '/2010-04-01/Lookups.json', 'PhoneNumber=%2B15005550009&CountryCode=FR', FORM);
    expect([other.body.phone_number, ['US', 'GB', 'CA'].includes(other.body.country_code)]).toEqual(['+15005550009', true]);
  });
});
