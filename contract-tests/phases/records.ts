/**
 * Records the phases work on: created by the suite (with the records they reference created
 * first), or found through the list when the suite must not change anything.
 */
import type { Collection } from '../../src/operations/infer-collections.js';
import type { ContractContext } from '../context.js';

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
  const params = scopeParams(collection);
  const exchange = await ctx.request(create, { label: `create a ${collection.name} record`, params, body });
  return exchange.status < 300 && exchange.json && typeof exchange.json === 'object' ? (exchange.json as Row) : undefined;
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

/** The records of a list response, bare or wrapped (`{items: [...]}`). */
export function listItems(collection: Collection, json: unknown): Row[] {
  const items = collection.listWrapper ? (json as Row | undefined)?.[collection.listWrapper.items] : json;
  return Array.isArray(items) ? (items as Row[]) : [];
}

/** A key no record has: near the top of the key's range, or a generated string. */
export function missingKey(ctx: ContractContext, collection: Collection): unknown {
  const schema = collection.keySchema;
  if (schema.type === 'integer' || schema.type === 'number') {
    const max = typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER;
    return max - ctx.faker.number.int({ min: 1, max: 1000 });
  }
  return ctx.generate(schema, { propertyName: collection.keyProperty });
}

function scopeParams(collection: Collection): Row {
  // Nested collections need their parent's key; the suite does not create those chains yet.
  return Object.fromEntries(collection.scopeParams.map((p) => [p, 'unknown']));
}
