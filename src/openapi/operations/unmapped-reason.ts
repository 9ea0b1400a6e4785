/**
 * Why no collection explains an operation, in words the banner and the contract suite show.
 */
import { isBelow, type Collection, type CrudBinding } from './collection.js';
import type { Operation } from './operation.js';
import { pathlessShape } from './pathless-shape.js';

/**
 * Why no collection explains an operation (it is then answered from its examples or generated
 * data, and the contract suite sends it valid requests only). With the document's operations and
 * bindings, a GET or POST on a path with no item path says why it is no list or create of records.
 */
export function unmappedReason(op: Operation, collections: Collection[], document?: { operations: Operation[]; bindings: ReadonlyMap<string, CrudBinding> }): string {
  const method = op.method.toUpperCase();
  const item = collections.find((c) => c.itemPath === op.path);
  if (item) return `${method} on one ${item.name} record is no create, read, update or delete`;
  const collection = collections.find((c) => c.path === op.path);
  if (collection) return `${method} on the ${collection.name} collection is no list or create (or it declares no success response)`;
  // The deepest record the path is below (`files` for `/vaults/{v}/items/{i}/files/{f}/content`).
  const below = collections.filter((c) => c.itemPath && isBelow(op.path, c.itemPath)).sort((a, b) => b.itemPath.length - a.itemPath.length)[0];
  if (document && (op.method === 'get' || op.method === 'post')) {
    const ops = operationsAt(document.operations).get(op.path) ?? new Map();
    const shape = pathlessShape(op.path, ops, document.bindings, collections);
    const reason = 'reasons' in shape ? shape.reasons[op.method] : undefined;
    if (reason) return below ? `a path below one ${below.name} record, and ${reason}` : reason;
  }
  if (below) return `a path below one ${below.name} record, not a collection of its own`;
  return 'no collection path with an item path (`/things` and `/things/{id}`) explains it';
}

/** The operations of each path, by method: worked out once per list of operations (every unmapped operation asks). */
const byPathOf = new WeakMap<readonly Operation[], Map<string, Map<string, Operation>>>();
function operationsAt(operations: readonly Operation[]): Map<string, Map<string, Operation>> {
  let byPath = byPathOf.get(operations);
  if (!byPath) {
    byPathOf.set(operations, (byPath = new Map()));
    for (const op of operations) {
      if (!byPath.has(op.path)) byPath.set(op.path, new Map());
      byPath.get(op.path)!.set(op.method, op);
    }
  }
  return byPath;
}
