/**
 * Never harm, by construction: the suite sends a request that can change state only when it
 * provably targets records of its own. Two shapes qualify: a create (on a collection, or any POST
 * that declares `201 Created`), and a request
 * to one record's URL whose every path parameter names a record the suite created (or a key a
 * read showed free, where a write can at most create a record of the suite's own). Anything else
 * that writes (a write on a collection path, a write whose query selects records, an answer that
 * counts the records changed, a body that names the record) is never sent: `unsafeWrite` says why,
 * from the document alone, and `ContractContext.request` refuses what `provenOwn` cannot prove.
 */
import { isBelow, propertyNamed, type Collection, type CrudBinding } from '../operations/infer-collections.js';
import type { Operation } from '../operations/operation.js';
import { countsRecords, recordSelector } from '../operations/bulk-writes.js';

const READS = new Set(['get', 'head', 'options', 'trace']);


/** True for methods that change nothing on a server that follows HTTP. */
export function isRead(op: Operation): boolean {
  return READS.has(op.method);
}

/**
 * Why an operation can change records the suite did not create, from the document alone, or
 * undefined when it is one of the two safe shapes (reads are always safe).
 */
export function unsafeWrite(op: Operation, binding: CrudBinding | undefined, collections: Collection[]): string | undefined {
  if (isRead(op)) return undefined;
  const selector = recordSelector(op);
  if (selector) return `its query parameter \`${selector.name}\` selects the records it changes: it could change records the suite did not create`;
  if (countsRecords(op)) return 'its answer counts the records it changed: it may change many, not only the suite\'s';
  if (isCreate(op, binding)) {
    if (!/\{[^}]+\}/.test(op.path) || binding?.action === 'create') return undefined;
  } else {
    if (binding?.keyFromBody) return 'its body names the record it changes, on a collection path: the suite cannot prove it touches that record only';
    if (!/\{[^}]+\}/.test(op.path)) return `a ${op.method.toUpperCase()} on a path that names no record: it could change records the suite did not create`;
  }
  const unnamed = pathParams(op).find((name) => ownersOf(op, name, collections).length === 0);
  if (unnamed) return `its path parameter \`${unnamed}\` names no record of a collection the suite knows: it cannot prove the target is its own`;
  return undefined;
}

/**
 * A create: the POST of a collection, or any POST that declares `201 Created` (HTTP's word for a
 * request that made a new record and changed none: `POST /tickets` with no item path beside it).
 */
export function isCreate(op: Operation, binding: CrudBinding | undefined): boolean {
  return (binding?.action === 'create' && binding.collection.path === op.path) || (op.method === 'post' && op.responses.some((r) => r.status === '201'));
}

/**
 * The collections whose records a path parameter of an operation names: the collection whose item
 * path the operation is at or below and whose key it is (`petId` of `/pets/{petId}/photos`), and
 * the collection a property of that record named like it points into (`taskId` of
 * `/taskLabels/task/{taskId}/label/{labelId}` into `tasks`).
 */
export function ownersOf(op: Operation, param: string, collections: Collection[]): Array<{ collection: Collection; item?: Collection }> {
  const owners: Array<{ collection: Collection; item?: Collection }> = [];
  for (const c of collections) {
    if (c.keyParam === param && (op.path === c.itemPath || isBelow(op.path, c.itemPath))) owners.push({ collection: c });
  }
  const item = collections.find((c) => c.itemPath === op.path || isBelow(op.path, c.itemPath));
  const reference = item?.references.find((r) => r.property === propertyNamed(param, item.references.map((x) => x.property)));
  const target = reference && collections.find((c) => c.name === reference.collection);
  if (target && !owners.some((o) => o.collection === target)) owners.push({ collection: target, item });
  return owners;
}

/**
 * Why a request's path is not proven to name the suite's own records, or undefined when every
 * path parameter names one (`own`: the suite's ownership test; `free`: a key a read showed free).
 */
export function unprovenTarget(
  op: Operation,
  params: Record<string, unknown>,
  collections: Collection[],
  own: (collection: Collection, key: unknown, scope: Record<string, unknown>) => boolean,
  free: (collection: Collection, key: unknown, scope: Record<string, unknown>) => boolean,
): string | undefined {
  for (const name of pathParams(op)) {
    const value = params[name];
    const owners = ownersOf(op, name, collections);
    if (value === undefined || value === null || value === '') return `its path parameter \`${name}\` has no value: the suite found no key for the record`;
    if (!owners.some(({ collection, item }) => own(collection, value, item ? {} : params) || (!item && free(collection, value, params)))) {
      return `its path parameter \`${name}\` = ${JSON.stringify(value)} names no record the suite created`;
    }
  }
  return undefined;
}

function pathParams(op: Operation): string[] {
  return [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}
