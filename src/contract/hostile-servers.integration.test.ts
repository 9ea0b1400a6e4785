/**
 * Servers that misbehave below the level of the document: the suite reports each as a failure of
 * the operation and finishes, within its time limits and its memory, never crashing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { ROOT } from '../test-support/petstore.js';
import { describeFinding } from './case.js';
import { runContract } from './run-contract.js';

const document = await loadDocument(`${ROOT}test/documents/things-api.yaml`);
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.closeAllConnections?.() ?? s.close()));

/** A real server on loopback whose every answer is `answer`. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(answer);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const run = (baseUrl: string, extra = {}) => runContract({ document, baseUrl, requestTimeoutMs: 300, ...extra });

describe('servers that misbehave below the document', () => {
  it('one that never answers: each request is a response_received failure after the request timeout', async () => {
    const url = await serve(() => undefined);
    const started = Date.now();
    const report = await run(url);
    expect(new Set(report.failures.map((f) => `${f.check}: ${f.received}`))).toEqual(new Set(['response_received: no answer within 300 ms']));
    expect(report.requests).toBeLessThan(20);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('one that streams forever: cut at the size cap, a failure, the run goes on', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[');
      const more = () => res.write('{"id":1},'.repeat(1000), () => setImmediate(more));
      more();
    });
    const report = await run(url, { maxResponseBytes: 100_000, requestTimeoutMs: 5_000 });
    expect(report.failures.length).toBeGreaterThan(0);
    expect(new Set(report.failures.map((f) => f.received))).toEqual(new Set(['an answer larger than 100000 bytes (--max-response-bytes)']));
  });

  it('one that sends 23 MB of JSON: refused at the default cap of 10 MB, without holding it', async () => {
    const big = Buffer.from(JSON.stringify(Array.from({ length: 1_200_000 }, (_, id) => ({ id: id + 1, pad: 'xxxxxx' }))));
    expect(big.length).toBeGreaterThan(23_000_000);
    const url = await serve((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': big.length }).end(big));
    const report = await run(url, { requestTimeoutMs: 10_000 });
    expect(report.failures.map((f) => f.received)).toContain('an answer larger than 10485760 bytes (--max-response-bytes)');
  });

  it('one that sends malformed JSON: a schema failure of that operation, not a crash', async () => {
    const url = await serve((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id": 1,, ]'));
    const report = await run(url);
    expect(report.failures.map(describeFinding)).toContain('GET /things: received 200 with a body that is not valid JSON, documented 200 has a JSON body');
  });

  it('one that redirects: the redirect is reported (an undeclared 302), not followed', async () => {
    let followed = 0;
    const url = await serve((req, res) => {
      if (req.url?.startsWith('/elsewhere')) followed++;
      res.writeHead(302, { Location: '/elsewhere' }).end();
    });
    const report = await run(url);
    expect(followed).toBe(0);
    expect(report.failures.some((f) => f.check === 'status_code_conformance' && f.received === '302')).toBe(true);
  });

  it('a run longer than --timeout stops sending, says so, and counts the rest as skipped', async () => {
    const url = await serve((_req, res) => setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]'), 150));
    const report = await run(url, { timeoutMs: 400, requestTimeoutMs: 5_000 });
    expect(report.incomplete).toBe('not reached: the run stopped at its --timeout of 0.4 s');
    expect(report.outcomes.some((o) => o.skipped.some((reason) => reason.startsWith('not reached')))).toBe(true);
  });
});
