/**
 * The run's marker: a recognisable value (`contract-1a2b3c4d-7`) the suite writes into one free
 * text field of every record it creates, so that its records can be told from everyone else's in
 * a list, even when the answer to the create did not say which key the record got (a 500 that
 * stored the row anyway).
 */
import type { SchemaObject } from '../openapi/document/schema.js';
import { mergedProperties } from '../openapi/operations/schema-properties.js';

/** Fields most likely to be free text, tried first. */
const PREFERRED = /^(name|title|label|description|desc|note|notes|comment|summary|text|body|friendly_?name|display_?name)$/i;

export class RunMarker {
  /** `contract-1a2b3c4d`: the same for the whole run, another for the next one. */
  readonly prefix: string;
  private count = 0;

  constructor(id = globalThis.crypto.randomUUID().slice(0, 8)) {
    this.prefix = `contract-${id}`;
  }

  /** A new marked value for one record. */
  next(): string {
    return `${this.prefix}-${++this.count}`;
  }

  /** True when a record (or any value inside it) holds a value of this run's marker. */
  carries(value: unknown, depth = 0): boolean {
    if (typeof value === 'string') return value.startsWith(this.prefix);
    if (!value || typeof value !== 'object' || depth > 4) return false;
    return Object.values(value).some((v) => this.carries(v, depth + 1));
  }

  /**
   * The property of a request schema that can hold the marker: a string with no enum, format or
   * pattern, long enough, not read-only, not excluded; `accepts` confirms the value fits the property.
   */
  field(schema: SchemaObject, exclude: Set<string>, accepts: (property: SchemaObject, value: string) => boolean): string | undefined {
    const sample = `${this.prefix}-999`;
    const candidates = Object.entries(mergedProperties(schema)).filter(([name, p]) =>
      !exclude.has(name) && p && typeof p === 'object' && typeOf(p) === 'string' && !p.readOnly && !p.enum && p.const === undefined && !p.format && !p.pattern && accepts(p, sample),
    );
    return (candidates.find(([name]) => PREFERRED.test(name)) ?? candidates[0])?.[0];
  }
}

/** True for a value a run's marker wrote (`contract-1a2b3c4d-7`), this run's or another's: a cassette's bodies hold the marker of the run that found them. */
export function isMarked(value: unknown): boolean {
  return typeof value === 'string' && /^contract-[^-\s]+-\d+$/.test(value);
}

function typeOf(schema: SchemaObject): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
}
