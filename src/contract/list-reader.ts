/**
 * Reading a collection's list through the API, page by page by its paging parameters (bounded),
 * and finding in it the record a failed create stored under the run's marker.
 */
import type { Collection } from '../openapi/operations/collection.js';
import { paginationOf } from '../openapi/operations/pagination.js';
import type { Operation } from '../openapi/operations/operation.js';
import type { Exchange } from './case.js';
import type { ContractContext } from './context.js';
import { listItems } from './list-items.js';

type Row = Record<string, unknown>;

/** Pages of a list read at most (to find the run's records). */
const MAX_PAGES = 10;

/** How to walk a list: its scope (parent keys), a filter query, a page size, and how its requests are sent. */
export interface WalkOptions {
  label: string;
  scope?: Row;
  /** Filters, already written as a query (`status=sold&tag=a`). */
  filterQuery?: string;
  /** Records per page (bounded by the page-size parameter's maximum); default that maximum, else 100. */
  size?: number;
  /** `cleanup`: bookkeeping, never judged; otherwise each page is a valid request, judged like any other. */
  intent?: 'cleanup';
  maxPages?: number;
}

export interface WalkedList {
  /** Each page's answer, in order (the last may be a refusal). */
  pages: Exchange[];
  /** The records of every page answered 200, in order. */
  rows: Row[];
  /** True when the last page read was the list's end: fewer records than asked, no next cursor, or a list without pages. */
  complete: boolean;
  /** The page size asked for, if the list has one. */
  size?: number;
}

/**
 * Reads a list page by page: by offset (`limit`/`offset`), by page number (`per_page`/`page`, the
 * first numbered by the parameter's minimum, else 1) or by cursor (the next one from `Link:
 * rel="next"` or a next-cursor field of the body). A list with a page size and no way to ask for
 * the next page is complete only when its first page held fewer records than asked. A page
 * number past the last may be answered 404: the list ended before it.
 */
export async function walkList(ctx: ContractContext, list: Operation, collection: Collection, options: WalkOptions): Promise<WalkedList> {
  const { limit, offset, page, cursor } = paginationOf(list);
  const maximum = typeof limit?.schema.maximum === 'number' ? limit.schema.maximum : 100;
  const size = limit ? Math.min(options.size ?? maximum, maximum) : undefined;
  const firstPage = typeof page?.schema?.minimum === 'number' ? page.schema.minimum : 1;
  const walked: WalkedList = { pages: [], rows: [], complete: false, size };
  let next: string | undefined;
  for (let n = 0; n < (options.maxPages ?? MAX_PAGES); n++) {
    const paging = size === undefined ? [] : [`${limit!.name}=${size}`, offset ? `${offset.name}=${n * size}` : page ? `${page.name}=${firstPage + n}` : next !== undefined && cursor ? `${cursor.name}=${encodeURIComponent(next)}` : undefined];
    const query = [options.filterQuery, ...paging].filter(Boolean).join('&');
    // A page number past the last may be refused (Django REST framework's 404): asked for, not claimed to exist.
    const byNumber = n > 0 && !offset && page !== undefined;
    const exchange = await ctx.request(list, { label: n === 0 ? options.label : `${options.label}, page ${n + 1}`, params: options.scope, query, intent: options.intent ?? (byNumber ? 'unknown' : undefined) });
    walked.pages.push(exchange);
    if (byNumber && exchange.status === 404) return { ...walked, pages: walked.pages.slice(0, -1), complete: true };
    if (!ctx.sent(exchange) || exchange.status !== 200) return walked;
    const items = listItems(collection, exchange.json);
    walked.rows.push(...items);
    if (size === undefined || items.length < size) return { ...walked, complete: true };
    if (!offset && !page) {
      next = cursor ? nextCursor(exchange, cursor.name) : undefined;
      if (next === undefined) return { ...walked, complete: cursor !== undefined && !nextGiven(exchange) };
    }
  }
  return walked;
}

/** The records of a list, page by page (never judged: bookkeeping), and whether it was read to its end; undefined without a list. */
export async function readList(ctx: ContractContext, collection: Collection, scope: Row, label: string): Promise<{ rows: Row[]; complete: boolean } | undefined> {
  const list = ctx.operation(collection, 'list');
  if (!list) return undefined;
  const { rows, complete } = await walkList(ctx, list, collection, { label, scope, intent: 'cleanup' });
  return { rows, complete };
}

const NEXT_FIELDS = ['next_cursor', 'nextCursor', 'next', 'nextPageToken', 'next_page_token', 'cursor'];

/** Where a page names the next one: `Link: <...>; rel="next"`, or a body field named like a next cursor at the top or under `meta`, `links` or `pagination`. */
function nextHolders(exchange: Exchange): Array<Record<string, unknown>> {
  const body = exchange.json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  return [body, body.meta, body.links, body.pagination].filter((h): h is Record<string, unknown> => !!h && typeof h === 'object');
}

/** True when the page says there is a next one (a `rel="next"` link, or a non-empty next-cursor field). */
function nextGiven(exchange: Exchange): boolean {
  if (/rel="?next"?/.test(exchange.headers.get('link') ?? '')) return true;
  return nextHolders(exchange).some((h) => NEXT_FIELDS.some((name) => typeof h[name] === 'string' && h[name] !== ''));
}

/** The cursor of the next page a page gives (see nextHolders), as the `cursor` parameter takes it; undefined when it gives none. */
export function nextCursor(exchange: Exchange, cursor: string): string | undefined {
  const link = /<([^>]+)>\s*;\s*rel="?next"?/.exec(exchange.headers.get('link') ?? '')?.[1];
  if (link) return new URL(link, 'http://link.invalid').searchParams.get(cursor) ?? undefined;
  for (const holder of nextHolders(exchange)) {
    for (const name of NEXT_FIELDS) {
      const value = holder[name];
      if (typeof value === 'string' && value) return /^https?:\/\/|^\//.test(value) ? (new URL(value, 'http://link.invalid').searchParams.get(cursor) ?? undefined) : value;
    }
  }
  return undefined;
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
