/**
 * Build step (run by `npm run build`): compiles the OpenAPI 3.0 and 3.1 meta-schemas into
 * standalone validator modules, so a start-up runs generated code instead of compiling about 300 KB
 * of meta-schema with Ajv (measured: about 200 ms and 12 MB at every start). The schemas and
 * options are meta-schemas.ts's; each meta-schema is written beside its validator, for the words of a problem.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { META_VALIDATORS_DIR } from './meta-validators-dir.js';
import { META_AJV_OPTIONS, metaAjv, openApiMetaSchema } from './meta-schemas.js';

const require = createRequire(import.meta.url);
const standaloneCode = ((standaloneCodeModule as unknown as { default?: typeof standaloneCodeModule }).default ?? standaloneCodeModule) as unknown as (ajv: unknown, validate: unknown) => string;

// CommonJS: the generated code require()s Ajv's small runtime helpers (ajv/dist/runtime/*), inlined below.
const options = { ...META_AJV_OPTIONS, code: { source: true } };

/**
 * The generated code requires Ajv's runtime helpers by name; the package does not install Ajv (it
 * is bundled), so each helper's source goes into the file instead (today only `equal`,
 * fast-deep-equal). A helper not inlined stops the build rather than the user's start.
 */
function selfContained(code: string): string {
  const inlined = code.replace(/require\("ajv\/dist\/runtime\/equal"\)\.default/g, () => {
    const source = readFileSync(require.resolve('fast-deep-equal'), 'utf8');
    return `(function () { var module = { exports: {} }; ${source}\n; return module.exports; })()`;
  });
  const left = /require\("[^"]+"\)/.exec(inlined);
  if (left) throw new Error(`The meta-schema validators still need ${left[0]}: inline it in build-meta-validators.ts.`);
  return inlined;
}

mkdirSync(META_VALIDATORS_DIR, { recursive: true });
for (const dialect of ['3.0', '3.1'] as const) {
  const ajv = metaAjv(dialect, options);
  const schema = openApiMetaSchema(dialect);
  writeFileSync(`${META_VALIDATORS_DIR}/openapi-${dialect}.cjs`, selfContained(standaloneCode(ajv, ajv.compile(schema))));
  // Read only to word a problem (the fields allowed where one is unknown): describe-meta-problem.ts.
  writeFileSync(`${META_VALIDATORS_DIR}/openapi-${dialect}.json`, JSON.stringify(schema));
}
