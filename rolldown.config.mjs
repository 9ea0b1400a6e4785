/**
 * The package's build, from the TypeScript sources (rolldown strips the types; it checks none:
 * `npm run lint`, `npm run build` and the tests type-check): the files a user runs and imports, with the dependencies that do not show in the public
 * types bundled in (Ajv, re2js, Faker's English locale, yaml, js-yaml, swagger-parser), and the ones that do,
 * or that are loaded only on demand, left to npm (hono, @hono/node-server, swagger2openapi, msw, and
 * undici, the proxy's client to its upstream).
 *
 * - Node: the bin (dist/cli.js) and the library (dist/index.js) share their chunks (dist/chunks/).
 *   One bundle starts faster than Node reading the dependencies' ~225 modules (docs/performance.md).
 * - Neutral (browser and Node): dist/browser.js and dist/msw.js, with no node: import; the bundled
 *   Petstore document is built in as an object, and load-fixtures.ts (node:fs) is replaced.
 *
 * - Browser (the docs page, GET /__docs): dist/docs/docs-ui.js from src/mock/docs/ui, beside Swagger UI's
 *   bundle and stylesheet copied from swagger-ui-dist (with its licence and notice) and our stylesheet.
 *
 * - Build step: the meta-schema validators (dist/meta-validators/), written by
 *   src/openapi/document/meta-schema/build-meta-validators.ts, compiled here to dist/build/ and run once
 *   it is written.
 *
 * Not minified and without source maps: the code a stack trace points at reads as written.
 * Every path is the checkout's, wherever it runs from (scripts/bundle.mjs imports this file).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineConfig } from 'rolldown';
import yaml from 'js-yaml';

const DECLARED = [/^hono(\/|$)/, /^@hono\/node-server(\/|$)/, /^swagger2openapi$/, /^msw(\/|$)/, /^undici(\/|$)/, /^pg(\/|$)/, /^vitest(\/|$)/];
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** `import document from './openapi.yaml'`: the parsed document, as a module. */
const yamlModules = {
  name: 'yaml-modules',
  load(id) {
    if (!id.endsWith('.yaml')) return null;
    return { code: `export default ${JSON.stringify(yaml.load(readFileSync(id, 'utf8')))};`, moduleType: 'js' };
  },
};

/** In the browser build, the module that reads a fixtures directory gives way to one that says it cannot. */
const noFixtureDirectory = {
  name: 'no-fixture-directory',
  resolveId(source, importer) {
    if (importer && /load-fixtures\.js$/.test(source)) return here('./src/state/load-fixtures.browser.ts');
    return null;
  },
};

/** The docs page's other files, copied as they are: Swagger UI's (Apache-2.0, so its LICENSE and NOTICE go with them) and our stylesheet. */
const docsFiles = {
  name: 'docs-files',
  generateBundle() {
    const swaggerUi = (file) => fileURLToPath(import.meta.resolve(`swagger-ui-dist/${file}`));
    const files = {
      'docs/swagger-ui-bundle.js': swaggerUi('swagger-ui-bundle.js'),
      'docs/swagger-ui.css': swaggerUi('swagger-ui.css'),
      // The page Swagger UI's Authorize sends an OAuth sign-in back to (a popup that hands the code to the page).
      'docs/oauth2-redirect.html': swaggerUi('oauth2-redirect.html'),
      'docs/oauth2-redirect.js': swaggerUi('oauth2-redirect.js'),
      'docs/swagger-ui-LICENSE': swaggerUi('LICENSE'),
      'docs/swagger-ui-NOTICE': swaggerUi('NOTICE'),
      'docs/swagger-ui-bundle.js.LICENSE.txt': swaggerUi('swagger-ui-bundle.js.LICENSE.txt'),
      'docs/docs-ui.css': here('./src/mock/docs/ui/docs-ui.css'),
    };
    for (const [fileName, from] of Object.entries(files)) this.emitFile({ type: 'asset', fileName, source: readFileSync(from) });
  },
};

/** Runs the build step it wrote (a new URL each time, so a second build in one process runs it again). */
const runWhenWritten = {
  name: 'run-when-written',
  async writeBundle(options, bundle) {
    for (const fileName of Object.keys(bundle)) await import(`${pathToFileURL(`${options.dir}/${fileName}`).href}?${Date.now()}`);
  },
};

const output = { dir: here('dist'), format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', minify: false, sourcemap: false };

export default defineConfig([
  {
    input: { cli: here('src/cli.ts'), index: here('src/index.ts'), vitest: here('src/library/vitest.ts') },
    platform: 'node',
    external: [...DECLARED, /^node:/],
    output,
    logLevel: 'warn',
  },
  {
    input: { browser: here('src/browser.ts'), msw: here('src/msw.ts') },
    platform: 'browser',
    external: DECLARED,
    plugins: [yamlModules, noFixtureDirectory],
    output: { ...output, chunkFileNames: 'chunks/neutral-[name]-[hash].js' },
    logLevel: 'warn',
  },
  {
    input: { 'docs/docs-ui': here('src/mock/docs/ui/docs-ui.ts') },
    platform: 'browser',
    plugins: [docsFiles],
    output: { dir: here('dist'), format: 'iife', entryFileNames: '[name].js', minify: false, sourcemap: false },
    logLevel: 'warn',
  },
  {
    input: { 'build-meta-validators': here('src/openapi/document/meta-schema/build-meta-validators.ts') },
    platform: 'node',
    // Only this project's modules are compiled; Ajv and the meta-schemas are read from node_modules when it runs.
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    plugins: [runWhenWritten],
    output: { ...output, dir: here('dist/build') },
    // Running the step is this build's work, not a slow plugin to warn about.
    checks: { bundlerTimings: false },
    logLevel: 'warn',
  },
]);
