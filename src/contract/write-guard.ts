/**
 * Which requests of the suite may be sent without touching records of others (safety.ts holds the
 * rules): a write proven by its shape or by path parameters naming the suite's own records, a
 * body that refers only to records of the suite's, or an operation the caller vouched for
 * (--allow-write). What was refused, and why, is kept for the report's `Never sent`.
 */
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../openapi/document/schema.js';
import { referencesIn } from '../openapi/operations/record-references.js';
import { type Collection, type CrudBinding, type Reference } from '../openapi/operations/collection.js';
import type { Operation } from '../openapi/operations/operation.js';
import type { OwnRecords } from './own-records.js';
import { requestSchema } from './request-bodies.js';
import { isCreate, isRead, unownedReference, unprovenTarget, unsafeWrite } from './safety.js';

export interface WriteGuardOptions {
  /** The collections the suite works on (addressable.ts). */
  collections: Collection[];
  binding: (op: Operation) => CrudBinding | undefined;
  /** The records the suite created, and the keys reads showed free. */
  own: OwnRecords;
  /** Operation ids whose writes the caller vouches for (`all`: every one). */
  allowWrites: readonly string[];
  /** The validator of a request schema: a value that does not fit a collection's key is no reference to it. */
  requestValidator: (schema: SchemaObject) => ValidateFunction | undefined;
}

/** @example const guard = new WriteGuard({ collections, binding, own, allowWrites: [], requestValidator }); guard.unsafe(deletePet, { petId: 7 }) */
export class WriteGuard {
  constructor(private readonly options: WriteGuardOptions) {}

  /**
   * Why a request to an operation, with these path parameters, could change records the suite did
   * not create (see safety.ts), or undefined when it is a read, a create, or aimed at the suite's own.
   */
  unsafe(op: Operation, params: Record<string, unknown>): string | undefined {
    if (this.vouchedFor(op)) return undefined;
    const { reason, proven } = this.writeShape(op);
    if (reason || proven) return reason;
    return unprovenTarget(op, params, this.options.collections, (c, key, scope) => this.options.own.has(c, key, this.options.collections, scope), (c, key, scope) => this.options.own.isFree(c, key, scope), isCreate(op, this.options.binding(op)));
  }

  /**
   * Why a write's body refers to a record the suite did not create (see unownedReference), or
   * undefined: each property that refers to another collection (or to the record's own, `parent`)
   * holds the key of a record of the suite's, a key a read showed free, or no key at all.
   */
  unownedReference(op: Operation, body: unknown): string | undefined {
    let references = this.bodyReferences.get(op);
    if (!references) {
      const schema = requestSchema(op);
      this.bodyReferences.set(op, (references = schema ? referencesIn(schema, this.options.binding(op)?.collection, this.options.collections) : []));
    }
    const known = (c: Collection, value: unknown) => this.options.own.keys(c).some((key) => String(key) === String(value)) || this.options.own.isFree(c, value);
    const fitsKey = (c: Collection, value: unknown) => this.options.requestValidator(c.keySchema)?.(value) !== false;
    return unownedReference(body, references, this.options.collections, known, fitsKey);
  }

  private readonly bodyReferences = new Map<Operation, Reference[]>();

  /**
   * Requests refused because they could change records of others, by operation (the first reason
   * each): an operation none of whose valid requests was sent is listed under `Never sent` with it.
   */
  readonly refusedWrites = new Map<Operation, string>();

  /** Notes that a request of the operation was not sent, and why; gives the reason back. */
  neverSent(op: Operation, reason: string): string {
    if (!this.refusedWrites.has(op)) this.refusedWrites.set(op, reason);
    return reason;
  }

  /**
   * What the document alone says of an operation's writes, worked out once per operation (every
   * request asks): why it is unsafe, or `proven` when it is safe whatever its parameters (a read,
   * a create on a collection); otherwise its path parameters decide.
   */
  private writeShape(op: Operation): { reason?: string; proven: boolean } {
    let shape = this.writeShapes.get(op);
    if (!shape) {
      const binding = this.options.binding(op);
      const reason = unsafeWrite(op, binding, this.options.collections);
      // A create under a parent (`POST /fields/{collection}`) is proven only by its path parameters, as a write to one record is.
      shape = { reason, proven: !reason && (isRead(op) || (isCreate(op, binding) && !/\{/.test(op.path))) };
      this.writeShapes.set(op, shape);
    }
    return shape;
  }

  private readonly writeShapes = new Map<Operation, { reason?: string; proven: boolean }>();

  /** True when the caller vouched that the operation's writes touch nothing of others (--allow-write). */
  vouchedFor(op: Operation): boolean {
    const allowed = this.options.allowWrites;
    return allowed.includes('all') || allowed.includes(op.id);
  }
}
