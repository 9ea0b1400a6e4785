/**
 * GET /__spec on a built mock: the document as written (before dereferencing; a Swagger 2.0 one
 * as converted), JSON or YAML, open to any caller like /__health, with the API's CORS headers.
 */
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { buildMock } from './app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { petstore, petstoreDocument, ROOT, SPEC } from '../test-support/petstore.js';

describe('GET /__spec', () => {
  it('serves the document as written, before dereferencing: JSON by default', async () => {
    const { app } = await petstore();
    const response = await app.request('/__spec');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    const served = await response.json();
    expect(served).toEqual(yaml.load(readFileSync(SPEC, 'utf8')));
    expect(JSON.stringify(served)).toContain('"$ref":"#/components/schemas/Pet"');
  });

  it('serves YAML when Accept prefers it, and at /__spec.yaml; JSON at /__spec.json', async () => {
    const { app } = await petstore();
    const raw = (await petstoreDocument()).raw;
    for (const accept of ['application/yaml', 'application/x-yaml', 'text/yaml', 'application/vnd.oai.openapi', 'application/json;q=0.5, application/yaml;q=0.9']) {
      const response = await app.request('/__spec', { headers: { Accept: accept } });
      expect(response.headers.get('Content-Type'), accept).toMatch(/yaml|vnd\.oai\.openapi;/);
      expect(yaml.load(await response.text())).toEqual(raw);
    }
    const json = await app.request('/__spec', { headers: { Accept: 'application/yaml;q=0.5, application/json' } });
    expect(await json.json()).toEqual(raw);
    const fixedYaml = await app.request('/__spec.yaml', { headers: { Accept: 'application/json' } });
    expect(fixedYaml.headers.get('Content-Type')).toBe('application/yaml; charset=utf-8');
    expect(yaml.load(await fixedYaml.text())).toEqual(raw);
    expect(await (await app.request('/__spec.json', { headers: { Accept: 'application/yaml' } })).json()).toEqual(raw);
  });

  it('answers HEAD, sends Vary: Accept and an ETag, and 304 to a client that has the same', async () => {
    const { app } = await petstore();
    const head = await app.request('/__spec', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const first = await app.request('/__spec');
    expect(first.headers.get('Vary')).toBe('Accept');
    const etag = first.headers.get('ETag')!;
    expect(head.headers.get('ETag')).toBe(etag);
    const again = await app.request('/__spec', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // YAML is another representation: the JSON's tag does not match it.
    expect((await app.request('/__spec', { headers: { 'If-None-Match': etag, Accept: 'application/yaml' } })).status).toBe(200);
  });

  it('is open like /__health: no API key, no admin token, any peer, with or without the admin API', async () => {
    const remotePeer = { incoming: { socket: { remoteAddress: '203.0.113.9' }, headers: {} } };
    for (const options of [{ adminToken: 'admin-secret' }, {}, { admin: false }]) {
      const { app } = await petstore(options);
      expect((await app.request('/__spec')).status).toBe(200);
      expect((await app.request('/__spec', {}, remotePeer)).status).toBe(200);
    }
  });

  it('carries the CORS headers the API gives an origin, and answers its preflight', async () => {
    const { app } = await petstore({ corsOrigins: ['http://localhost:5173'] });
    const allowed = await app.request('/__spec', { headers: { Origin: 'http://localhost:5173' } });
    expect(allowed.headers.get('Access-Control-Allow-Origin')).toBe('http://localhost:5173');
    expect(allowed.headers.get('Vary')).toBe('Origin, Accept');
    const other = await app.request('/__spec', { headers: { Origin: 'https://elsewhere.example' } });
    expect(other.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const preflight = await app.request('/__spec', { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET' } });
    expect([preflight.status, preflight.headers.get('Access-Control-Allow-Origin')]).toEqual([204, 'http://localhost:5173']);
    const any = await (await petstore()).app.request('/__spec.yaml', { headers: { Origin: 'https://docs.example' } });
    expect(any.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });

  it('serves a Swagger 2.0 document as converted to OpenAPI 3.0', async () => {
    const document = await loadDocument(`${ROOT}test/documents/swagger2-notes.yaml`);
    const served = (await (await buildMock(document).app.request('/__spec')).json()) as Record<string, unknown>;
    expect(served.swagger).toBeUndefined();
    expect(served.openapi).toMatch(/^3\.0\./);
    expect(served).toEqual(document.raw);
  });

  it('warns when the document defines a path the endpoint hides, under its base path', async () => {
    const document = (paths: Record<string, unknown>, url = 'http://localhost') =>
      loadDocument({ openapi: '3.0.3', info: { title: 'T', version: '1' }, servers: [{ url }], paths });
    const ok = { responses: { '200': { description: 'ok' } } };
    const hidden = buildMock(await document({ '/__spec': { get: ok }, '/__spec.yaml': { get: ok }, '/__health': { get: ok }, '/__admin/x': { post: ok } }));
    expect(hidden.warnings).toEqual([
      "GET /__spec: GET /__spec is hidden by the mock's copy of the document (/__spec).",
      "GET /__spec.yaml: GET /__spec.yaml is hidden by the mock's copy of the document (/__spec).",
      "GET /__health: GET /__health is hidden by the mock's health check.",
      "POST /__admin/x: /__admin/x is hidden by the mock's admin API (/__admin).",
    ]);
    // Under a base path nothing is hidden, and a method the endpoint does not answer is not either.
    expect(buildMock(await document({ '/__spec': { get: ok } }, 'http://localhost/v1')).warnings).toEqual([]);
    expect(buildMock(await document({ '/__spec': { post: ok } })).warnings).toEqual([]);
  });
});
