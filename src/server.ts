/**
 * Serving a mock over HTTP with @hono/node-server, with timeouts set so a slow or stalled client
 * cannot hold a connection forever, and a close that lets in-flight requests finish.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';

export interface ServeOptions {
  port: number;
  host: string;
  /** Time allowed to receive the request headers (default 10 s). */
  headersTimeoutMs?: number;
  /** Time allowed to receive a whole request (default 30 s). */
  requestTimeoutMs?: number;
}

export interface RunningServer {
  /** `http://127.0.0.1:4010` */
  url: string;
  port: number;
  server: Server;
  /** Stops accepting connections and resolves once in-flight requests are answered. */
  close: () => Promise<void>;
}

/** @example const running = await startServer(mock.app, { port: 0, host: '127.0.0.1' }); await running.close(); */
export function startServer(app: { fetch: (request: Request) => Response | Promise<Response> }, options: ServeOptions): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: app.fetch,
        port: options.port,
        hostname: options.host,
        serverOptions: { requestTimeout: options.requestTimeoutMs ?? 30_000, headersTimeout: options.headersTimeoutMs ?? 10_000, keepAliveTimeout: 5_000 },
      },
      (info: AddressInfo) => {
        const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        resolve({ url: `http://${host}:${info.port}`, port: info.port, server: server as Server, close: () => close(server as Server) });
      },
    ) as Server;
    server.once('error', reject);
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
