/**
 * Keys the client must choose: a text key a create's body carries (required by the document, or
 * optional there and required by the server, as a CMS's `collection`). The suite never leaves
 * such a key out and never sends one twice: every create gets a fresh key, made of the run's
 * marker where the key's schema allows it (`contract_1a2b3c4d_k3`, a key no record of others can
 * have), else drawn from its schema. It is sent only after a read showed it free.
 */
import type { SchemaObject } from '../openapi/document/schema.js';
import type { Collection } from '../openapi/operations/collection.js';
import { mergedProperties } from '../openapi/operations/schema-properties.js';
import type { Operation } from '../openapi/operations/operation.js';
import type { RunMarker } from './marker.js';

export interface KeyMaking {
  marker: RunMarker;
  /** The validator of a schema (undefined when Ajv refuses it). */
  accepts: (schema: SchemaObject, value: unknown) => boolean;
  generate: (schema: SchemaObject, hints?: { propertyName?: string }) => unknown;
  /** The schema of a path parameter of the collection's item path (the key as a path spells it). */
  keyParameter: (collection: Collection) => SchemaObject | undefined;
}

export class ChosenKeys {
  constructor(private readonly deps: KeyMaking) {}

  private count = 0;
  /** Every key put in a create's body, so that none is sent twice. */
  private readonly used = new Set<string>();
  /** Keys made of the run's marker: no record the suite did not create can have one. */
  private readonly marked = new Set<string>();

  /**
   * True when a create's body carries the record's key and the key is text the client writes
   * (not `readOnly`, not an integer the server counts): the suite must choose it.
   */
  chosenBy(op: Operation, collection: Collection, requestSchema: SchemaObject | undefined): boolean {
    if (!requestSchema || collection.keyless || !collection.keyProperty) return false;
    const property = mergedProperties(requestSchema)[collection.keyProperty];
    if (!property || property.readOnly) return false;
    const type = Array.isArray(property.type) ? property.type.filter((t: string) => t !== 'null') : [property.type];
    return op.method === 'post' && type.includes('string');
  }

  /** A key of the collection never sent before, that the request's property and the item path's parameter accept. */
  fresh(collection: Collection, property: SchemaObject): unknown {
    const schemas = [property, collection.keySchema, this.deps.keyParameter(collection)].filter((s): s is SchemaObject => s !== undefined);
    const fits = (value: unknown) => schemas.every((s) => this.deps.accepts(s, value)) && !this.used.has(String(value));
    const n = ++this.count;
    const base = `${this.deps.marker.prefix}-k${n}`;
    for (const candidate of [base, base.replace(/-/g, '_'), base.replace(/[^A-Za-z0-9]/g, ''), base.replace(/-/g, '_').toLowerCase()]) {
      if (fits(candidate)) return this.use(candidate, true);
    }
    let drawn: unknown;
    for (let draw = 0; draw < 10; draw++) {
      drawn = this.deps.generate(property, { propertyName: collection.keyProperty });
      if (fits(drawn)) break;
    }
    return this.use(drawn, false);
  }

  /** True when the key was already sent in a create (a case built from another's body carries its key). */
  usedBefore(key: unknown): boolean {
    return this.sent.has(String(key));
  }

  /** Notes a key sent in a create. */
  sentWith(key: unknown): void {
    this.sent.add(String(key));
  }

  private readonly sent = new Set<string>();

  /** True for a key made of the run's marker: a read that refuses it shows how the server answers a key no record has. */
  cannotExist(key: unknown): boolean {
    return this.marked.has(String(key));
  }

  private use(key: unknown, marked: boolean): unknown {
    this.used.add(String(key));
    if (marked) this.marked.add(String(key));
    return key;
  }
}
