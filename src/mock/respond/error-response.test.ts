import { describe, expect, it } from 'vitest';
import { buildMock } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { CORPUS, petstore } from '../../test-support/petstore.js';

const mockOf = async (file: string) => buildMock(await loadDocument(`${CORPUS}/${file}`), { counts: { default: 2 } });

describe('error responses shaped by the document', () => {
  it('sends the native Error where the document declares it (the Petstore)', async () => {
    const { call } = await petstore();
    expect((await call('GET', '/pets?limit=0')).body).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
  });

  it("follows another document's error schema, with the message carried in its fields", async () => {
    const { app } = await mockOf('oai-petstore.yaml'); // Error: {code: int32, message: string}, as `default`
    const response = await app.request('/v1/pets?limit=abc');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 400, message: 'query.limit: must be integer' });
  });

  it('uses the declared media type (problem+json) and its fields', async () => {
    const { app } = await mockOf('bump-train-travel.yaml');
    const response = await app.request('/rest/Train+Travel+API/1.0.0/stations');
    expect(response.status).toBe(401);
    expect(response.headers.get('Content-Type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: expect.stringMatching(/requires credentials/) });
  });

  it('sends no body where the document declares the error without content', async () => {
    const { app } = await mockOf('swagger-petstore3.yaml');
    const headers = { 'Content-Type': 'application/json', Authorization: 'Bearer petstore-demo-key' };
    const response = await app.request('/api/v3/pet', { method: 'PUT', body: '{}', headers }); // 400: declared with a description only
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('');
  });
});
