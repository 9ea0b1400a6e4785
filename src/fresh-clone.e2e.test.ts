/**
 * A newcomer's first minutes, from a fresh clone in a folder only its owner can enter (0700, under
 * another such folder): the README's two commands (`npm ci`, whose `prepare` bundles the sources
 * with rolldown and nothing more, then `npm start`), the first start measured and printed
 * (docs/getting-started.md quotes it), and again without the bundle (an install with
 * `--ignore-scripts`: `npm start` bundles first); then the CI recipe of docs/contract-suite.md
 * (`npm run contract` with a JUnit report, against a server of the job's own) from the same clone.
 * Then another project installs the clone as a git dependency (docs/library.md): npm builds it,
 * declaration files included. The installs need the npm registry.
 */
import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** `npm start -- --port 0` in the clone, resolved with its URL once the banner is out; `stop` ends npm and the server under it. */
function npmStart(): Promise<{ url: string; output: string; stop: () => Promise<void> }> {
  // Tracked: stopped with its process group (npm and the server under it) after the tests.
  const child = track(spawn(NPM, ['start', '--', '--port', '0'], { cwd: clone, detached: true, env: { ...process.env, PORT: '' } }), true);
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)[\s\S]*try /.exec(out)?.[1];
      const stopped = new Promise<void>((done) => child.once('exit', () => done()));
      const stop = () => (process.kill(-child.pid!, 'SIGTERM'), stopped);
      if (url) resolve({ url, output: out, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
  });
}

/** `npm start` until its first HTTP answer (a list of pets, with the demo key): the seconds it took and what it printed. */
async function firstStart(): Promise<{ seconds: number; output: string; stop: () => Promise<void> }> {
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
  it("runs the README's two commands (npm ci bundles, npm start serves; without the bundle, npm start bundles first, without tsc) and the documented CI recipe (npm run contract)", async () => {
    mkdirSync(inner);
    chmodSync(outer, 0o700);
    chmodSync(inner, 0o700);
    copyCheckout(clone);
    expect(existsSync(join(clone, 'dist'))).toBe(false);
    await run(NPM, ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: clone, maxBuffer: 64 * 1024 * 1024 });
    // prepare: the bundle, from the TypeScript sources. Not tsc (it would write dist/src), not the declarations (npm pack writes them).
    expect(existsSync(join(clone, 'dist/cli.js')), 'npm ci bundles').toBe(true);
    expect(existsSync(join(clone, 'dist/meta-validators/openapi-3.1.cjs'))).toBe(true);
    expect(existsSync(join(clone, 'dist/src'))).toBe(false);
    expect(existsSync(join(clone, 'dist/index.d.ts'))).toBe(false);

    // Printed, not asserted: the times depend on the machine and on what else runs on it.
    const first = await firstStart();
    console.log(`fresh clone: after npm ci, the first npm start answered after ${first.seconds.toFixed(1)} s`);
    expect(first.output).not.toMatch(/Building first/);
    await first.stop();

    // As after `npm ci --ignore-scripts`: nothing built, so npm start bundles first.
    rmSync(join(clone, 'dist'), { recursive: true });
    const unbuilt = await firstStart();
    console.log(`fresh clone: with nothing built, the first npm start answered after ${unbuilt.seconds.toFixed(1)} s (bundling included)`);
    expect(unbuilt.output).toMatch(/Building first: dist\/cli\.js does not exist/);
    expect(existsSync(join(clone, 'dist/meta-validators/openapi-3.1.cjs'))).toBe(true);
    expect(existsSync(join(clone, 'dist/src'))).toBe(false);
    await unbuilt.stop();

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

  it('installs as a git dependency of another project: npm runs prepare in its clone, and the package it packs runs and has its types', async () => {
    // The clone as a repository of its own (what .gitignore leaves out, node_modules and dist, is not committed).
    const git = (...args: string[]) => run('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd: clone });
    await git('init', '-q');
    await git('add', '-A');
    await git('commit', '-q', '-m', 'clone');
    const project = join(inner, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', `git+file://${clone}`], { cwd: project, maxBuffer: 64 * 1024 * 1024 });

    const installed = join(project, 'node_modules/petstore-mock-kit');
    for (const file of ['dist/cli.js', 'dist/index.js', 'dist/index.d.ts', 'dist/msw.js', 'dist/msw.d.ts', 'dist/meta-validators/openapi-3.0.cjs']) expect(existsSync(join(installed, file)), file).toBe(true);
    const help = await run(NPM, ['exec', '--', 'petstore-mock-kit', '--help'], { cwd: project });
    expect(help.stdout).toMatch(/^Usage: petstore-mock-kit serve/);
    const script = `
      import { createMock, DEMO_API_KEY } from 'petstore-mock-kit';
      const mock = await createMock();
      const res = await mock.fetch('/pets?limit=2', { headers: { Authorization: 'Bearer ' + DEMO_API_KEY } });
      console.log(res.status, (await res.json()).length);`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    expect(stdout.trim()).toBe('200 2');
  });
});
