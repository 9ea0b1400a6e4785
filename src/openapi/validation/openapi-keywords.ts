/**
 * OpenAPI's keywords made JSON Schema, on one converted schema at a time: 3.0's `nullable` and
 * boolean `exclusiveMinimum`/`exclusiveMaximum`, a discriminator's choice of branch, and
 * `readOnly`/`writeOnly` properties that stop being required in one direction.
 */
import type { DocumentObject } from '../document/objects.js';
import type { SchemaObject } from '../document/schema.js';
import { discriminatedChoice } from '../document/discriminator.js';
import { DISCRIMINATOR_TAG } from './ajv-instance.js';

/** Which side of an exchange a schema checks: a request's (no `readOnly` required) or a response's (no `writeOnly` required). */
export type Direction = 'request' | 'response';

/**
 * A `oneOf`/`anyOf` whose discriminator tells its branches apart checks the branch the value of
 * the property chooses, and that branch only, as OpenAPI means it (and as Ajv's own
 * `discriminator` option does, which takes no `mapping`, no implicit names and no branch that
 * is an `allOf`): each branch becomes an `if` (the property is one of its values) `then` (the
 * branch), beside one check that the value is one of them. So `{"issueType":"bug"}` missing a
 * bug's `severity` is told that, not that it is no feature either; a missing or unknown value is
 * one problem naming the values. The value is an object (the branches are of objects).
 */
export function chooseByDiscriminator(api: DocumentObject, source: SchemaObject, out: SchemaObject): void {
  const choice = discriminatedChoice(api, source);
  const converted = choice && out[choice.keyword];
  if (!choice || !Array.isArray(converted)) return;
  const { propertyName } = choice;
  delete out[choice.keyword];
  const tag = { [DISCRIMINATOR_TAG]: { propertyName, values: choice.branches.flatMap((branch) => branch.values) } };
  const branches = choice.branches.map((branch, i) => ({
    if: { type: 'object', required: [propertyName], properties: { [propertyName]: { enum: branch.values } } },
    then: converted[i] as SchemaObject,
  }));
  out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), tag, ...branches];
  out.type ??= 'object';
}

/** 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` as 3.1's numbers, and `nullable`. */
export function convert30Keywords(source: SchemaObject, out: SchemaObject): void {
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof source[flag] !== 'boolean') continue;
    delete out[flag];
    if (source[flag] && typeof source[bound] === 'number') {
      out[flag] = source[bound];
      delete out[bound];
    }
  }
  if (source.nullable === true) allowNull(out);
}

/**
 * `nullable: true` allows null wherever it appears (3.0), with a `type` or without one: beside a
 * `oneOf`, `anyOf`, `allOf`, `not`, `enum` or `const`, none of which a null would pass. A schema
 * that only constrains other types (`properties`, `maxLength`) already lets null through. Changed
 * in place: a circular schema refers to this very object.
 */
function allowNull(out: SchemaObject): void {
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (!NULL_REFUSERS.some((keyword) => keyword in out)) return;
  const rest: SchemaObject = { ...out };
  for (const key of Object.keys(out)) delete out[key];
  out.anyOf = [{ type: 'null' }, rest];
}

/** The keywords (besides `type` and `enum`, widened in place) that a null fails when nothing says otherwise. */
const NULL_REFUSERS = ['oneOf', 'anyOf', 'allOf', 'not', 'const', '$ref', 'if'];

/**
 * A client never sends `readOnly` properties, and never receives `writeOnly` ones. Read from the
 * document's properties: a converted one may be a reference to a registered schema.
 */
export function dropInvisibleRequired(source: SchemaObject, out: SchemaObject, direction: Direction): void {
  const properties = source.properties;
  if (!Array.isArray(out.required) || !properties || typeof properties !== 'object') return;
  const hidden = direction === 'request' ? 'readOnly' : 'writeOnly';
  const required = out.required.filter((name: string) => properties[name]?.[hidden] !== true);
  if (required.length !== out.required.length) out.required = required;
}
