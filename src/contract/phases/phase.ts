/**
 * A phase generates one family of cases from the document and sends them.
 */
import type { Collection } from '../../openapi/operations/collection.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { CheckId, Exchange } from '../case.js';
import type { Breach } from '../confirmation.js';
import type { ContractContext } from '../context.js';
import { ownersOf } from '../safety.js';
import { listedRecord, missingKey, ownOrLeftOut, pathParams, recordParams, someRecord, type CreatePreparation } from './records.js';

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
      if (record) return recordParams(collection, record);
      // No record of its own (a join table's row): each key from the record it names (`taskId` of a task, `labelId` of a label).
      if (!collection.references.length) return undefined;
    }
    const params = pathParams(this.ctx, op);
    let found: Record<string, unknown> = {};
    for (const parameter of op.parameters.filter((p) => p.in === 'path')) {
      if (parameter.name in found) continue;
      for (const { collection: owner, item } of ownersOf(op, parameter.name, this.ctx.collections)) {
        const record = await this.record(owner);
        if (!record) continue;
        // The owner's key and, for a nested owner, its parents' keys (the record was made or listed under them).
        found = { ...(item ? { [parameter.name]: record[owner.keyProperty] } : recordParams(owner, record)), ...found };
        break;
      }
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

/**
 * True, with the checks skipped and why, when a request of the operation with these path
 * parameters could change records the suite did not create (see safety.ts): it is never sent.
 */
export function notSafe(ctx: ContractContext, op: Operation, params: Record<string, unknown>, checks: CheckId | CheckId[]): boolean {
  const reason = ctx.unsafe(op, params);
  if (reason) ctx.skip(checks, op, `not sent: ${ctx.neverSent(op, reason)}`);
  return reason !== undefined;
}

/**
 * Path parameters that name a key no record has, under the suite's own parents, shown free by a
 * read (404) before a write is aimed at it; undefined when it cannot be shown free (no read).
 */
export async function freeItemParams(ctx: ContractContext, targets: Targets, op: Operation, collection: Collection): Promise<Record<string, unknown> | undefined> {
  const read = ctx.operation(collection, 'read');
  if (!read) return undefined;
  const parents = { ...pathParams(ctx, op), ...(await targets.params(op)) };
  // A generated key may name a record (a small id space): a few tries, each read first.
  for (let attempt = 0; attempt < 3; attempt++) {
    const key = missingKey(ctx, collection);
    const params = { ...parents, [collection.keyParam]: key };
    const exchange = await ctx.request(read, { label: `check that ${collection.keyParam} ${String(key)} is free`, params, intent: 'unknown' });
    if (exchange.status === 404) return params;
  }
  return undefined;
}

/**
 * True when a request of the operation with these broken path parameters is safe to send
 * (safety.ts), after a read of the same key where it was not yet: the read is a negative case of
 * its own (the same rule broken at the same place), and its refusal (404, 400, 422) shows that no
 * record has that key.
 */
export async function shownFree(ctx: ContractContext, op: Operation, params: Record<string, unknown>, breaks: Breach): Promise<boolean> {
  if (!ctx.unsafe(op, params)) return true;
  const collection = ctx.collections.find((c) => c.itemPath === op.path);
  const read = collection && ctx.operation(collection, 'read');
  if (!read) return false;
  const label = `check that ${collection.keyParam} ${JSON.stringify(params[collection.keyParam])} names no record`;
  await ctx.request(read, { label, params, intent: 'invalid', breaks, fits: [400, 404, 422], purpose: { check: 'negative_data_rejection', kind: 'invalid-input' } });
  return !ctx.unsafe(op, params);
}

/**
 * A valid body for an operation whose references point at records that exist (the targets of
 * their collections), so a refusal is about what a case breaks, not about a dangling reference.
 */
export async function validBodyFor(ctx: ContractContext, targets: Targets, op: Operation): Promise<Record<string, unknown> | undefined> {
  return ctx.bodies.valid(op, await validRefsFor(ctx, targets, op));
}

/** The values of a valid body that name records (see validBodyFor): the references, and the key of a body that names the record it changes. */
export async function validRefsFor(ctx: ContractContext, targets: Targets, op: Operation): Promise<Record<string, unknown>> {
  const binding = ctx.binding(op);
  const collection = binding?.collection;
  const refs: Record<string, unknown> = {};
  // A body that names the record it changes (`PUT /pet`, sent only when vouched for) names the suite's own where it has one.
  const own = binding?.keyFromBody ? (await targets.record(binding.collection))?.[binding.collection.keyProperty] : undefined;
  if (binding?.keyFromBody && own !== undefined && ctx.isOwn(binding.collection, own)) refs[binding.collection.keyProperty] = own;
  for (const reference of collection?.references ?? []) {
    const target = ctx.collections.find((c) => c.name === reference.collection);
    if (!target || reference.property === collection?.keyProperty) continue;
    // A record of its own collection (`parent`): the suite's own target, else none.
    if (target === collection) {
      const own = (await targets.record(target))?.[target.keyProperty];
      refs[reference.property] = ctx.isOwn(target, own) ? own : undefined;
      continue;
    }
    const record = await targets.record(target);
    if (record) refs[reference.property] = ownOrLeftOut(ctx, op, reference.property, target, record[target.keyProperty]);
  }
  return refs;
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

export function isItemOperation(ctx: ContractContext, op: Operation): boolean {
  return ctx.collections.some((c) => c.itemPath === op.path);
}
