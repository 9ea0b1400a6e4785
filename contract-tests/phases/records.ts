/**
 * Records the phases work on: created by the suite (with the records they reference created
 * first), or found through the list when the suite must not change anything.
 */
import type { Collection } from '../../src/operations/infer-collections.js';
import type { Operation } from '../../src/operations/operation.js';
import type { ContractContext } from '../context.js';
import { listItems } from '../list-items.js';
import { collectionNamedBy, pathParams } from './phase.js';

type Row = Record<string, unknown>;

/** Per collection, a hand-written step that prepares what a create needs (the Petstore's stock). */
export type CreatePreparation = (ctx: ContractContext) => Promise<Row | undefined>;

/** Creates a record through the API, creating what it references first. Undefined if the create fails. */
export async function createRecord(ctx: ContractContext, collection: Collection, overrides: Row = {}, prepare: Record<string, CreatePreparation> = {}): Promise<Row | undefined> {
  const create = ctx.operation(collection, 'create');
  if (!create) return undefined;
  const refs: Row = {};
  for (const reference of collection.references) {
    const target = ctx.collections.find((c) => c.name === reference.collection);
    if (!target || target === collection || reference.property in overrides) continue;
    const record = await someRecord(ctx, target, prepare);
    refs[reference.property] = record?.[target.keyProperty];
  }
  Object.assign(overrides, { ...(await prepare[collection.name]?.(ctx)), ...overrides });
  const body = ctx.validBody(create, refs, overrides);
  if (!ctx.isValidBody(create, body)) return undefined; // a create that is not known to be valid would not make a record to work with
  const params = await scopeParams(ctx, collection, create, prepare);
  if (body && typeof body === 'object' && body[collection.keyProperty] !== undefined && !(await isFree(ctx, collection, body[collection.keyProperty], params))) return undefined;
  const exchange = await ctx.request(create, { label: `create a ${collection.name} record`, params, body });
  if (exchange.status >= 300 || !exchange.json || typeof exchange.json !== 'object') return undefined;
  const record = exchange.json as Row;
  creations.set(record, { params, body: body as Row | undefined, location: exchange.headers.get('location') ?? undefined });
  return record;
}

/** How a record was created: the path parameters it lives under (`vaultUuid` of `/vaults/{vaultUuid}/items`), the body sent, the Location answered. */
export interface Creation {
  params: Row;
  body?: Row;
  location?: string;
}
const creations = new WeakMap<Row, Creation>();

export function creationOf(record: Row): Creation | undefined {
  return creations.get(record);
}

/** The path parameters of an item operation on a record: its parents' keys and its own. */
export function recordParams(collection: Collection, record: Row): Row {
  return { ...creations.get(record)?.params, [collection.keyParam]: record[collection.keyProperty] };
}

/**
 * A key the client must choose is used only once a read says no record has it (404): a server
 * that upserts would otherwise overwrite someone else's record. Without a read, it is not used.
 */
async function isFree(ctx: ContractContext, collection: Collection, key: unknown, scope: Row): Promise<boolean> {
  const read = ctx.operation(collection, 'read');
  if (!read) return false;
  const exchange = await ctx.request(read, { label: `check that ${collection.keyProperty} ${String(key)} is free before choosing it`, params: { ...scope, [collection.keyParam]: key }, intent: 'unknown' });
  return exchange.status === 404;
}

/** A record to point at: a fresh one where the API allows creating, else the first listed. */
export async function someRecord(ctx: ContractContext, collection: Collection, prepare: Record<string, CreatePreparation> = {}): Promise<Row | undefined> {
  if (!ctx.options.readOnly && ctx.operation(collection, 'create')) return createRecord(ctx, collection, {}, prepare);
  return listedRecord(ctx, collection, prepare);
}

/**
 * An existing record: the first of the list, or, for a sub-resource keyed by a creatable parent
 * (`/store/inventory/{petId}`), the one that comes with a parent created for the purpose.
 */
export async function listedRecord(ctx: ContractContext, collection: Collection, prepare: Record<string, CreatePreparation> = {}): Promise<Row | undefined> {
  const parent = collection.references.find((r) => r.property === collection.keyProperty);
  const parentCollection = parent && ctx.collections.find((c) => c.name === parent.collection);
  const read = ctx.operation(collection, 'read');
  if (!ctx.options.readOnly && parentCollection && ctx.operation(parentCollection, 'create') && read) {
    const owner = await createRecord(ctx, parentCollection, {}, prepare);
    if (!owner) return undefined;
    const exchange = await ctx.request(read, { label: `read the ${collection.name} record of a new ${parentCollection.name} record`, params: { [collection.keyParam]: owner[parentCollection.keyProperty] } });
    return exchange.status === 200 ? (exchange.json as Row) : undefined;
  }
  const list = ctx.operation(collection, 'list');
  if (!list || collection.scopeParams.length) return undefined;
  const exchange = await ctx.request(list, { label: `list ${collection.name}` });
  const items = listItems(collection, exchange.json);
  return items[0];
}

/** The records of a list response (moved to list-items.ts, which the checks share; exported here as before). */
export { listItems };

/** A key no record has: near the top of the key's range (as the record and the path parameter both allow), or a generated string. */
export function missingKey(ctx: ContractContext, collection: Collection): unknown {
  const schema = collection.keySchema;
  const parameter = ctx.operations.find((op) => op.path === collection.itemPath)?.parameters.find((p) => p.in === 'path' && p.name === collection.keyParam)?.schema;
  if (schema.type === 'integer' || schema.type === 'number') {
    const maxima = [schema.maximum, parameter?.maximum].filter((m): m is number => typeof m === 'number');
    const max = maxima.length ? Math.min(...maxima) : Number.MAX_SAFE_INTEGER;
    return max - ctx.faker.number.int({ min: 1, max: Math.min(1000, Math.max(1, Math.floor(max / 2))) });
  }
  return ctx.generate(parameter ?? schema, { propertyName: collection.keyProperty });
}

/**
 * The parent keys of a nested collection (`projectKey` of `/projects/{projectKey}/issues`): a
 * parent the suite creates first where the document has a collection for it, else the first the
 * server lists, else a value that fits the parameter's schema (`/members/{memberId}/loans` with no
 * members to create or list).
 */
async function scopeParams(ctx: ContractContext, collection: Collection, op: Operation, prepare: Record<string, CreatePreparation>): Promise<Row> {
  const params = pathParams(ctx, op, {});
  for (const name of collection.scopeParams) {
    const parent = collectionNamedBy(ctx.collections, name, collection.path);
    // A parent the suite cannot create (read-only vaults) is one the server lists: adding children under it changes no record of its own.
    const record = parent && (ctx.options.readOnly ? undefined : await someRecord(ctx, parent, prepare));
    if (parent && record) Object.assign(params, recordParams(parent, record));
  }
  return params;
}