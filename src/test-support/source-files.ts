/**
 * The source modules of src/ (`*.ts` but tests and declarations), by their path from src/, for
 * the tests that hold rules over the whole tree (the layers, file sizes, the one compiled document).
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './petstore.js';

export const SRC = join(ROOT, 'src');

/** Sorted; test support left out unless `testSupport` is true. */
export function sourceFiles({ testSupport = false }: { testSupport?: boolean } = {}): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'test-support' && !testSupport ? [] : walk(path);
      return /\.ts$/.test(entry.name) && !/\.test\.ts$|\.d\.ts$/.test(entry.name) ? [relative(SRC, path)] : [];
    });
  return walk(SRC).sort();
}
