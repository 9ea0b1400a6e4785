/**
 * CORS preflights for the headers a document names: its API-key headers and header parameters are
 * allowed beside the mock's own, each once whatever its case; closed paths stay refused.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { buildMock } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { buildOperations } from '../../openapi/operations/build-operations.js';
import { cors } from './cors.js';
import { requestHeaderNames } from './request-header-names.js';

const thing = { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } };

/** Keys in `X-Api-Key` (and `x-api-key` again in a second scheme), a query key, a cookie key, and header parameters at path and operation level. */
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Custom headers', version: '1.0.0' },
  components: {
    securitySchemes: {
      key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      sameKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
      cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
      bearer: { type: 'http', scheme: 'bearer' },
    },
  },
  security: [{ key: [] }, { queryKey: [] }, { cookieKey: [] }, { bearer: [] }],
  paths: {
    '/things': {
      parameters: [{ name: 'X-Tenant', in: 'header', schema: { type: 'string' } }],
      get: {
        parameters: [
          { name: 'X-Request-Id', in: 'header', schema: { type: 'string' } },
          { name: 'x-request-id', in: 'query', schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
        ],
        responses: { '200': thing },
      },
      post: {
        security: [{ sameKey: [] }],
        parameters: [{ name: 'X-REQUEST-ID', in: 'header', schema: { type: 'string' } }, { name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }],
        responses: { '201': thing },
      },
    },
  },
};

/** The names a preflight from a page on another origin is allowed to send, in the order given. */
async function allowedHeaders(app: Hono, path = '/things'): Promise<string[] | undefined> {
  const response = await app.request(path, { method: 'OPTIONS', headers: { Origin: 'http://page.test', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key' } });
  expect(response.status, path).toBe(204);
  return response.headers.get('Access-Control-Allow-Headers')?.split(', ');
}

describe('requestHeaderNames', () => {
  it('names the API-key headers and header parameters the operations use, each once whatever its case', async () => {
    const { api } = await loadDocument(DOCUMENT);
    expect(requestHeaderNames(buildOperations(api))).toEqual(['X-Api-Key', 'X-Tenant', 'X-Request-Id', 'Idempotency-Key']);
  });

  it('leaves out a name that is no HTTP field name, which no browser could send', async () => {
    const document = structuredClone(DOCUMENT);
    document.paths['/things'].get.parameters.push({ name: 'X-Bad\r\nInjected: 1', in: 'header', schema: { type: 'string' } }, { name: 'Two words', in: 'header', schema: { type: 'string' } });
    const { api } = await loadDocument(document);
    expect(requestHeaderNames(buildOperations(api))).toEqual(['X-Api-Key', 'X-Tenant', 'X-Request-Id', 'Idempotency-Key']);
  });

  it('is empty for a document whose operations read no header of their own', async () => {
    const document = { ...structuredClone(DOCUMENT), security: [{ bearer: [] }], paths: { '/things': { get: { responses: { '200': thing } } } } };
    const { api } = await loadDocument(document);
    expect(requestHeaderNames(buildOperations(api))).toEqual([]);
  });
});

describe('cors preflight headers', () => {
  it('allows the mock’s own headers by default', async () => {
    const app = new Hono().on('OPTIONS', '*', cors().preflight);
    expect(await allowedHeaders(app)).toEqual(['Authorization', 'Content-Type', 'Prefer', 'X-Mock-Session']);
  });

  it('adds the headers passed, each once whatever its case, the first spelling kept', async () => {
    const app = new Hono().on('OPTIONS', '*', cors({ moreAllowHeaders: ['X-Api-Key', 'authorization', 'x-api-key', 'PREFER', 'X-Request-Id'] }).preflight);
    expect(await allowedHeaders(app)).toEqual(['Authorization', 'Content-Type', 'Prefer', 'X-Mock-Session', 'X-Api-Key', 'X-Request-Id']);
  });

  it('on the mock, allows the document’s headers on every route of the API', async () => {
    const { app } = buildMock(await loadDocument(DOCUMENT));
    const expected = ['Authorization', 'Content-Type', 'Prefer', 'X-Mock-Session', 'X-Api-Key', 'X-Tenant', 'X-Request-Id', 'Idempotency-Key'];
    expect(await allowedHeaders(app)).toEqual(expected);
    expect(await allowedHeaders(app, '/no/such/path')).toEqual(expected);
  });

  it('on the mock, still refuses every preflight to the admin API, whatever the document names', async () => {
    const { app } = buildMock(await loadDocument(DOCUMENT));
    const response = await app.request('/__admin/state', { method: 'OPTIONS', headers: { Origin: 'http://page.test', 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'x-api-key' } });
    expect(response.status).toBe(403);
    expect(response.headers.get('Access-Control-Allow-Headers')).toBeNull();
    expect(await response.json()).toMatchObject({ code: 'CORS_REFUSED' });
  });
});
