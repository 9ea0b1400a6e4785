import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Every temporary file of the run in one folder of its own, removed at the end (see the file).
    globalSetup: ['src/test-support/global-setup.ts'],
    // Every child process a test file started is stopped after it, whatever failed (see the file).
    setupFiles: ['src/test-support/after-each-file.ts'],
    // A limit far above any test's time, even on a loaded 2-core machine: tests decide on behaviour,
    // never on time (a test that needs more than its share of the machine is not a failure); the
    // limit only ends a test that hangs.
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
