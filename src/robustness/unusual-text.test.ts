/**
 * Text JSON carries that a store or a URL cannot: a lone surrogate (half of a UTF-16 pair, written
 * `\ud800`) is refused with a 400 naming the field before anything is stored, whatever the document
 * and the body's decoder; NUL (`\u0000`), U+0001, astral characters and combining marks are stored
 * and given back exactly, in values, in keys the client chooses and in the scopes under them.
 * The examples through the in-memory store; the same property on every store, with
 * ordinary writes alongside, in unusual-text-stores.integration.test.ts (memory, the state file)
 * and src/state/unusual-text.process.test.ts (PostgreSQL).
 */
import { describe, expect, it } from 'vitest';
import { buildMock, type Mock } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import type { MockPlugin } from '../mock/registries/extension.js';
import { caller, petstore, ROOT } from '../test-support/petstore.js';

const LABELS = `${ROOT}test/documents/labels-api.yaml`;

async function labels(plugins: MockPlugin[] = []) {
  const mock = buildMock(await loadDocument(LABELS), { counts: { default: 2 }, plugins });
  return { mock, call: caller(mock) };
}

/** Every record of every collection, as JSON: equal texts mean an unchanged store. */
const snapshot = (mock: Mock) => JSON.stringify(mock.collections.map(({ name }) => [name, [...mock.store.collection(name).all()]]));

describe('a lone surrogate in a request body', () => {
  it('POST /pets {"name":"\\ud800","categoryId":1}: 400 naming body.name, nothing stored', async () => {
    const mock = await petstore();
    const before = snapshot(mock);
    const answer = await mock.call('POST', '/pets', '{"name":"\\ud800","categoryId":1}');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', details: [{ path: 'body.name', rule: 'unicode' }] });
    expect(answer.body.message).toBe(
      'body.name: holds a lone surrogate (\\ud800), which is not Unicode text: send a whole character (both halves of a surrogate pair) or none',
    );
    expect(snapshot(mock)).toBe(before);
  });

  it('as a key the client chooses: 400, not a 500 after the record was stored', async () => {
    const { mock, call } = await labels();
    const before = snapshot(mock);
    const answer = await call('POST', '/labels', '{"name":"a\\ud800"}');
    expect([answer.status, answer.body]).toEqual([400, expect.objectContaining({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ path: 'body.name', rule: 'unicode' })] })]);
    expect(snapshot(mock)).toBe(before);
    expect((await call('GET', '/labels')).body).toHaveLength(2);
  });

  it('anywhere: a low half alone, a pair in the wrong order, a property name, deep in arrays; every one named in one answer', async () => {
    const { mock, call } = await labels();
    const before = snapshot(mock);
    const answer = await call('POST', '/labels', '{"name":"ok","color":"\\udfff\\ud800","extra":{"list":["fine",["\\udc00"]]},"\\ud83d":1}');
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([
      { path: 'body.color', rule: 'unicode', message: expect.stringContaining('(\\udfff, \\ud800)') },
      { path: 'body.extra.list.1.0', rule: 'unicode', message: expect.stringContaining('(\\udc00)') },
      { path: 'body.\\ud83d', rule: 'unicode', message: expect.stringMatching(/^is a property name holding a lone surrogate \(\\ud83d\)/) },
    ]);
    // The answer is Unicode text itself: the halves are written as escapes.
    expect(JSON.stringify(answer.body)).not.toMatch(/[\uD800-\uDFFF]/u);
    expect(snapshot(mock)).toBe(before);
  });

  it('whatever decoded the body: a decoder registered for the media type is held to the same rule', async () => {
    const raw: MockPlugin = { name: 'raw-json', mock: (parts) => (parts.bodyDecoders.register('application/json', () => ({ name: 'from the decoder \udc15' })), true) };
    const { mock, call } = await labels([raw]);
    const before = snapshot(mock);
    const answer = await call('POST', '/labels', '{}');
    expect([answer.status, answer.body.details]).toEqual([400, [expect.objectContaining({ path: 'body.name', rule: 'unicode' })]]);
    expect(snapshot(mock)).toBe(before);
  });

  it('a whole pair written as two escapes is one character: stored and given back', async () => {
    const { call } = await labels();
    const created = await call('POST', '/labels', '{"name":"dog \\ud83d\\udc15","color":"\\ud83d\\udc15"}');
    expect([created.status, created.body]).toEqual([201, { name: 'dog 🐕', color: '🐕' }]);
    expect(created.headers.get('location')).toBe(`/labels/${encodeURIComponent('dog 🐕')}`);
    expect((await call('GET', `/labels/${encodeURIComponent('dog 🐕')}`)).body).toEqual({ name: 'dog 🐕', color: '🐕' });
  });
});

describe('NUL, U+0001, astral characters and combining marks', () => {
  const names = ['a\u0000b', '\u0000', '\u0001"x"', 'e\u0301\u0301', '🐕\u0000🐈', 'tab\there', '\\u0000 as text'];

  it('are kept exactly in keys the client chooses, in the scopes under them and in values', async () => {
    const { call } = await labels();
    for (const name of names) {
      const created = await call('POST', '/labels', { name, color: `${name}!` });
      expect([created.status, created.body], JSON.stringify(name)).toEqual([201, { name, color: `${name}!` }]);
      expect(created.headers.get('location')).toBe(`/labels/${encodeURIComponent(name)}`);
      const path = `/labels/${encodeURIComponent(name)}`;
      expect((await call('GET', path)).body, JSON.stringify(name)).toEqual({ name, color: `${name}!` });
      expect((await call('POST', `${path}/notes`, { text: name })).status, JSON.stringify(name)).toBe(201);
      expect((await call('GET', `${path}/notes`)).body, JSON.stringify(name)).toEqual([{ id: expect.any(Number), text: name }]);
    }
    // Each its own label: none taken for another, none changed.
    const listed = (await call('GET', '/labels')).body as Array<{ name: string }>;
    expect(listed.slice(-names.length).map((label) => label.name)).toEqual(names);
    expect((await call('POST', '/labels', { name: 'a\u0000b' })).status).toBe(409);
  });
});
