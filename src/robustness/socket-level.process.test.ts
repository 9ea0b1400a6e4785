/**
 * A body far over the limit, sent to the real CLI (dist/cli.js: `npm run build` first) over a
 * socket: its 413 every time, never a reset. The other hostile requests, in-process:
 * socket-level.test.ts.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../test-support/processes.js';

describe('a body far over the limit, sent to the CLI over a socket', () => {
  let cli: Awaited<ReturnType<typeof startCli>>;
  beforeAll(async () => {
    cli = await startCli([]);
  });
  afterAll(() => void cli.child.kill());

  it('an 8 MB body gets its 413 Error every time: the client reads it instead of a reset (EPIPE, ECONNRESET)', async () => {
    const body = Buffer.alloc(8 * 1024 * 1024, 'x');
    const headers = { Authorization: 'Bearer petstore-demo-key', 'Content-Type': 'application/json' };
    const viaHttp = (chunked: boolean) =>
      new Promise<string>((resolve) => {
        const req = request(`${cli.url}/pets`, { method: 'POST', headers: chunked ? headers : { ...headers, 'Content-Length': body.length } }, (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve(`${res.statusCode} ${JSON.parse(text).code}`));
        });
        req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        if (chunked) for (let i = 0; i < 8; i++) req.write(body.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024));
        req.end(chunked ? undefined : body);
      });
    const viaFetch = () =>
      fetch(`${cli.url}/pets`, { method: 'POST', headers, body }).then(
        async (r) => `${r.status} ${((await r.json()) as { code: string }).code}`,
        (error) => String(error.cause?.code ?? error.message),
      );
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) outcomes.push(await viaHttp(false), await viaHttp(true), await viaFetch());
    expect(outcomes).toEqual(Array(30).fill('413 PAYLOAD_TOO_LARGE'));
  });
});
