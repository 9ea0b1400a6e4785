/**
 * A page number stays within the pages the list reported: the second page of size 2 is asked for
 * only when the first one does not show it is the last.
 */
import { describe, expect, it } from 'vitest';
import type { Collection } from '../../openapi/operations/collection.js';
import type { Exchange } from '../case.js';
import { lastPageReason } from './lifecycle.js';

const bare = { keyProperty: 'id' } as Collection;
const wrapped = { keyProperty: 'id', listWrapper: { items: 'results', total: 'count' } } as Collection;
const page = (json: unknown, headers: Record<string, string> = {}, status = 200) => ({ status, json, headers: new Headers(headers) }) as Exchange;

describe('lastPageReason', () => {
  it('says the first page is the last: fewer than two records, a total of two, a next page of null', () => {
    expect(lastPageReason(bare, page([{ id: 1 }]))).toBe('the first page held 1 record');
    expect(lastPageReason(bare, page([{ id: 1 }, { id: 2 }], { 'X-Total-Count': '2' }))).toBe('the list reported 2 records in all');
    expect(lastPageReason(wrapped, page({ count: 2, next: 'x', results: [{ id: 1 }, { id: 2 }] }))).toBe('the list reported 2 records in all');
    expect(lastPageReason(wrapped, page({ next: null, results: [{ id: 1 }, { id: 2 }] }))).toBe('the first page reported no next page');
    expect(lastPageReason(bare, page({ title: 'Not found' }, {}, 404))).toBe('the first page was not answered');
  });

  it('lets a second page be asked for where one may exist', () => {
    expect(lastPageReason(bare, page([{ id: 1 }, { id: 2 }]))).toBeUndefined();
    expect(lastPageReason(bare, page([{ id: 1 }, { id: 2 }], { 'X-Total-Count': '3' }))).toBeUndefined();
    expect(lastPageReason(wrapped, page({ count: 5, next: 'http://x/?page=2', results: [{ id: 1 }, { id: 2 }] }))).toBeUndefined();
  });
});
