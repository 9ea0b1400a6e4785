/**
 * No source file of src/ past 400 lines, test support included (tests left out): a longer one
 * holds more than one idea, and is split along its seams (the collection model apart from the
 * inference, one factory per OAuth endpoint, the PostgreSQL store's schema, namespace and store).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from './test-support/source-files.js';

const MAX_LINES = 400;


describe('source files', () => {
  it(`stay within ${MAX_LINES} lines`, () => {
    const files = sourceFiles({ testSupport: true });
    // The walk sees the tree (a wrong root would see nothing and pass everything).
    expect(files).toContain('openapi/operations/infer-collections.ts');
    const long = files
      .map((file) => ({ file, lines: readFileSync(join(SRC, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
