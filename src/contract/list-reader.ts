/**
 * Reading a collection's list through the API, page by page by its paging parameters (bounded),
 * and finding in it the record a failed create stored under the run's marker.
 */
import type { Collection } from '../operations/infer-collections.js';
import { paginationOf } from '../operations/pagination.js';
import type { ContractContext } from './context.js';
import { listItems } from './list-items.js';

type Row = Record<string, unknown>;

/** Pages of a list read at most (to find the run's records). */
const MAX_PAGES = 10;

/** The records of a list, page by page (never judged: bookkeeping), and whether it was read to its end; undefined without a list. */
export async function readList(ctx: ContractContext, collection: Collection, scope: Row, label: string): Promise<{ rows: Row[]; complete: boolean } | undefined> {
  const list = ctx.operation(collection, 'list');
  if (!list) return undefined;
  const { limit, offset, page } = paginationOf(list);
  const size = typeof limit?.schema.maximum === 'number' ? limit.schema.maximum : 100;
  const first = typeof page?.schema?.minimum === 'number' ? page.schema.minimum : 1;
  const rows: Row[] = [];
  for (let n = 0; n < MAX_PAGES; n++) {
    const query = [limit && `${limit.name}=${size}`, offset && `${offset.name}=${n * size}`, !offset && page && `${page.name}=${first + n}`].filter(Boolean).join('&');
    const exchange = await ctx.request(list, { label, params: scope, query, intent: 'cleanup' });
    if (exchange.status !== 200) return { rows, complete: false };
    const items = listItems(collection, exchange.json).filter((i) => i && typeof i === 'object');
    rows.push(...items);
    if (!limit || (!offset && !page) || items.length < size) return { rows, complete: true };
  }
  return { rows, complete: false };
}

/**
 * After a create answered 5xx: the record it stored anyway, found in the list by the marker its
 * body carried; `undefined` when none is there (or it cannot be told: no list, no marker).
 */
export async function storedAnyway(ctx: ContractContext, collection: Collection, scope: Row, body: unknown): Promise<Row | undefined> {
  const marker = body && typeof body === 'object' ? Object.values(body).find((v) => typeof v === 'string' && ctx.marker.carries(v)) : undefined;
  if (marker === undefined) return undefined;
  const listed = await readList(ctx, collection, scope, `look for the record a failed create may have stored (${String(marker)})`);
  return listed?.rows.find((row) => Object.values(row).includes(marker));
}
