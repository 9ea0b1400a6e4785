/**
 * Vitest's global setup: the whole run gets a temporary directory of its own as TMPDIR (tests and
 * the processes they start make their temporary files in it), removed at the end whatever failed,
 * so a run leaves no temporary file behind even where a test does not clean up after itself. Other
 * users may pass through it (0711: not list it), so that what a test runs as another user (the CLI
 * as nobody, PostgreSQL as postgres) keeps its own folder in it too (reachable.ts).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'petstore-mock-kit-tests-'));
  chmodSync(dir, 0o711);
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
