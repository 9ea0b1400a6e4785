/**
 * Records the phases work on: created by the suite (with the records they reference created
 * first), or found through the list when the suite must not change anything.
 */
import { schemaType, type SchemaObject } from '../../openapi/document/schema.js';
import { integerFormatRange } from '../../openapi/generate/integer-formats.js';
import type { Collection } from '../../openapi/operations/collection.js';
import { propertyNamed } from '../../openapi/operations/names.js';
import { requiredProperties } from '../../openapi/operations/schema-properties.js';
import { requestSchema } from '../request-bodies.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { ContractContext } from '../context.js';
import { createdRecords, listItems, recordOf } from '../list-items.js';
import { storedAnyway } from '../list-reader.js';
import type { Variant } from '../request-bodies.js';
import { ownersOf } from '../safety.js';

type Row = Record<string, unknown>;

/** Per collection, a hand-written step that prepares what a create needs (the Petstore's stock). */
export type CreatePreparation = (ctx: ContractContext) => Promise<Row | undefined>;

/** Creates a record through the API, creating what it references first. Undefined if the create fails. */
export async function createRecord(ctx: ContractContext, collection: Collection, overrides: Row = {}, prepare: Record<string, CreatePreparation> = {}): Promise<Row | undefined> {
  const create = ctx.operation(collection, 'create');
  if (!create || ctx.own.keylessCreates.has(collection)) return undefined;
  const refs: Row = {};
  for (const reference of collection.references) {
    const target = ctx.collections.find((c) => c.name === reference.collection);
    if (!target || reference.property in overrides) continue;
    // A record of its own collection (`parent`): one the suite made before, else none (left out; a first folder has no parent).
    if (target === collection) {
      if (reference.property !== collection.keyProperty) refs[reference.property] = ctx.ownKeys(collection)[0];
      continue;
    }
    const record = await someRecord(ctx, target, prepare);
    refs[reference.property] = ownOrLeftOut(ctx, create, reference.property, target, record?.[target.keyProperty]);
  }
  Object.assign(overrides, { ...(await prepare[collection.name]?.(ctx)), ...overrides });
  const body = ctx.bodies.valid(create, refs, overrides);
  if (!ctx.bodies.isValid(create, body)) return undefined; // a create that is not known to be valid would not make a record to work with
  const params = await scopeParams(ctx, collection, create, prepare);
  // Under a parent the suite did not create, or naming a record it did not create: never sent, and said (safety.ts).
  const unsafe = ctx.unsafe(create, params) ?? ctx.unownedReference(create, body);
  if (unsafe) {
    ctx.neverSent(create, unsafe);
    ctx.skip('positive_data_acceptance', create, `not sent (create a ${collection.name} record): ${unsafe}`);
    return undefined;
  }
  if (body && typeof body === 'object' && body[collection.keyProperty] !== undefined && !(await isFree(ctx, collection, body[collection.keyProperty], params))) return undefined;
  // A valid body refused (a constraint the document does not state) is reported once; other valid bodies are tried, so the record's operations still run.
  // Once another kind of body worked, valid() gives that kind first (the refusal was reported once).
  const label = `create a ${collection.name} record`;
  const tries: Array<Partial<Variant> & { body?: Row }> = [{ body }];
  for (let i = 0; i < tries.length; i++) {
    const attempt = tries[i];
    if (i > 0 && attempt.body && attempt.body[collection.keyProperty] !== undefined && !(await isFree(ctx, collection, attempt.body[collection.keyProperty], params))) continue;
    const exchange = await ctx.request(create, { label: i === 0 ? label : `${label}, another valid body after a refusal (${attempt.why})`, params, body: attempt.body, intent: i === 0 ? 'valid' : 'retry' });
    if (exchange.error) return undefined; // no answer at all: another body would get none either
    // The first refusal says what to vary: other values of the fields its answer names come first.
    if (i === 0 && exchange.status >= 300) tries.push(...ctx.bodies.others(create, refs, overrides, { answer: exchange.text }));
    // A create that failed may still have stored its record: found by its marker, it is the suite's (and no other is made).
    const stored = exchange.status >= 500 ? await storedAnyway(ctx, collection, params, attempt.body) : undefined;
    if (stored) {
      const key = stored[collection.keyProperty];
      if (key === undefined || key === null) {
        ctx.own.keylessCreates.add(collection);
        return undefined;
      }
      ctx.own.add({ collection, key, params: { ...params, [collection.keyParam]: key } });
    }
    // The record inside its envelope (`{"data": {...}}`); of an array answered, the first (the others are the suite's too, counted by OwnRecords).
    const answered = createdRecords(collection, exchange.json)[0];
    if (!stored && (exchange.status >= 300 || !answered)) continue;
    if (i > 0) {
      ctx.bodies.prefer(create, attempt as Variant);
      ctx.unstatedRule(create, label, `accepted with another valid body (${attempt.why})`);
    }
    let record = stored ?? answered!;
    // A key the answer leaves out may be in its Location (`Location: /roles/7`): the item path's parameter there.
    const location = exchange.headers.get('location') ?? undefined;
    const fromLocation = location && ctx.operationAt('get', location);
    if (!hasKey(record[collection.keyProperty]) && fromLocation && fromLocation.op.path === collection.itemPath && hasKey(fromLocation.params[collection.keyParam])) {
      record = { ...record, [collection.keyProperty]: fromLocation.params[collection.keyParam] };
    }
    creations.set(record, { params, body: attempt.body as Row | undefined, location });
    return record;
  }
  return undefined;
}

/**
 * The key a body's reference takes: a record the suite created; one it only listed (a collection
 * the document gives no create for) where the body requires the reference, and then the write is
 * held back by safety.ts and said; otherwise the reference is left out (undefined).
 */
export function ownOrLeftOut(ctx: ContractContext, op: Operation, property: string, target: Collection, key: unknown): unknown {
  if (ctx.isOwn(target, key)) return key;
  const schema = requestSchema(op);
  return schema && requiredProperties(schema).includes(property) ? key : undefined;
}

/** A key the suite can put in a path: not missing, not null, not empty. */
export function hasKey(key: unknown): boolean {
  return key !== undefined && key !== null && key !== '';
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
 * A key the client must choose is used only once a read says no record has it (404, or the
 * refusal the server answers for a key that cannot exist): a server that upserts would otherwise
 * overwrite someone else's record. Without a read, it is not used.
 */
function isFree(ctx: ContractContext, collection: Collection, key: unknown, scope: Row): Promise<boolean> {
  return ctx.keyShownFree(collection, key, scope);
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
    // Every other key of the path too (`taskId` of `/taskLabels/task/{taskId}/label/{labelId}`), from the record its property names.
    const params: Row = { [collection.keyParam]: owner[parentCollection.keyProperty] };
    for (const name of collection.scopeParams) {
      const reference = collection.references.find((r) => r.property === propertyNamed(name, [r.property]));
      const target = reference && ctx.collections.find((c) => c.name === reference.collection);
      const record = target && target !== parentCollection ? await someRecord(ctx, target, prepare) : undefined;
      if (!target || !record) return undefined;
      params[name] = record[target.keyProperty];
    }
    const exchange = await ctx.request(read, { label: `read the ${collection.name} record of a new ${parentCollection.name} record`, params });
    return exchange.status === 200 ? recordOf(collection, exchange.json) : undefined;
  }
  const list = ctx.operation(collection, 'list');
  if (!list || collection.scopeParams.length) return undefined;
  const exchange = await ctx.request(list, { label: `list ${collection.name}` });
  const items = listItems(collection, exchange.json);
  return items[0];
}

/**
 * A key no record has that fits both the record's key schema and the item path's parameter: their
 * types, formats (`int32` up to 2147483647, `int64` up to the largest exact integer), bounds, and
 * for a string their patterns and lengths. An integer is drawn near the top of the range both
 * allow; anything else is generated. Both validators must accept it (a few draws).
 */
export function missingKey(ctx: ContractContext, collection: Collection): unknown {
  const parameter = ctx.operations.find((op) => op.path === collection.itemPath)?.parameters.find((p) => p.in === 'path' && p.name === collection.keyParam)?.schema;
  const schemas = [collection.keySchema, parameter].filter((s): s is SchemaObject => s !== undefined);
  const numeric = schemas.every((s) => ['integer', 'number'].includes(schemaType(s) ?? ''));
  let key: unknown;
  let chosen: unknown;
  // Of a few valid draws, the longest: a short key (`n2` of `^n[0-9]+$`) may well name a record of others.
  for (let draw = 0, valid = 0; draw < 10 && valid < (numeric ? 1 : 3); draw++) {
    // From the key's schema alone: an example of the document names a record that may well exist (`authors`).
    key = numeric ? nearTheTop(ctx, schemas) : ctx.generateOwn(parameter ?? collection.keySchema, { propertyName: collection.keyProperty });
    if (!schemas.every((s) => ctx.requestValidator(s)?.(key) !== false)) continue;
    valid++;
    if (chosen === undefined || String(key).length > String(chosen).length) chosen = key;
  }
  return chosen ?? key;
}

/** An integer a little below the highest value every schema allows (and above the lowest). */
function nearTheTop(ctx: ContractContext, schemas: SchemaObject[]): number {
  const high = Math.min(...schemas.map((s) => bound(s, 'maximum', 'exclusiveMaximum', -1)));
  const low = Math.max(...schemas.map((s) => bound(s, 'minimum', 'exclusiveMinimum', 1)));
  return high - ctx.faker.number.int({ min: 0, max: Math.max(0, Math.min(1000, Math.floor((high - low) / 2))) });
}

/** A schema's highest (`step` -1) or lowest (+1) integer: its bound, exclusive (3.0's boolean or 3.1's number), its format's range, the exact integers. */
function bound(s: SchemaObject, inclusive: string, exclusive: string, step: -1 | 1): number {
  const edge = step < 0 ? Math.min : Math.max;
  const range = integerFormatRange(s.format) ?? [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  const candidates = [range[step < 0 ? 1 : 0]];
  if (typeof s[inclusive] === 'number') candidates.push(s[exclusive] === true ? s[inclusive] + step : s[inclusive]);
  if (typeof s[exclusive] === 'number') candidates.push(s[exclusive] + step);
  return step < 0 ? Math.floor(edge(...candidates)) : Math.ceil(edge(...candidates));
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
    // The parent whose item path the path extends (`projectKey`), or the collection the parameter names (`collection` of `/fields/{collection}`).
    const parent = ownersOf(op, name, ctx.collections, true).find((owner) => !owner.item && owner.collection !== collection)?.collection;
    // Only a parent of the suite's own: a create under one it did not create is never sent (safety.ts).
    const record = parent && (ctx.options.readOnly ? undefined : await someRecord(ctx, parent, prepare));
    if (parent && record) Object.assign(params, recordParams(parent, record), { [name]: record[parent.keyProperty] });
  }
  return params;
}

/** Every path parameter of an operation, generated valid, then the given ones on top. */
export function pathParams(ctx: ContractContext, op: Operation, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const p of op.parameters.filter((p) => p.in === 'path')) params[p.name] = ctx.parameterValue(op, p);
  return { ...params, ...overrides };
}
