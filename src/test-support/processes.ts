/**
 * Child processes for tests: the CLI on a free port, Prism, any server that prints a ready line.
 */
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.js';

const ROOT = `${PACKAGE_ROOT}/`;

export const CLI = join(ROOT, 'dist/cli.js');

export interface StartedProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far. */
  output: () => string;
}

/**
 * Every child a test started and that still runs, stopped after each test file whatever failed
 * (src/test-support/after-each-file.ts, a setup file of every test file): a test that threw
 * before it could stop its server leaves nothing running after the run. A child started as a
 * process group (`detached`) is stopped with its group (npm and the server under it).
 */
const running = new Set<ChildProcess>();
const groups = new WeakSet<ChildProcess>();

/** Stops every child still running (SIGKILL), with its group where it leads one. */
export function stopAll(): void {
  for (const child of running) {
    try {
      if (groups.has(child)) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  running.clear();
}

/** Keeps a child in the list of those stopped after the test file (until it exits); `group`: it leads a process group of its own. */
export function track<T extends ChildProcess>(child: T, group = false): T {
  if (group) groups.add(child);
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Starts a command and resolves once its output matches `ready`; rejects if it exits first or takes 300 s. */
export function startProcess(command: string, args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<StartedProcess> {
  const child = track(spawn(command, args, { env: { ...process.env, ...env } }));
  let out = '';
  return new Promise((resolve, reject) => {
    // Not ready in time: the child is stopped, not left running after the test.
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`${command} was not ready after 300 s: ${out}`))), 300_000);
    const onData = (chunk: Buffer) => {
      out += chunk;
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve({ child, output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}: ${out}`));
    });
  });
}

/**
 * Runs the built CLI to completion: its exit code and output. Neither an admin token nor a port
 * from the environment the tests run in reaches it (either would change what it does).
 */
export function runCli(args: string[], { cwd }: { cwd?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { MOCK_ADMIN_TOKEN: _token, ...env } = process.env;
  const child = track(spawn(process.execPath, [CLI, ...args], { env: { ...env, PORT: '' }, cwd }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  // 'close', not 'exit': the pipes may still hold output when the process has exited.
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Starts the mock's CLI on a free port; resolves with its URL once the banner is out. */
export async function startCli(args: string[], env: Record<string, string> = {}): Promise<StartedProcess & { url: string; banner: string }> {
  const started = await startProcess(process.execPath, [CLI, 'serve', '--port', '0', ...args], /listening on http:\/\/\S+[\s\S]*try /, { ...env, PORT: '' });
  const banner = started.output();
  return { ...started, banner, url: /listening on (http:\/\/\S+)/.exec(banner)![1] };
}

/**
 * What a test set up beyond a child process (a PostgreSQL server: its processes, its shared memory
 * and its directory, postgres.ts), undone after the test file whatever failed, before the children
 * still running are stopped. Returns a function that forgets it, for a test that undid it itself.
 */
const cleanups = new Set<() => Promise<void>>();

export function cleanUpAfterFile(cleanup: () => Promise<void>): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** Runs every cleanup still registered, then stops every child still running; throws what the cleanups threw, once all have run. */
export async function cleanUpAll(): Promise<void> {
  const errors: unknown[] = [];
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    await cleanup().catch((error: unknown) => errors.push(error));
  }
  stopAll();
  if (errors.length > 0) throw new AggregateError(errors, `${errors.length} cleanup(s) after the test file failed: ${errors.map(String).join('; ')}`);
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
