/**
 * For tests that run the CLI as another user (root's tests run it as nobody, so that permissions
 * apply): a temporary directory every user can reach, and a copy of the built CLI in it. The
 * checkout may sit where only its owner can enter (a `mktemp -d` folder, /root), and so may
 * TMPDIR: nothing here depends on the checkout's parents.
 */
import { accessSync, chmodSync, constants, cpSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.js';

/** True when every directory from the root down to `dir` is searchable by any user (the x bit for others). */
export function reachableByAll(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    try {
      accessSync(at, constants.F_OK);
      if ((statSync(at).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    if (dirname(at) === at) return true;
  }
}

/**
 * A new temporary directory that any user can enter: under TMPDIR when every parent allows it,
 * else under /tmp, /var/tmp or /dev/shm (world-writable by convention). The caller removes it.
 */
export function reachableTempDir(prefix: string): string {
  const base = [tmpdir(), '/tmp', '/var/tmp', '/dev/shm'].find(reachableByAll);
  if (!base) throw new Error(`no temporary directory that every user can reach (tried ${tmpdir()}, /tmp, /var/tmp, /dev/shm)`);
  const dir = mkdtempSync(join(base, prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/** What the built CLI reads when it runs: its bundle, the document and fixtures it embeds, and the packages it leaves external. */
const CLI_FILES = ['package.json', 'dist/cli.js', 'dist/chunks', 'dist/meta-validators', 'dist/docs', 'spec', 'fixtures', 'node_modules/hono', 'node_modules/@hono/node-server'];

/**
 * A copy of the built CLI in `dir` (from `reachableTempDir`), laid out as an installed package, for
 * a child run as another user. Returns the path of its `dist/cli.js`.
 */
export function copyCli(dir: string): string {
  const root = join(dir, 'petstore-mock-kit');
  for (const path of CLI_FILES) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    cpSync(join(PACKAGE_ROOT, path), join(root, path), { recursive: true });
  }
  readableByAll(dir);
  return join(root, 'dist/cli.js');
}

/** `chmod -R a+rX`: a checkout made under umask 077 copies as owner-only. */
function readableByAll(path: string): void {
  const stat = statSync(path);
  chmodSync(path, stat.mode | (stat.isDirectory() ? 0o555 : 0o444));
  if (stat.isDirectory()) for (const entry of readdirSync(path)) readableByAll(join(path, entry));
}
