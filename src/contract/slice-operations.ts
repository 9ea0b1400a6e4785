/**
 * One slice of a document's operations, for a suite split over several test files (and so over
 * vitest's `--shard`, which splits files): the operations are grouped by the literal start of
 * their path (`/pets` and `/pets/{petId}` together, `/store/orders` apart from `/store/inventory`),
 * so a collection's create, reads, updates and deletes stay in one slice; the groups, in the
 * document's order, are dealt to the slices one after another, the largest first. The same document
 * gives the same slices on every machine; slice k of n and the others together hold every operation
 * once.
 */

/**
 * @param slice `[k, n]`: the k-th (from 1) of n slices
 * @returns the operation ids of that slice, in the document's order
 * @example
 * sliceOperations([{ id: 'listPets', path: '/pets' }, { id: 'listOrders', path: '/store/orders' }], [2, 2]) // ['listOrders']
 */
export function sliceOperations(operations: ReadonlyArray<{ id: string; path: string }>, [k, n]: readonly [number, number]): string[] {
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(k) || k < 1 || k > n) throw new RangeError(`slice ${k}/${n}: k must be an integer from 1 to n`);
  const groups = new Map<string, string[]>();
  for (const op of operations) {
    const key = groupOf(op.path);
    groups.set(key, [...(groups.get(key) ?? []), op.id]);
  }
  // Largest first, ties in the document's order (a stable sort), dealt to the emptiest slice so far.
  const sorted = [...groups.values()].sort((a, b) => b.length - a.length);
  const slices: string[][] = Array.from({ length: n }, () => []);
  for (const group of sorted) {
    const emptiest = slices.reduce((best, slice, i) => (slice.length < slices[best].length ? i : best), 0);
    slices[emptiest].push(...group);
  }
  const mine = new Set(slices[k - 1]);
  return operations.filter((op) => mine.has(op.id)).map((op) => op.id);
}

/** `/store/orders/{orderId}/items` -> `/store/orders`: the path up to its first template. */
function groupOf(path: string): string {
  const literal = path.split('/').filter(Boolean);
  const end = literal.findIndex((segment) => segment.includes('{'));
  return `/${(end === -1 ? literal : literal.slice(0, end)).join('/')}`;
}
