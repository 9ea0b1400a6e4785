/**
 * The x-codeSamples of the document work against the mock: each cURL, JavaScript and Python
 * sample runs as written (only the base URL is swapped for a test server's) against a freshly
 * seeded mock, exits 0, and gets a documented success status.
 */
import { describe, expect, it } from 'vitest';
import { startServer } from './server/serve.js';
import { runSample, SAMPLE_PRECONDITIONS } from './test-support/code-samples.js';
import { petstore } from './test-support/petstore.js';

const mock = await petstore();

describe('x-codeSamples', () => {
  for (const op of mock.operations) {
    for (const sample of op.source['x-codeSamples'] as Array<{ lang: string; source: string }>) {
      it(`${op.id}: the ${sample.lang} sample works`, async () => {
        const fresh = await petstore();
        await SAMPLE_PRECONDITIONS[op.id]?.(fresh.call);
        const statuses: number[] = [];
        const server = await startServer(
          { fetch: async (request) => { const response = await fresh.app.fetch(request); statuses.push(response.status); return response; } },
          { port: 0, host: '127.0.0.1' },
        );
        try {
          const stdout = await runSample(sample.lang, sample.source.replaceAll('http://localhost:4010', server.url));
          const success = op.responses.map((r) => r.status).filter((s) => s.startsWith('2')).map(Number);
          expect(statuses).toHaveLength(1);
          expect(success, stdout).toContain(statuses[0]);
        } finally {
          await server.close();
        }
      });
    }
  }
});
