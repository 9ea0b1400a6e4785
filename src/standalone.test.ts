/**
 * The repository stands on its own: a user's clone has nothing beside it, so no file of the
 * project may reach outside the checkout for documents, fixtures or tools.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
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

/** The folder beside the checkout where the team keeps its brief and documents: a user's clone has none. */
const SIBLING = 'shared';

describe('the repository stands on its own', () => {
  const sources = () =>
    files(ROOT)
      .filter((path) => !path.startsWith(join(ROOT, 'test/corpus'))) // third-party documents, kept as published
      .filter((path) => /\.(ts|js|mjs|cjs|json|ya?ml|md|sh)$|\/run$/.test(path));

  it('no source, script, test or document of the project names the folder beside the checkout', () => {
    const outside = `${'.'.repeat(2)}/${SIBLING}`; // built, so this file does not name it itself
    expect(sources().filter((path) => readFileSync(path, 'utf8').includes(outside)).map((path) => relative(ROOT, path))).toEqual([]);
  });

  it('no relative path in a source or script climbs out of the checkout', () => {
    const escapes = sources()
      .filter((path) => /\.(ts|js|mjs|cjs)$/.test(path))
      .flatMap((path) => [...readFileSync(path, 'utf8').matchAll(/['"`]((?:\.\.\/)+[\w.@-][^'"`\s]*)['"`]/g)].map((m) => ({ path, target: m[1] })))
      .filter(({ path, target }) => !resolve(dirname(path), target).startsWith(ROOT))
      .map(({ path, target }) => `${relative(ROOT, path)}: ${target}`);
    expect(escapes).toEqual([]);
  });
});
