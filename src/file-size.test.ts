/**
 * No source file of src/ past 400 lines, test support included (tests left out): a longer one
 * holds more than one idea, and is split along its seams (the collection model apart from the
 * inference, one factory per OAuth endpoint, the PostgreSQL store's schema, namespace and store).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './test-support/petstore.js';

const MAX_LINES = 400;


const SRC = join(ROOT, 'src');

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$|\.d\.ts$/.test(entry.name) ? [relative(SRC, path)] : [];
  });
}

describe('source files', () => {
  it(`stay within ${MAX_LINES} lines`, () => {
    const files = sourceFiles();
    // The walk sees the tree (a wrong root would see nothing and pass everything).
    expect(files).toContain('openapi/operations/infer-collections.ts');
    const long = files
      .map((file) => ({ file, lines: readFileSync(join(SRC, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
