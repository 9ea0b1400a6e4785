/**
 * Child processes for tests: the CLI on a free port, Prism, any server that prints a ready line.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './petstore.js';

export const CLI = join(ROOT, 'dist/cli.js');

export interface StartedProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far. */
  output: () => string;
}

/** Starts a command and resolves once its output matches `ready`; rejects if it exits first or takes 30 s. */
export function startProcess(command: string, args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<StartedProcess> {
  const child = spawn(command, args, { env: { ...process.env, ...env } });
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

/** Starts the mock's CLI on a free port; resolves with its URL once the banner is out. */
export async function startCli(args: string[], env: Record<string, string> = {}): Promise<StartedProcess & { url: string; banner: string }> {
  const started = await startProcess(process.execPath, [CLI, 'serve', '--port', '0', ...args], /listening on http:\/\/\S+[\s\S]*try /, { ...env, PORT: '' });
  const banner = started.output();
  return { ...started, banner, url: /listening on (http:\/\/\S+)/.exec(banner)![1] };
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
