/**
 * `onRequest`: called once for every request answered, the document's operations and the mock's
 * own endpoints alike, with what the request's scenario did and its validation problems.
 */
import { describe, expect, it } from 'vitest';
import type { RequestEntry } from './admin/request-log.js';
import { buildMock, type BuildMockOptions } from './app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { AUTH, CORPUS, petstore } from '../test-support/petstore.js';
import { NODE_REQUESTS } from '../server/node-requests.js';

/** A Petstore mock whose entries are collected; `send` answers with the entries that request produced. */
async function observed(options: BuildMockOptions = {}) {
  const entries: RequestEntry[] = [];
  // Read as the Node server reads them: the admin API's refusal of a remote caller is one of the answers.
  const mock = await petstore({ requestReader: NODE_REQUESTS, ...options, onRequest: (entry) => entries.push(entry), now: () => new Date('2026-05-01T10:00:00Z') });
  const send = async (path: string, init: RequestInit = {}, env?: unknown) => {
    const before = entries.length;
    const response = await mock.app.request(path, init, env);
    await response.arrayBuffer();
    return { status: response.status, entries: entries.slice(before) };
  };
  return { mock, entries, send };
}

const JSON_BODY = { ...AUTH, 'Content-Type': 'application/json' };

describe('onRequest', () => {
  it('gets one entry per answer of the document: time, method, path, status, ms, session, no scenario', async () => {
    const { send } = await observed();
    const { entries } = await send('/pets?limit=2', { headers: { ...AUTH, 'X-Mock-Session': 'alice' } });
    expect(entries).toEqual([{ time: Date.parse('2026-05-01T10:00:00Z'), method: 'GET', path: '/pets?limit=2', status: 200, ms: expect.any(Number), session: 'alice', scenario: 'none', problems: undefined }]);
    expect(entries[0].ms).toBeGreaterThanOrEqual(0);
    const created = await send('/pets', { method: 'POST', headers: JSON_BODY, body: '{"name":"Rex","categoryId":1}' });
    expect(created.entries.map((e) => [e.method, e.path, e.status, e.session])).toEqual([['POST', '/pets', 201, undefined]]);
  });

  it("gets each refused request's validation problems", async () => {
    const { send } = await observed();
    const { entries } = await send('/pets', { method: 'POST', headers: JSON_BODY, body: '{"name":5}' });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ status: 400, problems: [{ path: 'body.categoryId', rule: 'required' }, { path: 'body.name', rule: 'type' }] });
  });

  it('gets one entry for every answer of the mock itself: 404, 405, admin (refusals too), health, the document, preflights, OPTIONS', async () => {
    const { send } = await observed();
    const cases: Array<[string, RequestInit, number, unknown?]> = [
      ['/nothing', {}, 404],
      ['/pets', { method: 'PURGE' }, 405],
      ['/pets/1', { method: 'POST', headers: JSON_BODY, body: '{}' }, 405],
      ['/pets', { method: 'OPTIONS' }, 204],
      ['/pets', { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' } }, 204],
      ['/__admin/reset', { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' } }, 403],
      ['/__admin', {}, 200],
      ['/__admin/requests?limit=1', {}, 200],
      ['/__admin/reset', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' }, 415],
      ['/__admin/nothing', {}, 404],
      ['/__admin/state', {}, 403, { incoming: { socket: { remoteAddress: '203.0.113.9' }, headers: {} } }],
      ['/__health', {}, 200],
      ['/__spec', {}, 200],
      ['/__spec.yaml', { method: 'HEAD' }, 200],
    ];
    for (const [path, init, status, env] of cases) {
      const sent = await send(path, init, env);
      expect(sent.status, path).toBe(status);
      expect(sent.entries.map((e) => [e.method, e.path, e.status, e.scenario]), `${init.method ?? 'GET'} ${path}`).toEqual([[init.method ?? 'GET', path, status, 'none']]);
    }
  });

  it('gets admin calls with --no-admin, and requests refused for their Host (421)', async () => {
    const { send } = await observed({ admin: false, allowedHosts: ['demo.example.com'] });
    expect((await send('/__admin/state')).entries.map((e) => e.status)).toEqual([404]);
    const refused = await send('http://rebind.evil.example/pets?x=1', { headers: { 'X-Mock-Session': 'bob' } });
    expect(refused.entries).toEqual([expect.objectContaining({ method: 'GET', path: '/pets?x=1', status: 421, session: 'bob', scenario: 'none' })]);
    expect((await send('http://demo.example.com/pets', { headers: AUTH })).entries.map((e) => e.status)).toEqual([200]);
  });

  it('gets a failure once, as 500', async () => {
    const { send } = await observed({
      writable: () => {
        throw new Error('the disk caught fire');
      },
    });
    const { status, entries } = await send('/pets', { method: 'POST', headers: JSON_BODY, body: '{"name":"Rex","categoryId":1}' });
    expect(status).toBe(500);
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([['POST', '/pets', 500]]);
  });

  it('says what the scenario did: forced, refused, held, or a fault; none when nothing applied', async () => {
    const { send } = await observed();
    const scenarioOf = async (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) => {
      const { entries } = await send(path, { ...init, headers: { ...AUTH, ...headers } });
      expect(entries).toHaveLength(1);
      return entries[0].scenario;
    };
    expect(await scenarioOf('/pets/1', { Prefer: 'code=404' })).toEqual({ asked: { code: 404 }, outcome: 'forced' });
    expect(await scenarioOf('/pets?__example=empty')).toEqual({ asked: { example: 'empty' }, outcome: 'forced' });
    expect(await scenarioOf('/pets', { Prefer: 'code=418' })).toEqual({ asked: { code: 418 }, outcome: 'undeclared' });
    expect(await scenarioOf('/pets', { Prefer: 'code=abc' })).toEqual({ invalid: 'Prefer code=abc: the code must be an HTTP status from 100 to 599.' });
    expect(await scenarioOf('/pets/1', { Prefer: 'delay=5' })).toEqual({ asked: { delay: [5, 5] }, delay: { ms: 5, from: 'prefer' } });
    // The normal flow answered: asked, nothing forced.
    expect(await scenarioOf('/pets', { Prefer: 'code=201', 'Content-Type': 'application/json' }, { method: 'POST', body: '{"name":"Rex","categoryId":1}' })).toEqual({ asked: { code: 201 } });
    expect(await scenarioOf('/pets/1')).toBe('none');
    expect(await scenarioOf('/pets/1', { Prefer: 'respond-async' })).toBe('none');
  });

  it('says when --delay held an answer and --error-rate injected a fault', async () => {
    const { send } = await observed({ delay: [3, 3], errorRate: 1 });
    const { status, entries } = await send('/pets/1', { headers: AUTH });
    expect(status).toBe(500);
    expect(entries[0].scenario).toEqual({ fault: 500, delay: { ms: 3, from: 'server' } });
    expect(entries[0].ms).toBeGreaterThanOrEqual(2.5);
  });

  it('redacts API keys sent in the query, as the request log does', async () => {
    const entries: RequestEntry[] = [];
    const mock = buildMock(await loadDocument(`${CORPUS}/oai-swagger2-uber.yaml`), { onRequest: (entry) => entries.push(entry) });
    await mock.app.request('/v1/products?latitude=1&longitude=2&server_token=petstore-demo-key');
    await mock.app.request('/nothing?server_token=petstore-demo-key');
    expect(entries.map((e) => e.path)).toEqual(['/v1/products?latitude=1&longitude=2&server_token=REDACTED', '/nothing?server_token=REDACTED']);
    expect(JSON.stringify(entries)).not.toContain('petstore-demo-key');
  });

  it('leaves the request log as it was: the API only, the scenario shown when one applied', async () => {
    const { mock, send } = await observed();
    await send('/pets/1', { headers: { ...AUTH, Prefer: 'code=404' } });
    await send('/__health');
    await send('/pets/1', { headers: AUTH });
    const [plain, forced] = mock.requests.latest(5);
    expect(mock.requests.latest(5)).toHaveLength(2);
    expect(plain).not.toHaveProperty('scenario');
    expect(forced).toMatchObject({ path: '/pets/1', status: 404, scenario: { asked: { code: 404 }, outcome: 'forced' } });
  });
});
