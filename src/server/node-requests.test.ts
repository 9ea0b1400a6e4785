import { Hono } from 'hono';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { NODE_REQUESTS } from './node-requests.js';
import { startServer } from './serve.js';

/** Over a socket, the Node reader reads Node's own request; in process it reads the WHATWG one. */
function echo() {
  const app = new Hono();
  app.post('/', async (c) => {
    const body = await NODE_REQUESTS.body(c, 8);
    const header = NODE_REQUESTS.headers(c);
    return c.json({ thing: header('x-thing') ?? null, cookie: header('cookie') ?? null, body: body === undefined ? 'over' : new TextDecoder().decode(body), peer: NODE_REQUESTS.remoteAddress(c) ?? null });
  });
  return app;
}

/** A raw request (node:http keeps a repeated header as sent), answered as JSON. */
function send(url: string, headers: Record<string, string | string[]>, body: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('NODE_REQUESTS', () => {
  it("reads Node's IncomingMessage over a socket: headers (repeated ones joined), the capped body, the peer's address", async () => {
    const running = await startServer(echo(), { port: 0, host: '127.0.0.1' });
    try {
      expect(await send(running.url, { 'X-Thing': ['a', 'b'], 'Content-Type': 'text/plain' }, '1234')).toEqual({ thing: 'a, b', cookie: null, body: '1234', peer: '127.0.0.1' });
      expect(await send(running.url, { 'Content-Type': 'text/plain' }, '123456789')).toMatchObject({ body: 'over' });
    } finally {
      await running.close();
    }
  });

  it('reads a request that came from no socket (app.request) as the WHATWG one, with no peer', async () => {
    const answer = await echo().request('/', { method: 'POST', headers: { 'X-Thing': 'c', Cookie: 'k=v' }, body: 'hi' });
    expect(await answer.json()).toEqual({ thing: 'c', cookie: 'k=v', body: 'hi', peer: null });
  });
});
