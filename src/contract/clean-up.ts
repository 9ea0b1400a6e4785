/**
 * The suite leaves nothing behind, and says what it may have left. At the end of a run it looks in
 * the lists of every collection it sent a create to for records carrying the run's marker (a create
 * answered 500 may still have stored its row), then deletes its records children first, in passes
 * while a pass makes progress (a parent refused while a child still points at it goes in the next
 * pass). What it cannot delete, or may have created without knowing where, comes back as lines.
 */
import type { Collection } from '../openapi/operations/collection.js';
import type { ContractContext } from './context.js';
import { pathParamsOf, type OwnRecord } from './own-records.js';
import { readList } from './list-reader.js';

/** Passes over the records left; each must delete at least one more. */
const MAX_PASSES = 5;

type Row = Record<string, unknown>;

/** Deletes the suite's records; the lines say what stays, or may. */
export async function cleanUp(ctx: ContractContext): Promise<string[]> {
  const left = await adoptMarked(ctx);
  const failed = new Map<OwnRecord, string>();
  let progress = true;
  for (let pass = 0; progress && ctx.own.size > 0 && pass < MAX_PASSES; pass++) {
    progress = false;
    for (const record of ctx.own.inDeleteOrder(ctx.collections)) {
      const target = record.collection && record.key !== undefined ? { op: ctx.operation(record.collection, 'delete'), params: record.params ?? { [record.collection.keyParam]: record.key } } : ctx.operationAt('delete', record.location);
      if (!target?.op) {
        left.push(`${describe(record)}: not deleted, the document has no DELETE for it`);
        ctx.own.drop(record);
        continue;
      }
      const exchange = await ctx.request(target.op, { label: 'clean-up', params: target.params, intent: 'cleanup' });
      if ((exchange.status >= 200 && exchange.status < 300) || exchange.status === 404) {
        ctx.own.drop(record);
        failed.delete(record);
        progress = true;
      } else {
        failed.set(record, `its DELETE answered ${exchange.status || exchange.error}`);
      }
    }
  }
  for (const [record, why] of failed) left.push(`${describe(record)}: not deleted, ${why}`);
  return left;
}

/** One line per record: the request that made it and its key (`POST /books answered 201, key 7`), or where it is. */
function describe(record: OwnRecord): string {
  const made = record.created ?? `a ${record.collection?.name ?? 'record'} record`;
  const key = record.key !== undefined ? `key ${String(record.key)}` : record.location ? `at ${record.location}` : 'no key shown';
  return `${made}, ${key}`;
}

/**
 * Finds the records carrying the run's marker in the lists of the collections the suite sent a
 * create to, and takes those it did not know as its own (to be deleted). Returns what it found
 * and cannot delete (no key), and the creates that may have stored a record it could not find.
 */
async function adoptMarked(ctx: ContractContext): Promise<string[]> {
  const left: string[] = [];
  const searched = new Map<Collection, string | undefined>();
  /** The marked rows found, as JSON: a create whose marker is in one was found. */
  const seen: string[] = [];
  for (const collection of ctx.own.createdIn) {
    const list = ctx.operation(collection, 'list');
    if (!list) {
      searched.set(collection, 'the document has no list to look in');
      continue;
    }
    for (const scope of scopesOf(ctx, collection)) {
      const { rows, complete } = (await readList(ctx, collection, scope, 'look for the run\'s records by its marker'))!;
      searched.set(collection, complete ? undefined : 'not among the first pages of the list');
      for (const row of rows.filter((r) => ctx.marker.carries(r))) {
        seen.push(JSON.stringify(row));
        const key = row[collection.keyProperty];
        if (key === undefined || key === null) {
          left.push(`a ${collection.name} record carrying the run's marker, no key shown (no ${collection.keyProperty} to delete it by): ${JSON.stringify(row).slice(0, 160)}`);
        } else if (!ctx.isOwn(collection, key, scope)) {
          ctx.own.add({ collection, key, params: { ...scope, [collection.keyParam]: key }, created: `a ${collection.name} record found by the run's marker` });
        }
      }
    }
  }
  for (const exchange of ctx.own.possibleCreates) {
    if (exchange.status >= 300 && exchange.status < 500) continue; // a refusal stored nothing, or the list above found what it did
    const binding = ctx.binding(exchange.case.operation);
    const collection = binding?.action === 'create' ? binding.collection : undefined;
    const marks = markersIn(ctx, parse(exchange.case.body));
    const found = marks.some((mark) => seen.some((row) => row.includes(JSON.stringify(mark))));
    // A 2xx made a record: unless its marker was found in the list, it stays, even where the list was read to its end.
    const made = exchange.status >= 200 && exchange.status < 300;
    const why = !collection ? 'no collection of the document lists it' : marks.length === 0 ? 'its body had no field to carry the run\'s marker' : found ? undefined : (searched.get(collection) ?? (made ? 'the list does not show it' : undefined));
    const what = exchange.status < 300 && exchange.status ? 'created a record the suite cannot find to delete' : 'may have stored a record the suite could not find';
    if (why) left.push(`${exchange.case.method} ${exchange.case.path} answered ${exchange.status || exchange.error}, no key shown: it ${what} (${why})`);
  }
  return left;
}

/** The parents a collection's records were created under (one empty scope for a top-level collection). */
function scopesOf(ctx: ContractContext, collection: Collection): Row[] {
  if (collection.scopeParams.length === 0) return [{}];
  const scopes = new Map<string, Row>();
  for (const exchange of ctx.exchanges) {
    if (ctx.binding(exchange.case.operation)?.collection !== collection || ctx.binding(exchange.case.operation)?.action !== 'create') continue;
    const params = pathParamsOf(exchange);
    const scope = Object.fromEntries(collection.scopeParams.map((name) => [name, params[name]]));
    scopes.set(JSON.stringify(scope), scope);
  }
  return [...scopes.values()];
}

/** The run's marker values a request body carries. */
function markersIn(ctx: ContractContext, value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return ctx.marker.carries(value) ? [value] : [];
  if (!value || typeof value !== 'object' || depth > 4) return [];
  return Object.values(value).flatMap((v) => markersIn(ctx, v, depth + 1));
}

function parse(body: string | Uint8Array | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
}
