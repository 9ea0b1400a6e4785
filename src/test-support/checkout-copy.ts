/**
 * A copy of this checkout as a fresh clone holds it: every file as it is in the working tree, but
 * what installs, builds and version control add. Used by the tests that install, build and pack it
 * elsewhere, so nothing they do changes the checkout the other tests run in.
 */
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.js';

/** What a clone does not hold: installed, built and version-control files, and local tool output. */
const NOT_COPIED = new Set(['node_modules', 'dist', '.git', '.tmp', 'coverage']);

/** Copies the checkout into `destination` (made if missing). */
export function copyCheckout(destination: string): void {
  mkdirSync(destination, { recursive: true });
  for (const entry of readdirSync(PACKAGE_ROOT)) if (!NOT_COPIED.has(entry)) cpSync(join(PACKAGE_ROOT, entry), join(destination, entry), { recursive: true });
}
