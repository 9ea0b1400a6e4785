/**
 * Which properties of a record are its links to itself (src/openapi/operations/record-links.ts), and how
 * they are written against the document's server and answered at the client's URL.
 */
import { describe, expect, it } from 'vitest';
import type { SchemaObject } from '../document/schema.js';
import type { Collection } from './collection.js';
import { RecordLinks, recordLinksOf, selfLinkSlots } from './record-links.js';

const url = { type: 'string', format: 'uri' } as const;
const text = { type: 'string' } as const;

describe('selfLinkSlots', () => {
  it("finds Twilio's `uri`, a `self` and an `href`, JSON:API's `links.self`, HAL's `_links.self.href`, absolute where the format is a URI", () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: { uri: text, self: url, href: text, links: { type: 'object', properties: { self: url, next: url } }, _links: { type: 'object', properties: { self: { type: 'object', properties: { href: text } } } } },
    };
    expect(selfLinkSlots(schema)).toEqual([
      { path: ['uri'], absolute: false },
      { path: ['self'], absolute: true },
      { path: ['href'], absolute: false },
      { path: ['links', 'self'], absolute: true },
      { path: ['_links', 'self', 'href'], absolute: false },
    ]);
  });

  it('leaves what may be something else: a top-level `url` (a bookmark), other relations, values held to an enum, a pattern or a short length, non-strings', () => {
    const schema: SchemaObject = {
      type: 'object',
      properties: { url, links: { type: 'object', properties: { next: url, parent: { type: 'object', properties: { href: text } } } }, uri: { type: 'string', pattern: '^urn:' }, self: { type: 'string', maxLength: 20 }, href: { type: 'integer' } },
    };
    expect(selfLinkSlots(schema)).toEqual([]);
  });
});

const messages: Collection = {
  name: 'messages', path: '/Accounts/{AccountSid}/Messages.json', itemPath: '/Accounts/{AccountSid}/Messages/{Sid}.json', keyParam: 'Sid', keyProperty: 'sid', keySchema: text,
  listed: true, scopeParams: ['AccountSid'], schema: { type: 'object', properties: { sid: text, uri: text, links: { type: 'object', properties: { self: url } } } },
  references: [], creatable: true, notFoundDeclared: true, indexed: [], children: [],
};

describe('RecordLinks', () => {
  const links = recordLinksOf(messages, { origin: 'https://api.twilio.com', basePath: '/2010-04-01' }) as RecordLinks;

  it("writes the record's item path, from its key and its parents' keys: relative, or absolute on the document's server", () => {
    const record: Record<string, unknown> = { sid: 'SM1', links: {} };
    links.fill(record, 'AC9');
    expect(record).toEqual({ sid: 'SM1', uri: '/2010-04-01/Accounts/AC9/Messages/SM1.json', links: { self: 'https://api.twilio.com/2010-04-01/Accounts/AC9/Messages/SM1.json' } });
  });

  it('writes no link in an object the record does not have, nor for a parent it does not know', () => {
    const record: Record<string, unknown> = { sid: 'SM1' };
    links.fill(record, 'AC9');
    expect(record).toEqual({ sid: 'SM1', uri: '/2010-04-01/Accounts/AC9/Messages/SM1.json' });
    const orphan: Record<string, unknown> = { sid: 'SM2' };
    links.fill(orphan, '');
    expect(orphan).toEqual({ sid: 'SM2' });
  });

  it("answers a copy with the client's URLs, the stored record unchanged; a link elsewhere stays as it is", () => {
    const record: Record<string, unknown> = { sid: 'SM1', links: {} };
    links.fill(record, 'AC9');
    const stored = structuredClone(record);
    const answered = links.present(record, (path, absolute) => `${absolute ? 'http://app.test' : ''}/api${path.slice('/2010-04-01'.length)}`);
    expect(answered).toEqual({ sid: 'SM1', uri: '/api/Accounts/AC9/Messages/SM1.json', links: { self: 'http://app.test/api/Accounts/AC9/Messages/SM1.json' } });
    expect(record).toEqual(stored);
    const elsewhere = { sid: 'SM1', uri: 'https://example.com/x', links: { self: 'https://example.com/y' } };
    expect(links.present(elsewhere, () => 'changed')).toBe(elsewhere);
  });
});
