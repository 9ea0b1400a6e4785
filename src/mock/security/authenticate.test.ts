import { describe, expect, it } from 'vitest';
import { QueryString } from '../../core/query-string.js';
import { buildOperations } from '../../openapi/operations/build-operations.js';
import { petstore, petstoreDocument } from '../../test-support/petstore.js';
import { compileAuthenticator } from './authenticate.js';

const mock = await petstore({ apiKeys: ['key-one', 'key-two'] });
const get = (headers: Record<string, string>) => mock.app.request('/pets', { headers });

async function expectUnauthorized(response: Response, challenge: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get('WWW-Authenticate')).toBe(challenge);
  const body = (await response.json()) as any;
  expect(body).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  expect(body.message.length).toBeGreaterThan(10);
}

describe('authentication', () => {
  it('lets a known bearer key through, whichever of the configured keys it is', async () => {
    expect((await get({ Authorization: 'Bearer key-one' })).status).toBe(200);
    expect((await get({ Authorization: 'bearer key-two' })).status).toBe(200);
  });

  it('answers a request without credentials 401 with a Bearer challenge and no error code', async () => {
    await expectUnauthorized(await get({}), 'Bearer realm="Petstore"');
  });

  it('answers an unknown key 401 with error="invalid_token"', async () => {
    await expectUnauthorized(
      await get({ Authorization: 'Bearer nope' }),
      'Bearer realm="Petstore", error="invalid_token", error_description="The access token is not a known API key"',
    );
  });

  it('answers another scheme 401 and says which scheme to use', async () => {
    const response = await get({ Authorization: `Basic ${Buffer.from('key-one:x').toString('base64')}` });
    expect(((await response.clone().json()) as any).message).toMatch(/uses another scheme; send Authorization: Bearer <API_KEY>/);
    await expectUnauthorized(response, 'Bearer realm="Petstore"');
  });

  it('does not accept an empty bearer token or a bare scheme', async () => {
    expect((await get({ Authorization: 'Bearer ' })).status).toBe(401);
    expect((await get({ Authorization: 'Bearer' })).status).toBe(401);
  });

  it('no longer accepts the demo key once keys are configured', async () => {
    expect((await get({ Authorization: 'Bearer petstore-demo-key' })).status).toBe(401);
  });

  it('checks credentials before the input, so an anonymous bad request gets 401', async () => {
    const response = await mock.app.request('/pets', { method: 'POST', body: '{', headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(401);
  });

  it('enforces auth on every operation of the document', async () => {
    for (const op of mock.operations) {
      const path = op.path.replace(/\{[^}]+\}/g, '1');
      const response = await mock.app.request(path, { method: op.method.toUpperCase() });
      expect(response.status, op.id).toBe(401);
    }
  });
});

describe('authentication before the body', () => {
  it('answers an anonymous request with an oversized body 401, not 413', async () => {
    const { app } = await petstore();
    const response = await app.request('/pets', { method: 'POST', body: 'x'.repeat(70_000), headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(401);
  });
});

describe('compileAuthenticator', () => {
  it('gives a check for a secured operation: a known bearer key passes, none or another is refused with 401', async () => {
    const operations = buildOperations((await petstoreDocument()).api);
    const listPets = operations.find((op) => op.id === 'listPets')!;
    const check = compileAuthenticator(listPets, { apiKeys: ['good-key'], realm: 'Petstore' });
    expect(check).toBeDefined();
    const withHeader = (value: string | undefined) => ({ header: (name: string) => (name.toLowerCase() === 'authorization' ? value : undefined), query: QueryString.EMPTY });
    expect(check!(withHeader('Bearer good-key'))).toBeUndefined();
    expect(check!(withHeader(undefined))?.status).toBe(401);
    expect(check!(withHeader('Bearer other-key'))?.status).toBe(401);
  });
});
