/**
 * Every URL the mock writes in a header (a create's `Location`, a page's `Link`) is the URL the
 * client used: in-process, behind MSW with a base of the app's own, mounted under a prefix in
 * another Hono app, behind a reverse proxy that strips a prefix. Following it reaches the record
 * or the page, where the client is.
 */
import { Hono } from 'hono';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, DEMO_API_KEY, MOUNT_ENV } from '../../index.js';
import { mswHandlers } from '../../msw.js';
import { ROOT } from '../../test-support/petstore.js';
import type { Context } from 'hono';
import { clientBaseOf } from './client-base.js';

const auth = { Authorization: `Bearer ${DEMO_API_KEY}` };
const json = { ...auth, 'Content-Type': 'application/json' };
const TELEPHONY = `${ROOT}test/documents/form-fields-api.yaml`;
const telephonyAuth = { Authorization: `Basic ${btoa('k-1:')}` };
const form = { ...telephonyAuth, 'Content-Type': 'application/x-www-form-urlencoded' };

/** The next page's URL in a `Link` header. */
const next = (link: string | null) => /<([^>]+)>; rel="next"/.exec(link ?? '')?.[1];

/** A pet created and a first page of two, through `send`; then the `Location` and the next page followed at `origin`. */
async function createAndPage(send: (path: string, init?: RequestInit) => Promise<Response>, at: string) {
  const created = await send(`${at}/pets`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
  expect(created.status).toBe(201);
  const pet = (await created.json()) as { id: number };
  const location = created.headers.get('Location')!;
  const page = await send(`${at}/pets?limit=2`, { headers: auth });
  const link = next(page.headers.get('Link'));
  const followed = await send(location, { headers: auth });
  const nextPage = await send(link!, { headers: auth });
  return { pet, location, link, followed: { status: followed.status, body: await followed.json() }, nextPage: { status: nextPage.status, body: await nextPage.json() } };
}

const mock = await createMock();
const telephony = await createMock({ spec: TELEPHONY, apiKeys: ['k-1'], counts: { default: 3 } });
const server = setupServer(...mswHandlers(mock, { baseUrl: 'http://app.test/api' }), ...mswHandlers(telephony, { baseUrl: 'http://app.test/tel' }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('the URLs the mock writes in headers', () => {
  it('behind MSW with a base of its own: the Location and the next page are under /api, and lead to the pet and the page', async () => {
    mock.reset();
    const seen = await createAndPage((path, init) => fetch(new URL(path, 'http://app.test'), init), '/api');
    expect(seen.location).toBe(`/api/pets/${seen.pet.id}`);
    expect(seen.link).toBe('/api/pets?limit=2&offset=2');
    expect(seen.followed).toEqual({ status: 200, body: expect.objectContaining({ id: seen.pet.id, name: 'Rex' }) });
    expect(seen.nextPage.status).toBe(200);
    expect(seen.nextPage.body).toHaveLength(2);
  });

  it("behind MSW, for a document with a base path of its own: the app's base stands in for the document's", async () => {
    const accounts = await fetch('http://app.test/tel/Accounts.json', { headers: telephonyAuth });
    const sid = ((await accounts.json()) as { accounts: Array<{ sid: string }> }).accounts[0].sid;
    const created = await fetch(`http://app.test/tel/Accounts/${sid}/Messages.json`, { method: 'POST', headers: form, body: 'To=%2B15005550006&Body=Hi' });
    const location = created.headers.get('Location')!;
    expect(location).toMatch(new RegExp(`^/tel/Accounts/${sid}/Messages/SM[0-9a-f]{32}\\.json$`));
    expect((await fetch(new URL(location, 'http://app.test'), { headers: telephonyAuth })).status).toBe(200);
  });

  it("in-process: the mock's own paths, the document's base path included", async () => {
    mock.reset();
    const seen = await createAndPage((path, init) => mock.fetch(path, init), '');
    expect([seen.location, seen.link]).toEqual([`/pets/${seen.pet.id}`, '/pets?limit=2&offset=2']);
    expect([seen.followed.status, seen.nextPage.status]).toEqual([200, 200]);
    const created = await telephony.app.request(`/2010-04-01/Accounts.json`, { method: 'POST', headers: form, body: 'FriendlyName=Ops' });
    expect(created.headers.get('Location')).toMatch(/^\/2010-04-01\/Accounts\/AC[0-9a-f]{32}\.json$/);
  });

  it('mounted under a prefix in another Hono app that says so: the prefix stays in front', async () => {
    mock.reset();
    const host = new Hono();
    host.mount('/mock', mock.app.fetch, { optionHandler: () => [{ [MOUNT_ENV]: { prefix: '/mock' } }] });
    const seen = await createAndPage((path, init) => Promise.resolve(host.request(path, init)), '/mock');
    expect([seen.location, seen.link]).toEqual([`/mock/pets/${seen.pet.id}`, '/mock/pets?limit=2&offset=2']);
    expect([seen.followed.status, seen.nextPage.status]).toEqual([200, 200]);
  });

  it('behind a reverse proxy that strips a prefix (trustProxy): X-Forwarded-Prefix stays in front; without trustProxy it is not read', async () => {
    const proxied = await createMock({ trustProxy: true });
    const stripping = (path: string, init: RequestInit = {}) =>
      proxied.fetch(path.replace(/^\/edge/, ''), { ...init, headers: { ...(init.headers as Record<string, string>), 'X-Forwarded-Prefix': '/edge' } });
    const seen = await createAndPage(stripping, '/edge');
    expect([seen.location, seen.link]).toEqual([`/edge/pets/${seen.pet.id}`, '/edge/pets?limit=2&offset=2']);
    expect([seen.followed.status, seen.nextPage.status]).toEqual([200, 200]);
    mock.reset();
    const direct = await mock.fetch('/pets?limit=2', { headers: { ...auth, 'X-Forwarded-Prefix': '/edge' } });
    expect(next(direct.headers.get('Link'))).toBe('/pets?limit=2&offset=2');
  });

  it('reads no forwarded prefix that is not a path: another host (`//evil.example`) or a header break is ignored', async () => {
    const proxied = await createMock({ trustProxy: true });
    for (const prefix of ['//evil.example', 'https://evil.example', '/a b', '/ok>; rel="x"']) {
      const page = await proxied.fetch('/pets?limit=2', { headers: { ...auth, 'X-Forwarded-Prefix': prefix } });
      expect(next(page.headers.get('Link')), prefix).toBe('/pets?limit=2&offset=2');
    }
  });
});

describe('clientBaseOf', () => {
  const context = (url: string, env?: unknown) => ({ req: { url }, env }) as unknown as Context;
  const headers = (given: Record<string, string>) => (name: string) => given[name];

  it('reads the scheme and host a proxy forwards only with trustProxy, and ignores a host that is not one', () => {
    const forwarded = headers({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'pets.example.com', 'x-forwarded-prefix': '/shop/' });
    const at = context('http://127.0.0.1:4010/v1/pets/7?x=1');
    expect(clientBaseOf(at, forwarded, { basePath: '/v1', trustProxy: true }).url('/v1/pets/8')).toBe('https://pets.example.com/shop/v1/pets/8');
    expect(clientBaseOf(at, forwarded, { basePath: '/v1', trustProxy: true }).request(true)).toBe('https://pets.example.com/shop/v1/pets/7');
    expect(clientBaseOf(at, forwarded, { basePath: '/v1' }).url('/v1/pets/8')).toBe('http://127.0.0.1:4010/v1/pets/8');
    for (const host of ['evil.example/x', 'a b', 'evil.example@x', '']) {
      expect(clientBaseOf(at, headers({ 'x-forwarded-host': host }), { basePath: '/v1', trustProxy: true }).origin, host).toBe('http://127.0.0.1:4010');
    }
    expect(clientBaseOf(at, headers({ 'x-forwarded-proto': 'javascript' }), { basePath: '/v1', trustProxy: true }).origin).toBe('http://127.0.0.1:4010');
  });

  it("puts a mount's prefix in front of the mock's own endpoints, and its base path in place of the document's", () => {
    const at = context('http://app.test/v1/pets', { [MOUNT_ENV]: { prefix: '/api', basePath: '/api' } });
    const client = clientBaseOf(at, headers({}), { basePath: '/v1' });
    expect([client.path('/v1/pets/1'), client.path('/v1'), client.path('/__oauth/token'), client.path('/v10/x')]).toEqual(['/api/pets/1', '/api', '/api/__oauth/token', '/api/v10/x']);
    expect(clientBaseOf(context('http://app.test/v1', { [MOUNT_ENV]: { prefix: '//evil' } }), headers({}), { basePath: '/v1' }).path('/v1/pets')).toBe('/v1/pets');
  });
});
