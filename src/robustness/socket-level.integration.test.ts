/**
 * Hostile requests only a raw socket can send: bytes that are not valid HTTP, headers that
 * arrive too slowly or are too large, a body that never ends, paths no fetch client would send.
 * The server answers each with an Error body (or closes the connection), and keeps serving. An
 * 8 MB body sent to the CLI: socket-level.process.test.ts.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/serve.js';
import { petstore } from '../test-support/petstore.js';

let server: RunningServer;
beforeAll(async () => {
  const mock = await petstore();
  server = await startServer(mock.app, { port: 0, host: '127.0.0.1', headersTimeoutMs: 1_000, requestTimeoutMs: 3_000 });
});
afterAll(() => server.close());

/** Writes raw bytes (optionally more later) and resolves with everything read until the server closes or `waitMs` passes. */
function raw(chunks: Array<string | Buffer>, { waitMs = 4_000, gapMs = 0 } = {}): Promise<{ text: string; ms: number; firstByteMs: number; closed: boolean }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(server.port, '127.0.0.1');
    let text = '';
    let closed = false;
    let firstByteMs = -1;
    const finish = () => resolve({ text, ms: Date.now() - started, firstByteMs, closed });
    const timer = setTimeout(() => (socket.destroy(), finish()), waitMs);
    socket.on('data', (d) => {
      if (firstByteMs < 0) firstByteMs = Date.now() - started;
      text += d.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      finish();
    });
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

function statusAndBody(text: string): { status: number; body: any } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  return { status, body: body ? JSON.parse(body) : undefined };
}

const AUTH_LINE = 'Authorization: Bearer petstore-demo-key\r\n';

describe('hostile requests on a raw socket', () => {
  it('a CR inside a header value: 400 with an Error body', async () => {
    const { text } = await raw([`GET /pets HTTP/1.1\r\nHost: x\r\nX-Evil: a\rb\r\n${AUTH_LINE}\r\n`]);
    expect(statusAndBody(text)).toEqual({ status: 400, body: { code: 'BAD_REQUEST', message: expect.stringMatching(/not valid HTTP/), status: 400 } });
    expect(text).toMatch(/X-Content-Type-Options: nosniff/);
  });

  it('a header line injected through LF: 400 with an Error body', async () => {
    const { text } = await raw([`GET /pets HTTP/1.1\r\nHost: x\r\nX-Evil: a\nInjected: yes\r\n${AUTH_LINE}\r\n`]);
    expect(statusAndBody(text).status).toBeLessThan(500);
  });

  it('headers sent too slowly: 408 with an Error body after the documented headers timeout', async () => {
    const { text, ms } = await raw(['GET /pets HTTP/1.1\r\n', 'Host: x\r\n', 'X-Slow: 1\r\n', 'X-Slow: 2\r\n'], { gapMs: 600, waitMs: 6_000 });
    expect(statusAndBody(text)).toEqual({ status: 408, body: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time.', status: 408 } });
    expect(ms).toBeLessThan(5_000);
  });

  it('headers over 16 KB: 431 with an Error body', async () => {
    const { text } = await raw([`GET /pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    expect(statusAndBody(text)).toEqual({ status: 431, body: { code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large.', status: 431 } });
  });

  it('a chunked body that never ends is refused with 413 once it passes the limit, without waiting for the end', async () => {
    const chunk = (size: number) => `${size.toString(16)}\r\n${'x'.repeat(size)}\r\n`;
    const head = `POST /pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const { text, firstByteMs } = await raw([head, ...Array.from({ length: 40 }, () => chunk(8_192))], { waitMs: 4_000, gapMs: 20 });
    expect(statusAndBody(text)).toEqual({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 65536 bytes.', status: 413 } });
    expect(firstByteMs).toBeLessThan(40 * 20); // the answer came before the client stopped sending
  });

  it('a request pipelined behind a refused body gets no answer on that connection (it closes after the 413), and the server keeps serving', async () => {
    const body = 'x'.repeat(100_000);
    const { text, closed } = await raw([
      `POST /pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
        `GET /pets?limit=1 HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}\r\n`,
    ]);
    expect(statusAndBody(text)).toEqual({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 65536 bytes.', status: 413 } });
    expect(closed).toBe(true);
    const ok = await fetch(`${server.url}/pets?limit=1`, { headers: { Authorization: 'Bearer petstore-demo-key' } });
    expect(ok.status).toBe(200);
  });

  it('a Content-Length over the limit is refused before any body byte is read', async () => {
    const { text } = await raw([`POST /pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{"name":`], { waitMs: 2_000 });
    expect(statusAndBody(text).status).toBe(413);
  });

  it('a body with Content-Length that comes in pieces, or all with its headers, is read whole', async () => {
    const body = JSON.stringify({ name: 'Split', status: 'pending', categoryId: 1 });
    const head = `POST /pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const pieces = await raw([head, body.slice(0, 9), body.slice(9, 20), body.slice(20)], { gapMs: 30 });
    expect(statusAndBody(pieces.text)).toMatchObject({ status: 201, body: { name: 'Split', status: 'pending', categoryId: 1 } });
    const whole = await raw([head + body]);
    expect(statusAndBody(whole.text)).toMatchObject({ status: 201, body: { name: 'Split', status: 'pending', categoryId: 1 } });
    // Two requests in one packet (pipelined): each body is its own.
    const second = body.replace('Split', 'Other');
    const keepAlive = (b: string) => `POST /pets HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: ${b.length}\r\n\r\n${b}`;
    const pipelined = await raw([keepAlive(body) + keepAlive(second)], { waitMs: 1_000 });
    const names = [...pipelined.text.matchAll(/"name":"(\w+)"/g)].map((m) => m[1]);
    expect(names).toEqual(['Split', 'Other']);
  });

  it('raw .. segments are resolved as RFC 3986 says (like a browser): /pets/../categories is /categories', async () => {
    const { text } = await raw([`GET /pets/../categories HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Connection: close\r\n\r\n`]);
    const { status, body } = statusAndBody(text);
    expect(status).toBe(200);
    expect(body[0]).toEqual({ id: 1, name: 'Dogs', description: 'Loyal companions of every size.' });
  });

  it('percent-encoded dot segments are dot segments too (the URL standard), a trailing slash is another path', async () => {
    const send = async (path: string) => statusAndBody((await raw([`GET ${path} HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Connection: close\r\n\r\n`])).text);
    expect(await send('/pets/%2e%2e/categories')).toMatchObject({ status: 200, body: expect.arrayContaining([{ id: 1, name: 'Dogs', description: expect.any(String) }]) });
    expect(await send('/pets/.%2E/categories')).toMatchObject({ status: 200, body: expect.arrayContaining([{ id: 1, name: 'Dogs', description: expect.any(String) }]) });
    // `/pets/%2E%2E` is `/` (this server has no docs page for `/` to lead to).
    expect(await send('/pets/%2E%2E')).toMatchObject({ status: 404, body: { message: 'No operation of the document matches GET /.' } });
    for (const path of ['/pets/', '/pets/%2e']) {
      expect(await send(path), path).toEqual({ status: 404, body: { code: 'ROUTE_NOT_FOUND', message: "No operation of the document matches GET /pets/; the document's path is /pets, without the trailing slash.", status: 404 } });
    }
  });

  it('.. segments cannot climb above the root', async () => {
    const { text } = await raw([`GET /../../../etc/passwd HTTP/1.1\r\nHost: x\r\n${AUTH_LINE}Connection: close\r\n\r\n`]);
    expect(statusAndBody(text)).toEqual({ status: 404, body: { code: 'ROUTE_NOT_FOUND', message: 'No operation of the document matches GET /etc/passwd.', status: 404 } });
  });

  it('garbage instead of a request line: 400, and the server keeps serving', async () => {
    const { text } = await raw([Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x01, 0x00, 0x00, 0x0d, 0x0a, 0x0d, 0x0a])]);
    expect(statusAndBody(text).status).toBe(400);
    const ok = await fetch(`${server.url}/pets?limit=1`, { headers: { Authorization: 'Bearer petstore-demo-key' } });
    expect(ok.status).toBe(200);
  });
});
