/**
 * The proxy on loopback, in front of an upstream of our own on loopback: what goes over the wire
 * (hop-by-hop headers, X-Forwarded-*, a path that looks like another origin), streaming and large
 * bodies, an upstream that hangs or is not there, and a redirect to another origin.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/serve.js';
import { NODE_REQUESTS } from '../server/node-requests.js';
import { AUTH, petstoreDocument } from '../test-support/petstore.js';
import { buildProxy, type Proxy, type ProxyExchange } from './proxy.js';

const PET = { id: 1, name: 'Rex', status: 'available', categoryId: 1, tags: [], createdAt: '2026-01-01T00:00:00Z' };
const BIG = 2 * 1024 * 1024;

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

let upstream: Server;
let upstreamUrl: string;
const seen: Seen[] = [];
/** Resolves the streaming answer's second chunk, once the client has the first. */
let releaseStream: () => void = () => undefined;
let streamEnded = false;
const proxies: RunningServer[] = [];
const forwarders: Proxy[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    const path = req.url!.split('?')[0];
    if (path === '/pets/1') return res.writeHead(200, { 'Content-Type': 'application/json', Connection: 'keep-alive' }).end(JSON.stringify(PET));
    if (path === '/pets/2') return res.writeHead(302, { Location: 'http://elsewhere.invalid/pets/2' }).end();
    if (path === '/pets/3') return; // never answers
    if (path === '/pets/4') {
      // Its headers at once, then its JSON body a byte every 200 ms, for as long as the connection lasts.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"id":4,');
      const trickle = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(trickle));
      return;
    }
    if (path === '/pets/5') return res.writeHead(999, { 'Content-Type': 'application/json' }).end(JSON.stringify(PET));
    if (path === '/stall') {
      // A body that is not checked: streamed through as it comes, then nothing more.
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      return res.write('first part ');
    }
    if (path === '/pets') {
      const items = JSON.stringify(Array.from({ length: Math.ceil(BIG / 200) }, (_, i) => ({ ...PET, id: i + 1, name: `pet ${'x'.repeat(120)}` })));
      // With a length (read as too long at once), or chunked (read until past the limit).
      if (req.url!.includes('chunked')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        for (let i = 0; i < items.length; i += 65536) res.write(items.slice(i, i + 65536));
        return res.end();
      }
      return res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(items) }).end(items);
    }
    if (path === '/events') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('data: first\n\n');
      const end = () => {
        streamEnded = true;
        res.end('data: second\n\n');
      };
      // Ends when the client has the first chunk, or in any case after a while (a buffering proxy is then caught by the order).
      const fallback = setTimeout(end, 5_000);
      releaseStream = () => {
        clearTimeout(fallback);
        end();
      };
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`nothing at ${req.url}`);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  // The upstream's connections first: a proxy still waiting on one (a test that failed) then finishes, and closes.
  upstream.closeAllConnections();
  await Promise.all(proxies.map((p) => p.close()));
  await Promise.all(forwarders.map((p) => p.close()));
  await new Promise((resolve) => upstream.close(resolve));
});

async function proxyOn(options: { upstream?: string; timeoutMs?: number; trustProxy?: boolean } = {}) {
  const exchanges: ProxyExchange[] = [];
  const mock = { requestReader: NODE_REQUESTS, trustProxy: options.trustProxy };
  const proxy: Proxy = buildProxy(await petstoreDocument(), { upstream: options.upstream ?? upstreamUrl, timeoutMs: options.timeoutMs, maxAnswerBytes: 1024 * 1024, mock, onExchange: (e) => exchanges.push(e) });
  const running = await startServer({ fetch: proxy.fetch }, { port: 0, host: '127.0.0.1' });
  proxies.push(running);
  forwarders.push(proxy);
  return { url: running.url, proxy, exchanges };
}

/** A GET over node:http, which sends the headers it is given as they are (fetch adds and refuses some). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the proxy on loopback', () => {
  it('sends on what the request carried, without hop-by-hop headers, and says who it forwarded for', async () => {
    const { url } = await proxyOn();
    seen.length = 0;
    // Over node:http: fetch will not send a Connection header of its own making.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const target = new URL(`${url}/pets/1?x=1`);
      const req = request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers: { ...AUTH, Connection: 'keep-alive, X-Hop', 'X-Hop': 'drop me', 'X-Kept': 'keep me' } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual(PET);
    expect(seen).toHaveLength(1);
    expect(seen[0].url).toBe('/pets/1?x=1');
    expect(seen[0].headers).toMatchObject({ authorization: AUTH.Authorization, 'x-kept': 'keep me', 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'http' });
    expect(seen[0].headers['x-hop']).toBeUndefined();
    expect(seen[0].headers['x-forwarded-host']).toBe(new URL(url).host);
  });

  it('keeps a path that looks like another origin on the upstream', async () => {
    const { url } = await proxyOn();
    seen.length = 0;
    const answer = await fetch(`${url}//elsewhere.invalid/pets/1`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).toBe('nothing at //elsewhere.invalid/pets/1');
    expect(seen.map((s) => s.url)).toEqual(['//elsewhere.invalid/pets/1']);
  });

  it('hands a redirect to the client, never following it', async () => {
    const { url, exchanges } = await proxyOn();
    seen.length = 0;
    const answer = await fetch(`${url}/pets/2`, { headers: AUTH, redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('http://elsewhere.invalid/pets/2');
    expect(seen).toHaveLength(1);
    expect(exchanges.at(-1)!.violations.map((v) => v.check)).toEqual(['status_code_conformance']);
  });

  it('streams a body it does not check, as it comes', async () => {
    const { url, exchanges } = await proxyOn();
    streamEnded = false;
    const answer = await fetch(`${url}/events`);
    const reader = answer.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    // The first chunk is here before the upstream has sent the rest: nothing held it back.
    expect(first).toBe('data: first\n\n');
    expect(streamEnded).toBe(false);
    releaseStream();
    let rest = '';
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += new TextDecoder().decode(next.value);
    expect(rest).toBe('data: second\n\n');
    expect(exchanges.at(-1)!.violations.map((v) => v.check)).toEqual(['documented_operation']);
  });

  it.each([['with a Content-Length', '/pets?limit=100'], ['chunked', '/pets?limit=100&chunked=1']])('passes a body past the size limit through whole, unchecked and said so (%s)', async (_, path) => {
    const { url, exchanges } = await proxyOn();
    const answer = await fetch(`${url}${path}`, { headers: AUTH });
    const body = (await answer.json()) as unknown[];
    expect(answer.status).toBe(200);
    expect(body.length).toBe(Math.ceil(BIG / 200));
    expect(exchanges.at(-1)!.note).toBe('body not checked: over 1048576 bytes');
    // The answer's body was not judged (its status and media type were).
    expect(exchanges.at(-1)!.violations.filter((v) => v.check === 'response_schema_conformance')).toEqual([]);
  });

  it('answers 504 in the document\'s error shape when the upstream does not answer in time, and 502 when it is not there', async () => {
    const slow = await proxyOn({ timeoutMs: 300 });
    const hung = await fetch(`${slow.url}/pets/3`, { headers: AUTH });
    expect(hung.status).toBe(504);
    expect(await hung.json()).toEqual({ code: 'GATEWAY_TIMEOUT', status: 504, message: 'The proxy got no answer: the upstream did not answer within 0.3 s.' });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const gone = await proxyOn({ upstream: `http://127.0.0.1:${port}` });
    const refused = await fetch(`${gone.url}/pets/1`, { headers: AUTH });
    expect(refused.status).toBe(502);
    expect(await refused.json()).toMatchObject({ code: 'BAD_GATEWAY', message: expect.stringMatching(/could not be reached \(ECONNREFUSED\)/) });
  });

  it('answers 504 in the document\'s error shape when the upstream trickles its body past the time limit (the limit bounds the whole answer)', async () => {
    const slow = await proxyOn({ timeoutMs: 1000 });
    // A byte every 200 ms never lets the time between two bytes reach the limit; only the whole answer can.
    const answer = await fetch(`${slow.url}/pets/4`, { headers: AUTH, signal: AbortSignal.timeout(30_000) });
    expect(answer.status).toBe(504);
    expect(await answer.json()).toEqual({ code: 'GATEWAY_TIMEOUT', status: 504, message: 'The proxy got no answer: the upstream did not answer within 1 s.' });
    expect(slow.exchanges.at(-1)).toMatchObject({ status: 504, answeredBy: 'proxy' });
  });

  it('cuts the connection of a body it streams unchecked when the upstream falls silent past the time limit', async () => {
    const slow = await proxyOn({ timeoutMs: 1000 });
    const answer = await fetch(`${slow.url}/stall`, { signal: AbortSignal.timeout(30_000) });
    expect(answer.status).toBe(200);
    const reader = answer.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first part ');
    await expect(reader.read()).rejects.toThrow();
    // The proxy still answers.
    expect((await fetch(`${slow.url}/pets/1`, { headers: AUTH })).status).toBe(200);
  });

  it('answers 502 in the document\'s error shape for an upstream status HTTP cannot pass on', async () => {
    const { url, exchanges } = await proxyOn();
    const answer = await fetch(`${url}/pets/5`, { headers: AUTH });
    expect(answer.status).toBe(502);
    expect(await answer.json()).toEqual({ code: 'BAD_GATEWAY', status: 502, message: 'The proxy got no answer it can pass on: the upstream answered status 999, outside 200 to 599.' });
    expect(exchanges.at(-1)).toMatchObject({ status: 502, answeredBy: 'proxy' });
  });

  it('sets its own forwarding headers and drops the client\'s, which anyone can write', async () => {
    const { url } = await proxyOn();
    seen.length = 0;
    const spoofed = { 'X-Forwarded-For': '203.0.113.7', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Port': '443', Forwarded: 'for=203.0.113.7;host=evil.example;proto=https', 'X-Real-IP': '203.0.113.7' };
    expect((await rawGet(`${url}/pets/1`, { ...AUTH, ...spoofed })).status).toBe(200);
    const host = new URL(url).host;
    expect(seen[0].headers).toMatchObject({ 'x-forwarded-for': '127.0.0.1', 'x-forwarded-host': host, 'x-forwarded-proto': 'http', forwarded: `for=127.0.0.1;host="${host}";proto=http` });
    expect(seen[0].headers['x-forwarded-port']).toBeUndefined();
    expect(seen[0].headers['x-real-ip']).toBeUndefined();
  });

  it('with --trust-proxy, keeps the forwarding headers of the proxy in front of it and adds its own hop', async () => {
    const { url } = await proxyOn({ trustProxy: true });
    seen.length = 0;
    const front = { 'X-Forwarded-For': '203.0.113.7', 'X-Forwarded-Host': 'api.example.com', 'X-Forwarded-Proto': 'https', Forwarded: 'for=203.0.113.7;host=api.example.com;proto=https' };
    expect((await rawGet(`${url}/pets/1`, { ...AUTH, ...front })).status).toBe(200);
    const host = new URL(url).host;
    expect(seen[0].headers).toMatchObject({
      'x-forwarded-for': '203.0.113.7, 127.0.0.1',
      'x-forwarded-host': 'api.example.com',
      'x-forwarded-proto': 'https',
      forwarded: `for=203.0.113.7;host=api.example.com;proto=https, for=127.0.0.1;host="${host}";proto=http`,
    });
  });

  it('refuses a request body over the limit with 413 in the document\'s error shape, without forwarding it', async () => {
    const { url } = await proxyOn();
    seen.length = 0;
    const answer = await fetch(`${url}/pets`, { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    expect(seen).toEqual([]);
  });
});
