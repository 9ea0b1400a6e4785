/**
 * The records the suite created: the only ones it may change or delete, and the ones it deletes
 * again at the end. A record is known by its collection and key, or only by the `Location` of the
 * 201 that created it (a create the suite did not recognise as one).
 */
import { templateMatcher } from '../openapi/operations/path-template.js';
import type { Collection, CrudBinding } from '../openapi/operations/collection.js';
import type { RunMarker } from './marker.js';
import { isCreate, isRead } from './safety.js';
import type { Operation } from '../openapi/operations/operation.js';
import type { Exchange } from './case.js';
import { createdRecords } from './list-items.js';

export interface OwnRecord {
  collection?: Collection;
  key?: unknown;
  /** Every path parameter of the record's item path (its parents' keys and its own), when known. */
  params?: Record<string, unknown>;
  location?: string;
  /** The request that made it, for the report: `POST /books answered 201`. */
  created?: string;
  /** The exchange that made it, when the suite saw it answered (a cassette's steps start from it). */
  made?: Exchange;
}

export class OwnRecords {
  constructor(
    private readonly collections: Collection[],
    private readonly binding: (op: Operation) => CrudBinding | undefined,
    private readonly marker: RunMarker,
  ) {}

  /**
   * Keeps the account of the suite's records from every exchange: a create that may have stored
   * something (whatever its status: by the key in the answer or a Location, else it is looked for
   * by the run's marker at the end), a record gone (its DELETE answered), a key a read found free.
   */
  observe(exchange: Exchange): void {
    const op = exchange.case.operation;
    const binding = this.binding(op);
    const item = this.collections.find((c) => c.itemPath === op.path);
    const params = pathParamsOf(exchange);
    if (item && op.method === 'delete' && ((exchange.status >= 200 && exchange.status < 300) || exchange.status === 404)) this.forget(item, params[item.keyParam], params);
    // The suite's own record, deleted, answered as unknown: that is how the server refuses a key no record has (403 on a CMS).
    if (item && isRead(op) && exchange.case.purpose?.check === 'use_after_delete' && [403, 410].includes(exchange.status)) this.learnUnknown(item, exchange.status);
    // A read that finds no record at a key (404, or what the server answers for a key no record has), or refuses the key itself (400, 422), shows it free.
    if (item && isRead(op) && this.unknownAnswers(item).has(exchange.status) && exchange.case.intent !== 'valid') this.markFree(item, params[item.keyParam], params);
    if (exchange.case.intent === 'cleanup') return;
    const create = binding?.action === 'create' && binding.collection.path === op.path ? binding.collection : undefined;
    if (create) this.createdIn.add(create);
    if (exchange.status >= 200 && exchange.status < 300) {
      const before = this.size;
      this.remember(exchange, create);
      // A create whose answer names no key and no Location: looked for by its marker at the end, or said to be left.
      if (this.size === before && isCreate(op, binding) && !exchange.headers.get('location')) this.possibleCreates.push(exchange);
      return;
    }
    if (!create) return;
    // A refused or failed create is the suite's only by proof: a Location, or an answer that echoes the run's marker.
    if (exchange.headers.get('location') || this.marker.carries(exchange.json)) this.remember(exchange, create);
    else this.possibleCreates.push(exchange);
  }

  /** Collections the suite sent a create to (whatever the answer): the clean-up looks in their lists for its marker. */
  readonly createdIn = new Set<Collection>();
  /** Creates that stored, or may have stored, a record whose key the answer did not give (a 2xx without one, a 5xx, a timeout). */
  readonly possibleCreates: Exchange[] = [];

  /** Collections whose failed creates store records without a key: no more creates go to them (each would leave one more behind). */
  readonly keylessCreates = new Set<Collection>();

  /** Oldest first. */
  private readonly records: OwnRecord[] = [];
  /** Keys a read answered 404 for, or the suite itself deleted: a write there can only make a record of its own. */
  private readonly free = new Set<string>();

  /**
   * Remembers the record a request created: the answer of a create the document describes
   * (`create`: its collection), or any 201, by the key in the answer, the `Location`, or the key in
   * the path of a PUT that created at that key. A key the suite already holds (a server that
   * reuses the keys of deleted records) moves to the newest place, with its new parents.
   */
  remember(exchange: Exchange, create: Collection | undefined): void {
    if (!create && exchange.status !== 201) return;
    const location = exchange.headers.get('location') ?? undefined;
    const collection = create ?? this.collections.find((c) => c.itemPath === exchange.case.operation.path && exchange.case.method === 'PUT');
    // The records inside the answer's envelope; a create that made several (an array sent, an array answered) made each.
    const answeredKeys = collection ? createdRecords(collection, exchange.json).map((r) => r[collection.keyProperty]).filter((k) => k !== undefined && k !== null) : [];
    if (collection && answeredKeys.length > 1) {
      for (const key of answeredKeys) this.add({ collection, key, params: { ...pathParamsOf(exchange), [collection.keyParam]: key }, made: exchange });
      return;
    }
    const key = collection ? (answeredKeys[0] ?? (create ? lastSegment(location) : undefined) ?? pathKey(exchange, collection)) : undefined;
    if ((key === undefined || key === null) && !location) return;
    const created = `${exchange.case.method} ${exchange.case.path} answered ${exchange.status}`;
    this.add({ collection, key: key ?? undefined, params: collection && key !== undefined && key !== null ? { ...pathParamsOf(exchange), [collection.keyParam]: key } : undefined, location, created, made: exchange });
  }

  /** Adds a record found to be the suite's (by the run's marker in a list), at the newest place. */
  add(record: OwnRecord): void {
    if (record.collection && record.key !== undefined) this.forget(record.collection, record.key, record.params);
    this.free.delete(freeKey(record.collection, record.key, record.params));
    this.records.push(record);
  }

  /** The record is gone (its DELETE succeeded, or answered 404): no longer the suite's, and its key is free. */
  forget(collection: Collection, key: unknown, scope: Record<string, unknown> = {}): void {
    const index = this.records.findIndex((r) => r.collection === collection && String(r.key) === String(key) && sameScope(collection, r, scope));
    if (index >= 0) this.records.splice(index, 1);
    this.free.add(freeKey(collection, key, scope));
  }

  /**
   * The statuses a read of a collection's item answers for a key no record has: 404, a refusal of
   * the key itself (400, 422), and what the server showed it answers for a key that cannot exist
   * (403, 410: see learnUnknown).
   */
  unknownAnswers(collection: Collection): ReadonlySet<number> {
    return this.unknown.get(collection) ?? DEFAULT_UNKNOWN;
  }

  /** The server answered this status to a read of a key that cannot exist (the run's marker, a record the suite deleted). */
  learnUnknown(collection: Collection, status: number): void {
    this.unknown.set(collection, new Set([...this.unknownAnswers(collection), status]));
  }

  private readonly unknown = new Map<Collection, Set<number>>();

  /** Notes that a read found no record at this key. */
  markFree(collection: Collection, key: unknown, scope: Record<string, unknown> = {}): void {
    this.free.add(freeKey(collection, key, scope));
  }

  /** True when a read showed no record at this key (or the suite deleted its own there) and nothing of the suite's has it since. */
  isFree(collection: Collection, key: unknown, scope: Record<string, unknown> = {}): boolean {
    return key !== undefined && key !== null && this.free.has(freeKey(collection, key, scope));
  }

  /** The suite's record of a collection with this key (the newest, when the server gave a key twice). */
  find(collection: Collection, key: unknown): OwnRecord | undefined {
    return this.records.findLast((r) => r.collection === collection && key !== undefined && key !== null && String(r.key) === String(key));
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
    if (this.records.some((r) => r.collection === collection && String(r.key) === String(key) && sameScope(collection, r, scope))) return true;
    const parent = collection.references.find((r) => r.property === collection.keyProperty && r.collection !== collection.name);
    const parentCollection = parent && collections.find((c) => c.name === parent.collection);
    return parentCollection ? this.has(parentCollection, key, collections) : false;
  }

  /**
   * Every record in the order to delete them: children before their parents (a record of a
   * collection that points into another, or lives under another's records, goes first), and
   * within that, newest first.
   */
  inDeleteOrder(collections: Collection[]): OwnRecord[] {
    const depth = dependencyDepth(collections);
    return this.records
      .map((record, index) => ({ record, index }))
      .sort((a, b) => (depth.get(b.record.collection) ?? 0) - (depth.get(a.record.collection) ?? 0) || b.index - a.index)
      .map(({ record }) => record);
  }

  /** Forgets one record (deleted by the clean-up, or reported). */
  drop(record: OwnRecord): void {
    const index = this.records.indexOf(record);
    if (index >= 0) this.records.splice(index, 1);
  }

  get size(): number {
    return this.records.length;
  }
}

/**
 * How far a collection's records sit from the records they depend on: 0 for a collection that
 * points at none, else 1 + the deepest it points at or lives under (orders -> pets -> categories:
 * 2, 1, 0). Cycles are cut where they close.
 */
function dependencyDepth(collections: Collection[]): Map<Collection | undefined, number> {
  const depth = new Map<Collection | undefined, number>();
  const visit = (c: Collection, path: Set<Collection>): number => {
    if (depth.has(c)) return depth.get(c)!;
    if (path.has(c)) return 0;
    path.add(c);
    const parents = [...c.references.map((r) => r.collection), ...(c.parent ? [c.parent] : [])]
      .map((name) => collections.find((x) => x.name === name))
      .filter((x): x is Collection => x !== undefined && x !== c);
    const d = parents.length ? 1 + Math.max(...parents.map((p) => visit(p, path))) : 0;
    path.delete(c);
    depth.set(c, d);
    return d;
  };
  for (const c of collections) visit(c, new Set());
  return depth;
}

const DEFAULT_UNKNOWN: ReadonlySet<number> = new Set([400, 404, 422]);

function sameScope(collection: Collection, record: OwnRecord, scope: Record<string, unknown>): boolean {
  return collection.scopeParams.every((name) => record.params?.[name] !== undefined && String(record.params[name]) === String(scope[name]));
}

function freeKey(collection: Collection | undefined, key: unknown, scope: Record<string, unknown> = {}): string {
  return JSON.stringify([collection?.name, String(key), ...(collection?.scopeParams ?? []).map((name) => String(scope[name]))]);
}


/** The path parameters a request was sent with, read back from its path (`/projects/AB/issues` -> {projectKey: 'AB'}). */
export function pathParamsOf(exchange: Exchange): Record<string, unknown> {
  return templateMatcher(exchange.case.operation.path)(exchange.case.path.split('?')[0]) ?? {};
}

/** The key of the record an item request named in its path (`/pets/7` -> 7). */
function pathKey(exchange: Exchange, collection: Collection): unknown {
  return pathParamsOf(exchange)[collection.keyParam];
}

function lastSegment(location: string | undefined): string | undefined {
  return location ? decodeURIComponent(location.split('?')[0].replace(/\/$/, '').split('/').pop() ?? '') || undefined : undefined;
}
