/**
 * Only declared answers, on two hand-written documents (test/documents): an API whose operations
 * declare success only (Twilio's style), and one whose answers come in several media types for the
 * request's `Accept`. Every answer is checked by the mock's own self-check (`selfCheck: true`) and,
 * for the walks, by the document's response checker; what the mock fits to the declarations, or
 * knowingly sends undeclared, is in the request's log entry.
 */
import { describe, expect, it } from 'vitest';
import type { RequestEntry } from '../admin/request-log.js';
import { buildMock } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { ROOT } from '../../test-support/petstore.js';
import { walk } from '../../test-support/walk.js';

const ONLY_SUCCESS = `${ROOT}test/documents/only-success-api.yaml`;
const ACCEPT = `${ROOT}test/documents/accept-api.yaml`;
const BASIC = { Authorization: `Basic ${Buffer.from('k-1:').toString('base64')}` };
const UNKNOWN_SID = `WG${'0'.repeat(32)}`;

/** A mock of a document with the self-check on, and the log entry of each request it answered. */
async function logged(file: string, options: Parameters<typeof buildMock>[1] = {}) {
  const entries: RequestEntry[] = [];
  const mock = buildMock(await loadDocument(file), { apiKeys: ['k-1'], counts: { default: 2 }, selfCheck: true, onRequest: (entry) => entries.push(entry), ...options });
  const send = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
    const response = await mock.app.request(path, { method, headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, type: response.headers.get('content-type'), challenge: response.headers.get('www-authenticate'), text: await response.text(), entry: entries.at(-1)! };
  };
  return { mock, send };
}

describe('an API that declares success only (test/documents/only-success-api.yaml)', () => {
  it('answers every declared request as declared, the self-check finding nothing', async () => {
    const { call, selfCheck } = await walk(ONLY_SUCCESS, { apiKeys: ['k-1'], counts: { default: 0 } }, BASIC);
    const created = await call('POST', '/v1/Widgets.json', { friendly_name: 'First' });
    expect(created.status).toBe(201);
    const sid = created.body.sid as string;
    expect((await call('GET', `/v1/Widgets/${sid}.json`)).body).toEqual({ sid, friendly_name: 'First' });
    expect((await call('POST', `/v1/Widgets/${sid}.json`, { friendly_name: 'Renamed' })).body).toEqual({ sid, friendly_name: 'Renamed' });
    expect((await call('GET', '/v1/Widgets.json')).body).toEqual([{ sid, friendly_name: 'Renamed' }]);
    expect((await call('DELETE', `/v1/Widgets/${sid}.json`)).status).toBe(204);
    expect(selfCheck).toEqual({ checked: 5, violations: 0, undeclared: 0 });
  });

  it('still refuses what must be refused, with its own status: undeclared, said in the log entry, counted apart by the self-check', async () => {
    const { mock, send } = await logged(ONLY_SUCCESS);
    // A widget that does not exist: a 200 would say it does (and a list would not show it).
    const unknown = await send('GET', `/v1/Widgets/${UNKNOWN_SID}.json`, BASIC);
    expect([unknown.status, JSON.parse(unknown.text)]).toEqual([404, { code: 'NOT_FOUND', message: `No Widget has sid ${UNKNOWN_SID}.`, status: 404 }]);
    expect(unknown.entry.fitted).toEqual([`404 NOT_FOUND answered undeclared: GET /Widgets/{Sid}.json declares 200, no error that means the same, and the request must be refused.`]);
    expect(unknown.entry.selfCheck).toBeUndefined();
    // No credentials: 401 and its challenge, never a status that would not tell the client to authenticate.
    const anonymous = await send('DELETE', `/v1/Widgets/${UNKNOWN_SID}.json`);
    expect([anonymous.status, anonymous.challenge]).toEqual([401, 'Basic realm="Widgets"']);
    expect(anonymous.entry.fitted).toEqual([expect.stringMatching(/^401 UNAUTHORIZED answered undeclared: DELETE \/Widgets\/\{Sid\}\.json declares 204, /)]);
    // A body that breaks the schema, and a Sid that breaks its pattern.
    expect((await send('POST', '/v1/Widgets.json', BASIC, { friendly_name: '' })).status).toBe(400);
    expect((await send('GET', '/v1/Widgets/nope.json', BASIC)).status).toBe(400);
    expect(mock.selfCheck).toEqual({ checked: 4, violations: 0, undeclared: 4 });
    expect(mock.warnings.filter((w) => w.startsWith('Self-check'))).toEqual([]);
  });
});

describe("the request's Accept (test/documents/accept-api.yaml)", () => {
  it('answers in the declared media type Accept prefers, q-values and wildcards weighed', async () => {
    const { call } = await walk(ACCEPT, { counts: { default: 2 } });
    const asked = async (path: string, accept: string) => (await call('GET', path, undefined, { Accept: accept })).headers.get('content-type');
    expect(await asked('/notes', 'application/vnd.notes+json')).toBe('application/vnd.notes+json');
    expect(await asked('/notes', 'application/vnd.notes+json;q=0.5, application/json')).toBe('application/json');
    expect(await asked('/notes', 'application/*')).toBe('application/json'); // a tie: the mock's order, application/json first
    expect(await asked('/notes', '*/*')).toBe('application/json');
    // getNote declares its own type first: still application/json without Accept, its own type when asked.
    expect((await call('GET', '/notes/1')).headers.get('content-type')).toBe('application/json');
    expect(await asked('/notes/1', 'text/html, application/vnd.notes+json;q=0.9')).toBe('application/vnd.notes+json');
    const created = await call('POST', '/notes', { text: 'hello' }, { Accept: 'application/vnd.notes+json' });
    expect([created.status, created.headers.get('content-type'), created.body.text]).toEqual([201, 'application/vnd.notes+json', 'hello']);
    // A collection declared in a vendor JSON type only, and a text answer declared as `text/*`: sent as those, not as application/json.
    expect((await call('GET', '/tags')).headers.get('content-type')).toBe('application/vnd.api+json');
    const tag = await call('POST', '/tags', { name: 'urgent' });
    expect([tag.status, tag.headers.get('content-type')]).toEqual([201, 'application/vnd.api+json']);
    expect((await call('GET', `/tags/${tag.body.id}`)).headers.get('content-type')).toBe('application/vnd.api+json');
    const ping = await call('GET', '/ping');
    expect([ping.headers.get('content-type'), ping.text]).toEqual(['text/plain', 'pong']);
    // An error in the media type declared for it, whatever the Accept.
    const missing = await call('GET', '/notes/999', undefined, { Accept: 'application/vnd.notes+json' });
    expect([missing.status, missing.headers.get('content-type')]).toEqual([404, 'application/problem+json']);
  });

  it('answers 406 where 406 (or default) is declared and Accept takes none of the declared media types, before anything changes', async () => {
    const { mock, send } = await logged(ACCEPT);
    const notes = () => [...mock.store.collection('notes').all()].length;
    const before = notes();
    const refused = await send('POST', '/notes', { Accept: 'application/xml' }, { text: 'not made' });
    expect([refused.status, refused.type, JSON.parse(refused.text)]).toEqual([
      406,
      'application/problem+json',
      { type: 'about:blank', title: 'Not acceptable', status: 406, detail: 'Accept application/xml takes none of the media types this answer is declared in: application/json, application/vnd.notes+json.' },
    ]);
    expect(notes()).toBe(before);
    const status = await send('GET', '/status', { Accept: 'application/json' });
    expect([status.status, status.type]).toEqual([406, 'application/problem+json']);
    expect((await send('GET', '/status', { Accept: 'text/*' })).text).toMatch(/^(green|amber|red)$/);
    // Only `default` covers 406: its shape, at 406.
    const version = await send('GET', '/version', { Accept: 'text/html' });
    expect([version.status, JSON.parse(version.text)]).toEqual([406, { code: 'NOT_ACCEPTABLE', message: expect.stringMatching(/^Accept text\/html takes none/), status: 406 }]);
    // Declared in a media type the mock does not write (an image): Accept still decides.
    expect((await send('GET', '/logo', { Accept: 'application/json' })).status).toBe(406);
    expect(await send('GET', '/logo', { Accept: 'image/*' })).toMatchObject({ status: 200, type: 'image/png' });
    expect(mock.selfCheck).toEqual({ checked: 6, violations: 0, undeclared: 0 });
  });

  it('answers in the first declared media type where Accept takes none and no 406 is declared, and says so', async () => {
    const { mock, send } = await logged(ACCEPT);
    // The GET /health of a real document: text/plain only, asked for JSON (Prism answers an undeclared 406).
    const health = await send('GET', '/health', { Accept: 'application/json' });
    expect([health.status, health.type, health.text]).toEqual([200, 'text/plain', 'ok']);
    expect(health.entry.fitted).toEqual(['Accept application/json takes none of the media types declared for 200 (text/plain), and GET /health declares no 406; answered text/plain, the first of them.']);
    // XML is declared, but the mock cannot write it: JSON, the other declared one.
    const exported = await send('GET', '/export', { Accept: 'application/xml' });
    expect([exported.status, exported.type, JSON.parse(exported.text)]).toEqual([200, 'application/json', { count: expect.any(Number) }]);
    expect(exported.entry.fitted).toEqual([expect.stringMatching(/^Accept application\/xml takes none of the media types declared for 200 \(application\/xml or application\/json\)/)]);
    // Without Accept, or with one that takes it: nothing to say.
    expect((await send('GET', '/health')).entry.fitted).toBeUndefined();
    expect((await send('GET', '/health', { Accept: 'text/plain;q=0.1, application/json' })).entry.fitted).toBeUndefined();
    expect(mock.selfCheck).toEqual({ checked: 4, violations: 0, undeclared: 0 });
  });
});

describe('the self-check', () => {
  it('counts and warns about an answer that breaks the document, once per operation, status and problem; GET /__health reports the counts', async () => {
    // A rule (a plugin's part) that answers a body the document does not allow: the mock's fault, which the self-check is there to find.
    const warnings: string[] = [];
    const { mock, send } = await logged(ACCEPT, {
      onWarning: (message) => warnings.push(message),
      plugins: [{ name: 'faulty', mock: (parts) => (parts.rules.register('createNote', { after: (ctx) => void (ctx.record!.text = '') }), true) }],
    });
    const first = await send('POST', '/notes', {}, { text: 'one' });
    expect(first.status).toBe(201);
    expect(first.entry.selfCheck).toEqual([expect.objectContaining({ path: 'body.text', rule: 'minLength' })]);
    await send('POST', '/notes', {}, { text: 'two' });
    expect(warnings.filter((w) => w.startsWith('Self-check'))).toEqual([
      'Self-check: createNote (POST /notes) answered 201, which the document does not allow: body.text: must NOT have fewer than 1 characters. This is a fault of the mock; it is counted in GET /__health (selfCheck.violations).',
    ]);
    expect(mock.selfCheck).toEqual({ checked: 2, violations: 2, undeclared: 0 });
    expect(await (await mock.app.request('/__health')).json()).toMatchObject({ status: 'ok', selfCheck: { checked: 2, violations: 2, undeclared: 0 } });
  });

  it('is off by default: no counts, nothing in /__health', async () => {
    const mock = buildMock(await loadDocument(ACCEPT));
    expect(mock.selfCheck).toBeUndefined();
    expect(await (await mock.app.request('/__health')).json()).not.toHaveProperty('selfCheck');
  });
});
