/**
 * Issue 39's proof, through the built CLI (dist/cli.js: `npm run build` first) as the README's CI
 * command runs it, over real sockets: six faults that show only for some valid inputs or after
 * some sequence, each put in front of a correct Petstore (the mock), are each caught with a
 * shrunk, confirmed repro and written to a cassette, which `--replay` sends again: still failing
 * there, fixed against the unbroken mock; the same seed gives the same report twice.
 * In-process and faster: inputs.test.ts and stateful.test.ts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/serve.js';
import { INPUT_FAULTS } from '../../test-support/contract-servers/input-faults.js';
import { STATE_FAULTS } from '../../test-support/contract-servers/state-faults.js';
import { petstore } from '../../test-support/petstore.js';
import { runCli } from '../../test-support/processes.js';
import type { Cassette } from './sequence.js';

const TOKEN = 'petstore-demo-key';
const stop: Array<() => unknown> = [];
afterAll(async () => {
  for (const s of stop.reverse()) await s();
});

const contract = async (args: string[]) => {
  const { code, stdout: out, stderr: err } = await runCli(['contract', ...args], { cwd: mkdtempSync(join(tmpdir(), 'faults-')) });
  return { code, out, err };
};

/** A fault in front of a fresh mock, served on loopback; the run of the default CI command against it, seed 7, with a cassette. */
async function runAgainst(wrap: (typeof INPUT_FAULTS)[number]['wrap']) {
  const server = await startServer({ fetch: wrap(await petstore()) }, { port: 0, host: '127.0.0.1' });
  stop.push(() => server.close());
  const file = join(mkdtempSync(join(tmpdir(), 'cassette-')), 'found.json');
  const result = await contract(['--base-url', server.url, '--token', TOKEN, '--seed', '7', '--cassette', file]);
  return { ...result, url: server.url, file, cassette: JSON.parse(readFileSync(file, 'utf8')) as Cassette };
}

/** Each fault's run, made once: the fault's own test and the same-seed test below both read it. */
const runs = new Map<(typeof INPUT_FAULTS)[number]['wrap'], ReturnType<typeof runAgainst>>();
function runOnce(wrap: (typeof INPUT_FAULTS)[number]['wrap']): ReturnType<typeof runAgainst> {
  if (!runs.has(wrap)) runs.set(wrap, runAgainst(wrap));
  return runs.get(wrap)!;
}

/** `--replay` of the run's cassette: still failing against the faulty server (exit 1), and against a fresh unbroken mock, fixed (exit 0). */
async function replays(run: Awaited<ReturnType<typeof runAgainst>>) {
  const again = await contract(['--base-url', run.url, '--token', TOKEN, '--replay', run.file]);
  expect(again.code, again.out + again.err).toBe(1);
  expect(again.out).toMatch(/^FAIL: [1-9]\d* still failing, 0 fixed, 0 not judged/m);
  const mock = await startServer({ fetch: (await petstore()).app.fetch }, { port: 0, host: '127.0.0.1' });
  stop.push(() => mock.close());
  const fixed = await contract(['--base-url', mock.url, '--token', TOKEN, '--replay', run.file]);
  expect(fixed.code, fixed.out + fixed.err).toBe(0);
  expect(fixed.out).toMatch(/^FIXED: 0 still failing, [1-9]\d* fixed, 0 not judged/m);
}

/** The report with what differs between two runs on purpose written the same: the run's marker, timings, the port, the cassette's path. */
const comparable = (out: string, url: string) =>
  out
    .split(url)
    .join('URL')
    .replace(/contract-[0-9a-f]{8}/g, 'contract-MARKER')
    .replace(/[0-9a-f]{8}(\d+)\b/g, 'MARKER$1')
    .replace(/\d+(\.\d+)? s\b/g, 'T s')
    .replace(/\d+ ms\b/g, 'T ms')
    .replace(/--replay \S+/g, '--replay FILE');

describe('the default CI command against faults that show only for some inputs or after some sequence', () => {
  for (const fault of INPUT_FAULTS) {
    it(`catches ${fault.name}: ${fault.breaks}, shrunk to ${fault.shrunkTo}`, async () => {
      const run = await runAgainst(fault.wrap);
      expect(run.code, run.out + run.err).toBe(1);
      const found = run.cassette.failures.filter((f) => f.check === fault.caughtBy && (!fault.operationId || f.operationId === fault.operationId));
      expect(found.length).toBeGreaterThan(0);
      for (const failure of found) expect(failure.repro.at(-1)).toMatch(fault.shrunkTo);
      expect(run.out).toContain('Found by exploration:');
      expect(run.out).toContain(`replay: --seed 7, or --replay `);
      await replays(run);
    });
  }

  for (const fault of STATE_FAULTS) {
    it(`catches ${fault.name}: ${fault.breaks}, shrunk to ${fault.shortest} steps`, async () => {
      const run = await runOnce(fault.wrap);
      expect(run.code, run.out + run.err).toBe(1);
      const found = run.cassette.failures.filter((f) => f.check === fault.caughtBy);
      expect(found.map((f) => f.steps.length)).toEqual([fault.shortest]);
      // The steps as curl lines, in order, in the report.
      expect(run.out).toMatch(new RegExp(`${fault.shortest} step\\(s\\), found after \\d+ tried, \\d+ shrink\\(s\\):\\n {6}1\\. curl `));
      await replays(run);
    });
  }

  it('gives the same report twice for the same seed, but for the run marker, timings, the address and the cassette path', async () => {
    // One fault is enough here: seeded-runs.test.ts compares every request of two runs in-process.
    const fault = STATE_FAULTS[0];
    // The first is that fault's own run above (made here if that test did not run), the other a new one.
    const [first, again] = [await runOnce(fault.wrap), await runAgainst(fault.wrap)];
    expect(comparable(again.out, again.url)).toBe(comparable(first.out, first.url));
  });
});
