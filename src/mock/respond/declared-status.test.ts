/**
 * The mock answers as the operation declares: each kind of failure with the status declared for it (403 for bad
 * credentials where only 403 is declared, 415 for a wrong media type where 415 is, 422 for bad
 * input where 422 is and 400 is not), and a text answer generated from its schema.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { petstore } from '../../plugins/petstore/index.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMock } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { ROOT } from '../../test-support/petstore.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Declared statuses, version: 1.0.0 }
security: [ { key: [] } ]
paths:
  /things:
    post:
      operationId: createThing
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } } }
      responses:
        '201': { description: Created., content: { application/json: { schema: { type: object, properties: { id: { type: integer }, name: { type: string } } } } } }
        '403': { description: Bad key. }
        '415': { description: Not JSON. }
        '422': { description: Not a thing. }
  /health:
    get:
      operationId: health
      security: []
      responses:
        '200': { description: Fine., content: { text/plain: { schema: { type: string, enum: [ok] } } } }
components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Key }
`;

describe('statuses and text bodies as the document declares them', () => {
  it('answers bad credentials 403 (no challenge), a wrong media type 415 and bad input 422, where those are what the operation declares', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'declared-'));
    writeFileSync(join(dir, 'openapi.yaml'), DOCUMENT);
    const mock = buildMock(await loadDocument(join(dir, 'openapi.yaml')), { apiKeys: ['k-1'] });
    const post = (headers: Record<string, string>, body: string) => mock.app.request('/things', { method: 'POST', headers, body });
    const noKey = await post({ 'Content-Type': 'application/json' }, '{"name":"x"}');
    expect([noKey.status, noKey.headers.get('www-authenticate')]).toEqual([403, null]);
    expect((await post({ 'X-Key': 'k-1', 'Content-Type': 'text/plain' }, '{"name":"x"}')).status).toBe(415);
    expect((await post({ 'X-Key': 'k-1', 'Content-Type': 'application/json' }, '{"nome":"x"}')).status).toBe(422);
    expect((await post({ 'X-Key': 'k-1', 'Content-Type': 'application/json' }, '{"name":"x"}')).status).toBe(201);
    // A text answer comes from its schema too.
    const health = await mock.app.request('/health');
    expect([health.status, health.headers.get('content-type'), await health.text()]).toEqual([200, 'text/plain', 'ok']);
  });

  it('keeps the Petstore as it is: 401 with its challenge, 400 for a wrong media type and for bad input', async () => {
    const mock = buildMock(await loadDocument(`${ROOT}spec/openapi.yaml`), { plugins: [petstore] });
    const post = (headers: Record<string, string>, body: string) => mock.app.request('/pets', { method: 'POST', headers, body });
    const noKey = await post({ 'Content-Type': 'application/json' }, '{}');
    expect([noKey.status, noKey.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="Petstore"']);
    expect((await post({ Authorization: 'Bearer petstore-demo-key', 'Content-Type': 'text/plain' }, '{}')).status).toBe(400);
    expect((await post({ Authorization: 'Bearer petstore-demo-key', 'Content-Type': 'application/json' }, '{}')).status).toBe(400);
  });
});
