/**
 * The x-codeSamples of the document work against the mock: each cURL, JavaScript and Python
 * sample runs as written (only the base URL is swapped for a test server's) against a freshly
 * seeded mock, exits 0, and gets a documented success status.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startServer } from './server.js';
import { petstore, type Call } from './test-support/petstore.js';

const run = promisify(execFile);
const mock = await petstore();

/** Samples are written against the default seed; the one that needs a state the seed lacks gets it here. */
const preconditions: Record<string, (call: Call) => Promise<unknown>> = {
  // Category 6 holds generated pets by default: move them so it can be deleted.
  deleteCategory: async (call) => {
    const pets = (await call('GET', '/pets?categoryId=6&limit=100')).body as Array<{ id: number }>;
    for (const pet of pets) await call('PATCH', `/pets/${pet.id}`, { categoryId: 1 });
  },
};

const commands: Record<string, (source: string) => [string, string[]]> = {
  cURL: (source) => ['bash', ['-c', source]],
  JavaScript: (source) => [process.execPath, ['--input-type=module', '-e', source]],
  Python: (source) => ['python3', ['-c', source]],
};

describe('x-codeSamples', () => {
  for (const op of mock.operations) {
    for (const sample of op.source['x-codeSamples'] as Array<{ lang: string; source: string }>) {
      it(`${op.id}: the ${sample.lang} sample works`, async () => {
        const fresh = await petstore();
        await preconditions[op.id]?.(fresh.call);
        const statuses: number[] = [];
        const server = await startServer(
          { fetch: async (request) => { const response = await fresh.app.fetch(request); statuses.push(response.status); return response; } },
          { port: 0, host: '127.0.0.1' },
        );
        try {
          const [command, args] = commands[sample.lang](sample.source.replaceAll('http://localhost:4010', server.url));
          const { stdout } = await run(command, args, { timeout: 15_000 });
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
