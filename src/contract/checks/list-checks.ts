/**
 * Checks of lists, on the records the suite creates: a list holds a record just created, a
 * filter returns only matching records, pages have their size and do not overlap.
 */
import type { Exchange } from '../case.js';
import { listItems } from '../list-items.js';
import { caseCheck, statusVerdicts, type Verdict } from './check.js';

/** A 200 whose body, if the rule finds something wrong in it, is that finding. */
function listVerdicts(ex: Exchange, documented: string, wrong: () => string | undefined): Verdict[] {
  const status = statusVerdicts(ex, [200], documented);
  if (status.length) return status;
  const found = wrong();
  return found ? [{ received: `${ex.status} ${found}`, documented, path: 'body' }] : [];
}

/** The list contains a record just created. */
export const list_contains_created = caseCheck('list_contains_created', (ex, { collection, key }) =>
  listVerdicts(ex, `the list contains ${collection.keyProperty} ${String(key)}`, () =>
    listItems(collection, ex.json).some((item) => String(item[collection.keyProperty]) === String(key)) ? undefined : 'without it',
  ),
);

/** Each documented filter returns only matching records, and not the record under another value. */
export const filter_conformance = caseCheck('filter_conformance', (ex, purpose) => {
  const { collection, property, value } = purpose;
  const items = listItems(collection, ex.json);
  if (purpose.kind === 'excluded') {
    return listVerdicts(ex, `no record with ${property} = ${JSON.stringify(value)} under ${property}=${String(purpose.other)}`, () =>
      items.length ? `with ${collection.keyProperty} ${String(purpose.key)}, whose ${property} is ${JSON.stringify(value)}` : undefined,
    );
  }
  return listVerdicts(ex, `only records with ${property} = ${JSON.stringify(value)}`, () => {
    const other = items.find((item) => String(item[property]) !== String(value));
    return other && `with a record whose ${property} is ${JSON.stringify(other[property])}`;
  });
});

/**
 * A page holds at most the size asked for; at a known offset, exactly min(size, total - offset)
 * records when the server says the total (`X-Total-Count`); none of the records of the page before.
 */
export const pagination_conformance = caseCheck('pagination_conformance', (ex, { collection, size, start, previous }) => {
  const keys = listItems(collection, ex.json).map((item) => String(item[collection.keyProperty]));
  const documented = `${start === undefined ? `at most ${size}` : `min(${size}, total${start ? ` - ${start}` : ''})`} records${start === undefined ? '' : ` at offset ${start}`}${previous ? ', none of them on page 1' : ''}`;
  return listVerdicts(ex, documented, () => {
    const total = Number(ex.headers.get('x-total-count') ?? NaN);
    const exact = start === undefined || Number.isNaN(total) ? undefined : Math.max(0, Math.min(size, total - start));
    if (keys.length > size) return `with ${keys.length} records`;
    if (exact !== undefined && keys.length !== exact) return `with ${keys.length} records of ${total}`;
    return previous && keys.some((k) => previous.includes(k)) ? `with records also on page 1 (${keys.join(', ')})` : undefined;
  });
});
