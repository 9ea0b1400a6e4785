/**
 * The admin API against a real browser: a page on another local origin (another port, or
 * localhost against 127.0.0.1) tries to reset, reseed and replace the developer's mock, with a
 * simple `text/plain` request, a `no-cors` one, and JSON (preflighted); a DNS-rebinding page,
 * same-origin with the mock, tries it too. The mock's state must come out unchanged, while the
 * same page can still call the mock API. Chromium comes from Debian, as for src/cors.browser.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../test-support/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedHostsFor } from '../middleware/host-guard.js';
import { type RunningServer } from '../../server/serve.js';
import { serveNoting } from '../../test-support/serve-noting.js';
import { petstore } from '../../test-support/petstore.js';

const REBIND = 'rebind.evil.example';
let browser: Browser;
const mocks: RunningServer[] = [];
const pages: Server[] = [];

beforeAll(async () => {
  // The rebinding name resolves to loopback inside the browser only: no DNS is asked.
  browser = await launchChromium([`--host-resolver-rules=MAP ${REBIND} 127.0.0.1`]);
});

afterAll(async () => {
  await browser?.close();
  for (const page of pages) page.close();
  for (const mock of mocks) await mock.close();
});

/** Serves an empty page (the attacker's) on a free port; resolves with the server and its port. */
async function pageServer(port = 0): Promise<{ server: Server; port: number }> {
  const server = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>any site</title>'));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  pages.push(server);
  return { server, port: (server.address() as AddressInfo).port };
}

/** The mock as `npm start` serves it, changed by its developer (one pet added), with a log of what reached it. */
async function developersMock(port = 0) {
  const mock = await petstore({ allowedHosts: allowedHostsFor('127.0.0.1') });
  const created = await mock.call('POST', '/pets', { name: 'Added by the developer', categoryId: 1 });
  expect(created.status).toBe(201);
  const { server, reached } = await serveNoting(mock.app, { port, noted: (path) => path.startsWith('/__admin') });
  mocks.push(server);
  return { mock, server, reached, snapshot: () => JSON.stringify(mock.store.export()), petId: created.body.id as number };
}

/** What the attacking page tries, run inside the page; each entry is what the page could see. */
async function attack([api, emptyState]: readonly [string, unknown]): Promise<Record<string, string>> {
  const see = async (path: string, init: RequestInit) => {
    try {
      const response = await fetch(api + path, init);
      return `read ${response.status}`;
    } catch (error) {
      return String(error);
    }
  };
  const json = { 'Content-Type': 'application/json' };
  return {
    textPlainReset: await see('/__admin/reset', { method: 'POST', body: '{}' }),
    noCorsReset: await see('/__admin/reset', { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: '{}' }),
    noCorsSeed: await see('/__admin/seed', { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: '{"seed":99,"counts":{"pets":0}}' }),
    jsonReset: await see('/__admin/reset', { method: 'POST', headers: json, body: '{}' }),
    putState: await see('/__admin/state', { method: 'PUT', headers: json, body: JSON.stringify(emptyState) }),
    readState: await see('/__admin/state', {}),
    api: await see('/pets?limit=1', { headers: { Authorization: 'Bearer petstore-demo-key' } }),
  };
}

/** The state with every pet removed: what an accepted PUT /__admin/state would leave. */
async function stateWithoutPets(mock: Awaited<ReturnType<typeof petstore>>) {
  const state = (await (await mock.app.request('/__admin/state')).json()) as { collections: { pets: { scopes: Record<string, unknown[]> } } };
  state.collections.pets.scopes[''] = [];
  return state;
}

describe('the admin API against a page on another local origin', () => {
  for (const pageHost of ['127.0.0.1', 'localhost']) {
    it(`a page on http://${pageHost}:<other port> can call the API but cannot reset, reseed or replace the state`, async () => {
      const { mock, server, reached, snapshot, petId } = await developersMock();
      const page = await pageServer();
      const before = snapshot();
      const emptyState = await stateWithoutPets(mock);

      const tab = await browser.newPage();
      await tab.goto(`http://${pageHost}:${page.port}/`);
      const seen = await tab.evaluate(attack, [server.url, emptyState] as const);
      await tab.close();

      expect(seen).toEqual({
        textPlainReset: 'TypeError: Failed to fetch', // sent (a simple request), refused, and unreadable
        noCorsReset: 'read 0', // sent, opaque
        noCorsSeed: 'read 0',
        jsonReset: 'TypeError: Failed to fetch', // the preflight is refused: never sent
        putState: 'TypeError: Failed to fetch',
        readState: 'TypeError: Failed to fetch', // no CORS grant: unreadable
        api: 'read 200', // the mock API stays open to pages (CORS)
      });
      // What reached the mock: the simple requests (refused as cross-site), the preflights (refused), a read; never the JSON calls.
      expect(reached).toEqual(['POST /__admin/reset 403', 'POST /__admin/reset 403', 'POST /__admin/seed 403', 'OPTIONS /__admin/reset 403', 'OPTIONS /__admin/state 403', 'GET /__admin/state 200']);
      expect(snapshot()).toBe(before);
      expect((await mock.call('GET', `/pets?id=${petId}`)).body).toHaveLength(1);
    });
  }
});

describe('the admin API against a DNS-rebinding page', () => {
  it(`a page loaded from http://${REBIND}:<port>, whose name then points at the mock, is refused with 421 (same-origin, so only Host tells)`, async () => {
    // The attacker's page is served on a port; then its name "rebinds" to the mock, which now listens on that port.
    const page = await pageServer();
    const tab = await browser.newPage();
    await tab.goto(`http://${REBIND}:${page.port}/`);
    page.server.closeAllConnections();
    await new Promise((resolve) => page.server.close(resolve));
    const { mock, reached, snapshot, petId } = await developersMock(page.port);
    const before = snapshot();
    const emptyState = await stateWithoutPets(mock);

    const seen = await tab.evaluate(async (state) => {
      const json = { 'Content-Type': 'application/json' };
      const read = async (path: string, init: RequestInit = {}) => {
        const response = await fetch(path, init);
        return `${response.status} ${((await response.json()) as { code?: string }).code ?? 'answered'}`;
      };
      return [
        await read('/__admin/state'),
        await read('/__admin/reset', { method: 'POST', headers: json, body: '{}' }),
        await read('/__admin/state', { method: 'PUT', headers: json, body: JSON.stringify(state) }),
        await read('/pets?limit=1', { headers: { Authorization: 'Bearer petstore-demo-key' } }),
      ];
    }, emptyState);
    await tab.close();

    expect(seen).toEqual(['421 MISDIRECTED_REQUEST', '421 MISDIRECTED_REQUEST', '421 MISDIRECTED_REQUEST', '421 MISDIRECTED_REQUEST']);
    // Chromium sends a request again once after a 421 (on a fresh connection): refused both times.
    expect([...new Set(reached)]).toEqual(['GET /__admin/state 421', 'POST /__admin/reset 421', 'PUT /__admin/state 421']);
    expect(snapshot()).toBe(before);
    expect((await mock.call('GET', `/pets?id=${petId}`)).body).toHaveLength(1);
  });
});
