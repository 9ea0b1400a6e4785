import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { WEB_REQUESTS } from './request-reader.js';

/** An app that answers with what the reader read: a header, the body (or `over` past 8 bytes), the peer. */
function echo() {
  const app = new Hono();
  app.post('/', async (c) => {
    const body = await WEB_REQUESTS.body(c, 8);
    return c.json({ header: WEB_REQUESTS.headers(c)('x-thing') ?? null, body: body === undefined ? 'over' : new TextDecoder().decode(body), peer: WEB_REQUESTS.remoteAddress(c) ?? null });
  });
  return app;
}

describe('WEB_REQUESTS', () => {
  it('reads the WHATWG request: headers by lower-case name, the body within its cap, no peer address', async () => {
    const answer = await echo().request('/', { method: 'POST', headers: { 'X-Thing': 'a' }, body: '12345678' });
    expect(await answer.json()).toEqual({ header: 'a', body: '12345678', peer: null });
  });

  it('refuses a body past the cap, from Content-Length alone or while reading one sent without it', async () => {
    const declared = await echo().request('/', { method: 'POST', headers: { 'Content-Length': '9' }, body: '123456789' });
    expect(await declared.json()).toMatchObject({ body: 'over' });
    const streamed = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('12345')), c.enqueue(new TextEncoder().encode('6789')), c.close()) });
    const chunked = await echo().request('/', { method: 'POST', body: streamed, duplex: 'half' } as RequestInit);
    expect(await chunked.json()).toMatchObject({ body: 'over', header: null });
  });
});
