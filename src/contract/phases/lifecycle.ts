/**
 * The stateful lifecycle of every collection the document defines: create, read back equal,
 * update, read back updated, find it in the list, filter, paginate, delete, read gives 404,
 * delete again gives 404. A collection without a create (a sub-resource) gets read and update,
 * and its record is put back as it was.
 */
import type { SchemaObject } from '../../openapi/document/schema.js';
import type { Collection } from '../../openapi/operations/collection.js';
import type { Operation } from '../../openapi/operations/operation.js';
import { mergedProperties } from '../../openapi/operations/schema-properties.js';
import { isPaginationParam, paginationOf } from '../../openapi/operations/pagination.js';
import type { Exchange } from '../case.js';
import type { CheckId } from '../check-id.js';
import type { ContractContext } from '../context.js';
import { listItems } from '../list-items.js';
import { nextCursor, walkList } from '../list-reader.js';
import type { Phase, Targets } from './phase.js';
import { notSafe } from './phase.js';
import { pastRefusal } from './past-refusal.js';
import { createRecord, creationOf, hasKey, listedRecord, recordParams } from './records.js';

type Row = Record<string, unknown>;

/** The path parameters a record's collection lives under (none for a top-level one). */
const scopeOf = (record: Row): Row => creationOf(record)?.params ?? {};

async function readBack(ctx: ContractContext, collection: Collection, record: Row, check: 'create_read_back' | 'update_persists', expected: Row, fields?: string[]) {
  const read = ctx.operation(collection, 'read');
  if (!read) return;
  await ctx.request(read, {
    label: check === 'create_read_back' ? 'read back the created record' : 'read back the updated record',
    params: recordParams(collection, record),
    purpose: { check, kind: 'read-back', expected, fields, envelope: collection.envelope },
  });
}

/** The fields a request set that a read returns: the body minus `writeOnly` properties (never read back) and minus what the record does not have. */
function sentFields(collection: Collection, body: Row | undefined): Row {
  const properties = mergedProperties(collection.schema);
  return Object.fromEntries(Object.entries(body ?? {}).filter(([name]) => properties[name] && !properties[name].writeOnly && !properties[name].readOnly));
}

/** A `Location` the create sent leads to the created record (through a GET of the document). */
async function followLocation(ctx: ContractContext, create: Operation, record: Row, location: string | undefined): Promise<void> {
  if (!location) return;
  const target = ctx.operationAt('get', location);
  if (!target) {
    ctx.fail(create, 'create_read_back', 'follow the Location of the created record', `Location ${location}, which no GET of the document matches`, 'a Location that leads to the created record');
    return;
  }
  await ctx.request(target.op, {
    label: `follow the Location ${location}`,
    params: target.params,
    purpose: { check: 'create_read_back', kind: 'location', expected: record, envelope: ctx.binding(target.op)?.collection.envelope },
  });
}

async function update(ctx: ContractContext, collection: Collection, record: Row, targets: Targets): Promise<void> {
  for (const action of ['replace', 'merge'] as const) {
    const op = ctx.operation(collection, action);
    if (!op) continue;
    if (notSafe(ctx, op, recordParams(collection, record), 'update_persists')) continue;
    const refs = Object.fromEntries(collection.references.map((r) => [r.property, record[r.property]]));
    // A body that names the record it changes (`PUT /pet`, sent only when vouched for) names this one, the suite's own.
    if (ctx.binding(op)?.keyFromBody) refs[collection.keyProperty] = record[collection.keyProperty];
    const overrides = await targets.prepare[`${collection.name}:${action}`]?.(ctx);
    let body = ctx.bodies.valid(op, refs, overrides);
    if (!body) continue;
    const label = `${action} the record`;
    const spec = { label, params: recordParams(collection, record), body, purpose: { check: 'update_persists' as const, kind: 'update' as const } };
    let exchange = await ctx.request(op, spec);
    // A valid update refused (a rule the document does not state): reported once, then other valid bodies, so the update is still seen to persist.
    const accepted = await pastRefusal(ctx, op, spec, exchange, refs, overrides, 'update_persists');
    if (accepted) ({ exchange, body } = accepted);
    if (exchange.status >= 200 && exchange.status < 300) {
      const fields = Object.keys(body).filter((f) => f in mergedProperties(collection.schema) && f !== collection.keyProperty);
      await readBack(ctx, collection, record, 'update_persists', body, fields);
    }
  }
}

async function findInList(ctx: ContractContext, collection: Collection, record: Row): Promise<void> {
  const list = ctx.operation(collection, 'list');
  if (!list) return;
  const key = record[collection.keyProperty];
  const keyFilter = list.parameters.find((p) => p.in === 'query' && (p.name === collection.keyProperty || p.name === `${collection.keyProperty}s`));
  if (keyFilter) {
    await ctx.request(list, { label: `list by ${keyFilter.name}`, params: scopeOf(record), query: `${keyFilter.name}=${encodeURIComponent(String(key))}`, purpose: { check: 'list_contains_created', collection, key } });
    return;
  }
  const walked = await walkList(ctx, list, collection, { label: 'look for the created record in the list', scope: scopeOf(record), maxPages: 50 });
  if (walked.rows.some((item) => String(item[collection.keyProperty]) === String(key))) return ctx.passed(list, 'list_contains_created');
  if (!walked.pages.every((page) => ctx.sent(page))) return;
  if (!walked.complete) return ctx.skip('list_contains_created', list, 'the list was not read to its end (a page refused, or no way the suite knows to ask for the next page)');
  ctx.fail(list, 'list_contains_created', 'look for the created record in the list', 'a list without it on any page', `the list contains ${collection.keyProperty} ${String(key)}`);
}

async function filters(ctx: ContractContext, collection: Collection, record: Row): Promise<void> {
  const list = ctx.operation(collection, 'list');
  if (!list) return;
  const properties = mergedProperties(collection.schema);
  const { limit } = paginationOf(list);
  const keyFilter = list.parameters.find((p) => p.in === 'query' && p.name === collection.keyProperty);
  const page = limit ? `&${limit.name}=${Number(limit.schema.maximum ?? 100)}` : '';
  for (const p of list.parameters.filter((p) => p.in === 'query' && !isPaginationParam(p.name) && p !== keyFilter && properties[p.name])) {
    const value = record[p.name];
    if (value === undefined || value === null || typeof value === 'object') continue;
    await ctx.request(list, {
      params: scopeOf(record),
      label: `filter ${p.name}=${String(value)}`,
      query: `${p.name}=${encodeURIComponent(String(value))}${page}`,
      purpose: { check: 'filter_conformance', kind: 'only-matching', collection, property: p.name, value },
    });
    // The record must not come back under another value of the filter.
    const declared: SchemaObject = p.schema;
    const schema = declared.type === 'array' ? declared.items : declared;
    const other = Array.isArray(schema?.enum) ? schema.enum.find((v: unknown) => v !== value) : undefined;
    if (other !== undefined && keyFilter) {
      await ctx.request(list, {
        params: scopeOf(record),
        label: `filter ${p.name}=${String(other)} with ${keyFilter.name}=${String(record[collection.keyProperty])}`,
        query: `${p.name}=${encodeURIComponent(String(other))}&${keyFilter.name}=${encodeURIComponent(String(record[collection.keyProperty]))}`,
        purpose: { check: 'filter_conformance', kind: 'excluded', collection, property: p.name, value, other, key: record[collection.keyProperty] },
      });
    }
  }
}

/**
 * Two pages of two records: by page size and offset (`limit`/`offset`), or by page size and page
 * number (`per_page`/`page`, `_limit`/`_page`, the first page numbered by the parameter's minimum, else 1).
 */
async function paginate(ctx: ContractContext, collection: Collection, scope: Row): Promise<void> {
  const list = ctx.operation(collection, 'list');
  const { limit, offset, page: number, cursor } = paginationOf(list);
  if (list && limit && cursor && !offset && !number) return paginateByCursor(ctx, collection, list, limit.name, cursor.name, scope);
  if (!list || !limit || (!offset && !number)) return;
  const firstPage = typeof number?.schema?.minimum === 'number' ? number.schema.minimum : 1;
  const page = (start: number) => (offset ? `${limit.name}=2&${offset.name}=${start}` : `${limit.name}=2&${number!.name}=${firstPage + start / 2}`);
  const first = await ctx.request(list, { label: 'page 1 of size 2', params: scope, query: page(0), purpose: { check: 'pagination_conformance', collection, size: 2, start: 0 } });
  // A page number stays within the pages the list reported (a server may refuse a page past the last: Django REST framework's 404).
  const beyond = offset ? undefined : lastPageReason(collection, first);
  if (beyond) return ctx.skip('pagination_conformance', list, `page 2 not asked for: ${beyond}`);
  await ctx.request(list, { label: 'page 2 of size 2', params: scope, query: page(2), purpose: { check: 'pagination_conformance', collection, size: 2, start: 2, previous: keysOf(collection, first) } });
}

/**
 * Why the first page of size 2 is the last one, as the list reported it: fewer than two records
 * on it, a total of two or less (`X-Total-Count`, or the wrapper's total), or a next page given as
 * null (`"next": null`); undefined when a second page may exist.
 */
export function lastPageReason(collection: Collection, first: Exchange): string | undefined {
  if (first.status < 200 || first.status >= 300) return 'the first page was not answered';
  const count = listItems(collection, first.json).length;
  if (count < 2) return `the first page held ${count} record${count === 1 ? '' : 's'}`;
  const body = first.json as Row | undefined;
  const wrapped = collection.listWrapper?.total && body && typeof body === 'object' && !Array.isArray(body) ? body[collection.listWrapper.total] : undefined;
  const total = Number(first.headers.get('x-total-count') ?? wrapped ?? NaN);
  if (!Number.isNaN(total) && total <= 2) return `the list reported ${total} records in all`;
  if (body && typeof body === 'object' && !Array.isArray(body) && 'next' in body && body.next === null) return 'the first page reported no next page';
  return undefined;
}

/** The keys of the records of a list response, as text. */
const keysOf = (collection: Collection, exchange: Exchange) => listItems(collection, exchange.json).map((item) => String(item[collection.keyProperty]));

/**
 * Two pages of two records by cursor: the cursor of the next page comes from the first page's
 * `Link: <...>; rel="next"` or a body field named like one (`next_cursor`, `nextCursor`, `next`,
 * `nextPageToken`, at the top or under `meta`, `links` or `pagination`). The second page must not
 * repeat the first. Without a next cursor on a full first page, nothing can be judged (skipped).
 */
async function paginateByCursor(ctx: ContractContext, collection: Collection, list: Operation, limit: string, cursor: string, scope: Row): Promise<void> {
  const first = await ctx.request(list, { label: 'page 1 of size 2, by cursor', params: scope, query: `${limit}=2`, purpose: { check: 'pagination_conformance', collection, size: 2 } });
  const next = nextCursor(first, cursor);
  if (next === undefined) {
    ctx.skip('pagination_conformance', list, keysOf(collection, first).length < 2 ? 'the list holds fewer than two records: no second page to ask for' : 'the first page gave no cursor for the next one (Link rel="next" or a next-cursor field) that the suite recognises');
    return;
  }
  await ctx.request(list, {
    label: 'page 2 of size 2, by the cursor page 1 gave',
    params: scope,
    query: `${limit}=2&${cursor}=${encodeURIComponent(next)}`,
    purpose: { check: 'pagination_conformance', collection, size: 2, previous: keysOf(collection, first) },
  });
}

/** Where a create's body may be an array of records, one create of several: each record it answers is the suite's (and deleted at the end). */
async function createSeveral(ctx: ContractContext, create: Operation, scope: Row): Promise<void> {
  const body = ctx.bodies.validArray(create);
  if (body) await ctx.request(create, { label: `create ${body.length} records in one request (an array)`, params: scope, body, purpose: { check: 'create_read_back', kind: 'create' } });
}

async function remove(ctx: ContractContext, collection: Collection, record: Row): Promise<void> {
  const del = ctx.operation(collection, 'delete');
  if (!del) return;
  const params = recordParams(collection, record);
  const deleted = await ctx.request(del, { label: 'delete the record', params, purpose: { check: 'use_after_delete', kind: 'delete' } });
  if (deleted.status < 200 || deleted.status >= 300) return;
  const read = ctx.operation(collection, 'read');
  if (read) await ctx.request(read, { label: 'read after delete', params, intent: 'unknown', purpose: { check: 'use_after_delete', kind: 'read-after-delete' } });
  await ctx.request(del, { label: 'delete again', params, intent: 'unknown', purpose: { check: 'repeated_delete', kind: 'delete-again' } });
}

const LIFECYCLE_CHECKS: CheckId[] = ['create_read_back', 'update_persists', 'list_contains_created', 'filter_conformance', 'pagination_conformance', 'use_after_delete', 'repeated_delete'];

export const lifecyclePhase: Phase = {
  name: 'lifecycle',
  checks: LIFECYCLE_CHECKS,
  changesState: true,
  async run(ctx, targets) {
    // Nested collections too (`/projects/{projectKey}/issues`): their records are created under a parent the suite creates first.
    for (const collection of ctx.collections) {
      if (!ctx.operation(collection, 'create')) {
        // A record that comes with one the suite creates (the inventory item of its own pet) may be changed; no other.
        const record = await listedRecord(ctx, collection, targets.prepare);
        const ops = ctx.operations.filter((op) => ctx.binding(op)?.collection === collection);
        if (!record) {
          for (const op of ops) ctx.skip(LIFECYCLE_CHECKS, op, 'the collection has no create, and no record of it could be found');
          continue;
        }
        if (!ctx.isOwn(collection, record[collection.keyProperty], creationOf(record)?.params)) {
          for (const op of ops) ctx.skip(LIFECYCLE_CHECKS, op, 'the collection has no create, and its records are not the suite\'s to change');
          continue;
        }
        await update(ctx, collection, record, targets);
        continue;
      }
      const create = ctx.operation(collection, 'create')!;
      if (!ctx.bodies.canBuildValid(create)) {
        for (const op of ctx.operations.filter((o) => ctx.binding(o)?.collection === collection)) ctx.skip(LIFECYCLE_CHECKS, op, 'no create body could be built that its schema is known to accept (the schema allows none, or does not compile)');
        continue;
      }
      const record = await createRecord(ctx, collection, {}, targets.prepare);
      if (!record) {
        // Its creates were refused (each reported), or stored records with no key (said in the clean-up's lines).
        for (const op of ctx.operations.filter((o) => ctx.binding(o)?.collection === collection)) ctx.skip(LIFECYCLE_CHECKS, op, 'no record of the collection could be created: the valid creates the suite sent were refused');
        continue;
      }
      if (!hasKey(record[collection.keyProperty])) {
        // Every later step names the record by its key: none is sent without one (never `/roles/` or `/roles/undefined`).
        for (const op of ctx.operations.filter((o) => ctx.binding(o)?.collection === collection)) ctx.skip(LIFECYCLE_CHECKS, op, `the create answered no ${collection.keyProperty} for its record (not in its body, nor in a Location): no request can name it`);
        continue;
      }
      const creation = creationOf(record);
      // What the create answered, and over it what was sent: a server may add fields, never drop or change one it was sent.
      await readBack(ctx, collection, record, 'create_read_back', { ...record, ...sentFields(collection, creation?.body) });
      await followLocation(ctx, create, record, creation?.location);
      await findInList(ctx, collection, record);
      await filters(ctx, collection, record);
      await paginate(ctx, collection, scopeOf(record));
      await createSeveral(ctx, create, scopeOf(record));
      await update(ctx, collection, record, targets);
      await remove(ctx, collection, record);
    }
  },
};
