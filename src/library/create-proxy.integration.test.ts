/**
 * createProxy from the package's entry: the checker in front of an app in the same process (a
 * `fetch`), and over HTTP with `listen`, recording what passes.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMock, createProxy } from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'create-proxy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const AUTH = { Authorization: 'Bearer petstore-demo-key' };

describe('createProxy()', () => {
  it('checks the answers of a server in the same process, and finds what it breaks', async () => {
    const upstream = await createMock({ seed: 3 });
    const broken = async (url: string | URL | Request, init?: RequestInit) => {
      const answer = await upstream.fetch(url instanceof Request ? url : new URL(String(url)).pathname + new URL(String(url)).search, init);
      if (answer.status !== 200 || !String(url).includes('/pets/1')) return answer;
      const { name: _name, ...pet } = (await answer.json()) as Record<string, unknown>;
      const headers = new Headers(answer.headers);
      headers.delete('content-length');
      return new Response(JSON.stringify(pet), { status: 200, headers });
    };
    const proxy = await createProxy({ upstream: 'http://api.test', fetch: broken });
    expect((await proxy.fetch('/pets/2', { headers: AUTH })).status).toBe(200);
    expect(proxy.counts().total).toBe(0);
    expect((await proxy.fetch('/pets/1', { headers: AUTH })).status).toBe(200);
    expect(proxy.counts()).toMatchObject({ total: 1, byCheck: { response_schema_conformance: 1 } });
    expect(proxy.violations()[0]).toMatchObject({ check: 'response_schema_conformance', request: 'GET /pets/1', path: 'body.name', repro: expect.stringContaining("'http://api.test/pets/1'") });
    expect(proxy.summary()[0]).toBe('2 exchanges checked: 1 violation.');
    expect(proxy.junit()).toContain('<failure message="received 200 without body.name');
  });

  it('listens, forwards over HTTP, and records what the upstream answered', async () => {
    const upstream = await createMock({ seed: 5 });
    const upstreamServer = await upstream.listen();
    const record = join(dir, 'recorded');
    const proxy = await createProxy({ upstream: upstreamServer.url, record });
    const server = await proxy.listen();
    try {
      const pet = await (await fetch(`${server.url}/pets/4`, { headers: AUTH })).json();
      expect(pet).toEqual(await (await upstream.fetch('/pets/4', { headers: AUTH })).json());
    } finally {
      await server.close();
      await upstreamServer.close();
    }
    expect(await proxy.close()).toMatchObject({ records: 1 });
    expect(existsSync(join(record, 'pets.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(record, 'pets.json'), 'utf8'))).toHaveLength(1);
  });
});
