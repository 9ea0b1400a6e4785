import { describe, expect, it } from 'vitest';
import { buildMock } from '../app.js';
import type { LoadedDocument } from '../../openapi/document/load-document.js';
import { compareTemplates, templateMatcher } from '../../openapi/operations/path-template.js';
import { toHonoRoute } from './hono-path.js';

// String bodies: no collection is inferred, so each answer names the route that gave it.
const op = (summary: string) => ({ summary, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'string', enum: [summary] } } } } } });
const document: LoadedDocument = {
  file: 'inline.yaml',
  dialect: '3.0',
  raw: {},
  api: {
    openapi: '3.0.3',
    info: { title: 'Routing', version: '1' },
    paths: {
      '/items/{id}': { get: op('item'), delete: op('delete item') },
      '/items/mine': { get: op('mine') },
      '/{name}.json': { get: op('json file') },
      '/list.json': { get: op('list') },
    },
  },
};

describe('routing', () => {
  it('ranks literal segments before templates, and mixed segments between them', () => {
    expect(['/{a}', '/{a}.json', '/list.json'].sort(compareTemplates)).toEqual(['/list.json', '/{a}.json', '/{a}']);
    expect(toHonoRoute('/pets/{petId}', '/v1').honoPath).toBe('/v1/pets/:p2');
    expect(templateMatcher('/{name}.json')('/apis.json')).toEqual({ name: 'apis' });
    // As strict as Hono: a trailing slash is another path, the root keeps its own.
    expect(['/pets', '/pets/'].map((path) => templateMatcher('/pets')(path))).toEqual([{}, undefined]);
    expect(['/', ''].map((path) => templateMatcher('/')(path))).toEqual([{}, undefined]);
  });

  it('answers a literal path before the template that also matches it', async () => {
    const { app } = buildMock(document);
    expect(await (await app.request('/items/mine')).json()).toEqual('mine');
    expect(await (await app.request('/items/7')).json()).toEqual('item');
    expect(await (await app.request('/list.json')).json()).toEqual('list');
    expect(await (await app.request('/apis.json')).json()).toEqual('json file');
  });

  it('answers 405 with Allow for a method the literal path lacks, even when a template has it', async () => {
    const { app } = buildMock(document);
    const response = await app.request('/items/mine', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('GET, HEAD');
    const purge = await app.request('/items/7', { method: 'PURGE' });
    expect([purge.status, purge.headers.get('Allow')]).toEqual([405, 'GET, DELETE, HEAD']);
    const options = await app.request('/items/mine', { method: 'OPTIONS' });
    expect([options.status, options.headers.get('Allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
  });

  it('splits a segment of several parameters the way a lazy match did, in linear time whatever the path', async () => {
    const names = ['a', 'b', 'c'];
    const echo = { parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })), responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'string', enum: ['three'] } } } } } };
    const route = toHonoRoute('/things/{a}-{b}-{c}');
    // Hono hands over the segment as parameter p2 (the segment's index).
    const split = (segment: string) => route.params((slot) => (slot === 'p2' ? segment : undefined));
    expect(split('x-y-z')).toEqual({ a: 'x', b: 'y', c: 'z' });
    expect(split('x-y-z-w')).toEqual({ a: 'x', b: 'y', c: 'z-w' });
    expect(toHonoRoute('/{name}.json').params(() => 'v1.2.json')).toEqual({ name: 'v1.2' });
    const { app } = buildMock({ ...document, api: { ...document.api, paths: { '/things/{a}-{b}-{c}': { get: echo } } } });
    expect((await app.request('/things/x-y-z')).status).toBe(200);
    expect((await app.request('/things/x-y')).status).toBe(404);
    // 14,000 dashes and no match: a backtracking split tries about 14,000^3 / 6 ways (2,000 took 2 s); this one, one.
    const hostile = await app.request(`/things/${'-'.repeat(14_000)}x/y`);
    expect(hostile.status).toBe(404);
  });

  it('names the base path in a 404 for a path outside it, and the path under it that the document has', async () => {
    const base = '/rest/Train+Travel+API/1.0.0';
    const { app } = buildMock({ ...document, api: { ...document.api, servers: [{ url: `https://api.example.com${base}` }] } });
    expect((await app.request(`${base}/items/mine`)).status).toBe(200);
    const outside = await app.request('/items/mine');
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({
      code: 'ROUTE_NOT_FOUND',
      message: `No operation of the document matches GET /items/mine; the document's operations are served under ${base} (its first server's path): GET ${base}/items/mine.`,
      status: 404,
    });
    const message = async (path: string) => ((await (await app.request(path)).json()) as { message: string }).message;
    // Nothing of the document's there either: the base alone.
    expect(await message('/nothing')).toBe(`No operation of the document matches GET /nothing; the document's operations are served under ${base} (its first server's path).`);
    // Under the base, a path the document lacks gets no hint.
    expect(await message(`${base}/nothing`)).toBe(`No operation of the document matches GET ${base}/nothing.`);
    // The trailing slash keeps its own hint.
    expect(await message(`${base}/items/mine/`)).toBe(`No operation of the document matches GET ${base}/items/mine/; the document's path is ${base}/items/mine, without the trailing slash.`);
  });

  it('warns at start of a path parameter no operation on the path declares, naming the path, the methods and the parameter', async () => {
    const declared = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
    const paths = {
      '/items/{id}': { get: op('item'), delete: op('delete item') },
      '/items/{id}/parts/{partId}': { parameters: [declared], get: { ...op('part'), parameters: [] } },
      '/declared/{id}': { parameters: [declared], get: op('declared') },
      '/files/{name}.json': { get: { ...op('file'), parameters: [{ ...declared, name: 'name' }] } },
    };
    const mock = buildMock({ ...document, api: { ...document.api, paths } });
    expect(mock.warnings).toEqual([
      'GET and DELETE /items/{id} do not declare the path parameter id (a parameter with in: path and that name, on the operation or its path item); the mock takes any value for it, unchecked.',
      'GET /items/{id}/parts/{partId} does not declare the path parameter partId (a parameter with in: path and that name, on the operation or its path item); the mock takes any value for it, unchecked.',
    ]);
    // Still served: the warning is all.
    expect((await mock.app.request('/items/7')).status).toBe(200);
  });
});
