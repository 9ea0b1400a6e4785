/**
 * Shutdown: on SIGTERM (or SIGINT) the real CLI stops accepting connections, lets in-flight
 * requests finish, and exits 0. The in-flight request is a `POST /pets` whose body is only half
 * sent when the signal arrives, written on a raw socket so nothing buffers it.
 *
 * Not covered here: "with a state file, nothing acknowledged is lost" needs a `--state-file` flag
 * that does not exist yet.
 */
import type { ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli } from '../test-support/processes.js';

/** The server waits this long for in-flight requests before it cuts their connections (src/server.ts). */
const FALLBACK_MS = 10_000;
/** "Promptly": well under the fallback, so an exit this fast is not the fallback firing. */
const PROMPT_MS = 2_000;

const AUTH_LINE = 'Authorization: Bearer petstore-demo-key\r\n';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function cli() {
  const server = await startCli([]);
  started.push(server.child);
  const exit = new Promise<{ code: number | null; at: number }>((resolve) => server.child.once('exit', (code) => resolve({ code, at: Date.now() })));
  return { ...server, port: Number(new URL(server.url).port), exit };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the CLI has printed that it is stopping (the signal was handled, the listener closed). */
async function stopping(output: () => string, signal: string): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (!output().includes(`${signal}: finishing in-flight requests`)) {
    if (Date.now() > deadline) throw new Error(`the CLI did not acknowledge ${signal}: ${output()}`);
    await sleep(10);
  }
  await sleep(50);
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves when a socket is closed (by either side). */
function closed(socket: Socket): Promise<number> {
  return new Promise((resolve) => (socket.destroyed ? resolve(Date.now()) : socket.once('close', () => resolve(Date.now()))));
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Reads one HTTP/1.1 response with a Content-Length from a raw socket; rejects if the socket closes first or nothing comes in `ms`. */
function readResponse(socket: Socket, ms = 5_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const done = (error?: Error, response?: RawResponse) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      if (error) reject(error);
      else resolve(response!);
    };
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? 0);
      if (data.length < end + 4 + length) return;
      const text = data.subarray(end + 4, end + 4 + length).toString('utf8');
      done(undefined, { status: Number(statusLine.split(' ')[1]), headers, body: text ? JSON.parse(text) : undefined });
    };
    const onClose = () => done(new Error(`the connection closed before a whole response: ${JSON.stringify(data.toString('latin1'))}`));
    const timer = setTimeout(() => done(new Error(`no whole response in ${ms} ms: ${JSON.stringify(data.toString('latin1'))}`)), ms);
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}

/**
 * A POST /pets whose body is only half sent; `finish()` sends the rest. `pipelinedAfter` is a
 * whole request sent first in the same write, whose answer `earlier` resolves with.
 */
async function halfSentCreate(port: number, pet: Record<string, unknown>, pipelinedAfter = '') {
  const socket = await open(port);
  socket.on('error', () => undefined);
  const earlier = pipelinedAfter ? readResponse(socket) : undefined;
  const body = JSON.stringify(pet);
  const half = Math.floor(body.length / 2);
  const head = `POST /pets HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${AUTH_LINE}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  await new Promise<void>((resolve) => socket.write(pipelinedAfter + head + body.slice(0, half), () => resolve()));
  await sleep(100); // the server has parsed the headers: the request is in flight
  return { socket, earlier: await earlier, finish: () => socket.write(body.slice(half)) };
}

/** What a brand-new connection gets: refused, accepted but never answered, or an answer. */
function newConnection(port: number): Promise<'refused' | 'no response' | 'answered'> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const finish = (outcome: 'refused' | 'no response' | 'answered') => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish('no response'), 1_000);
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNREFUSED' ? 'refused' : 'no response'));
    socket.on('connect', () => socket.write(`GET /pets HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${AUTH_LINE}\r\n`));
    socket.on('data', () => finish('answered'));
    socket.on('close', () => finish('no response'));
  });
}

describe('shutdown of the CLI', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`on ${signal} a request still receiving its body is answered 201 with the created pet, new connections are refused, and the process exits 0`, async () => {
      const server = await cli();
      const { socket, finish } = await halfSentCreate(server.port, { name: 'Halfway', categoryId: 1, status: 'pending' });

      server.child.kill(signal);
      await stopping(server.output, signal);
      expect(['refused', 'no response']).toContain(await newConnection(server.port));

      const answered = readResponse(socket);
      finish();
      const response = await answered;
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ name: 'Halfway', categoryId: 1, status: 'pending', id: 21 });
      expect(response.headers.location).toBe('/pets/21');

      // The client is done and hangs up; nothing else holds the process.
      const answeredAt = Date.now();
      socket.end();
      const { code, at } = await server.exit;
      expect(code).toBe(0);
      expect(at - answeredAt).toBeLessThan(PROMPT_MS);
    });
  }

  it('an idle keep-alive connection does not keep the process alive after SIGTERM: it is closed and the process exits promptly', async () => {
    const server = await cli();
    const socket = await open(server.port);
    socket.on('error', () => undefined);
    const answered = readResponse(socket);
    socket.write(`GET /pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${AUTH_LINE}\r\n`);
    const response = await answered;
    expect(response.status).toBe(200);
    expect(response.headers.connection).toBe('keep-alive'); // the connection stays open, idle

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const closedAt = await closed(socket);
    const { code, at } = await server.exit;
    expect(code).toBe(0);
    expect(closedAt - signalledAt).toBeLessThan(PROMPT_MS);
    expect(at - signalledAt).toBeLessThan(PROMPT_MS);
  });

  it('after answering a request that was in flight at SIGTERM, the server closes that connection and the process exits promptly, without waiting for the grace period', async () => {
    const server = await cli();
    const { socket, finish } = await halfSentCreate(server.port, { name: 'Lingering', categoryId: 1 });
    const socketClosed = closed(socket);

    server.child.kill('SIGTERM');
    await stopping(server.output, 'SIGTERM');
    const answered = readResponse(socket);
    finish();
    const response = await answered;
    const answeredAt = Date.now();
    expect(response.status).toBe(201);

    // The client keeps its end open, as a keep-alive pool (fetch, browsers) does.
    const { code, at } = await server.exit;
    expect(code).toBe(0);
    expect({ connection: response.headers.connection, exitMs: at - answeredAt < PROMPT_MS ? 'prompt' : at - answeredAt }).toEqual({ connection: 'close', exitMs: 'prompt' });
    expect((await socketClosed) - answeredAt).toBeLessThan(PROMPT_MS);
  }, FALLBACK_MS + 10_000);

  it('with two pipelined requests, the first answered before SIGTERM and the second still receiving its body, the second is answered with `Connection: close`', async () => {
    const server = await cli();
    const first = `GET /pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${AUTH_LINE}\r\n`;
    const { socket, earlier, finish } = await halfSentCreate(server.port, { name: 'Second', categoryId: 1 }, first);
    expect({ status: earlier?.status, connection: earlier?.headers.connection }).toEqual({ status: 200, connection: 'keep-alive' });

    server.child.kill('SIGTERM');
    await stopping(server.output, 'SIGTERM');
    const answered = readResponse(socket);
    finish();
    const response = await answered;
    expect({ status: response.status, connection: response.headers.connection }).toEqual({ status: 201, connection: 'close' });
    expect((await server.exit).code).toBe(0);
  }, FALLBACK_MS + 10_000);

  it('when whatever read its output has gone away (as with `npm start | head`), the server keeps answering, and SIGTERM still exits 0', async () => {
    const server = await cli();
    server.child.stdout.destroy();
    server.child.stderr.destroy();
    await sleep(50);
    const response = await fetch(`${server.url}/pets/1`, { headers: { Authorization: 'Bearer petstore-demo-key' } });
    expect(response.status).toBe(200);

    server.child.kill('SIGTERM'); // its goodbye line now goes to a closed pipe (EPIPE)
    expect((await server.exit).code).toBe(0);
  });

  // Node counts a connection that has not sent a request yet as active (its headers timeout is
  // running), so closeIdleConnections() alone would leave it open until the grace period ends.
  // Browsers open such speculative connections.
  it('a connection that has not sent a request yet does not keep the process alive after SIGTERM', async () => {
    const server = await cli();
    const socket = await open(server.port);
    socket.on('error', () => undefined);
    await sleep(100); // the server has accepted it

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const { code, at } = await server.exit;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(PROMPT_MS);
    socket.destroy();
  }, FALLBACK_MS + 10_000);
});
