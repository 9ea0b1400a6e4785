/**
 * Issue 39, point 4: a run is known by its seed. The report carries it, and the same seed sends the
 * same cases in the same order (two fresh mocks, so the keys the server gives are the same too);
 * another seed differs somewhere. The run's marker (`contract-1a2b3c4d`) is the one part that differs
 * on purpose: it tells one run's records from another's, so it is written `MARKER` before comparing.
 * Exploration's lanes (turns.ts) put several requests on the wire at once and keep that order.
 */
import { describe, expect, it } from 'vitest';
import { petstoreContract } from '../plugins/petstore/contract.js';
import { petstore, petstoreDocument } from '../test-support/petstore.js';
import { runContract } from './run-contract.js';

const document = await petstoreDocument();

/** The requests of one run against a fresh mock, in order, as `METHOD /path?query body`. */
async function requestsOf(seed: number | undefined, exploreLanes?: number): Promise<{ requests: string[]; seed: number; maxInFlight: number }> {
  const mock = await petstore();
  const requests: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const report = await runContract({
    document,
    plugins: [{ name: 'petstore', part: petstoreContract }],
    baseUrl: 'http://server.test',
    token: 'petstore-demo-key',
    seed,
    exploreLanes,
    fetch: async (url, init) => {
      const request = new Request(url, init);
      const { pathname, search } = new URL(request.url);
      requests.push(`${request.method} ${pathname}${search} ${init?.body === undefined ? '' : await request.clone().text()}`);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        // An answer that takes a moment, as over a socket: the lanes' requests are on the wire together.
        await new Promise((r) => setImmediate(r));
        return await mock.app.fetch(request);
      } finally {
        inFlight--;
      }
    },
  });
  // The marker's id is also the tail of fresh values (`Dixie-1a2b3c4d1`): written `MARKER` wherever it is.
  const id = /contract-([0-9a-f]{8})/.exec(requests.join('\n'))?.[1];
  return { requests: id ? requests.map((r) => r.split(id).join('MARKER')) : requests, seed: report.seed, maxInFlight };
}

describe('the seed of a run', () => {
  it('is in the report: the one given, or 1 for the library when none is', async () => {
    expect((await requestsOf(42)).seed).toBe(42);
    expect((await requestsOf(undefined)).seed).toBe(1);
  });

  it('sends the same requests in the same order for the same seed, and others for another seed', async () => {
    const first = await requestsOf(7);
    const again = await requestsOf(7);
    const other = await requestsOf(8);
    expect(first.requests.length).toBeGreaterThan(100);
    expect(again.requests).toEqual(first.requests);
    expect(other.requests).not.toEqual(first.requests);
    // Exploration's lanes had their requests on the wire together, and still sent them in one order.
    expect(first.maxInFlight).toBeGreaterThan(1);
  });

  it('sends one request at a time with one lane (--explore-lanes 1), the same requests again for the same seed', async () => {
    const first = await requestsOf(7, 1);
    const again = await requestsOf(7, 1);
    expect(first.maxInFlight).toBe(1);
    expect(again.requests).toEqual(first.requests);
  });
});
