import { describe, expect, it } from 'vitest';
import { AUTH, petstore } from '../../test-support/petstore.js';
import { startServer } from '../../server/serve.js';
import { NODE_REQUESTS } from '../../server/node-requests.js';
import { connect } from 'node:net';
import { MemoryStore } from '../../state/memory-store.js';
import { StoreUnavailable } from '../../state/postgres-errors.js';

const ADMIN = { Authorization: 'Bearer admin-secret' };
/** State-changing admin calls say they send JSON, even without a body. */
const ADMIN_JSON = { ...ADMIN, 'Content-Type': 'application/json' };
const json = (body: unknown, headers: Record<string, string> = ADMIN) => ({ method: 'PUT', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('the admin API', () => {
  it('refuses requests without the admin token, and refuses the petstore key, with 401', async () => {
    const { app } = await petstore({ adminToken: 'admin-secret' });
    for (const headers of [{}, AUTH, { Authorization: 'Bearer admin-secre' }, { Authorization: 'Basic admin-secret' }]) {
      const response = await app.request('/__admin/state', { headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'ADMIN_UNAUTHORIZED', status: 401 });
    }
    expect((await app.request('/__admin/state', { headers: ADMIN })).status).toBe(200);
  });

  it('never lets the admin token open the petstore', async () => {
    const { app } = await petstore({ adminToken: 'admin-secret' });
    expect((await app.request('/pets', { headers: ADMIN })).status).toBe(401);
  });

  it('without a token answers loopback callers and refuses others with 403', async () => {
    const mock = await petstore({ requestReader: NODE_REQUESTS });
    const server = await startServer(mock.app, { port: 0, host: '127.0.0.1' });
    try {
      expect((await fetch(`${server.url}/__admin/requests`)).status).toBe(200);
    } finally {
      await server.close();
    }
    // A remote address, as @hono/node-server reports it for a socket from elsewhere.
    const remote = await mock.app.request('/__admin/requests', {}, { incoming: { socket: { remoteAddress: '203.0.113.9', remotePort: 5000, remoteFamily: 'IPv4' } } });
    expect(remote.status).toBe(403);
    expect(await remote.json()).toMatchObject({ code: 'ADMIN_FORBIDDEN', status: 403 });
  });

  it('resets the state to the seed', async () => {
    const { app, call } = await petstore({ adminToken: 'admin-secret' });
    const before = (await call('GET', '/pets?limit=100')).body;
    expect((await call('POST', '/pets', { name: 'Temporary', categoryId: 1 })).status).toBe(201);
    await call('DELETE', '/pets/3');
    const reset = await app.request('/__admin/reset', { method: 'POST', headers: ADMIN_JSON });
    expect(await reset.json()).toEqual({ reset: 'shared', counts: { pets: 20, categories: 6, orders: 20, inventory: 20 } });
    expect((await call('GET', '/pets?limit=100')).body).toEqual(before);
  });

  it('reseeds with a new seed or counts, which later resets keep', async () => {
    const { app, call } = await petstore({ adminToken: 'admin-secret' });
    const before = (await call('GET', '/pets/1')).body;
    const seeded = await app.request('/__admin/seed', { method: 'POST', headers: ADMIN_JSON, body: JSON.stringify({ seed: 99, counts: { pets: 5 } }) });
    expect(await seeded.json()).toEqual({ seed: 99, counts: { pets: 5, categories: 6, orders: 20, inventory: 5 } });
    expect((await call('GET', '/pets/1')).body).not.toEqual(before);
    await app.request('/__admin/reset', { method: 'POST', headers: ADMIN_JSON });
    expect((await call('GET', '/pets?limit=1')).headers.get('X-Total-Count')).toBe('5');
    const bad = await app.request('/__admin/seed', { method: 'POST', headers: ADMIN_JSON, body: '{"seed":-1}' });
    expect(bad.status).toBe(400);
  });

  it('exports the state and imports it back, exactly', async () => {
    const { app, call } = await petstore({ adminToken: 'admin-secret' });
    const exported = await (await app.request('/__admin/state', { headers: ADMIN })).json();
    expect((await call('POST', '/pets', { name: 'After', categoryId: 1 })).status).toBe(201);
    const imported = await app.request('/__admin/state', json(exported));
    expect(await imported.json()).toMatchObject({ imported: 'shared', counts: { pets: 20 } });
    expect(await (await app.request('/__admin/state', { headers: ADMIN })).json()).toEqual(exported);
    expect((await call('POST', '/pets', { name: 'Next', categoryId: 1 })).body.id).toBe(21); // the key sequence is restored too
  });

  it('refuses a bad import, changes nothing, and says why', async () => {
    const { app, store } = await petstore({ adminToken: 'admin-secret' });
    const exported = (await (await app.request('/__admin/state', { headers: ADMIN })).json()) as any;
    const before = JSON.stringify(store.export());
    exported.collections.pets.scopes[''][3].name = 42;
    exported.collections.categories.scopes[''] = [];
    const refused = await app.request('/__admin/state', json(exported));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ code: 'INVALID_STATE', message: 'The state was not imported (nothing changed): pets: record 4 (id 4) does not match the schema: name: must be string.', status: 400 });
    expect(JSON.stringify(store.export())).toBe(before);
    for (const [body, message] of [[{}, /"format"/], [{ format: 'petstore-mock-kit/state@1', collections: { dragons: { nextInteger: 1, scopes: {} } } }, /collection "dragons" is not in the document/]] as const) {
      const response = await app.request('/__admin/state', json(body));
      expect(((await response.json()) as any).message).toMatch(message);
    }
    expect((await app.request('/__admin/state', { ...json({}), body: '{' })).status).toBe(400);
  });

  it('refuses an import with a scope a collection cannot have (__proto__ included) or a key past 2^53 - 1, changing nothing', async () => {
    const { app, store } = await petstore({ adminToken: 'admin-secret' });
    const exported = (await (await app.request('/__admin/state', { headers: ADMIN })).json()) as any;
    const before = JSON.stringify(store.export());
    for (const scope of ['__proto__', 'constructor', '7']) {
      const state = structuredClone(exported);
      Object.defineProperty(state.collections.pets.scopes, scope, { value: [{ id: 5000, name: 'Ghost', categoryId: 1 }], enumerable: true });
      const refused = await app.request('/__admin/state', json(state));
      expect(refused.status, scope).toBe(400);
      expect(((await refused.json()) as any).message).toContain(`pets: scope "${scope}" cannot hold records`);
    }
    // 2^53 + 1 in the text: JSON.parse reads 2^53, which the key after 2^53 - 1 would also be.
    const text = JSON.stringify(exported).replace('"id":1,', '"id":9007199254740993,').replace('"id":1}', '"id":9007199254740993}');
    expect(text).toContain('9007199254740993');
    const big = await app.request('/__admin/state', { ...json({}), body: text });
    expect(big.status).toBe(400);
    expect(((await big.json()) as any).message).toContain('must be an integer from -(2^53 - 1) to 2^53 - 1');
    expect(JSON.stringify(store.export())).toBe(before);
  });

  it('reads a body up to its limit (maxAdminBodyBytes; 64 MiB by default) and answers 413 past it, in the error shape, changing nothing', async () => {
    const { app, store } = await petstore({ adminToken: 'admin-secret', maxAdminBodyBytes: 4096 });
    const before = JSON.stringify(store.export());
    const padded = (bytes: number) => JSON.stringify({ seed: 9, pad: 'x'.repeat(bytes - 19) });
    expect(padded(4096).length).toBe(4096);
    const refused = await app.request('/__admin/seed', { method: 'POST', headers: ADMIN_JSON, body: padded(4097) });
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 4096 bytes.', status: 413 });
    expect((await app.request('/__admin/state', { method: 'PUT', headers: ADMIN_JSON, body: padded(5000) })).status).toBe(413);
    // Refused before its Content-Type is judged, and before the handler reads anything.
    expect((await app.request('/__admin/seed', { method: 'POST', headers: { ...ADMIN, 'Content-Type': 'text/plain' }, body: padded(5000) })).status).toBe(413);
    expect(JSON.stringify(store.export())).toBe(before);
    expect((await app.request('/__admin/seed', { method: 'POST', headers: ADMIN_JSON, body: padded(4096) })).status).toBe(200);
  });

  it('on a socket, refuses a body declared past the default 64 MiB from its Content-Length alone, before a byte of it is sent', async () => {
    const mock = await petstore({ requestReader: NODE_REQUESTS });
    const server = await startServer(mock.app, { port: 0, host: '127.0.0.1' });
    try {
      const { port } = new URL(server.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(`PUT /__admin/state HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024 + 1}\r\n\r\n{`));
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
          if (text.includes('}')) socket.destroy(), resolve(text);
        });
        socket.on('error', reject);
        // Only a hang detector: the answer comes as soon as the headers are read.
        socket.setTimeout(30_000, () => (socket.destroy(), reject(new Error(`no answer: ${text}`))));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('"code":"PAYLOAD_TOO_LARGE"');
      expect(answer).toContain(`larger than ${64 * 1024 * 1024} bytes`);
    } finally {
      await server.close();
    }
  });

  it('answers in the error shape when the store refuses the transaction (a database lost): 503 for every call, never a rejected request', async () => {
    /** A store whose transactions are refused once told to, as the PostgreSQL store's are while its database is gone. */
    class RefusingStore extends MemoryStore {
      refusing = false;
      override transact<T>(work: () => T): T {
        return this.refusing ? (Promise.reject(new StoreUnavailable('The database is gone.')) as unknown as T) : work();
      }
    }
    let store: RefusingStore | undefined;
    const { app } = await petstore({ adminToken: 'admin-secret', store: (collections, budget) => (store ??= new RefusingStore(collections, budget)) });
    const exported = await (await app.request('/__admin/state', { headers: ADMIN })).json();
    store!.refusing = true;
    const calls: Array<[string, string, string?]> = [['PUT', '/__admin/state', JSON.stringify(exported)], ['POST', '/__admin/reset'], ['POST', '/__admin/seed', '{"seed":3}'], ['GET', '/__admin/state']];
    for (const [method, path, body] of calls) {
      const response = await app.request(path, { method, headers: ADMIN_JSON, body });
      expect([method, path, response.status, response.headers.get('Retry-After')]).toEqual([method, path, 503, '1']);
      expect(await response.json()).toMatchObject({ code: 'STORE_UNAVAILABLE', status: 503 });
    }
  });

  it('never gives an integer key twice: past 2^53 - 1 a create is refused (NO_FREE_KEY), and no record is replaced', async () => {
    const { app, call } = await petstore({ adminToken: 'admin-secret' });
    const state = (await (await app.request('/__admin/state', { headers: ADMIN })).json()) as any;
    state.collections.pets.nextInteger = Number.MAX_SAFE_INTEGER - 1;
    expect((await app.request('/__admin/state', json(state))).status).toBe(200);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await call('POST', '/pets', { name: `N${i}`, categoryId: 1 }));
    // 409 NO_FREE_KEY, answered as the 4xx createPet declares (422).
    expect(ids.map((r) => [r.status, r.body.code])).toEqual([[201, undefined], [201, undefined], [422, 'NO_FREE_KEY'], [422, 'NO_FREE_KEY']]);
    expect(ids.slice(0, 2).map((r) => r.body.id)).toEqual([Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER]);
    const listed = await call('GET', '/pets?limit=100');
    expect(listed.body.map((p: any) => p.name).slice(-2)).toEqual(['N0', 'N1']);
    expect(listed.headers.get('X-Total-Count')).toBe('22');
  });

  it('lists the last requests with their status and validation problems, and no API key', async () => {
    const { app, call } = await petstore({ adminToken: 'admin-secret' });
    await call('GET', '/pets?limit=2');
    await call('POST', '/pets', { name: 7, categoryId: 1 });
    await app.request('/pets');
    const { requests } = (await (await app.request('/__admin/requests?limit=3', { headers: ADMIN })).json()) as any;
    expect(requests.map((r: any) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /pets 401', 'POST /pets 400', 'GET /pets?limit=2 200']);
    expect(requests[1].problems).toEqual([{ path: 'body.name', rule: 'type', message: 'must be string' }]);
    expect(JSON.stringify(requests)).not.toContain('petstore-demo-key');
  });

  it('acts on the session named by X-Mock-Session', async () => {
    const { app, call } = await petstore({ adminToken: 'admin-secret' });
    const alice = { 'X-Mock-Session': 'alice' };
    expect((await call('POST', '/pets', { name: 'Alice pet', categoryId: 1 }, alice)).status).toBe(201);
    const state = (await (await app.request('/__admin/state', { headers: { ...ADMIN, ...alice } })).json()) as any;
    expect(state.collections.pets.scopes[''].at(-1).name).toBe('Alice pet');
    await app.request('/__admin/reset', { method: 'POST', headers: { ...ADMIN_JSON, ...alice } });
    expect((await call('GET', '/pets?id=21', undefined, alice)).body).toEqual([]);
  });

  it('is absent from the document, and unknown admin paths get a 404 Error', async () => {
    const { app, operations } = await petstore({ adminToken: 'admin-secret' });
    expect(operations.some((op) => op.path.startsWith('/__admin'))).toBe(false);
    const response = await app.request('/__admin/nothing', { headers: ADMIN });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', status: 404 });
  });

  it('lists a request with a malformed escape in its query, its API key still redacted (it answered 500 before)', async () => {
    const { buildMock } = await import('../app.js');
    const { loadDocument } = await import('../../openapi/document/load-document.js');
    const { ROOT } = await import('../../test-support/petstore.js');
    const mock = buildMock(await loadDocument(`${ROOT}test/documents/keys-api.yaml`), { apiKeys: ['k-123'], adminToken: 'admin-secret' });
    expect((await mock.app.request('/status?key=k-123&%E0=1')).status).toBe(200);
    const log = await mock.app.request('/__admin/requests?limit=1', { headers: ADMIN });
    expect(log.status).toBe(200);
    const [entry] = ((await log.json()) as { requests: Array<{ path: string }> }).requests;
    expect(entry.path).toBe('/status?key=REDACTED&%E0=1');
  });

  it('says how each operation is answered: every Petstore operation from state; for another document, which are not stateful and why', async () => {
    const { app } = await petstore({ adminToken: 'admin-secret' });
    const petstoreAnswers = ((await (await app.request('/__admin/operations', { headers: ADMIN })).json()) as { operations: Array<{ operationId: string; from: string; collection?: string; action?: string }> }).operations;
    expect(petstoreAnswers).toHaveLength(19);
    expect(petstoreAnswers.every((a) => a.from === 'state')).toBe(true);
    expect(petstoreAnswers.find((a) => a.operationId === 'placeOrder')).toMatchObject({ collection: 'orders', action: 'create' });

    const { buildMock } = await import('../app.js');
    const { loadDocument } = await import('../../openapi/document/load-document.js');
    const { ROOT } = await import('../../test-support/petstore.js');
    const notes = buildMock(await loadDocument(`${ROOT}test/documents/notes-api.yaml`), { adminToken: 'admin-secret' });
    const answers = ((await (await notes.app.request('/__admin/operations', { headers: ADMIN })).json()) as { operations: Array<{ operationId: string; from: string; reason?: string }> }).operations;
    expect(answers.filter((a) => a.from === 'static')).toEqual([
      { operationId: 'getNoteText', operation: 'GET /notes/{noteId}/text', from: 'static', reason: 'a path below one notes record, and its answer is no list of records (an array of objects, or an object wrapping one)' },
      { operationId: 'getStats', operation: 'GET /stats', from: 'static', reason: 'its answer is no list of records (an array of objects, or an object wrapping one)' },
    ]);
  });
});
