#!/usr/bin/env node
/**
 * `npm run bundle`, the `prepare` script and the first `npm start`: builds what runs (dist/cli.js,
 * the library, the browser and MSW modules, the docs page, the meta-schema validators) from the
 * TypeScript sources with rolldown (rolldown.config.mjs), the four builds in parallel, and nothing
 * else: no `tsc` (type checking is `npm run lint`'s, `npm run build`'s and the tests'), no
 * declaration files (`npm pack` writes them). About 2 s on 2 cores, where tsc first took 9 to 36 s.
 *
 * `--prepare` (the `prepare` script, which npm runs after `npm ci` and `npm install` in a clone, and
 * when another project installs this one from git or from a folder):
 * - Installed by another project (npm runs the script for that project: its `npm_config_local_prefix`
 *   is not this checkout), it also writes the declaration files (`npm run build:types`, about
 *   40 s), which a package packed from here must hold: npm packs a git dependency's clone right
 *   after this script, with the devDependencies installed to run it.
 * - In the clone itself, the bundle alone: `npm ci` stays about 2 s longer than without it.
 * - An install without the devDependencies (`npm ci --omit=dev`) has no rolldown to build with: it
 *   says so and leaves dist/ as it is instead of failing the install.
 *
 * Plain JavaScript on purpose: it runs before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Bundles the checkout at `root` into its dist/.
 * @param {string} root the checkout
 * @returns {Promise<void>}
 */
export async function bundle(root) {
  const { build } = await import('rolldown');
  const { default: configs } = await import(pathToFileURL(join(root, 'rolldown.config.mjs')).href);
  // Chunk names carry a hash: the last build's would stay beside this one's.
  rmSync(join(root, 'dist/chunks'), { recursive: true, force: true });
  await build(configs);
}

/** Whether rolldown can be imported from the checkout (not after `npm ci --omit=dev`). */
async function rolldownInstalled() {
  return import('rolldown').then(
    () => true,
    (error) => {
      if (error?.code === 'ERR_MODULE_NOT_FOUND') return false;
      throw error;
    },
  );
}

/** Whether npm runs this script for another project, which installs this checkout as a dependency. */
function installedByAnother(root) {
  const project = process.env.npm_config_local_prefix;
  return project !== undefined && resolve(project) !== resolve(root);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  if (!process.argv.includes('--prepare')) await bundle(root);
  else if (!(await rolldownInstalled())) {
    process.stderr.write('prepare: dist/ not built: rolldown is a devDependency, and this install left them out (npm run bundle builds it once they are installed).\n');
  } else {
    await bundle(root);
    if (installedByAnother(root)) {
      const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
      const types = spawnSync(npm[0], [...npm[1], 'run', 'build:types'], { cwd: root, stdio: 'inherit' });
      if (types.status !== 0) process.exit(types.status ?? 1);
    }
  }
}
