/**
 * Keys the client chooses: a create whose body carries the record's key (`POST /users` with its
 * `username`) is sent only with a key never sent before that a read showed free, so the suite
 * never overwrites a record of others.
 */
import { mergedProperties } from '../openapi/operations/schema-properties.js';
import { type Collection, type CrudAction, type CrudBinding } from '../openapi/operations/collection.js';
import type { Operation } from '../openapi/operations/operation.js';
import type { Exchange } from './case.js';
import type { ChosenKeys } from './chosen-keys.js';
import type { RequestSpec } from './compose-request.js';
import type { OwnRecords } from './own-records.js';
import { requestSchema } from './request-bodies.js';

/** What choosing a key needs of the run (ContractContext is one). */
export interface KeyChooser {
  keys: ChosenKeys;
  own: OwnRecords;
  binding(op: Operation): CrudBinding | undefined;
  operation(collection: Collection, action: CrudAction): Operation | undefined;
  request(op: Operation, spec: RequestSpec): Promise<Exchange>;
}

/**
 * A create whose body carries a key the client must choose is sent with a key never sent
 * before (a case built from another's body gets a fresh one), once a read showed it free:
 * the spec to send, or why it is not sent.
 */
export async function withChosenKey(ctx: KeyChooser, op: Operation, spec: RequestSpec): Promise<RequestSpec | string> {
  const binding = ctx.binding(op);
  const body = spec.body;
  if (binding?.action !== 'create' || !body || typeof body !== 'object' || Array.isArray(body)) return spec;
  const { collection } = binding;
  const schema = requestSchema(op);
  let key = (body as Record<string, unknown>)[collection.keyProperty];
  if (typeof key !== 'string' || !ctx.keys.chosenBy(op, collection, schema)) return spec;
  if (ctx.keys.usedBefore(key)) {
    key = ctx.keys.fresh(collection, mergedProperties(schema!)[collection.keyProperty]);
    spec = { ...spec, body: { ...body, [collection.keyProperty]: key } };
  }
  const scope = spec.params ?? {};
  if (!(await keyShownFree(ctx, collection, key, scope))) return `no read showed ${collection.keyProperty} ${JSON.stringify(key)} free, and the suite chooses only free keys`;
  ctx.keys.sentWith(key);
  return spec;
}

/**
 * True when a read showed no record at this key: 404, a refusal of the key (400, 422), or the
 * status the server answers for a key that cannot exist (403 on a CMS, learnt from a key made
 * of the run's marker or a record the suite deleted). Without a read operation, never.
 */
export async function keyShownFree(ctx: KeyChooser, collection: Collection, key: unknown, scope: Record<string, unknown>): Promise<boolean> {
  if (ctx.own.isFree(collection, key, scope)) return true;
  const read = ctx.operation(collection, 'read');
  if (!read) return false;
  const exchange = await ctx.request(read, { label: `check that ${collection.keyProperty} ${String(key)} is free before choosing it`, params: { ...scope, [collection.keyParam]: key }, intent: 'unknown' });
  if (ctx.keys.cannotExist(key) && [403, 410].includes(exchange.status) && !ctx.own.unknownAnswers(collection).has(exchange.status)) {
    ctx.own.learnUnknown(collection, exchange.status);
    ctx.own.markFree(collection, key, scope);
  }
  return ctx.own.isFree(collection, key, scope);
}
