#!/usr/bin/env node
/**
 * `npm start` and `npm run contract`: bundles dist/ when it is missing (a clone installed without
 * its `prepare` script, `npm ci --ignore-scripts`) or when a source is newer than the last build,
 * then runs the CLI (dist/cli.js) in this same process with the arguments given. The bundle is
 * rolldown's alone, from the TypeScript sources (scripts/bundle.mjs, about 2 s on 2 cores): no
 * `tsc` before it (9 to 36 s), whose type checking is `npm run lint`'s and the tests'. A built tree
 * starts at once, and a clone whose sources were edited still runs what it holds. An installed
 * package has no sources and nothing to rebuild.
 *
 * Plain JavaScript on purpose: it must run before anything is compiled. The bundler and the CLI are
 * imported rather than spawned, which saves starting Node (and npm) again.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundle } from './bundle.mjs';

/** What the build reads (tsconfig.build.json's `include`, the configuration, the locked dependencies it bundles). */
const SOURCE_DIRS = ['src', 'bench'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'rolldown.config.mjs', 'scripts/bundle.mjs', 'package.json', 'package-lock.json'];
/** The build's last output: older than any input means the build is stale. */
const OUTPUT = 'dist/cli.js';

/** Sources the build compiles (tests and test helpers are not built). */
function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Why `root` needs a build: undefined when dist/ is up to date or there is nothing to build from.
 * @param {string} root the checkout
 * @returns {string | undefined}
 */
export function staleReason(root) {
  if (!existsSync(join(root, 'tsconfig.build.json'))) return undefined; // an installed package: no sources
  const output = join(root, OUTPUT);
  if (!existsSync(output)) return `${OUTPUT} does not exist`;
  const built = statSync(output).mtimeMs;
  const inputs = [...SOURCE_DIRS.flatMap((dir) => sourceFiles(join(root, dir))), ...SOURCE_FILES.map((file) => join(root, file)).filter(existsSync)];
  const newer = inputs.find((path) => statSync(path).mtimeMs > built);
  return newer && `${relative(root, newer)} changed after the last build`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const reason = staleReason(root);
  if (reason) {
    process.stderr.write(`Building first: ${reason} (npm run bundle; npm run build also type-checks).\n`);
    await bundle(root);
  }
  await import(pathToFileURL(join(root, OUTPUT)).href); // reads process.argv.slice(2), as when run directly
}
