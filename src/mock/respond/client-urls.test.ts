/**
 * The URLs the mock writes in answers other than a record's: a problem's `instance` names the
 * request where the client sent it (never a generated domain), and a deprecated operation's
 * relative `externalDocs` is linked under the base the client reached the mock under.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type MockInstance } from '../../index.js';
import { mswHandlers } from '../../msw.js';
import { CORPUS } from '../../test-support/petstore.js';

const problem = (instance: object) => ({
  'application/problem+json': {
    schema: { type: 'object', required: ['type', 'title', 'status', 'instance'], properties: { type: { type: 'string', format: 'uri' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' }, instance } },
  },
});

/** Things under /v1, whose errors are problems with an absolute `instance`, and a deprecated list whose docs are on the API's own server. */
const THINGS = {
  openapi: '3.0.3',
  info: { title: 'Things', version: '1' },
  servers: [{ url: 'https://things.example.com/v1' }],
  paths: {
    '/things/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'A thing.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '400': { description: 'Invalid.', content: problem({ type: 'string', format: 'uri' }) },
          '404': { description: 'None.', content: problem({ type: 'string', format: 'uri' }) },
        },
      },
    },
    '/things': {
      get: {
        deprecated: true,
        externalDocs: { url: '/docs/things-v2' },
        responses: { '200': { description: 'Things.', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } } } },
      },
    },
    '/notes/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'A note.', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } },
          '404': { description: 'None.', content: problem({ type: 'string' }) },
        },
      },
    },
  },
  components: { schemas: { Thing: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } } } },
};

let things: MockInstance;
let server: ReturnType<typeof setupServer>;
beforeAll(async () => {
  things = await createMock({ spec: THINGS, selfCheck: true });
  server = setupServer(...mswHandlers(things, { baseUrl: 'http://app.test/api' }));
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => server.close());

const body = async (response: Response) => (await response.json()) as Record<string, unknown>;

describe("a problem's instance", () => {
  it('is the request, absolute where the schema wants a URI: in-process, then behind MSW under its base', async () => {
    expect((await body(await things.fetch('/v1/things/999'))).instance).toBe('http://localhost/v1/things/999');
    expect((await body(await things.fetch('/v1/things/abc?x=1'))).instance).toBe('http://localhost/v1/things/abc');
    expect((await body(await fetch('http://app.test/api/things/999'))).instance).toBe('http://app.test/api/things/999');
    expect(things.selfCheck).toMatchObject({ checked: 3, violations: 0 });
  });

  it('is the request path where the schema takes a URI reference', async () => {
    expect((await body(await things.fetch('/v1/notes/999'))).instance).toBe('/v1/notes/999');
    expect((await body(await fetch('http://app.test/api/notes/999'))).instance).toBe('/api/notes/999');
  });

  it("replaces the document's example (Train Travel's `/account/12345/msgs/abc`) with the request", async () => {
    const train = await createMock({ spec: `${CORPUS}/bump-train-travel.yaml`, apiKeys: ['k'] });
    const base = '/rest/Train+Travel+API/1.0.0';
    for (const [path, headers] of [[`${base}/bookings/nope`, { Authorization: 'Bearer k' }], [`${base}/bookings`, {}], [`${base}/bookings`, { Authorization: 'Bearer k', Prefer: 'code=403' }]] as const) {
      const answer = await train.fetch(path, { headers });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect((await body(answer)).instance, path).toBe(path);
    }
  });
});

describe('the Link of a deprecated operation', () => {
  it("leads to docs at a relative URL under the base the client used: the server's path in-process, the app's behind MSW", async () => {
    expect((await things.fetch('/v1/things')).headers.get('Link')).toBe('</docs/things-v2>; rel="deprecation"; type="text/html"');
    expect((await fetch('http://app.test/api/things')).headers.get('Link')).toBe('</api/docs/things-v2>; rel="deprecation"; type="text/html"');
  });
});
