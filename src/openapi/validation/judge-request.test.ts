import { describe, expect, it } from 'vitest';
import { buildOperations } from '../operations/build-operations.js';
import { createAjv } from './ajv-instance.js';
import { requestJudge } from './judge-request.js';
import { jsonMediaType } from '../../core/media-type.js';
import { SchemaConverter } from './to-json-schema.js';

const api = {
  openapi: '3.0.3',
  info: { title: 'Books', version: '1' },
  paths: {
    '/books': {
      get: {
        operationId: 'listBooks',
        parameters: [{ name: 'filter', in: 'query', content: { 'application/json': { schema: { type: 'object', properties: { limit: { type: 'integer', minimum: 1 } } } } } }],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/books/{bookId}': {
      patch: {
        operationId: 'patchBook',
        parameters: [{ name: 'bookId', in: 'path', required: true, schema: { type: 'integer', format: 'int32' } }],
        requestBody: { required: true, content: { 'application/merge-patch+json': { schema: { type: 'object', properties: { pages: { type: 'integer', maximum: 5000 } } } } } },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};
const ajv = createAjv('3.0');
const judge = requestJudge({ ajv, converter: new SchemaConverter(api, ajv, '3.0'), warn: () => {}, maxBodyBytes: 100 });
const [list, patch] = buildOperations(api);
const merge = { 'content-type': 'application/merge-patch+json' };
const rules = async (...args: Parameters<typeof judge>) => (await judge(...args)).map((p) => `${p.path} ${p.rule}`);

describe('judging a request held as plain data with the operation\'s own validator', () => {
  it('finds nothing wrong with a valid request', async () => {
    expect(await rules(patch, { path: { bookId: '7' }, query: '', headers: merge, body: '{"pages":12}' })).toEqual([]);
    expect(await rules(list, { path: {}, query: `filter=${encodeURIComponent('{"limit":2}')}`, headers: {} })).toEqual([]);
  });

  it('names each problem by its place and rule: a parameter\'s format, a body field\'s bound', async () => {
    expect(await rules(patch, { path: { bookId: '2147483648' }, query: '', headers: merge, body: '{"pages":5001}' })).toEqual(['path.bookId format', 'body.pages maximum']);
  });

  it('names what refuses a body as a whole: an undeclared media type, JSON that is not, no body, too large a body', async () => {
    const at = (headers: Record<string, string>, body?: string) => rules(patch, { path: { bookId: '7' }, query: '', headers, body });
    expect(await at({ 'Content-Type': 'application/json' }, '{}')).toEqual(['body content-type']);
    expect(await at({}, '{}')).toEqual(['body content-type']);
    expect(await at(merge, '{"pages": ')).toEqual(['body json']);
    expect(await at(merge)).toEqual(['body required']);
    expect(await at(merge, JSON.stringify({ pad: 'x'.repeat(100) }))).toEqual(['body size']);
  });

  it('judges a JSON-encoded parameter by its JSON and by its schema', async () => {
    expect(await rules(list, { path: {}, query: 'filter=%7B', headers: {} })).toEqual(['query.filter json']);
    expect(await rules(list, { path: {}, query: 'filter=5', headers: {} })).toEqual(['query.filter type']);
    expect(await rules(list, { path: {}, query: `filter=${encodeURIComponent('{"limit":0}')}`, headers: {} })).toEqual(['query.filter.limit minimum']);
  });
});

describe('the media type a JSON body is sent as', () => {
  it('is application/json when declared, else the declared JSON type', () => {
    expect(jsonMediaType(['application/merge-patch+json', 'application/json'])).toBe('application/json');
    expect(jsonMediaType(['application/merge-patch+json'])).toBe('application/merge-patch+json');
    expect(jsonMediaType(['multipart/form-data'])).toBeUndefined();
  });
});
