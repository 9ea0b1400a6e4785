/**
 * The repository stands on its own: a user's clone has nothing beside it, so no file of the
 * project may reach outside the checkout for documents, fixtures or tools.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './test-support/petstore.js';

/** Folders that are installed or built, not written. */
const SKIP = new Set(['node_modules', 'dist', '.git']);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : [path];
  });
}

describe('the repository stands on its own', () => {
  it('no source, script, test or document of the project refers to a folder beside the checkout', () => {
    const outside = ['..', 'shared'].join('/'); // spelled in two pieces, so this file does not match itself
    const offenders = files(ROOT)
      .filter((path) => !path.includes(`${join(ROOT, 'test/corpus')}`)) // third-party documents, kept as published
      .filter((path) => /\.(ts|js|mjs|cjs|json|ya?ml|md|sh)$|\/run$/.test(path))
      .filter((path) => readFileSync(path, 'utf8').includes(outside))
      .map((path) => relative(ROOT, path));
    expect(offenders).toEqual([]);
  });
});
