/**
 * `X-Proxy-Violations` (with `errors`) names every field a request or an answer breaks, each by its
 * check and place, and stays bounded however many there are.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { loadContractParts } from '../contract/plugin.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { AUTH, FIXTURES, petstoreDocument } from '../test-support/petstore.js';
import { buildProxy, VIOLATIONS_HEADER } from './proxy.js';

/** The proxy with `errors`, in front of an in-process Hono app. */
async function proxyWithErrors(upstream: Hono, document?: object) {
  const contractPlugins = await loadContractParts(DEFAULT_PLUGINS);
  const loaded = document ? await loadDocument(document) : await petstoreDocument();
  const mock = document ? {} : { plugins: DEFAULT_PLUGINS, fixtures: FIXTURES };
  return buildProxy(loaded, { upstream: 'http://upstream.test', errors: true, fetch: async (input, init) => upstream.request(input instanceof Request ? input : String(input), init), contractPlugins, mock });
}

const post = (path: string, body: unknown) => new Request(`http://127.0.0.1:4010${path}`, { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('X-Proxy-Violations', () => {
  it('names every field a refused request breaks, not only the first', async () => {
    const proxy = await proxyWithErrors(new Hono());
    const refused = await proxy.fetch(post('/pets', { name: 7, categoryId: 'x', status: 'nope' }));
    expect(refused.status).toBe(400);
    expect(refused.headers.get(VIOLATIONS_HEADER)).toBe('request_conformance body.name, request_conformance body.categoryId, request_conformance body.status');
    // The log keeps one violation for the request, whose text names all three.
    const [violation] = proxy.violations.latest(10);
    expect(violation).toMatchObject({ check: 'request_conformance', path: 'body.name' });
    expect(violation.received).toMatch(/body\.name .*; body\.categoryId .*; body\.status /);
  });

  it('names every field an answer breaks, each under its check', async () => {
    const upstream = new Hono();
    upstream.get('/pets/1', (c) => c.json({ id: 1, categoryId: 'x', status: 'gone' }));
    const proxy = await proxyWithErrors(upstream);
    const answer = await proxy.fetch(new Request('http://127.0.0.1:4010/pets/1', { headers: AUTH }));
    const named = answer.headers.get(VIOLATIONS_HEADER)!.split(', ');
    expect(named).toEqual(expect.arrayContaining(['response_schema_conformance body.name', 'response_schema_conformance body.categoryId', 'response_schema_conformance body.status']));
  });

  it('stays bounded: past 2,000 characters it ends at a whole entry and counts the rest', async () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 'wide', version: '1' },
      paths: {
        '/things': {
          post: {
            requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', additionalProperties: { type: 'integer' } } } } },
            responses: { '201': { description: 'made' }, '400': { description: 'bad', content: { 'application/json': { schema: { type: 'object' } } } } },
          },
        },
      },
    };
    const proxy = await proxyWithErrors(new Hono(), document);
    const body = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${String(i).padStart(2, '0')}${'x'.repeat(200)}`, 'not a number']));
    const refused = await proxy.fetch(post('/things', body));
    expect(refused.status).toBe(400);
    const header = refused.headers.get(VIOLATIONS_HEADER)!;
    expect(header.length).toBeLessThanOrEqual(2_000);
    const entries = header.split(', ');
    const more = /^and (\d+) more$/.exec(entries.at(-1)!);
    expect(more, header.slice(-100)).not.toBeNull();
    const listed = entries.slice(0, -1);
    expect(listed.every((entry) => /^request_conformance body\.\d{2}x{200}$/.test(entry))).toBe(true);
    expect(listed.length + Number(more![1])).toBe(20);
  });
});
