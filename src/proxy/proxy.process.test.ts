/**
 * The proxy as users run it (dist/cli.js: `npm run build` first): the CI recipe of the README and
 * docs/proxy.md, which passes with the mock as the upstream and fails with a fault server in its
 * place; a session through `petstore-mock-kit proxy` recorded, stopped, and played back by the mock.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { startServer, type RunningServer } from '../server/serve.js';
import { FAULTS } from '../test-support/contract-servers/faults.js';
import { AUTH, FIXTURES, ROOT, petstoreDocument } from '../test-support/petstore.js';
import { CLI, freePort, runCli, startCli, startProcess, track } from '../test-support/processes.js';

const dirs: string[] = [];
const servers: RunningServer[] = [];
const forwards: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const forward of forwards) forward.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-cli-'));
  dirs.push(dir);
  return dir;
};

/** The Petstore mock in this process on a free port, or a fault server wrapping one. */
async function upstream(fault?: string): Promise<string> {
  const mock = buildMock(await petstoreDocument(), { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS });
  const handle = fault ? FAULTS.find((f) => f.name === fault)!.wrap(mock) : (request: Request) => mock.app.fetch(request);
  const running = await startServer({ fetch: handle }, { port: 0, host: '127.0.0.1' });
  servers.push(running);
  return running.url;
}

/** The recipe, as the README writes it, against `upstreamUrl`: its exit code, its output and the JUnit file. */
async function recipe(upstreamUrl: string): Promise<{ code: number | null; output: string; junit: string }> {
  const junit = join(tempDir(), 'proxy-violations.xml');
  const child = track(spawn('npm', ['run', 'ci:through-proxy', '--', upstreamUrl, 'node', 'examples/smoke.mjs'], { cwd: ROOT, env: { ...process.env, PROXY_PORT: String(await freePort()), JUNIT: junit } }));
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output, junit: existsSync(junit) ? readFileSync(junit, 'utf8') : '' };
}

describe('petstore-mock-kit proxy', () => {
  it('the documented CI recipe passes with the mock as the upstream, the same tests passing', async () => {
    const conforming = await recipe(await upstream());
    expect(conforming.code, conforming.output).toBe(0);
    expect(conforming.output).toContain('smoke: 7 steps passed');
    expect(conforming.junit).toMatch(/<testsuites name="proxy" tests="\d+" failures="0"/);
  });

  it.each(['pet-without-name', 'error-shape-broken', 'wrong-content-type'])('the documented CI recipe fails with a fault server in the mock\'s place (%s), though its own tests pass', async (fault) => {
    const broken = await recipe(await upstream(fault));
    expect(broken.output).toContain('smoke: 7 steps passed');
    expect(broken.code, broken.output).not.toBe(0);
    expect(broken.junit).toMatch(/<failure message="received /);
  });

  it('records a session, and the mock serving the recording answers it the same', async () => {
    const upstreamUrl = await upstream();
    const record = tempDir();
    const junit = join(tempDir(), 'junit.xml');
    const proxy = await startProcess(process.execPath, [CLI, 'proxy', '--upstream', upstreamUrl, '--port', '0', '--record', record, '--junit', junit], /Proxy of \d+ operations listening on http:\/\/\S+[\s\S]*admin /, { PORT: '' });
    const url = /listening on (http:\/\/\S+)/.exec(proxy.output())![1];
    const reads = ['/pets/1', '/pets/2', '/categories'];
    const through: string[] = [];
    for (const path of reads) through.push(await (await fetch(`${url}${path}`, { headers: AUTH })).text());
    expect(proxy.output()).toMatch(/GET \/pets\/1 200 [\d.]+ms upstream/);
    const exited = new Promise<number | null>((resolve) => proxy.child.on('exit', resolve));
    proxy.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(proxy.output()).toContain('3 exchanges checked: no violation.');
    expect(proxy.output()).toMatch(/Recorded 8 records in 2 fixture files under /);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testcase classname="response_schema_conformance" name="GET \/pets\/\{petId\} \(getPet\)"\/>/);

    const playback = await startCli(['--fixtures', record, '--count', '0']);
    for (const [i, path] of reads.entries()) expect(await (await fetch(`${playback.url}${path}`, { headers: AUTH })).text(), path).toBe(through[i]);
    playback.child.kill('SIGTERM');
  });

  it('says in one line what is missing or wrong on its command line', async () => {
    expect(await runCli(['proxy'])).toMatchObject({ code: 2, stderr: 'proxy needs --upstream URL (or MOCK_UPSTREAM): the real server to forward to. (see petstore-mock-kit proxy --help)\n' });
    expect((await runCli(['proxy', '--upstream', 'ftp://x'])).stderr).toBe('--upstream must be the real server\'s http(s) base URL, such as http://127.0.0.1:3000, not "ftp://x".\n');
    expect((await runCli(['proxy', '--upstream', 'http://127.0.0.1:1', '--state-file', 'x'])).stderr).toMatch(/^Unknown flag --state-file/);
    const unknown = await runCli(['proxy', '--upstream', 'http://127.0.0.1:1', '--mock', 'noSuchOperation', '--port', '0']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^--mock noSuchOperation: the document has no such operation/);
    expect((await runCli(['help', 'proxy'])).stdout).toMatch(/^Usage: petstore-mock-kit proxy --upstream URL \[options\]/);
  });

  it('refuses to start with an upstream that is its own listening address, in one sentence', async () => {
    const port = await freePort();
    expect(await runCli(['proxy', '--upstream', `http://127.0.0.1:${port}`, '--port', String(port)])).toEqual({
      code: 2,
      stdout: '',
      stderr: `--upstream http://127.0.0.1:${port} is this proxy's own address (it listens on 127.0.0.1:${port}), so it would forward every request to itself; give the real server's URL, or another --port.\n`,
    });
  });

  it('answers 508 Loop Detected to a request that comes back to it some other way (a port forward to itself)', async () => {
    const port = await freePort();
    // A TCP forward from another port to the proxy's: an upstream address that is the proxy in disguise.
    const forward = createServer((socket) => {
      const back = connect(port, '127.0.0.1');
      socket.pipe(back).pipe(socket);
      back.on('error', () => socket.destroy());
      socket.on('error', () => back.destroy());
    });
    forwards.push(forward);
    await new Promise<void>((resolve) => forward.listen(0, '127.0.0.1', resolve));
    const disguised = `http://127.0.0.1:${(forward.address() as { port: number }).port}`;
    const proxy = await startProcess(process.execPath, [CLI, 'proxy', '--upstream', disguised, '--port', String(port)], /Proxy of \d+ operations listening on http:\/\/\S+[\s\S]*admin /, { PORT: '' });
    const response = await fetch(`http://127.0.0.1:${port}/pets/1`, { headers: AUTH });
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 508, body: { code: 'LOOP_DETECTED', message: `The request came back through this proxy: its upstream, ${disguised}, leads back to it. Give the real server's URL as --upstream.`, status: 508 } });
    // One hop: the request that came back, answered by the proxy, then the first one, answered by its "upstream".
    expect(proxy.output().match(/GET \/pets\/1 508 /g)).toHaveLength(2);
    expect(proxy.output()).toMatch(/GET \/pets\/1 508 [\d.]+ms proxy \(the request came back through this proxy: not forwarded again\)/);
    proxy.child.kill('SIGTERM');
  });
});
