/**
 * A phase generates one family of cases from the document and sends them.
 */
import type { Collection } from '../../src/operations/infer-collections.js';
import type { Operation } from '../../src/operations/operation.js';
import type { CheckId, Exchange } from '../case.js';
import type { ContractContext } from '../context.js';
import { listedRecord, recordParams, someRecord, type CreatePreparation } from './records.js';

export interface Phase {
  name: string;
  /** The checks its cases feed; it runs when one of them is selected (response-level checks judge all traffic). */
  checks: CheckId[];
  /** Phases that change state are skipped with --read-only. */
  changesState: boolean;
  run: (ctx: ContractContext, targets: Targets) => Promise<void>;
}

/** One existing record per collection, found or created once and shared by the phases. */
export class Targets {
  private readonly cache = new Map<string, Promise<Record<string, unknown> | undefined>>();
  constructor(
    private readonly ctx: ContractContext,
    readonly prepare: Record<string, CreatePreparation> = {},
  ) {}

  record(collection: Collection): Promise<Record<string, unknown> | undefined> {
    if (!this.cache.has(collection.name)) {
      const find = collection.references.some((r) => r.property === collection.keyProperty) || this.ctx.options.readOnly
        ? listedRecord(this.ctx, collection, this.prepare)
        : someRecord(this.ctx, collection, this.prepare);
      this.cache.set(collection.name, find);
    }
    return this.cache.get(collection.name)!;
  }

  /**
   * Path parameters for an operation: the target record's key for an item path, and for a path
   * below one (`/notes/{noteId}/text`) the key of that collection's target too. What no record
   * gives is generated from the parameter's schema, and the parameters are then `guessed`.
   */
  async params(op: Operation): Promise<Record<string, unknown> | undefined> {
    const binding = this.ctx.binding(op);
    const collection = binding?.collection ?? this.ctx.collections.find((c) => c.itemPath === op.path);
    if (collection && op.path === collection.itemPath) {
      const record = await this.record(collection);
      return record ? recordParams(collection, record) : undefined;
    }
    const params = pathParams(this.ctx, op);
    const found: Record<string, unknown> = {};
    for (const parameter of op.parameters.filter((p) => p.in === 'path')) {
      if (parameter.name in found) continue;
      const owner = collectionNamedBy(this.ctx.collections, parameter.name, op.path);
      const record = owner && (await this.record(owner));
      // The owner's key and, for a nested owner, its parents' keys (the record was made or listed under them).
      if (owner && record) Object.assign(found, recordParams(owner, record));
    }
    let guessed = false;
    for (const parameter of op.parameters.filter((p) => p.in === 'path')) {
      const key = found[parameter.name];
      // A record's key is used only where it fits the parameter (a document may disagree with itself).
      if (key !== undefined && this.ctx.requestValidator(parameter.schema)?.(key) !== false) params[parameter.name] = key;
      else guessed = true;
    }
    if (guessed) this.guesses.add(params);
    return params;
  }

  /** True when some path parameters were generated rather than taken from a record (a 404 is then a fair answer). */
  guessed(params: Record<string, unknown>): boolean {
    return this.guesses.has(params);
  }

  private readonly guesses = new WeakSet<Record<string, unknown>>();
}

/** The collection whose records a path parameter names, for a path at or below its item path (`projectKey` in `/projects/{projectKey}/issues`). */
export function collectionNamedBy(collections: Collection[], param: string, path: string): Collection | undefined {
  return collections.find((c) => c.keyParam === param && (path === c.itemPath || path.startsWith(`${c.itemPath}/`)));
}

/**
 * For an operation whose body names the record it changes (`PUT /pet` with the pet's id): the key
 * of a record the suite created, or undefined when it has none (the operation is then skipped:
 * another key could name someone else's record).
 */
export async function ownBodyKey(ctx: ContractContext, targets: Targets, op: Operation): Promise<unknown> {
  const binding = ctx.binding(op);
  if (!binding?.keyFromBody) return undefined;
  const key = (await targets.record(binding.collection))?.[binding.collection.keyProperty];
  return key !== undefined && ctx.isOwn(binding.collection, key) ? key : undefined;
}

/** True, with the checks skipped and why, when the operation's body would have to name a record the suite did not create. */
export async function namesForeignRecord(ctx: ContractContext, targets: Targets, op: Operation, checks: CheckId | CheckId[]): Promise<boolean> {
  if (!ctx.binding(op)?.keyFromBody || (await ownBodyKey(ctx, targets, op)) !== undefined) return false;
  ctx.skip(checks, op, 'its body names the record it changes, and the suite has none of its own to name');
  return true;
}

/**
 * A valid body for an operation whose references point at records that exist (the targets of
 * their collections), so a refusal is about what a case breaks, not about a dangling reference.
 */
export async function validBodyFor(ctx: ContractContext, targets: Targets, op: Operation): Promise<Record<string, unknown> | undefined> {
  const binding = ctx.binding(op);
  const collection = binding?.collection;
  const refs: Record<string, unknown> = {};
  if (binding?.keyFromBody) {
    const key = await ownBodyKey(ctx, targets, op);
    if (key === undefined) return undefined;
    refs[binding.collection.keyProperty] = key;
  }
  for (const reference of collection?.references ?? []) {
    const target = ctx.collections.find((c) => c.name === reference.collection);
    if (!target || target === collection || reference.property === collection?.keyProperty) continue;
    const record = await targets.record(target);
    if (record) refs[reference.property] = record[target.keyProperty];
  }
  return ctx.validBody(op, refs);
}

/**
 * True when the path of an item operation names a record the suite created (a change may be
 * aimed at it), or when the operation names no record of a collection the suite knows.
 */
export function ownTarget(ctx: ContractContext, op: Operation, params: Record<string, unknown>): boolean {
  const collection = ctx.collections.find((c) => c.itemPath === op.path);
  return !collection || ctx.isOwn(collection, params[collection.keyParam], params);
}

/**
 * Sends a write and, when it is refused (4xx), reads the suite's own records of the collection
 * again: a refused request must change nothing (a DELETE answered 404 that deleted another record,
 * a PUT answered 400 that stored half of its body). `records`: the target only, or every record
 * of the collection the suite created. Reported under `check`.
 */
export async function refusedChangesNothing(ctx: ContractContext, targets: Targets, op: Operation, check: 'negative_data_rejection' | 'unknown_resource', send: () => Promise<Exchange>, records: 'target' | 'all' = 'target'): Promise<Exchange> {
  const collection = ctx.collections.find((c) => c.itemPath === op.path || c.path === op.path);
  const read = collection && ctx.operation(collection, 'read');
  if (op.method === 'get' || op.method === 'head' || !collection || !read || collection.scopeParams.length) return send();
  const target = await targets.record(collection);
  const keys = records === 'all' ? ctx.ownKeys(collection) : target && ctx.isOwn(collection, target[collection.keyProperty]) ? [target[collection.keyProperty]] : [];
  const before = new Map<unknown, Exchange>();
  for (const key of keys) before.set(key, await ctx.request(read, { label: 'read the suite\'s record before a request that must be refused', params: { [collection.keyParam]: key } }));
  const exchange = await send();
  if (exchange.status < 400 || exchange.status >= 500) return exchange;
  for (const [key, was] of before) {
    if (was.status !== 200) continue;
    await ctx.request(read, {
      label: `read the suite's record ${String(key)} after ${exchange.case.label} was refused`,
      params: { [collection.keyParam]: key },
      purpose: { check, kind: 'unchanged', before: was.json, refused: { method: exchange.case.method, label: exchange.case.label, status: exchange.status } },
    });
  }
  return exchange;
}

/** Every path parameter of an operation, generated valid, then the given ones on top. */
export function pathParams(ctx: ContractContext, op: Operation, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const p of op.parameters.filter((p) => p.in === 'path')) params[p.name] = ctx.generate(p.schema, { propertyName: p.name });
  return { ...params, ...overrides };
}

export function isItemOperation(ctx: ContractContext, op: Operation): boolean {
  return ctx.collections.some((c) => c.itemPath === op.path);
}
