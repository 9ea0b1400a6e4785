/**
 * A run that cannot check anything says so in one sentence a CI user can act on: a refused
 * credential names the scheme, what was sent and what to try; no token given says so; a base URL
 * where every path answers 404, or the same page, is a wrong address, not 225 failures.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { SHELF, SHELF_TOKEN, shelfServer, type ShelfOptions } from '../test-support/contract-servers/shelf-server.js';
import { ContractSetupError, runContract } from './run-contract.js';

const document = await loadDocument(SHELF);
const inProcess = (handler: (request: Request) => Promise<Response>) => (url: string, init: RequestInit) => handler(new Request(url, init));

async function setupError(options: ShelfOptions, run: { token?: string; headers?: Record<string, string> }): Promise<{ message: string; calls: string[] }> {
  const server = shelfServer(options);
  const error = await runContract({ document, baseUrl: 'http://shelf.test', fetch: inProcess(server.fetch), ...run }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ContractSetupError);
  return { message: (error as Error).message, calls: server.calls };
}

describe('a refused credential', () => {
  it('names the scheme, what was sent, and for an apiKey named Authorization suggests a bearer header; nothing else is sent', async () => {
    const { message, calls } = await setupError({ auth: 'bearer' }, { token: SHELF_TOKEN });
    expect(message).toBe(
      "The server refused the credentials: GET /books answered 401 to the token (--token) sent as the document's scheme `key` says, as it stands in the header Authorization; if the server wants a bearer token there, try -H 'Authorization: Bearer ...' in place of --token. Nothing was checked.",
    );
    expect(message).not.toContain(SHELF_TOKEN);
    expect(calls).toEqual(['GET /books']);
  });

  it('passes with that header, the token given through -H', async () => {
    const server = shelfServer({ auth: 'bearer' });
    const report = await runContract({ document, baseUrl: 'http://shelf.test', fetch: inProcess(server.fetch), headers: { Authorization: `Bearer ${SHELF_TOKEN}` } });
    expect(report.failures).toEqual([]);
    expect(report.outcomes.some((o) => o.operationId === 'getBook' && o.check === 'create_read_back' && o.passed > 0)).toBe(true);
  });

  it('says what -H header was sent when the credentials came that way', async () => {
    const { message } = await setupError({ auth: 'raw' }, { headers: { Authorization: 'Bearer wrong-1234' } });
    expect(message).toBe('The server refused the credentials: GET /books answered 401 to the header Authorization given with -H, where the document\'s scheme `key` asks for an API key in the header Authorization. Nothing was checked.');
  });

  it('with no token at all, says that no token was given and how to give one', async () => {
    const { message } = await setupError({}, {});
    expect(message).toBe('No token was given (--token or CONTRACT_TOKEN), and GET /books, secured by the scheme `key` (an API key in the header Authorization), answered 401. Nothing was checked.');
  });
});

describe('a wrong base URL', () => {
  it('where every path answers 404 stops in one sentence, having sent a handful of requests', async () => {
    const { message, calls } = await setupError({ everything: 'not-found' }, { token: SHELF_TOKEN });
    expect(message).toBe('Every path of the document the suite tried at http://shelf.test answered 404 (GET /books): is the base URL right (--base-url, with any base path)? Nothing was checked.');
    expect(calls.length).toBeLessThanOrEqual(3);
  });

  it('where every path answers the same page stops in one sentence', async () => {
    const { message } = await setupError({ everything: 'page' }, { token: SHELF_TOKEN });
    expect(message).toBe('Every path of the document the suite tried at http://shelf.test answered the same 200 text/html page as a path the document does not have (GET /books): is the base URL right (--base-url, with any base path)? Nothing was checked.');
  });

  it('is not what a right base URL looks like: the run goes on', async () => {
    const server = shelfServer({});
    const report = await runContract({ document, baseUrl: 'http://shelf.test', fetch: inProcess(server.fetch), token: SHELF_TOKEN });
    expect(report.failures).toEqual([]);
    expect(report.requests).toBeGreaterThan(10);
  });
});
