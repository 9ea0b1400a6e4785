/**
 * Never harm, by construction: the suite sends a request that can change state only when it
 * provably targets records of its own. Two shapes qualify: a create (on a collection, or any POST
 * that declares `201 Created`), and a request
 * to one record's URL whose every path parameter names a record the suite created (or a key a
 * read showed free, where a write can at most create a record of the suite's own). Anything else
 * that writes (a write on a collection path, a write whose query selects records, an answer that
 * counts the records changed, a body that names the record) is never sent: `unsafeWrite` says why,
 * from the document alone, and `ContractContext.request` refuses what `unprovenTarget` cannot prove. A
 * create under a parent (`POST /fields/{collection}`) is sent only under the suite's own parent,
 * and no write is sent whose body refers to a record the suite did not create (`unownedReference`).
 */
import { isBelow, type Collection, type CrudBinding, type Reference } from '../openapi/operations/collection.js';
import { bare, propertyNamed, singular } from '../openapi/operations/names.js';
import type { Operation } from '../openapi/operations/operation.js';
import { countsRecords, recordSelector } from '../openapi/operations/bulk-writes.js';

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
    if (!/\{[^}]+\}/.test(op.path)) return undefined;
  } else {
    if (binding?.keyFromBody) return 'its body names the record it changes, on a collection path: the suite cannot prove it touches that record only';
    if (!/\{[^}]+\}/.test(op.path)) return `a ${op.method.toUpperCase()} on a path that names no record: it could change records the suite did not create`;
  }
  const create = isCreate(op, binding);
  const unnamed = pathParams(op).find((name) => ownersOf(op, name, collections, create).length === 0);
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
export function ownersOf(op: Operation, param: string, collections: Collection[], byName = false): Array<{ collection: Collection; item?: Collection }> {
  const owners: Array<{ collection: Collection; item?: Collection }> = [];
  for (const c of collections) {
    if (c.keyParam === param && (op.path === c.itemPath || isBelow(op.path, c.itemPath))) owners.push({ collection: c });
  }
  const item = collections.find((c) => c.itemPath === op.path || isBelow(op.path, c.itemPath));
  const reference = item?.references.find((r) => r.property === propertyNamed(param, item.references.map((x) => x.property)));
  const target = reference && collections.find((c) => c.name === reference.collection);
  if (target && !owners.some((o) => o.collection === target)) owners.push({ collection: target, item });
  // A parent named by its model rather than by its item path (`collection` of `POST /fields/{collection}` and of
  // `DELETE /fields/{collection}/{field}` names a record of `/collections/{collection}`): for a create, or a parameter above the record's own key.
  if (owners.length === 0 && (byName || item?.scopeParams.includes(param))) {
    const named = collections.find((c) => c.itemPath !== '' && [singular(c.name), `${singular(c.name)}id`, `${singular(c.name)}key`, `${singular(c.name)}name`].some((n) => bare(n) === bare(param)));
    if (named) owners.push({ collection: named });
  }
  return owners;
}

/**
 * Why a write's body names a record the suite did not create, or undefined when it names none: a
 * property that refers to another collection (`role`, `parent`, `collection` of a comment; see
 * referencesIn) holds the key of a record the suite created, a key a read showed free (an edge
 * probe's dangling reference), or a value that cannot be a key of that collection (a negative
 * case's wrong type). Anything else may name someone else's record, which the write could change
 * (a comment counted into the item it names).
 */
export function unownedReference(
  body: unknown,
  references: Reference[],
  collections: Collection[],
  known: (collection: Collection, value: unknown) => boolean,
  fitsKey: (collection: Collection, value: unknown) => boolean,
): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const { property, collection } of references) {
    const value = (body as Record<string, unknown>)[property];
    const target = collections.find((c) => c.name === collection);
    if (value === undefined || value === null || !target || known(target, value) || !fitsKey(target, value)) continue;
    return `its body's \`${property}\` = ${JSON.stringify(value)} names a ${target.name} record the suite did not create`;
  }
  return undefined;
}

/**
 * Why a request's path is not proven to name the suite's own records, or undefined when every
 * path parameter names one (`own`: the suite's ownership test; `free`: a key a read showed free;
 * `create`: the request creates under the records its parameters name, which may be named by their model).
 */
export function unprovenTarget(
  op: Operation,
  params: Record<string, unknown>,
  collections: Collection[],
  own: (collection: Collection, key: unknown, scope: Record<string, unknown>) => boolean,
  free: (collection: Collection, key: unknown, scope: Record<string, unknown>) => boolean,
  create = false,
): string | undefined {
  for (const name of pathParams(op)) {
    const value = params[name];
    const owners = ownersOf(op, name, collections, create);
    if (value === undefined || value === null || value === '') return `its path parameter \`${name}\` has no value: the suite found no key for the record`;
    if (!owners.some(({ collection, item }) => own(collection, value, item ? {} : params) || (!item && free(collection, value, params)))) {
      return `its path parameter \`${name}\` = ${JSON.stringify(value)} names no ${owners.map((o) => o.collection.name).join(' or ') || 'collection\'s'} record the suite created`;
    }
  }
  return undefined;
}

function pathParams(op: Operation): string[] {
  return [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}
