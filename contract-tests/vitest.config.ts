/**
 * The contract suite as a vitest suite (`npm run contract:vitest`): the Petstore's document, or
 * CONTRACT_SPEC's, checked against the implementation at CONTRACT_BASE_URL, one test per operation
 * and check (docs/contract-suite.md). Like the CLI, this file and suite-options.ts are entries:
 * the only ones here that read the environment.
 *
 * The suite is split over SLICES files (slice-1.test.ts ...), each running its own slice of the
 * operations, so that `--shard i/n`, which splits files, splits the suite. The files run one after
 * another: each compares the lists of the server before and after its run, which another file
 * writing at the same time would disturb.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

if (!process.env.CONTRACT_BASE_URL) {
  process.stderr.write('contract-tests: set CONTRACT_BASE_URL to where the implementation answers (and CONTRACT_TOKEN, CONTRACT_SPEC, CONTRACT_SEED as needed; see docs/contract-suite.md).\n');
  process.exit(2);
}

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['slice-*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 30 * 60_000,
  },
});
