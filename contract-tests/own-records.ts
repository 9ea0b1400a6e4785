/**
 * The records the suite created: the only ones it may change or delete, and the ones it deletes
 * again at the end. A record is known by its collection and key, or only by the `Location` of the
 * 201 that created it (a create the suite did not recognise as one).
 */
import type { Collection } from '../src/operations/infer-collections.js';
import type { Operation } from '../src/operations/operation.js';
import type { Exchange } from './case.js';

export interface OwnRecord {
  collection?: Collection;
  key?: unknown;
  /** Every path parameter of the record's item path (its parents' keys and its own), when known. */
  params?: Record<string, unknown>;
  location?: string;
}

export class OwnRecords {
  /** Oldest first. */
  private readonly records: OwnRecord[] = [];

  /**
   * Remembers the record a successful request created: the answer of a create the document
   * describes (`create`: its collection), or any 201, by the key in the answer, the `Location`, or
   * the key in the path of a PUT that created at that key.
   */
  remember(exchange: Exchange, create: Collection | undefined, collections: Collection[]): void {
    if (!create && exchange.status !== 201) return;
    const location = exchange.headers.get('location') ?? undefined;
    const body = exchange.json as Record<string, unknown> | undefined;
    const collection = create ?? collections.find((c) => c.itemPath === exchange.case.operation.path && exchange.case.method === 'PUT');
    const key = collection ? (body?.[collection.keyProperty] ?? (create ? lastSegment(location) : undefined) ?? pathKey(exchange, collection)) : undefined;
    if (key === undefined && !location) return;
    const params = collection && key !== undefined ? { ...pathParams(exchange), [collection.keyParam]: key } : undefined;
    if (collection && this.has(collection, key, [], params)) return;
    this.records.push({ collection, key, params, location });
  }

  /** The keys of the records of a collection the suite created. */
  keys(collection: Collection): unknown[] {
    return this.records.filter((r) => r.collection === collection && r.key !== undefined).map((r) => r.key);
  }

  /**
   * True when the suite created this record, or the record it belongs to (the inventory item of its
   * own pet). In a nested collection the parents' keys must match too (issue 1 of another project
   * is not the suite's): `scope` gives them.
   */
  has(collection: Collection, key: unknown, collections: Collection[], scope: Record<string, unknown> = {}): boolean {
    if (key === undefined || key === null) return false;
    const sameScope = (r: OwnRecord) => collection.scopeParams.every((name) => r.params?.[name] !== undefined && String(r.params[name]) === String(scope[name]));
    if (this.records.some((r) => r.collection === collection && String(r.key) === String(key) && sameScope(r))) return true;
    const parent = collection.references.find((r) => r.property === collection.keyProperty && r.collection !== collection.name);
    const parentCollection = parent && collections.find((c) => c.name === parent.collection);
    return parentCollection ? this.has(parentCollection, key, collections) : false;
  }

  /** Every record, newest first (orders before the pets they point at), forgotten here. */
  takeNewestFirst(): OwnRecord[] {
    return this.records.splice(0).reverse();
  }
}

/** The operation (of those given) whose path matches a path, segment by segment, with its path parameters. */
export function matchOperation(operations: Operation[], pathname: string, basePath: string): { op: Operation; params: Record<string, unknown> } | undefined {
  const segments = (pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname).split('/');
  for (const op of operations) {
    const template = op.path.split('/');
    if (template.length !== segments.length) continue;
    const params: Record<string, unknown> = {};
    const matches = template.every((part, i) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name) params[name] = decodeURIComponent(segments[i]);
      return name ? segments[i] !== '' : part === segments[i];
    });
    if (matches) return { op, params };
  }
  return undefined;
}

/** The path parameters a request was sent with, read back from its path (`/projects/AB/issues` -> {projectKey: 'AB'}). */
function pathParams(exchange: Exchange): Record<string, unknown> {
  const template = exchange.case.operation.path.split('/');
  const actual = exchange.case.path.split('?')[0].split('/');
  const params: Record<string, unknown> = {};
  template.forEach((part, i) => {
    const name = /^\{([^}]+)\}$/.exec(part)?.[1];
    if (name && actual[i] !== undefined) params[name] = decodeURIComponent(actual[i]);
  });
  return params;
}

/** The key of the record an item request named in its path (`/pets/7` -> 7). */
function pathKey(exchange: Exchange, collection: Collection): unknown {
  return pathParams(exchange)[collection.keyParam];
}

function lastSegment(location: string | undefined): string | undefined {
  return location ? decodeURIComponent(location.split('?')[0].split('/').pop() ?? '') || undefined : undefined;
}
