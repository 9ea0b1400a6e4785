/**
 * A newcomer's first minutes, from a fresh clone in a folder only its owner can enter (0700, under
 * another such folder): the README's two commands (`npm ci`, then `npm start`, whose first start
 * is measured and printed: docs/getting-started.md quotes it), then the CI recipe of
 * docs/contract-suite.md (`npm run contract` with a JUnit report, against a server of the job's
 * own) from the same clone.
 * Nothing is built by the install (there is no `prepare`): the first `npm start` bundles the
 * sources with rolldown, without tsc. The install needs the npm registry.
 */
import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { copyCheckout } from './test-support/checkout-copy.js';
import { startCli, track } from './test-support/processes.js';
import { until } from './test-support/until.js';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const outer = mkdtempSync(join(tmpdir(), 'fresh-clone-'));
const inner = join(outer, 'private');
const clone = join(inner, 'petstore-mock-kit');
afterAll(() => rmSync(outer, { recursive: true, force: true }));

/** `npm start -- --port 0` in the clone, resolved with its URL once the banner is out. */
function npmStart(): Promise<{ url: string; output: string; stop: () => void }> {
  // Tracked: stopped with its process group (npm and the server under it) after the tests.
  const child = track(spawn(NPM, ['start', '--', '--port', '0'], { cwd: clone, detached: true, env: { ...process.env, PORT: '' } }), true);
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)[\s\S]*try /.exec(out)?.[1];
      if (url) resolve({ url, output: out, stop: () => process.kill(-child.pid!, 'SIGTERM') });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
  });
}

/** `npm start` until its first HTTP answer (a list of pets, with the demo key): the seconds it took and what it printed. */
async function firstStart(): Promise<{ seconds: number; output: string; stop: () => void }> {
  const began = performance.now();
  const started = await npmStart();
  let pets: Response | undefined;
  await until(async () => {
    pets = await fetch(`${started.url}/pets`, { headers: { Authorization: 'Bearer petstore-demo-key' } }).catch(() => undefined);
    return pets !== undefined;
  }, 'the first answer of npm start');
  const seconds = (performance.now() - began) / 1000;
  expect(pets!.status).toBe(200);
  expect(((await pets!.json()) as unknown[]).length).toBe(20);
  return { seconds, output: started.output, stop: started.stop };
}

describe('a fresh clone in a folder only its owner can enter', () => {
  it("runs the README's two commands (npm ci, then npm start, which bundles without tsc and serves) and the documented CI recipe (npm run contract)", async () => {
    mkdirSync(inner);
    chmodSync(outer, 0o700);
    chmodSync(inner, 0o700);
    copyCheckout(clone);
    expect(existsSync(join(clone, 'dist'))).toBe(false);
    await run(NPM, ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: clone, maxBuffer: 64 * 1024 * 1024 });
    expect(existsSync(join(clone, 'dist')), 'npm ci builds nothing').toBe(false);

    const first = await firstStart();
    // Printed, not asserted: the time depends on the machine and on what else runs on it.
    console.log(`fresh clone: first npm start answered after ${first.seconds.toFixed(1)} s (bundling included)`);
    expect(first.output).toMatch(/Building first: dist\/cli\.js does not exist/);
    // Bundled from the TypeScript sources: tsc compiled nothing (it would have written dist/src).
    expect(existsSync(join(clone, 'dist/cli.js'))).toBe(true);
    expect(existsSync(join(clone, 'dist/meta-validators/openapi-3.1.cjs'))).toBe(true);
    expect(existsSync(join(clone, 'dist/src'))).toBe(false);
    first.stop();

    // The CI recipe, against a server of the job's own (here the checkout's CLI).
    const server = await startCli([]);
    const junit = join(inner, 'contract.xml');
    const contract = await run(NPM, ['run', 'contract', '--', '--base-url', server.url, '--token', 'petstore-demo-key', '--junit', junit], { cwd: clone, maxBuffer: 64 * 1024 * 1024 });
    expect(contract.stderr).not.toMatch(/Building first/);
    expect(contract.stdout).toMatch(/PASS: the implementation conforms \(\d+ requests; 21 checks: 21 passed; seed \d+; [\d.]+ s\)/);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuites name="contract" tests="\d+" failures="0"/);
    // Only what was asked for is written: no coverage file in the clone.
    expect(existsSync(join(clone, 'contract-coverage.json'))).toBe(false);
  });
});
