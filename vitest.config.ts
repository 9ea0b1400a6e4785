import { defineConfig } from 'vitest/config';

/**
 * What every tier shares. A setup file of every test file: every child process a test file
 * started is stopped after it, whatever failed (see the file). A limit far above any test's time,
 * even on a loaded 2-core machine: tests decide on behaviour, never on time (a test that needs
 * more than its share of the machine is not a failure); the limit only ends a test that hangs.
 */
const shared = {
  setupFiles: ['src/test-support/after-each-file.ts'],
  testTimeout: 600_000,
  hookTimeout: 600_000,
};

/**
 * The tiers, by the name of the file:
 * - `unit`: every other `*.test.ts`. TypeScript sources only: no build (never dist/), no child
 *   process, no browser, no package, and small: `npm run test:unit`, in seconds, while editing.
 *   Its files share their workers' module cache (`isolate: false`): no file may leave global
 *   state behind (the after-each-file setup stops what they start).
 * - `integration`: `*.integration.test.ts`, in-process too, but whole runs: the contract suite over
 *   the Petstore and the 21 corpus documents, properties with fast-check, large documents, real
 *   sockets on loopback. No build.
 * - `process`: `*.process.test.ts`, tests that start child processes: the built CLI (dist/cli.js),
 *   other servers (Prism, json-server), the README's commands, the code samples (curl, python3),
 *   Spectral; and `*.dist.test.ts`, in-process but reading what the build writes in dist/.
 * - `browser`: `*.browser.test.ts`, Chromium (Debian's, driven by playwright-core).
 * - `e2e`: `*.e2e.test.ts`, the package as users get it: a fresh clone, `npm pack` and install,
 *   other Node.js versions (these need the npm registry).
 * `npm test` builds, then runs every tier in one run (`vitest run`), the browser's last.
 */
const NOT_UNIT = ['src/**/*.integration.test.ts', 'src/**/*.process.test.ts', 'src/**/*.dist.test.ts', 'src/**/*.browser.test.ts', 'src/**/*.e2e.test.ts'];

export default defineConfig({
  test: {
    // Every temporary file of the run in one folder of its own, removed at the end (see the file).
    // Here only: the root's global setup runs once for the whole run, whichever tiers it runs.
    globalSetup: ['src/test-support/global-setup.ts'],
    projects: [
      // Two files at a time in every tier but the browser's (vitest's default on 2 cores is one worker: a worker per
      // core but one), all in one group: the unit and integration files compute while the process and e2e files wait
      // on their children, npm and the registry, so the two overlap. Each file works in temporary folders and on free
      // ports of its own.
      { test: { ...shared, name: 'unit', include: ['src/**/*.test.ts'], exclude: NOT_UNIT, isolate: false, maxWorkers: 2 } },
      { test: { ...shared, name: 'integration', include: ['src/**/*.integration.test.ts'], maxWorkers: 2 } },
      { test: { ...shared, name: 'process', include: ['src/**/*.process.test.ts', 'src/**/*.dist.test.ts'], maxWorkers: 2 } },
      { test: { ...shared, name: 'e2e', include: ['src/**/*.e2e.test.ts'], maxWorkers: 2 } },
      // After the others (a group of its own): concurrent tests of a file (describe.concurrent) two at a time, one
      // Chromium page each, on 2 cores.
      { test: { ...shared, name: 'browser', include: ['src/**/*.browser.test.ts'], maxConcurrency: 2, sequence: { groupOrder: 1 } } },
    ],
  },
});
