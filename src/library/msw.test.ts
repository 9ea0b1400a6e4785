/**
 * `petstore-mock-kit/msw` under MSW's `setupServer` (Node), as a frontend unit test uses it: the
 * code under test calls the global `fetch`, MSW hands the request to the stateful mock in-process.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMock, DEMO_API_KEY, type MockInstance } from '../index.js';
import { mswHandlers } from '../msw.js';
import { ROOT } from '../test-support/petstore.js';

const auth = { Authorization: `Bearer ${DEMO_API_KEY}` };
const mock: MockInstance = await createMock();
const unhandled: string[] = [];
// A document secured by OAuth 2.0: the front end gets its token from the mock's /__oauth through MSW too.
const boards: MockInstance = await createMock({ spec: `${ROOT}test/documents/oauth-api.yaml`, apiKeys: ['boards-key'] });
const server = setupServer(
  ...mswHandlers(boards, { baseUrl: 'https://boards.example.com' }),
  ...mswHandlers(mock), // the document's server: http://localhost:4010
  ...mswHandlers(mock, { baseUrl: 'https://shop.example.com/api' }),
  http.get('https://shop.example.com/api/feature-flags', () => HttpResponse.json({ newCheckout: true })),
);

beforeAll(() => server.listen({ onUnhandledRequest: (request) => void unhandled.push(`${request.method} ${request.url}`) }));
afterEach(() => mock.reset());
afterAll(() => server.close());

describe('mswHandlers(mock) with setupServer', () => {
  it('answers from state: a pet created is then read, listed and deleted', async () => {
    const created = await fetch('http://localhost:4010/pets', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    expect(pet).toMatchObject({ name: 'Rex', status: 'available' });
    const read = await fetch(`http://localhost:4010/pets/${pet.id}`, { headers: auth });
    expect(await read.json()).toMatchObject({ id: pet.id, name: 'Rex' });
    expect((await fetch(`http://localhost:4010/pets/${pet.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    expect((await fetch(`http://localhost:4010/pets/${pet.id}`, { headers: auth })).status).toBe(404);
  });

  it('validates and enforces auth as the server does, with the Error shape', async () => {
    const anonymous = await fetch('http://localhost:4010/pets');
    expect(anonymous.status).toBe(401);
    expect(Object.keys((await anonymous.json()) as object).sort()).toEqual(['code', 'message', 'status']);
    const invalid = await fetch('http://localhost:4010/pets', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"name":""}' });
    expect(invalid.status).toBe(400);
  });

  it('serves a base URL of the application under the document base path, beside other handlers', async () => {
    const pets = await fetch('https://shop.example.com/api/pets?limit=2', { headers: auth });
    expect(pets.status).toBe(200);
    expect(await (await fetch('https://shop.example.com/api/feature-flags')).json()).toEqual({ newCheckout: true });
  });

  it('lets requests the document does not define fall through to MSW', async () => {
    unhandled.length = 0;
    await fetch('http://localhost:4010/not-in-the-document').catch(() => undefined);
    await fetch('https://elsewhere.example.com/pets').catch(() => undefined);
    expect(unhandled).toEqual(['GET http://localhost:4010/not-in-the-document', 'GET https://elsewhere.example.com/pets']);
  });

  it('keeps the state in the mock the test holds: reset() between tests', async () => {
    const before = mock.store.counts().pets;
    await fetch('http://localhost:4010/pets', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Tom', categoryId: 1 }) });
    expect(mock.store.counts().pets).toBe(before + 1);
  });

  it("answers the mock's authorization server too: a token from /__oauth/token opens the API", async () => {
    const token = await fetch('https://boards.example.com/__oauth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${btoa('svc:boards-key')}` },
      body: 'grant_type=client_credentials&scope=boards:read',
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    expect((await fetch('https://boards.example.com/boards', { headers: { Authorization: `Bearer ${access_token}` } })).status).toBe(200);
  });
});
