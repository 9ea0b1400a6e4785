/**
 * Proof that the run harmed nothing: before its first write the suite reads the first page of
 * every list it can read (records of others, bounded), and after its clean-up reads them again.
 * A record that is gone or changed is reported first, by collection and key. A record no longer on
 * the first page is read by its key where the document allows, so a page that moved is not taken
 * for a deletion.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Collection } from '../openapi/operations/collection.js';
import type { ContractContext } from './context.js';
import { listItems } from './list-items.js';

type Row = Record<string, unknown>;

/** One record of someone else's that the run changed or removed. */
export interface Harm {
  collection: string;
  key: string;
  /** `missing`: no longer on the first page, and the document has no read to tell whether it is gone. */
  change: 'deleted' | 'changed' | 'missing';
  before: string;
  /** The record as read after the run (absent when it is gone). */
  after?: string;
}

/** The first page of each list, by collection, keyed by record key. */
export type Snapshot = Map<Collection, Map<string, Row>>;

/** Reads the first page of every top-level list (a nested one's parents are not known before the run). */
export async function takeSnapshot(ctx: ContractContext): Promise<Snapshot> {
  const snapshot: Snapshot = new Map();
  for (const collection of ctx.collections) {
    const rows = await firstPage(ctx, collection, 'read the records of others before the run, to compare after it');
    if (rows) snapshot.set(collection, rows);
  }
  return snapshot;
}

/** What differs from the snapshot after the run: records of others that are gone or changed. */
export async function compareSnapshot(ctx: ContractContext, before: Snapshot): Promise<Harm[]> {
  const harms: Harm[] = [];
  for (const [collection, rows] of before) {
    const after = (await firstPage(ctx, collection, 'read the records of others after the run, to compare')) ?? new Map<string, Row>();
    for (const [key, was] of rows) {
      const now = after.get(key) ?? (await readByKey(ctx, collection, was));
      if (now === undefined || now === 'unknown') harms.push({ collection: collection.name, key, change: now ? 'missing' : 'deleted', before: JSON.stringify(was) });
      else if (now !== null && typeof now === 'object' && !isDeepStrictEqual(now, was)) harms.push({ collection: collection.name, key, change: 'changed', before: JSON.stringify(was), after: JSON.stringify(now) });
    }
  }
  return harms;
}

/** `pets 3 deleted (was {...})`, `pets 4 changed: {...} -> {...}` */
export function describeHarm(harm: Harm): string {
  if (harm.change === 'changed') return `${harm.collection} ${harm.key} changed: ${harm.before} -> ${harm.after}`;
  return `${harm.collection} ${harm.key} ${harm.change === 'deleted' ? 'deleted' : 'no longer on the first page of the list (no read to tell whether it is gone)'} (was ${harm.before})`;
}

async function firstPage(ctx: ContractContext, collection: Collection, label: string): Promise<Map<string, Row> | undefined> {
  const list = ctx.operation(collection, 'list');
  if (!list || collection.scopeParams.length || list.path !== collection.path) return undefined;
  const exchange = await ctx.request(list, { label, intent: 'cleanup' });
  if (exchange.status !== 200) return undefined;
  const rows = new Map<string, Row>();
  for (const row of listItems(collection, exchange.json)) {
    const key = row && typeof row === 'object' ? row[collection.keyProperty] : undefined;
    if (key !== undefined && key !== null) rows.set(String(key), row);
  }
  return rows;
}

/**
 * A record no longer on the first page, read by its key: the record, undefined when the read
 * says it is gone (404), `unknown` without a read, null for another answer (nothing can be told).
 */
async function readByKey(ctx: ContractContext, collection: Collection, was: Row): Promise<Row | 'unknown' | undefined | null> {
  const read = ctx.operation(collection, 'read');
  if (!read) return 'unknown';
  const exchange = await ctx.request(read, { label: 'read a record of others that left the first page', params: { [collection.keyParam]: was[collection.keyProperty] }, intent: 'cleanup' });
  if (exchange.status === 404) return undefined;
  return exchange.status === 200 && exchange.json && typeof exchange.json === 'object' ? (exchange.json as Row) : null;
}
