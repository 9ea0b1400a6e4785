/**
 * The 4xx answers made below the app, by Node or by @hono/node-server, carry an `Error` body too:
 * an HTTP/1.1 request without Host, a Host or target that is no URL, an Expect other than
 * 100-continue. Only a raw socket can send these.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './serve.js';
import { petstore } from '../test-support/petstore.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer((await petstore()).app, { port: 0, host: '127.0.0.1' });
});
afterAll(() => server.close());

const AUTH_LINE = 'Authorization: Bearer petstore-demo-key\r\n';

/** Writes one request and resolves with what came back: the status, the headers, the parsed body, and whether the server closed. */
function raw(request: string, waitMs = 2_000): Promise<{ status: number; head: string; body: any; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(request));
    let text = '';
    let closed = false;
    const finish = () => {
      const head = text.slice(0, text.indexOf('\r\n\r\n'));
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1]), head, body: body ? JSON.parse(body) : undefined, closed });
    };
    const timer = setTimeout(() => (socket.destroy(), finish()), waitMs);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => ((closed = true), clearTimeout(timer), finish()));
  });
}

describe('answers made below the app', () => {
  it('an HTTP/1.1 request without Host: 400 MISSING_HOST with an Error body, then the connection closes', async () => {
    const answer = await raw(`GET /pets HTTP/1.1\r\n${AUTH_LINE}\r\n`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 'MISSING_HOST', message: 'An HTTP/1.1 request needs a Host header.', status: 400 });
    expect(answer.head).toMatch(/^Content-Type: application\/json$/im);
    expect(answer.closed).toBe(true);
  });

  it('an HTTP/1.0 request without Host is answered (Host is optional there)', async () => {
    const answer = await raw(`GET /pets?limit=1 HTTP/1.0\r\n${AUTH_LINE}\r\n`);
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(1);
  });

  it('a Host or a target that does not make a URL: 400 BAD_REQUEST with an Error body, then the connection closes', async () => {
    for (const request of [`GET /pets HTTP/1.1\r\nHost: a b\r\n\r\n`, `GET /pets HTTP/1.1\r\nHost: localhost:1@evil.example\r\n\r\n`, `GET /pets\\x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, `GET http://[zz/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`]) {
      const answer = await raw(request);
      expect(answer.status, request).toBe(400);
      expect(answer.body, request).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
      expect(answer.closed, request).toBe(true);
    }
  });

  it('an Expect other than 100-continue: 417 EXPECTATION_FAILED with an Error body', async () => {
    const answer = await raw(`GET /pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH_LINE}Expect: something-else\r\n\r\n`);
    expect(answer.status).toBe(417);
    expect(answer.body).toMatchObject({ code: 'EXPECTATION_FAILED', status: 417 });
  });

  it('keeps serving afterwards', async () => {
    const ok = await fetch(`${server.url}/pets?limit=1`, { headers: { Authorization: 'Bearer petstore-demo-key' } });
    expect(ok.status).toBe(200);
  });
});
