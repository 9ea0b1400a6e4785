/**
 * Stored markup against a real browser: a page on another site (`http://evil.example`, mapped to
 * loopback inside Chromium only) stores an `<img onerror>` in a card and a scripted SVG in a badge
 * through the JSON API (open to any page through CORS), then navigates to the record's URL, where
 * the mock answers it as HTML or SVG (test/documents/pages-api.yaml). The script would log a
 * marker and reseed the mock through `POST /__admin/seed` from the mock's own origin: it must not
 * run, and the state must come out unchanged. Chromium comes from Debian, as for
 * src/mock/admin/admin-api.browser.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMock } from '../app.js';
import { packageDocsAssets } from '../docs/docs-assets.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { allowedHostsFor } from '../middleware/host-guard.js';
import type { MockPlugin } from '../registries/extension.js';
import { type RunningServer } from '../../server/serve.js';
import { serveNoting } from '../../test-support/serve-noting.js';
import { launchChromium } from '../../test-support/chromium.js';
import { ROOT } from '../../test-support/petstore.js';
import { until } from '../../test-support/until.js';

const EVIL = 'evil.example';
/** What the stored markup runs, if it can: a marker, then a reseed that empties the cards. No space, `"` or `>`: it sits in an unquoted attribute of JSON text. */
const SCRIPT = "console.log('markup-ran:'+origin);fetch('/__admin/seed',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify({seed:99,counts:{cards:0}})}).then(function(r){console.log('seed-answered:'+r.status)})";
const IMG = `<img src=x onerror=${SCRIPT}>`;
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>${SCRIPT.replace(/'markup-ran:'/, "'markup-ran:svg:'")}</script></svg>`;

/** The SVG the badge is answered as: its own markup, as an extension would write it. */
const svgBadges: MockPlugin = {
  name: 'svg-badges',
  mock(parts) {
    parts.bodyEncoders.register('image/svg+xml', (value) => String((value as { markup?: unknown }).markup ?? ''));
    return true;
  },
};

let browser: Browser;
const servers: Array<Server | RunningServer> = [];

beforeAll(async () => {
  // The attacker's name resolves to loopback inside the browser only: no DNS is asked.
  browser = await launchChromium([`--host-resolver-rules=MAP ${EVIL} 127.0.0.1`]);
});

afterAll(async () => {
  await browser?.close();
  for (const server of servers) 'server' in server ? await server.close() : server.close();
});

/** The attacker's site: an empty page on a free port. */
async function evilSite(): Promise<string> {
  const server = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>any site</title>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://${EVIL}:${(server.address() as AddressInfo).port}/`;
}

/** The mock of pages-api.yaml as the CLI serves it (Host allow-list, admin API open on loopback, docs page), with a log of what reached its admin API. */
async function pagesMock() {
  const mock = buildMock(await loadDocument(`${ROOT}test/documents/pages-api.yaml`), { plugins: [svgBadges], counts: { default: 0 }, allowedHosts: allowedHostsFor('127.0.0.1'), docs: packageDocsAssets() });
  const { server, reached } = await serveNoting(mock.app, { noted: (path) => path.startsWith('/__admin') });
  servers.push(server);
  return { mock, url: server.url, reached, snapshot: () => JSON.stringify(mock.store.export()) };
}

/** Every console line of a tab, the browser's own (a blocked script) included. */
function consoleOf(tab: Page): string[] {
  const lines: string[] = [];
  tab.on('console', (message) => lines.push(message.text()));
  return lines;
}

describe('markup a page stored in a record, served back by the mock', () => {
  it('an <img onerror> read as HTML and a scripted SVG run nothing on the mock\'s origin, and the admin API is not reached', async () => {
    const { url, reached, snapshot } = await pagesMock();
    const tab = await browser.newPage();
    const lines = consoleOf(tab);
    await tab.goto(await evilSite());

    // The attacker's page stores the markup through the API, with CORS, as any page may.
    const [card, badge] = await tab.evaluate(
      async ([api, title, markup]) => {
        const send = async (path: string, body: unknown) => {
          const response = await fetch(api + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
          return ((await response.json()) as { id: number }).id;
        };
        return [await send('/cards', { title }), await send('/badges', { markup })];
      },
      [url, IMG, SVG] as const,
    );
    const before = snapshot();
    expect(before).toContain('onerror');

    for (const [path, type] of [[`/cards/${card}`, 'text/html'], [`/badges/${badge}`, 'image/svg+xml']] as const) {
      const target = `${url}${path}`;
      const answered = tab.waitForResponse(target);
      // The page sends the browser there, as a link or a script would: a top-level navigation, Accept text/html first.
      await tab.evaluate((to) => void ((globalThis as unknown as { location: { href: string } }).location.href = to), target);
      const response = await answered;
      expect(response.headers()['content-type']).toBe(type);
      expect(await response.text()).toContain('markup-ran');
      await tab.waitForURL(target, { waitUntil: 'load' });
      // The browser says which way it went: the marker, or the script it blocked.
      await until(() => lines.some((line) => /markup-ran|Blocked script execution/.test(line)), `${path}: the stored script to run or be blocked`);
      expect(lines.filter((line) => /markup-ran|seed-answered/.test(line)), path).toEqual([]);
      expect(lines.some((line) => line.includes(`Blocked script execution in '${target}'`)), lines.join('\n')).toBe(true);
      lines.length = 0;
    }
    await tab.close();

    expect(reached).toEqual([]);
    expect(snapshot()).toBe(before);
  });
});

describe("a script that runs on the mock's origin anyway", () => {
  it('cannot change the state through the admin API (403 ADMIN_FROM_PAGE), while the docs page still reads the request log', async () => {
    const { url, reached, snapshot } = await pagesMock();
    const tab = await browser.newPage();
    await tab.goto(`${url}/__docs`);
    const before = snapshot();
    // Run in the docs page, as stored markup would if it ever escaped the sandbox: same origin, the docs page's own headers.
    const seen = await tab.evaluate(async () => {
      const json = { 'Content-Type': 'application/json' };
      const call = async (path: string, init: RequestInit = {}) => {
        const response = await fetch(path, init);
        return `${response.status} ${((await response.json()) as { code?: string }).code ?? 'answered'}`;
      };
      return [
        await call('/__admin/seed', { method: 'POST', headers: json, body: JSON.stringify({ seed: 99, counts: { cards: 0 } }) }),
        await call('/__admin/reset', { method: 'POST' }),
        await call('/__admin/state', { method: 'PUT', headers: json, body: '{}' }),
        // What the request-log drawer reads (src/mock/docs/ui/request-log.ts), with the same headers.
        await call('/__admin/requests?limit=50', { headers: { Accept: 'application/json' } }),
      ];
    });
    await tab.close();

    expect(seen).toEqual(['403 ADMIN_FROM_PAGE', '403 ADMIN_FROM_PAGE', '403 ADMIN_FROM_PAGE', '200 answered']);
    expect(reached).toEqual(['POST /__admin/seed 403', 'POST /__admin/reset 403', 'PUT /__admin/state 403', 'GET /__admin/requests 200']);
    expect(snapshot()).toBe(before);
  });
});
