/**
 * The request reader of the Node server (see src/mock/pipeline/request-reader.ts): headers, body and
 * peer read from Node's IncomingMessage, which @hono/node-server hands over as `c.env.incoming`.
 * Building a WHATWG Request, its Headers and its body stream for each request was about a tenth of
 * the samples in a profile under load. A request that came from no socket (`app.request` in a
 * test) is read as the WHATWG one.
 */
import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { WEB_REQUESTS, type RequestReader } from '../mock/pipeline/request-reader.js';

/** The Node request behind a Hono context, when the request came over a socket. */
function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

export const NODE_REQUESTS: RequestReader = {
  headers(c) {
    const incoming = incomingOf(c);
    if (!incoming) return WEB_REQUESTS.headers(c);
    return (name) => {
      const value = incoming.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
  },
  body(c, maxBytes) {
    const incoming = incomingOf(c);
    return incoming ? readIncomingBody(incoming, maxBytes) : WEB_REQUESTS.body(c, maxBytes);
  },
  remoteAddress: (c) => incomingOf(c)?.socket.remoteAddress,
};

/** A Node request's body with a size cap, as readBody reads a WHATWG one. Past the cap, the rest is read and dropped (see `lingerAfterRefusal`). */
function readIncomingBody(incoming: IncomingMessage, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = incoming.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    lingerAfterRefusal(incoming);
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      lingerAfterRefusal(incoming);
      resolve(undefined);
    };
    const onEnd = () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', reject);
  });
}

/** After a refused body, how long the client may go on sending it: idle, and in all. */
const LINGER_IDLE_MS = 2_000;
const LINGER_MAX_MS = 10_000;

/**
 * A lingering close, as nginx and Apache do it: the 413 goes out at once with `Connection: close`,
 * then the server closes its side and goes on reading (and dropping) the rest of the body until
 * the client has sent it all, stops sending for LINGER_IDLE_MS, or LINGER_MAX_MS have passed.
 * Closing a socket with unread bytes makes the kernel answer with a reset, which can throw away
 * the 413 before the client reads it: an 8 MB POST ended in EPIPE on the client (fetch: 10 of 30
 * times; node:http: every time) when Node destroyed the socket right after the response.
 */
function lingerAfterRefusal(incoming: IncomingMessage): void {
  incoming.resume();
  const socket = incoming.socket as Socket & { destroySoon?: () => void };
  if (!socket) return;
  // Node calls destroySoon() once a `Connection: close` response is written.
  socket.destroySoon = () => {
    socket.end();
    const destroy = () => socket.destroy();
    const max = setTimeout(destroy, LINGER_MAX_MS);
    const cut = () => (socket.writableFinished ? destroy() : socket.once('finish', destroy));
    let idle: NodeJS.Timeout | undefined;
    const onData = () => {
      clearTimeout(idle);
      idle = setTimeout(cut, LINGER_IDLE_MS);
    };
    socket.once('close', () => {
      clearTimeout(idle);
      clearTimeout(max);
      incoming.off('data', onData);
    });
    if (incoming.complete) return cut();
    onData();
    incoming.on('data', onData);
    incoming.once('end', cut);
  };
}
