/**
 * One Ajv instance per document, set up for OpenAPI: the 3.0 dialect (close to draft-07) or the
 * 3.1 dialect (JSON Schema 2020-12), ajv-formats, and the OpenAPI formats Ajv does not know. The
 * document's patterns run in linear time (regex-engine.ts): every validator of the mock and the
 * suite, of requests, responses, fixtures and imported state, is made here.
 */
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { linearRegExp } from '../../core/regex-engine.js';

// ajv-formats is CommonJS with a `default` property: under NodeNext the default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;
type AjvCore = Ajv;

export type { AjvCore };

const INT32 = { min: -2147483648, max: 2147483647 };

/** Creates the validator factory for a document's dialect. */
export function createAjv(dialect: '3.0' | '3.1'): AjvCore {
  const options = { strict: false, allErrors: true, logger: false as const, code: { optimize: true, regExp: linearRegExp } };
  const ajv: AjvCore = dialect === '3.1' ? (new Ajv2020(options) as unknown as Ajv) : new Ajv(options);
  addFormats(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= INT32.min && n <= INT32.max });
  // A JSON number beyond 2^53 has already been rounded by the parser: refuse it rather than
  // letting it silently address another record.
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  for (const name of ['float', 'double']) ajv.addFormat(name, { type: 'number', validate: Number.isFinite });
  ajv.addFormat('byte', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  for (const name of ['binary', 'password']) ajv.addFormat(name, true);
  ajv.addKeyword({ keyword: DISCRIMINATOR_TAG, type: 'object', schemaType: 'object', errors: true, validate: checkTag });
  return ajv;
}

/**
 * The keyword the converter puts where a discriminator chooses a branch (to-json-schema.ts):
 * `{ propertyName, values }`, the object's property must be one of the values. Its error names
 * the property and the values (ajv-problems.ts words it).
 */
export const DISCRIMINATOR_TAG = 'x-discriminator-tag';

/** The parameters of the keyword's error. */
export interface TagParams {
  propertyName: string;
  allowedValues: string[];
  /** True when the object has no such property. */
  missing: boolean;
}

function checkTag(this: unknown, schema: { propertyName: string; values: string[] }, data: Record<string, unknown>): boolean {
  const value = Object.hasOwn(data, schema.propertyName) ? data[schema.propertyName] : undefined;
  if (typeof value === 'string' && schema.values.includes(value)) return true;
  const params: TagParams = { propertyName: schema.propertyName, allowedValues: schema.values, missing: value === undefined };
  checkTag.errors = [{ keyword: DISCRIMINATOR_TAG, params, message: `must name one of ${schema.values.join(', ')}` }];
  return false;
}
checkTag.errors = [] as Array<{ keyword: string; params: TagParams; message: string }>;

/** Makes an unknown format (`uri-map`, `iso-country-code`) accepted instead of an error. */
export function allowFormat(ajv: AjvCore, name: string): void {
  if (!ajv.formats[name]) ajv.addFormat(name, true);
}
