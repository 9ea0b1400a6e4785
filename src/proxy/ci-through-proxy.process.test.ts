/**
 * `npm run ci:through-proxy` (examples/ci-through-proxy.sh) writes its JUnit file where `JUNIT`
 * says, and without `JUNIT` leaves nothing in the checkout it runs in (npm runs it from there): a
 * run that passes leaves no file at all, and one that fails says where its report is, in a
 * temporary folder of its own.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { startServer, type RunningServer } from '../server/serve.js';
import { FAULTS } from '../test-support/contract-servers/faults.js';
import { FIXTURES, ROOT, petstoreDocument } from '../test-support/petstore.js';
import { freePort, track } from '../test-support/processes.js';

const scratch = mkdtempSync(join(tmpdir(), 'ci-through-proxy-'));
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(scratch, { recursive: true, force: true });
});

/** The Petstore mock in this process on a free port, or a fault server wrapping one. */
async function upstream(fault?: string): Promise<string> {
  const mock = buildMock(await petstoreDocument(), { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS });
  const handle = fault ? FAULTS.find((f) => f.name === fault)!.wrap(mock) : (request: Request) => mock.app.fetch(request);
  const running = await startServer({ fetch: handle }, { port: 0, host: '127.0.0.1' });
  servers.push(running);
  return running.url;
}

/** The recipe as documented (no JUNIT), its temporary files in a folder of the test's (TMPDIR). */
async function recipe(upstreamUrl: string, temp: string): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PROXY_PORT: String(await freePort()), TMPDIR: temp };
  delete env.JUNIT;
  const child = track(spawn('npm', ['run', 'ci:through-proxy', '--', upstreamUrl, 'node', 'examples/smoke.mjs'], { cwd: ROOT, env }));
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}

const left = () => readdirSync(ROOT).filter((name) => /violations.*\.xml$/.test(name));

describe('npm run ci:through-proxy without JUNIT', () => {
  it('passing, leaves no JUnit file in the checkout nor in the temporary folder', async () => {
    const before = left();
    const temp = mkdtempSync(join(scratch, 'pass-'));
    const run = await recipe(await upstream(), temp);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('smoke: 7 steps passed');
    expect(left()).toEqual(before);
    expect(readdirSync(temp)).toEqual([]);
  });

  it('failing, says where its JUnit report is, outside the checkout', async () => {
    const before = left();
    const temp = mkdtempSync(join(scratch, 'fail-'));
    const run = await recipe(await upstream('pet-without-name'), temp);
    expect(run.code, run.output).not.toBe(0);
    const report = /an answer broke the document; the violations: (\S+\.xml)/.exec(run.output)?.[1];
    expect(report, run.output).toBeDefined();
    expect(report!.startsWith(temp)).toBe(true);
    expect(readFileSync(report!, 'utf8')).toMatch(/<failure message="received /);
    expect(left()).toEqual(before);
    expect(existsSync(join(ROOT, 'proxy-violations.xml'))).toBe(false);
  });
});
