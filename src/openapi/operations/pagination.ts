/**
 * The query parameters lists paginate with, by their usual names (json-server's `_page`, `_limit`
 * and `_start` among them): never filters. One list for the mock (which answers them) and the
 * contract suite (which checks them).
 */
import type { ParameterSpec } from '../document/schema.js';
import type { Operation } from './operation.js';

export const LIMIT_PARAMS = ['limit', 'per_page', 'perPage', 'pageSize', 'page_size', 'size', '_limit'];
export const OFFSET_PARAMS = ['offset', 'skip', 'start', '_start'];
export const PAGE_PARAMS = ['page', 'pageNumber', 'page_number', '_page'];
export const CURSOR_PARAMS = ['cursor', 'after', 'starting_after', 'page_token', 'pageToken', 'next_token', 'continuation'];

export function isPaginationParam(name: string): boolean {
  return CURSOR_PARAMS.includes(name) || LIMIT_PARAMS.includes(name) || OFFSET_PARAMS.includes(name) || PAGE_PARAMS.includes(name);
}

/** A list operation's page size, offset, page-number and cursor parameters, when it declares them. */
export function paginationOf(operation: Operation | undefined): { limit?: ParameterSpec; offset?: ParameterSpec; page?: ParameterSpec; cursor?: ParameterSpec } {
  const query = operation?.parameters.filter((p) => p.in === 'query') ?? [];
  const named = (names: string[]) => query.find((p) => names.includes(p.name));
  return { limit: named(LIMIT_PARAMS), offset: named(OFFSET_PARAMS), page: named(PAGE_PARAMS), cursor: named(CURSOR_PARAMS) };
}
