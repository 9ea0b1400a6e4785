/**
 * The CLI's log, from the outside: `node dist/cli.js serve` with --log-level and --log-format,
 * spoken to over HTTP, its output read from its pipes (`npm run build` first).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { AUTH } from '../test-support/petstore.js';
import { CLI, freePort, startCli, startProcess } from '../test-support/processes.js';

const JSON_BODY = { ...AUTH, 'Content-Type': 'application/json' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const started: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Polls until `check` holds (the lines of a turn are written at its end), or fails after 5 s. */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 5000) throw new Error(`waited 5 s for ${what}`);
    await sleep(20);
  }
}

/** The CLI with flags that may print no banner: its output kept apart by stream, ready once it answers. */
async function startQuiet(args: string[]) {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), ...args], { env: { ...process.env, PORT: '' } });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    try {
      await (await fetch(`${url}/__spec.json`, { method: 'HEAD' })).arrayBuffer();
      break;
    } catch (error) {
      if (tries > 300 || child.exitCode !== null) throw new Error(`the CLI did not answer: ${stderr}`, { cause: error });
      await sleep(20);
    }
  }
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, url, stdout: () => stdout, stderr: () => stderr, stop: () => (child.kill('SIGTERM'), exited) };
}

/** The request lines of an output (text format). */
const requestLines = (output: string) => output.split('\n').filter((line) => /^\d{4}-\d\d-\d\dT\S+Z [A-Z]+ \//.test(line));

describe('--log-level info (the default), as text', () => {
  it('prints one line per request answered, the mock\'s own endpoints included, with the scenario and session when there are some', async () => {
    const server = await startCli([]);
    started.push(server.child);
    expect(server.banner).toContain(`/__spec`);
    await fetch(`${server.url}/pets?limit=2`, { headers: AUTH });
    await fetch(`${server.url}/pets`, { method: 'POST', headers: JSON_BODY, body: '{"name":5}' });
    await fetch(`${server.url}/pets/1`, { headers: { ...AUTH, Prefer: 'code=404', 'X-Mock-Session': 'alice' } });
    await fetch(`${server.url}/nothing`);
    await fetch(`${server.url}/__health`);
    await fetch(`${server.url}/__spec`);
    await fetch(`${server.url}/__admin`);
    await waitFor(() => requestLines(server.output()).length >= 7, 'seven request lines');
    await sleep(100);
    const lines = requestLines(server.output());
    expect(lines.map((line) => line.replace(/^\S+ /, '').replace(/ \d+\.\dms/, ' Nms'))).toEqual([
      'GET /pets?limit=2 200 Nms',
      'POST /pets 400 Nms',
      'GET /pets/1 404 Nms  scenario: code=404: forced  session: alice',
      'GET /nothing 404 Nms',
      'GET /__health 200 Nms',
      'GET /__spec 200 Nms',
      'GET /__admin 200 Nms',
    ]);
    // The problems are for debug.
    expect(server.output()).not.toContain('problem:');
  });

  it('loses no line on SIGTERM, and writes them in few writes under load', async () => {
    const server = await startCli([]);
    started.push(server.child);
    const exited = new Promise((resolve) => server.child.on('exit', resolve));
    const chunks: number[] = [];
    server.child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk.toString().split('\n').length - 1));
    const responses = await Promise.all(Array.from({ length: 300 }, (_, i) => fetch(`${server.url}/pets/${(i % 20) + 1}`, { headers: AUTH })));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(requestLines(server.output())).toHaveLength(300);
    // Lines of a turn are written together: far fewer writes than lines.
    expect(chunks.length).toBeLessThan(300);
  });
});

describe('a closed stdout', () => {
  it('drops the lines and goes on answering; SIGTERM still exits 0', async () => {
    const server = await startCli([]);
    started.push(server.child);
    const exited = new Promise((resolve) => server.child.on('exit', resolve));
    server.child.stdout.destroy();
    await sleep(50);
    const responses = await Promise.all(Array.from({ length: 100 }, () => fetch(`${server.url}/pets/1`, { headers: AUTH })));
    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('--log-level debug', () => {
  it('adds each request\'s validation problems and what its scenario did', async () => {
    const server = await startCli(['--log-level', 'debug']);
    started.push(server.child);
    await fetch(`${server.url}/pets`, { method: 'POST', headers: JSON_BODY, body: '{"name":5}' });
    await fetch(`${server.url}/pets/1`, { headers: { ...AUTH, Prefer: 'code=404' } });
    await waitFor(() => server.output().includes('the state was not changed'), 'the scenario line');
    expect(server.output()).toContain('    problem: body.categoryId: is required (required)\n    problem: body.name: must be string (type)\n');
    expect(server.output()).toContain("    scenario: asked code=404; answered with the scenario's response; the state was not changed\n");
  });
});

describe('--log-level silent', () => {
  it('prints nothing at all, banner included', async () => {
    const server = await startQuiet(['--log-level', 'silent']);
    await fetch(`${server.url}/pets`, { headers: AUTH });
    await fetch(`${server.url}/nothing`);
    expect(await server.stop()).toBe(0);
    expect([server.stdout(), server.stderr()]).toEqual(['', '']);
  });

  it('still says why a start failed', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--log-level', 'silent', '--spec', '/nonexistent/openapi.yaml']);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(1);
    expect(stderr).toMatch(/^Cannot read the OpenAPI document .*: the file does not exist\.\n$/);
  });
});

describe('--log-level error', () => {
  it('prints the 5xx answers only, no banner', async () => {
    const server = await startQuiet(['--log-level', 'error', '--error-rate', '1']);
    expect((await fetch(`${server.url}/pets/1`, { headers: AUTH })).status).toBe(500);
    expect((await fetch(`${server.url}/nothing`)).status).toBe(404);
    expect((await fetch(`${server.url}/pets`, { headers: AUTH })).status).toBe(500);
    expect(await server.stop()).toBe(0);
    expect(server.stdout().replace(/^\S+ /gm, '').replace(/ \d+\.\dms/g, ' Nms')).toBe(
      ['GET /pets/1 500 Nms  scenario: injected fault 500', 'GET /pets 500 Nms  scenario: injected fault 500', ''].join('\n'),
    );
    expect(server.stdout()).not.toMatch(/listening|SIGTERM/);
  });
});

describe('--log-format json', () => {
  it('prints the banner as one JSON object, then one JSON object per request and message', async () => {
    const server = await startProcess(process.execPath, [CLI, 'serve', '--port', '0', '--log-format', 'json', '--count', 'pets=3'], /"msg":"listening"/, { PORT: '' });
    started.push(server.child);
    const banner = JSON.parse(server.output().split('\n')[0]);
    expect(banner).toMatchObject({ level: 'info', msg: 'listening', operations: 19, document: 'spec/openapi.yaml', records: { pets: 3 } });
    expect(banner.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(banner.spec).toBe(`${banner.url}/__spec`);
    await fetch(`${banner.url}/pets?limit=1`, { headers: { ...AUTH, 'X-Mock-Session': 's1' } });
    await fetch(`${banner.url}/pets`, { method: 'POST', headers: JSON_BODY, body: '{"name":5}' });
    const exited = new Promise((resolve) => server.child.on('exit', resolve));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const lines = server.output().trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines.slice(1)).toEqual([
      { time: expect.stringMatching(/Z$/), level: 'info', msg: 'request', method: 'GET', path: '/pets?limit=1', status: 200, ms: expect.any(Number), session: 's1' },
      { time: expect.any(String), level: 'info', msg: 'request', method: 'POST', path: '/pets', status: 400, ms: expect.any(Number) },
      { time: expect.any(String), level: 'info', msg: 'SIGTERM: finishing in-flight requests (up to 10 s), then stopping.', signal: 'SIGTERM' },
    ]);
  });
});
