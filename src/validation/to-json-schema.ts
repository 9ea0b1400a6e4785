/**
 * OpenAPI schemas are not quite JSON Schema. This converts them, once, into what Ajv checks:
 * 3.0 `nullable` becomes a `null` type, boolean `exclusiveMinimum` becomes a number, and
 * `readOnly` properties stop being required in requests (`writeOnly` ones in responses).
 * Circular `$ref`s left by the loader become schemas registered in Ajv under their own id.
 */
import { resolveRef } from '../document/load-document.js';
import type { SchemaObject } from '../document/schema.js';
import { allowFormat, type AjvCore } from './ajv-instance.js';

export type Direction = 'request' | 'response';

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'];
const DROPPED = ['discriminator', 'xml', 'externalDocs', 'example', 'nullable', 'deprecated'];

export class SchemaConverter {
  private readonly memo = { request: new WeakMap<object, SchemaObject>(), response: new WeakMap<object, SchemaObject>() };
  private readonly registered = new Set<string>();
  private readonly failed = new Set<string>();

  constructor(
    private readonly api: SchemaObject,
    private readonly ajv: AjvCore,
    private readonly dialect: '3.0' | '3.1',
  ) {}

  /** The JSON Schema Ajv should check for an OpenAPI schema read in one direction. */
  convert(schema: SchemaObject | boolean | undefined, direction: Direction): SchemaObject | boolean {
    if (schema === undefined) return {};
    if (typeof schema === 'boolean' || schema === null || typeof schema !== 'object') return schema as boolean;
    const cached = this.memo[direction].get(schema);
    if (cached) return cached;
    const out: SchemaObject = {};
    this.memo[direction].set(schema, out); // set before recursing: a shared subschema is converted once
    if (typeof schema.$ref === 'string') {
      const id = this.register(schema.$ref, direction);
      return id ? Object.assign(out, { $ref: id }) : out;
    }

    for (const [key, value] of Object.entries(schema)) {
      if (key.startsWith('x-') || DROPPED.includes(key)) continue;
      if (SUBSCHEMA_MAPS.includes(key) && value && typeof value === 'object') {
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.convert(v as SchemaObject, direction)]));
      } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) {
        out[key] = value.map((v) => this.convert(v, direction));
      } else if (SUBSCHEMAS.includes(key)) {
        out[key] = Array.isArray(value) ? value.map((v) => this.convert(v, direction)) : this.convert(value, direction);
      } else {
        out[key] = value;
      }
    }
    if (typeof out.format === 'string') allowFormat(this.ajv, out.format);
    if (this.dialect === '3.0') convert30Keywords(schema, out);
    dropInvisibleRequired(out, direction);
    return out;
  }

  /**
   * Registers a circular `#/components/schemas/X` once per direction and returns its Ajv id, or
   * undefined when Ajv refuses the schema (then the reference accepts anything).
   */
  private register(ref: string, direction: Direction): string | undefined {
    const id = `openapi-${direction}${ref.slice(1)}`;
    if (!this.registered.has(id)) {
      this.registered.add(id);
      const converted = this.convert(resolveRef(this.api, ref) ?? {}, direction);
      try {
        this.ajv.addSchema(typeof converted === 'object' ? { ...converted, $id: id } : converted, id);
      } catch {
        this.failed.add(id);
      }
    }
    return this.failed.has(id) ? undefined : id;
  }
}

function convert30Keywords(source: SchemaObject, out: SchemaObject): void {
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof source[flag] !== 'boolean') continue;
    delete out[flag];
    if (source[flag] && typeof source[bound] === 'number') {
      out[flag] = source[bound];
      delete out[bound];
    }
  }
  if (source.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
}

/** A client never sends `readOnly` properties, and never receives `writeOnly` ones. */
function dropInvisibleRequired(out: SchemaObject, direction: Direction): void {
  if (!Array.isArray(out.required) || !out.properties) return;
  const hidden = direction === 'request' ? 'readOnly' : 'writeOnly';
  const required = out.required.filter((name: string) => out.properties[name]?.[hidden] !== true);
  if (required.length !== out.required.length) out.required = required;
}
