/**
 * The package's own directory (the one with its package.json), found by walking up from this
 * module, so the answer is the same whether the code runs from `src/` (tests), `dist/src/`
 * (compiled) or the single-file bundle `dist/cli.js`.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageRootFrom(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

/** @example readFileSync(join(PACKAGE_ROOT, 'spec/openapi.yaml')) */
export const PACKAGE_ROOT = packageRootFrom(dirname(fileURLToPath(import.meta.url)));
