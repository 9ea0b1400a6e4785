import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildMock, DEMO_API_KEY, type Mock } from '../mock/app.js';
import { loadDocument, type LoadedDocument } from '../openapi/document/load-document.js';
import { buildOperations } from '../openapi/operations/build-operations.js';
import type { Collection } from '../openapi/operations/collection.js';
import { inferCollections } from '../openapi/operations/infer-collections.js';
import type { Operation } from '../openapi/operations/operation.js';
import { templateFinder, templateMatcher } from '../openapi/operations/path-template.js';
import { serverBasePath } from '../openapi/operations/server-base-path.js';
import { listItems } from '../contract/list-items.js';
import { ROOT, SPEC } from '../test-support/petstore.js';
import { createRecorder, type Recorder } from './record.js';

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'record-'));
  dirs.push(dir);
  return dir;
}

/** A fixed clock for both sides: timestamps and the Petstore's sunset do not move with the day the test runs. */
const now = () => new Date('2026-03-01T12:00:00Z');
const KEY = DEMO_API_KEY;

/** Credentials the document's first scheme takes, with the demo key. */
function credentials(document: LoadedDocument): Record<string, string> {
  const scheme = Object.values(document.api.components?.securitySchemes ?? {})[0] as { type?: string; scheme?: string; in?: string; name?: string } | undefined;
  if (scheme?.type === 'apiKey' && scheme.in === 'header') return { [scheme.name!]: KEY };
  if (scheme?.type === 'http' && scheme.scheme === 'basic') return { Authorization: `Basic ${btoa(`${KEY}:`)}` };
  return { Authorization: `Bearer ${KEY}` };
}

type Answer = { status: number; json: unknown };

/**
 * What the proxy does with an answer, in process: the request goes to `mock`, the answer's path is
 * matched to the document's operation (as the mock's router ranks templates), and the recorder
 * gets the operation, the decoded path parameters, the status and the parsed JSON body.
 */
function through(mock: Mock, document: LoadedDocument, recorder?: Recorder) {
  const operations = buildOperations(document.api);
  const basePath = serverBasePath(document.api);
  const finders = new Map<string, ReturnType<typeof templateFinder<Operation>>>();
  const auth = credentials(document);
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = { ...auth, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
    const response = await mock.app.request(`${basePath}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    const json = /json/i.test(response.headers.get('content-type') ?? '') && text ? JSON.parse(text) : undefined;
    const lower = method.toLowerCase();
    if (!finders.has(lower)) finders.set(lower, templateFinder(operations.filter((op) => op.method === lower), basePath, (op) => op.path));
    const match = finders.get(lower)!(`${basePath}${path}`.split('?')[0]);
    if (match && recorder) recorder.observe({ operation: match.item, params: match.params, status: response.status, json });
    return { status: response.status, json };
  };
}

const fill = (template: string, values: Record<string, unknown>) => template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));

/**
 * Every GET a client could make from what it reads: each top-level collection's list (that needs no
 * query), each listed record's read; then the lists and reads of the collections nested under
 * those records. Returns the paths, top-level and nested apart.
 */
async function readEverything(call: ReturnType<typeof through>, document: LoadedDocument): Promise<{ top: string[]; nested: string[] }> {
  const operations = buildOperations(document.api);
  const { collections, bindings } = inferCollections(operations);
  const opFor = (collection: Collection, action: string, path: string) =>
    operations.find((op) => op.method === 'get' && op.path === path && bindings.get(op.id)?.action === action && bindings.get(op.id)?.collection.name === collection.name && !op.parameters.some((p) => p.in === 'query' && p.required));
  const top: string[] = [];
  const nested: string[] = [];
  const walk = async (collection: Collection, scope: Record<string, unknown>, into: string[]) => {
    if (!opFor(collection, 'list', collection.path)) return;
    const listPath = fill(collection.path, scope);
    into.push(listPath);
    const answer = await call('GET', listPath);
    expect(answer.status, listPath).toBe(200);
    for (const record of listItems(collection, answer.json)) {
      const values = { ...scope, [collection.keyParam]: record[collection.keyProperty] };
      if (collection.itemPath && opFor(collection, 'read', collection.itemPath)) {
        const itemPath = fill(collection.itemPath, values);
        into.push(itemPath);
        expect((await call('GET', itemPath)).status, itemPath).toBe(200);
      }
      for (const child of collections.filter((c) => c.parent === collection.name && c.scopeParams.length === 1)) await walk(child, { [child.scopeParams[0]]: record[collection.keyProperty] }, nested);
    }
  };
  for (const collection of collections.filter((c) => c.scopeParams.length === 0)) await walk(collection, {}, top);
  return { top, nested };
}

/** A list's items in an order of their own: the mock lists fixtures by key, an upstream in the order it likes. */
function unordered(collection: Collection | undefined, json: unknown): unknown {
  if (!collection) return json;
  const items = [...listItems(collection, json)].map((item) => JSON.stringify(item)).sort();
  return collection.listWrapper && json && typeof json === 'object' ? { ...json, [collection.listWrapper.items]: items } : items;
}

/** A document of our own: a list in an envelope with a cursor, string keys, a nested collection carrying its parent's key, keyless records. */
const TRACKER = {
  openapi: '3.1.0',
  info: { title: 'Tracker', version: '1.0.0' },
  servers: [{ url: 'https://tracker.example.com/api' }],
  paths: {
    '/workspaces': {
      get: {
        operationId: 'listWorkspaces',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'A page.',
            content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Workspace' } }, next_cursor: { type: ['string', 'null'] } } } } },
          },
        },
      },
      post: {
        operationId: 'createWorkspace',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Workspace' } } } },
        responses: { '201': { description: 'Made.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Workspace' } } } } },
      },
    },
    '/workspaces/{workspaceId}': {
      parameters: [{ name: 'workspaceId', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getWorkspace', responses: { '200': { description: 'One.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Workspace' } } } }, '404': { description: 'None.' } } },
      delete: { operationId: 'deleteWorkspace', responses: { '204': { description: 'Gone.' }, '404': { description: 'None.' } } },
    },
    '/workspaces/{workspaceId}/tasks': {
      parameters: [{ name: 'workspaceId', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'listTasks', responses: { '200': { description: 'Its tasks.', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Task' } } } } }, '404': { description: 'None.' } } },
      post: {
        operationId: 'createTask',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } } } },
        responses: { '201': { description: 'Made.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Task' } } } }, '404': { description: 'None.' } },
      },
    },
    '/workspaces/{workspaceId}/tasks/{taskId}': {
      parameters: [
        { name: 'workspaceId', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'taskId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
      ],
      get: { operationId: 'getTask', responses: { '200': { description: 'One.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Task' } } } }, '404': { description: 'None.' } } },
    },
    '/activity': {
      get: { operationId: 'listActivity', responses: { '200': { description: 'What happened.', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Activity' } } } } } } },
    },
  },
  components: {
    schemas: {
      Workspace: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string', maxLength: 40 }, plan: { enum: ['free', 'team'] } },
      },
      Task: {
        type: 'object',
        required: ['id', 'title'],
        properties: { id: { type: 'integer', minimum: 1, readOnly: true }, workspaceId: { type: 'string', readOnly: true }, title: { type: 'string', maxLength: 80 }, done: { type: 'boolean' } },
      },
      Activity: { type: 'object', required: ['at', 'message'], properties: { at: { type: 'string', format: 'date-time' }, message: { type: 'string', maxLength: 80 } } },
    },
  },
};

describe('a recorded run, played back', () => {
  const documents: Array<[string, () => Promise<LoadedDocument>]> = [
    ['a document of our own (envelope and cursor, string keys, nested, keyless)', () => loadDocument(structuredClone(TRACKER))],
    ['the Petstore', () => loadDocument(SPEC)],
    ['a telephony API of 2010 (suffixes, an envelope, basic auth, nested calls)', () => loadDocument(`${ROOT}test/documents/calls-2010-api.yaml`)],
    ['a Swagger 2.0 document', () => loadDocument(`${ROOT}test/documents/swagger2-notes.yaml`)],
  ];

  it.each(documents)('answers the same GETs with the same bodies: %s', async (_, load) => {
    const document = await load();
    const dir = tempDir();
    const upstream = buildMock(document, { seed: 7, now });
    const warnings: string[] = [];
    const recorder = createRecorder({ dir, document, warn: (message) => warnings.push(message) });
    const { top, nested } = await readEverything(through(upstream, document, recorder), document);
    const { files, records } = recorder.close();
    expect(files.length).toBeGreaterThan(0);
    expect(readdirSync(dir).sort()).toEqual(files.map((file) => file.slice(dir.length + 1)).sort());

    const playback = buildMock(document, { fixtures: dir, counts: { default: 0 }, now });
    const { collections, bindings } = inferCollections(buildOperations(document.api));
    const replay = through(playback, document);
    const listed = (path: string) => collections.find((c) => c.scopeParams.length === 0 && c.path === path);
    let compared = 0;
    for (const path of top) {
      const [before, after] = [await through(upstream, document)('GET', path), await replay('GET', path)];
      expect(after.status, path).toBe(before.status);
      expect(unordered(listed(path), after.json), path).toEqual(unordered(listed(path), before.json));
      compared++;
    }
    expect(compared).toBeGreaterThan(1);
    // Every record written is one the mock holds after loading the files.
    const held = collections.reduce((sum, c) => sum + (existsSync(join(dir, `${c.name}.json`)) ? playback.store.collection(c.name).size : 0), 0);
    expect(held).toBe(records);

    // Nested records carry their parent's key, and load under that parent: their lists and reads answer the same.
    const basePath = serverBasePath(document.api);
    const nestedListed = (path: string) => collections.find((c) => c.scopeParams.length > 0 && templateMatcher(c.path, basePath)(path.split('?')[0]) !== undefined);
    if (collections.some((c) => c.parent)) expect(nested.length).toBeGreaterThan(0);
    for (const path of nested) {
      const [before, after] = [await through(upstream, document)('GET', path), await replay('GET', path)];
      expect(after.status, path).toBe(before.status);
      const collection = nestedListed(path);
      expect(unordered(collection, after.json), path).toEqual(unordered(collection, before.json));
    }
    // Only a nested collection whose records cannot name their parent is said to load at the top.
    expect(warnings).toEqual(collections.filter((c) => c.parent && !c.parentProperty && existsSync(join(dir, `${c.name}.json`))).map((c) => expect.stringMatching(new RegExp(`^${c.name}: its records have no property for their parent's key`))));
    expect(bindings.size).toBeGreaterThan(0);
  });
});

describe('what the recorder keeps', () => {
  it('keeps a record seen twice once, the latest answer winning, and forgets a deleted one', async () => {
    const document = await loadDocument(SPEC);
    const dir = tempDir();
    const upstream = buildMock(document, { seed: 7, now });
    const recorder = createRecorder({ dir, document });
    const call = through(upstream, document, recorder);
    const list = await call('GET', '/pets');
    const pets = list.json as Array<{ id: number; name: string }>;
    expect(pets.length).toBeGreaterThan(3);
    expect((await call('PATCH', `/pets/${pets[1].id}`, { name: 'Renamed' })).status).toBe(200);
    expect((await call('GET', `/pets/${pets[1].id}`)).status).toBe(200);
    expect((await call('DELETE', `/pets/${pets[2].id}`)).status).toBe(204);
    recorder.close();
    const written = JSON.parse(readFileSync(join(dir, 'pets.json'), 'utf8')) as Array<{ id: number; name: string }>;
    expect(written.map((pet) => pet.id)).toEqual(pets.filter((pet) => pet.id !== pets[2].id).map((pet) => pet.id));
    expect(written.find((pet) => pet.id === pets[1].id)?.name).toBe('Renamed');
  });

  it("forgets a deleted record's nested records with it, as the mock does", async () => {
    const document = await loadDocument(structuredClone(TRACKER));
    const dir = tempDir();
    const upstream = buildMock(document, { seed: 7, now });
    const recorder = createRecorder({ dir, document });
    const call = through(upstream, document, recorder);
    const workspaces = (await call('GET', '/workspaces')).json as { data: Array<{ id: string }> };
    const [first, second] = workspaces.data;
    const created = (await call('POST', `/workspaces/${first.id}/tasks`, { title: 'Kept' })).json as { id: number };
    const gone = (await call('POST', `/workspaces/${second.id}/tasks`, { title: 'Gone' })).json as { id: number };
    expect((await call('DELETE', `/workspaces/${second.id}`)).status).toBe(204);
    recorder.close();
    const tasks = JSON.parse(readFileSync(join(dir, 'tasks.json'), 'utf8')) as Array<{ id: number; title: string; workspaceId: string }>;
    expect(tasks).toEqual([expect.objectContaining({ id: created.id, title: 'Kept', workspaceId: first.id })]);
    expect(gone.id).not.toBe(created.id);
    const ids = (JSON.parse(readFileSync(join(dir, 'workspaces.json'), 'utf8')) as Array<{ id: string }>).map((w) => w.id);
    expect(ids).toContain(first.id);
    expect(ids).not.toContain(second.id);
  });

  it('writes one record per key where records under different parents share one (numbers counted per project), and says so', async () => {
    const document = await loadDocument(`${ROOT}test/documents/issues-api.yaml`);
    const dir = tempDir();
    const warnings: string[] = [];
    const recorder = createRecorder({ dir, document, warn: (message) => warnings.push(message) });
    const call = through(buildMock(document, { seed: 7, now, counts: { default: 0 } }), document, recorder);
    for (const key of ['WEB', 'API']) {
      expect((await call('POST', '/projects', { key, name: key })).status).toBe(201);
      expect((await call('POST', `/projects/${key}/issues`, { title: `First of ${key}` })).json).toEqual({ title: `First of ${key}`, number: 1 });
    }
    recorder.close();
    expect(JSON.parse(readFileSync(join(dir, 'issues.json'), 'utf8'))).toEqual([{ title: 'First of API', number: 1 }]);
    expect(warnings).toEqual([
      expect.stringMatching(/^issues: its records have no property for their parent's key \(of projects\), so the mock loads the recorded issues at the top of the collection/),
      'issues: records under different projects share a number, and a fixture file holds one record per number: the latest seen of each is kept.',
    ]);
    // The file loads (a repeated number would stop the mock).
    expect(buildMock(document, { fixtures: dir, counts: { default: 0 } }).store.collection('issues').size).toBe(1);
  });

  it('ignores answers that are not 2xx, not JSON or not a record of the collection, and says why once', async () => {
    const document = await loadDocument(SPEC);
    const dir = tempDir();
    const warnings: string[] = [];
    const recorder = createRecorder({ dir, document, warn: (message) => warnings.push(message) });
    const call = through(buildMock(document, { seed: 7, now }), document, recorder);
    expect((await call('GET', '/pets/999999')).status).toBe(404);
    expect((await call('POST', '/pets', { name: 5 })).status).toBe(400);
    const getPet = buildOperations(document.api).find((op) => op.id === 'getPet')!;
    recorder.observe({ operation: getPet, params: { petId: '1' }, status: 200, json: undefined });
    recorder.observe({ operation: getPet, params: { petId: '1' }, status: 200, json: { data: { id: 1, name: 'Wrapped', categoryId: 1 } } });
    recorder.observe({ operation: getPet, params: { petId: '1' }, status: 200, json: { data: { id: 1, name: 'Wrapped', categoryId: 1 } } });
    expect(recorder.flush()).toEqual({ files: [], records: 0 });
    expect(readdirSync(dir)).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^getPet: a 200 answer is not a pets record \(.*\); it is not recorded\.$/);
    // A list's items are taken one by one: those that are records are kept, the others said once.
    const listPets = buildOperations(document.api).find((op) => op.id === 'listPets')!;
    const items = [{ id: 3, name: 'Kept', categoryId: 1, status: 'sold' }, { id: 'x', name: 1 }, { name: 'No id' }, 'not an object'];
    recorder.observe({ operation: listPets, params: {}, status: 200, json: items });
    expect(recorder.close()).toEqual({ files: [join(dir, 'pets.json')], records: 1 });
    expect(JSON.parse(readFileSync(join(dir, 'pets.json'), 'utf8'))).toEqual([items[0]]);
    expect(warnings.slice(1)).toEqual([expect.stringMatching(/^listPets: a 200 answer is not a pets record \(.*\); it is not recorded\.$/)]);
  });

  it('writes after a change within a second, not before, and leaves no temporary file', async () => {
    vi.useFakeTimers();
    const document = await loadDocument(SPEC);
    const dir = tempDir();
    const recorder = createRecorder({ dir, document });
    const getPet = buildOperations(document.api).find((op) => op.id === 'getPet')!;
    recorder.observe({ operation: getPet, params: { petId: '4' }, status: 200, json: { id: 4, name: 'Rex', categoryId: 1, status: 'available' } });
    expect(readdirSync(dir)).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(readdirSync(dir)).toEqual(['pets.json']);
    expect(JSON.parse(readFileSync(join(dir, 'pets.json'), 'utf8'))).toEqual([{ id: 4, name: 'Rex', categoryId: 1, status: 'available' }]);
    // Nothing changed, nothing pending; close stops the timer a change started.
    expect(vi.getTimerCount()).toBe(0);
    recorder.observe({ operation: getPet, params: { petId: '5' }, status: 200, json: { id: 5, name: 'Bo', categoryId: 1, status: 'sold' } });
    expect(vi.getTimerCount()).toBe(1);
    expect(recorder.close()).toEqual({ files: [join(dir, 'pets.json')], records: 2 });
    expect(vi.getTimerCount()).toBe(0);
    expect(readdirSync(dir)).toEqual(['pets.json']);
  });

  it('makes DIR when missing, and refuses a DIR that is a file in one sentence', async () => {
    const document = await loadDocument(SPEC);
    const parent = tempDir();
    const made = join(parent, 'a', 'b');
    createRecorder({ dir: made, document }).close();
    expect(existsSync(made)).toBe(true);
    const file = join(parent, 'taken');
    writeFileSync(file, 'x');
    expect(() => createRecorder({ dir: file, document })).toThrow(`The recording directory ${file} exists and is not a directory.`);
  });
});

/** Users with every kind of secret, at the top and deeper down. */
const ACCOUNTS = {
  openapi: '3.0.3',
  info: { title: 'Accounts', version: '1.0.0' },
  paths: {
    '/users': {
      get: { operationId: 'listUsers', responses: { '200': { description: 'Users.', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/User' } } } } } } },
    },
    '/users/{userId}': {
      parameters: [{ name: 'userId', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { operationId: 'getUser', responses: { '200': { description: 'One.', content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } } }, '404': { description: 'None.' } } },
    },
  },
  components: {
    schemas: {
      User: {
        type: 'object',
        required: ['id', 'name', 'api_token', 'password', 'settings'],
        properties: {
          id: { type: 'integer', minimum: 1 },
          name: { type: 'string' },
          password: { type: 'string', writeOnly: true },
          pin: { type: 'string', format: 'password' },
          api_token: { type: 'string', minLength: 24, maxLength: 64 },
          refreshToken: { type: 'string' },
          next_page_token: { type: 'string' },
          settings: {
            type: 'object',
            required: ['Client-Secret'],
            properties: { 'Client-Secret': { type: 'string', minLength: 8 }, theme: { type: 'string' } },
            additionalProperties: { type: 'string' },
          },
          sessions: { type: 'array', items: { type: 'object', properties: { cookie: { type: 'string' }, device: { type: 'string' } } } },
        },
      },
    },
  },
};

describe('secrets', () => {
  it('are left out where the schema allows it, replaced by generated values where it requires them, and the record still loads', async () => {
    const document = await loadDocument(structuredClone(ACCOUNTS));
    const dir = tempDir();
    const recorder = createRecorder({ dir, document });
    const getUser = buildOperations(document.api).find((op) => op.id === 'getUser')!;
    const secrets = ['hunter2-the-password', '4242', 'tok_live_0123456789abcdefghijklmn', 'rt_0123456789', 'cs_verysecret', 'X-Api-Key-value', 'sid=abc123'];
    const answer = {
      id: 1,
      name: 'Ada',
      password: secrets[0],
      pin: secrets[1],
      api_token: secrets[2],
      refreshToken: secrets[3],
      next_page_token: 'page-2',
      settings: { 'Client-Secret': secrets[4], theme: 'dark', 'X-Api-Key': secrets[5] },
      sessions: [{ cookie: secrets[6], device: 'laptop' }],
    };
    recorder.observe({ operation: getUser, params: { userId: '1' }, status: 200, json: answer });
    recorder.close();
    const text = readFileSync(join(dir, 'users.json'), 'utf8');
    for (const secret of secrets) expect(text).not.toContain(secret);
    const [user] = JSON.parse(text) as Array<Record<string, any>>;
    // `sessions` is named like a secret (a session's word), so the list goes whole.
    expect(Object.keys(user).sort()).toEqual(['api_token', 'id', 'name', 'next_page_token', 'settings']);
    expect(user.api_token).toEqual(expect.any(String));
    expect(user.api_token.length).toBeGreaterThanOrEqual(24);
    expect(Object.keys(user.settings).sort()).toEqual(['Client-Secret', 'theme']);
    // The same record gives the same file.
    const again = tempDir();
    const second = createRecorder({ dir: again, document });
    second.observe({ operation: getUser, params: { userId: '1' }, status: 200, json: answer });
    second.close();
    expect(readFileSync(join(again, 'users.json'), 'utf8')).toBe(text);
    // And the mock loads it: the record answers as written.
    const playback = buildMock(document, { fixtures: dir, counts: { default: 0 } });
    const read = await playback.app.request('/users/1');
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(user);
  });
});
