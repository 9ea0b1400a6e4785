/**
 * Lists: the filters and pagination a list operation declares, compiled once per operation.
 * A query parameter named like a record property, whatever its case and `_`/`-` separators
 * (`Status` is `status`, `DateCreated` is `date_created`), filters on it (a repeated one matches
 * any of its values); `limit`/`offset` (or `page`/`per_page`) paginate; the total goes to
 * `X-Total-Count`. The query parameters that filter nothing are said once, when the list is compiled.
 */
import type { ParameterSpec } from '../../openapi/document/schema.js';
import type { Collection } from '../../openapi/operations/collection.js';
import { singular } from '../../openapi/operations/names.js';
import { mergedProperties } from '../../openapi/operations/schema-properties.js';
import { CURSOR_PARAMS, LIMIT_PARAMS, OFFSET_PARAMS, PAGE_PARAMS, paginationOf } from '../../openapi/operations/pagination.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { RecordCollection, StoredRecord } from '../../state/state-store.js';
import { clientPath, type ActionInput } from '../pipeline/exchange.js';
import { errors, type ApiError } from '../../core/api-error.js';
import { fromBase64, toBase64Url } from '../../core/bytes.js';
import { indexOf, versionOf } from '../../state/speedups.js';

const DEFAULT_PAGE_SIZE = 20;

export interface Page {
  items: StoredRecord[];
  total: number;
  headers: Record<string, string>;
  /** For a list paged by cursor: the cursor of the next page, or null on the last. */
  next?: string | null;
}

/** A cursor is opaque to clients; here it carries the offset of the page it starts. */
export const encodeCursor = (offset: number) => toBase64Url(`o${offset}`);
function decodeCursor(text: string): number | undefined {
  const bytes = fromBase64(text);
  const match = bytes && bytes.length <= 10 ? /^o(\d{1,9})$/.exec(String.fromCharCode(...bytes)) : null;
  return match ? Number(match[1]) : undefined;
}

interface Filter {
  param: string;
  property: string;
}

/**
 * @param warn told once, here, of the query parameters that filter nothing (no property is named
 *   like them, and they do not page or sort)
 */
export function compileListQuery(operation: Operation, collection: Collection, warn?: (message: string) => void): (state: RecordCollection, scope: string, input: ActionInput) => Page | ApiError {
  const query = operation.parameters.filter((p) => p.in === 'query');
  const pagination = paginationOf(operation);
  const limitParam = pagination.limit;
  const offsetParam = pagination.offset;
  const pageParam = offsetParam ? undefined : pagination.page;
  const cursorParam = offsetParam || pageParam ? undefined : pagination.cursor;
  const maxItems = listMaxItems(operation);
  const defaultLimit = Number(limitParam?.schema.default ?? Math.min(DEFAULT_PAGE_SIZE, maxItems ?? DEFAULT_PAGE_SIZE));
  const { filters, unapplied } = compileFilters(query, [limitParam, offsetParam, pageParam, cursorParam], collection);
  if (unapplied.length) warn?.(describeUnapplied(operation, unapplied));

  return (state, scope, input) => {
    const q = input.params.query;
    const limit = limitParam ? Number(q[limitParam.name] ?? defaultLimit) : (maxItems ?? Infinity);
    const firstPage = Number(pageParam?.schema.minimum ?? 1);
    const cursor = cursorParam && q[cursorParam.name] !== undefined ? decodeCursor(String(q[cursorParam.name])) : 0;
    if (cursor === undefined) return errors.validation([{ path: `query.${cursorParam!.name}`, rule: 'cursor', message: 'is not a cursor this list gave' }]);
    const offset = offsetParam
      ? Number(q[offsetParam.name] ?? 0)
      : pageParam
        ? (Number(q[pageParam.name] ?? firstPage) - firstPage) * limit
        : cursor;
    const active = filters
      .filter((f) => q[f.param] !== undefined)
      .map((f) => ({ property: f.property, values: (Array.isArray(q[f.param]) ? (q[f.param] as unknown[]) : [q[f.param]]).map(String) }));
    const { items, total } = select(state, scope, active, collection.keyProperty, offset, limit);
    if (cursorParam) {
      const next = offset + items.length < total && items.length > 0 ? encodeCursor(offset + items.length) : null;
      const headers: Record<string, string> = { 'X-Total-Count': String(total) };
      if (next) headers.Link = `<${clientPath(input, withParam(input.url, cursorParam.name, next))}>; rel="next"`;
      return { items, total, headers, next };
    }
    return { items, total, headers: pageHeaders(input, total, offset, limit, offsetParam ?? pageParam, firstPage) };
  };
}

interface ActiveFilter {
  property: string;
  values: string[];
}

/**
 * The page and the total. Without filters: the page by walking from the start, the total from the
 * size. With filters: the candidates of the most selective indexed filter (or of the keys asked
 * for), checked against the others. Nothing walks, copies or sorts the whole collection unless a
 * filter has no index (nested collections).
 */
function select(state: RecordCollection, scope: string, active: ActiveFilter[], keyProperty: string, offset: number, limit: number): { items: StoredRecord[]; total: number } {
  const records = state.records(scope);
  if (active.length === 0) return { items: page(records.values(), offset, limit), total: records.size };
  const byKey = active.find((f) => f.property === keyProperty);
  const index = indexOf(state);
  let candidates: Iterable<string> | undefined;
  let driver: ActiveFilter | undefined;
  if (byKey) {
    driver = byKey;
    candidates = [...new Set(byKey.values)].filter((k) => records.has(k)).sort((a, b) => compareKeys(a, b));
  } else if (scope === '' && index) {
    driver = active.filter((f) => index.isIndexed(f.property)).sort((a, b) => index.countWhere(a.property, a.values) - index.countWhere(b.property, b.values))[0];
    candidates = driver && index.keysWhere(driver.property, driver.values);
  }
  const rest = active.filter((f) => f !== driver).map((f) => ({ property: f.property, values: new Set(f.values) }));
  if (candidates && driver && rest.length > 0) {
    // Several filters: the matching keys are computed once per state of the collection, so a
    // client paging or polling the same query does not walk the candidates every time.
    const keys = memoised(state, scope, active, () => [...candidates!].filter((key) => rest.every((f) => f.values.has(String(records.get(key)![f.property])))));
    return { items: keys.slice(offset, offset + limit).map((key) => records.get(key)!), total: keys.length };
  }
  if (candidates && driver && index && driver !== byKey && rest.length === 0) {
    // One indexed filter: the total is the size of its postings, and the page reads only its keys.
    return { items: page(mapKeys(candidates, records), offset, limit), total: index.countWhere(driver.property, driver.values) };
  }
  const matches = (record: StoredRecord) => rest.every((f) => f.values.has(String(record[f.property])));
  const items: StoredRecord[] = [];
  let total = 0;
  const consider = (record: StoredRecord) => {
    if (!matches(record)) return;
    if (total >= offset && items.length < limit) items.push(record);
    total++;
  };
  if (candidates) {
    for (const key of candidates) consider(records.get(key)!);
  } else {
    const all = active.map((f) => ({ property: f.property, values: new Set(f.values) }));
    for (const record of records.values()) if (all.every((f) => f.values.has(String(record[f.property])))) consider(record);
  }
  return { items, total };
}

const MEMO_SIZE = 32;
const memo = new WeakMap<RecordCollection, Map<string, { version: number; keys: string[] }>>();

/** The keys of a query, cached per collection, query and version of the collection (a few queries each). */
function memoised(state: RecordCollection, scope: string, active: ActiveFilter[], compute: () => string[]): string[] {
  const id = `${scope}\u0000${active.map((f) => `${f.property}=${[...f.values].sort().join(',')}`).sort().join('&')}`;
  const version = versionOf(state);
  if (version === undefined) return compute();
  let cache = memo.get(state);
  if (!cache) memo.set(state, (cache = new Map()));
  const hit = cache.get(id);
  if (hit && hit.version === version) return hit.keys;
  const keys = compute();
  cache.delete(id);
  if (cache.size >= MEMO_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(id, { version, keys });
  return keys;
}

function* mapKeys(keys: Iterable<string>, records: ReadonlyMap<string, StoredRecord>): Generator<StoredRecord> {
  for (const key of keys) yield records.get(key)!;
}

function page(records: Iterator<StoredRecord>, offset: number, limit: number): StoredRecord[] {
  const items: StoredRecord[] = [];
  let skipped = 0;
  for (let next = records.next(); !next.done && items.length < limit; next = records.next()) {
    if (skipped < offset) skipped++;
    else items.push(next.value);
  }
  return items;
}

/** Keys asked for by the key filter, in list order: numerically when they are numbers. */
function compareKeys(a: string, b: string): number {
  return /^-?\d+$/.test(a) && /^-?\d+$/.test(b) ? Number(a) - Number(b) : a.localeCompare(b);
}

/** A name as filters compare it: case, `_`, `-` and spaces ignored (`DateCreated`, `date_created`, `date-created`). */
const filterName = (name: string) => name.toLowerCase().replace(/[-_ ]/g, '');

const PAGING = new Set([...LIMIT_PARAMS, ...OFFSET_PARAMS, ...PAGE_PARAMS, ...CURSOR_PARAMS].map(filterName));
/** Parameters that page, order or shape a list rather than filter it: never said to be unapplied. */
const SHAPING = new Set(['sort', 'sortby', 'sortorder', 'order', 'orderby', 'direction', 'dir', 'fields', 'field', 'select', 'expand', 'include', 'embed', 'groupby', 'columns']);

/**
 * Each query parameter's property: the one spelled exactly like it, else the first spelled like it
 * whatever the case and separators, else the one its singular names (`tags` filters `tag`, a
 * repeated `?tags=` any of them); `id`/`ids` the key when no property is named so. The others (bar
 * paging and sorting) are unapplied.
 */
function compileFilters(query: ParameterSpec[], pagination: Array<ParameterSpec | undefined>, collection: Collection): { filters: Filter[]; unapplied: string[] } {
  const properties = Object.keys(mergedProperties(collection.schema));
  const byName = new Map<string, string>();
  for (const property of properties) if (!byName.has(filterName(property))) byName.set(filterName(property), property);
  const filters: Filter[] = [];
  const unapplied: string[] = [];
  for (const p of query) {
    if (pagination.includes(p)) continue;
    const property = properties.includes(p.name) ? p.name : (byName.get(filterName(p.name)) ?? byName.get(filterName(singular(p.name))));
    if (property !== undefined) filters.push({ param: p.name, property });
    else if (p.name === 'id' || p.name === 'ids') filters.push({ param: p.name, property: collection.keyProperty });
    else if (!PAGING.has(filterName(p.name)) && !SHAPING.has(filterName(p.name))) unapplied.push(p.name);
  }
  return { filters, unapplied };
}

/** `GET /Calls: the mock could not apply the query parameters StartTime< and Muted: ...` */
function describeUnapplied(operation: Operation, names: string[]): string {
  const listed = names.length === 1 ? `query parameter ${names[0]}` : `query parameters ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  const they = names.length === 1 ? 'it is' : 'they are';
  return `${operation.method.toUpperCase()} ${operation.path}: the mock could not apply the ${listed}: no property of its records is named so; ${they} accepted and filter nothing.`;
}

function listMaxItems(operation: Operation): number | undefined {
  const response = operation.responses.find((r) => /^2/.test(r.status));
  const schema = response && Object.values(response.content)[0]?.schema;
  return typeof schema?.maxItems === 'number' ? schema.maxItems : undefined;
}

/** The request's path and query with one parameter set. */
function withParam(url: string, name: string, value: string): string {
  const [path, search = ''] = url.split('?');
  const params = new URLSearchParams(search);
  params.set(name, value);
  return `${path}?${params}`;
}

/** `X-Total-Count`, and a `Link` header with the next and previous pages (RFC 8288), at the URL the client used. */
function pageHeaders(input: ActionInput, total: number, offset: number, limit: number, param: ParameterSpec | undefined, firstPage: number): Record<string, string> {
  const headers: Record<string, string> = { 'X-Total-Count': String(total) };
  if (!param || !Number.isFinite(limit) || limit <= 0) return headers;
  const link = (to: number) => `<${clientPath(input, withParam(input.url, param.name, String(OFFSET_PARAMS.includes(param.name) ? to : to / limit + firstPage)))}>`;
  const links: string[] = [];
  if (offset + limit < total) links.push(`${link(offset + limit)}; rel="next"`);
  if (offset > 0) links.push(`${link(Math.max(0, offset - limit))}; rel="prev"`);
  if (links.length) headers.Link = links.join(', ');
  return headers;
}
