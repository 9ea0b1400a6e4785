/**
 * `npm start` rebuilds only when a source is newer than dist/cli.js (scripts/start.mjs).
 */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleReason } from '../scripts/start.mjs';

/** A checkout in a temporary folder: each file written with its modification time in seconds. */
function checkout(files: Record<string, number>): string {
  const root = mkdtempSync(join(tmpdir(), 'stale-'));
  for (const [path, seconds] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), seconds, seconds);
  }
  return root;
}

describe('npm start rebuilds only a stale tree', () => {
  const built = { 'tsconfig.build.json': 100, 'package.json': 100, 'src/mock/app.ts': 100, 'src/contract/run-contract.ts': 100, 'dist/cli.js': 200 };

  it('a tree built after its last edit starts as it is', () => {
    expect(staleReason(checkout(built))).toBeUndefined();
  });

  it('a source, a contract-suite file or the lock file edited after the build makes it stale', () => {
    expect(staleReason(checkout({ ...built, 'src/mock/app.ts': 300 }))).toBe('src/mock/app.ts changed after the last build');
    expect(staleReason(checkout({ ...built, 'src/contract/run-contract.ts': 300 }))).toBe('src/contract/run-contract.ts changed after the last build');
    expect(staleReason(checkout({ ...built, 'package-lock.json': 300 }))).toBe('package-lock.json changed after the last build');
  });

  it('a tree never built is stale', () => {
    expect(staleReason(checkout({ 'tsconfig.build.json': 100, 'src/mock/app.ts': 100 }))).toBe('dist/cli.js does not exist');
  });

  it('tests and test helpers are not built, so editing them does not rebuild', () => {
    expect(staleReason(checkout({ ...built, 'src/mock/app.test.ts': 300, 'src/test-support/petstore.ts': 300 }))).toBeUndefined();
  });

  it('an installed package (no sources, no build configuration) is never rebuilt', () => {
    expect(staleReason(checkout({ 'dist/cli.js': 100 }))).toBeUndefined();
  });
});
