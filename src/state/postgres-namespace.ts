/**
 * One namespace of the PostgreSQL store in the database, and its copy in memory: the copy loaded
 * from the namespace's records (or the namespace seeded from the copy), kept in step by applying
 * the namespace's log, and what the copy changed appended to the log under the namespace's lock.
 * The store (postgres-store.ts) builds its reads and its group-committed writes on this.
 */
import type { Pool, PoolClient, QueryResult } from 'pg';
import { fnv1a } from '../core/fnv.js';
import type { Collection } from '../openapi/operations/collection.js';
import { borrow } from './borrow-client.js';
import type { StateBudget } from './budget.js';
import { MemoryStore } from './memory-store.js';
import type { JournalEntry } from './observe-store.js';
import { ContentRefused, StoreStartError, type StoreUnavailable } from './postgres-errors.js';
import { DROP_NAMESPACE, LOCK_SPACE, SESSIONS } from './postgres-schema.js';
import { entriesOf, fromColumn, unitOf } from './postgres-text.js';
import type { StoredRecord } from './state-store.js';

/** Entries in one unit of the log at most (a unit is one row of mock_changes, one call of mock_apply). */
const UNIT_ENTRIES = 4096;

/** What a namespace needs of the stores of its database (PostgresStores, postgres-stores.ts). */
export interface NamespaceOwner {
  readonly pool: Pool;
  /** A text as an SQL literal (pg's escapeLiteral). */
  literal(text: string): string;
  /** Sessions kept in the database per shared namespace. */
  readonly maxSessions: number;
  /** Runs `work` after the earlier work on the namespace's existence in this process. */
  inOrder<T>(namespace: string, work: () => Promise<T>): Promise<T>;
  /** A query worked: the database is back, if it was lost. */
  succeeded(wrote: boolean): void;
  /** A query failed: the reason, as a 503 for the request. */
  failed(error: unknown): StoreUnavailable;
  /** The store is released: no longer one of the database's. */
  forget(store: PostgresNamespace): void;
}

/** One namespace's state: a copy in memory that follows the database's log. */
export class PostgresNamespace {
  protected readonly memory: MemoryStore;
  protected readonly names: string[];
  /** The last unit of the log the copy holds, and the namespace's epoch (it changes when the namespace is made again). */
  protected last = 0n;
  protected epoch = '';
  /** The copy may hold changes the database does not (a write transaction failed): load it again before use. */
  protected stale = false;
  /** Changes made while applying the log or loading are not recorded; `recording` collects a transaction's; `loose` the others (the seed, before opening). */
  protected applying = false;
  protected recording?: string[];
  protected loose: string[] = [];
  /** A session's seed, kept to seed its namespace again if it was dropped meanwhile (through another replica). */
  protected seedEntries?: string[];
  /** Whether its first opening found the namespace seeded (by another replica) and loaded it. */
  loadedAtOpen = false;
  /** The namespace's advisory lock, as the second key of `pg_advisory_xact_lock` (an int4). */
  protected readonly lock: number;
  /** The namespace as an SQL literal. */
  protected readonly literal: string;

  constructor(
    protected readonly owner: NamespaceOwner,
    readonly namespace: string,
    collections: readonly Collection[],
    budget: StateBudget,
    protected readonly session: boolean,
  ) {
    this.memory = new MemoryStore(collections, budget);
    this.names = collections.map((c) => c.name);
    this.lock = fnv1a(namespace) | 0;
    this.literal = owner.literal(namespace);
  }

  /**
   * The namespace's epoch and horizon, and the units of its log past what the copy holds, in order:
   * a simple query (no parameters), so a write sends it in the round trip that takes the lock.
   */
  protected logQuery(): string {
    return `SELECT s.epoch::text AS epoch, s.horizon::text AS horizon, c.seq::text AS seq, c.entries FROM mock_spaces s LEFT JOIN mock_changes c ON c.ns = s.ns AND c.seq > ${this.last.toString()} WHERE s.ns = ${this.literal} ORDER BY c.seq`;
  }

  /**
   * Applies the log's rows (those past what the copy holds); false when the copy cannot follow
   * (the namespace dropped or made again, or the log trimmed past it) and must be loaded again.
   */
  protected follow(result: QueryResult): boolean {
    const first = result.rows[0] as { epoch: string; horizon: string } | undefined;
    if (!first || first.epoch !== this.epoch || BigInt(first.horizon) > this.last) return false;
    for (const row of result.rows as Array<{ seq: string | null; entries: string | null }>) {
      if (row.seq === null || BigInt(row.seq) <= this.last) continue;
      this.apply(entriesOf(row.entries!), false);
      this.last = BigInt(row.seq);
    }
    return true;
  }

  /** Opens the namespace again under the lock (loads it, or seeds it if it is gone). */
  protected reopen(): Promise<void> {
    return this.owner.inOrder(this.namespace, () => this.locked((client) => this.openIn(client, false)));
  }

  /** Applies entries to the copy: recorded (`record`, a change of this replica's) or not (the log of others). */
  protected apply(entries: JournalEntry[], record: boolean): void {
    this.applying = !record;
    try {
      for (const entry of entries) {
        const collection = this.memory.collection(entry.c);
        const scope = entry.s ?? '';
        switch (entry.op) {
          case 'put':
            collection.putAt(entry.k, entry.r!, scope);
            break;
          case 'del':
            collection.delete(entry.k, scope);
            break;
          case 'drop':
            collection.dropScope(scope);
            break;
          case 'clear':
            collection.clear();
            break;
          case 'next':
            collection.advance(entry.n!, entry.s);
            break;
        }
      }
    } finally {
      this.applying = false;
    }
  }

  /**
   * Runs `work` in a transaction holding the namespace's lock, with a client of its own; committed
   * when it returns. `then`: a statement run once the lock is held, in the same round trip; its
   * result is given to `work`.
   */
  protected async locked<T>(work: (client: PoolClient, then?: QueryResult) => Promise<T>, then?: string): Promise<T> {
    const { client, giveBack } = await borrow(this.owner.pool);
    let broken: unknown;
    try {
      const begun = (await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${LOCK_SPACE}, ${this.lock})${then ? `; ${then}` : ''}`)) as unknown as QueryResult[];
      const result = await work(client, then ? begun[2] : undefined);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = error;
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      // A client whose transaction failed is not reused (its connection may be the reason), unless the database refused what it held.
      giveBack(broken !== undefined && !(broken instanceof ContentRefused));
    }
  }

  /** Under the lock: loads the namespace, or seeds it (from the seed made in memory) when it has none. */
  protected async openIn(client: PoolClient, first: boolean): Promise<void> {
    const space = await client.query('SELECT epoch::text AS epoch, collections FROM mock_spaces WHERE ns = $1', [this.namespace]);
    const shape = JSON.stringify(this.names);
    if (space.rows.length) {
      const found = space.rows[0] as { epoch: string; collections: string };
      if (found.collections !== shape) {
        throw new StoreStartError(
          `The namespace "${this.namespace}" of this database holds the state of another document (collections ${(JSON.parse(found.collections) as string[]).join(', ') || 'none'}; this one has ${this.names.join(', ') || 'none'}); give this one a namespace of its own (--store-namespace).`,
        );
      }
      this.loose.length = 0;
      await this.load(client, found.epoch);
      if (first) this.loadedAtOpen = true;
      return;
    }
    // Seeded here: the seed made in memory (kept for a session, whose namespace may be dropped again).
    const clears = this.names.map((name) => `{"op":"clear","c":${JSON.stringify(name)}}`);
    if (first) this.seedEntries = [...clears, ...this.loose.splice(0)];
    const entries = this.seedEntries ?? clears;
    const made = await client.query("INSERT INTO mock_spaces (ns, epoch, collections) VALUES ($1, nextval('mock_seq'), $2) RETURNING epoch::text AS epoch", [this.namespace, shape]);
    if (this.session) await this.evictSessions(client);
    const last = await this.append(client, entries);
    if (!this.session) this.seedEntries = undefined;
    if (first) {
      this.epoch = (made.rows[0] as { epoch: string }).epoch;
      this.last = last;
      this.stale = false;
    } else await this.load(client, (made.rows[0] as { epoch: string }).epoch);
  }

  /**
   * Appends entries to the log and applies them to the records, in units of at most UNIT_ENTRIES
   * (a seed of a million records is not one text of hundreds of MB), in the transaction given: all
   * of them land or none. Resolves to the last unit's place in the log.
   */
  protected async append(client: PoolClient, entries: readonly string[]): Promise<bigint> {
    let last = 0n;
    for (let from = 0; from < entries.length; from += UNIT_ENTRIES) {
      const applied = await client.query('SELECT mock_apply($1, $2)::text AS seq', [this.namespace, unitOf(entries.slice(from, from + UNIT_ENTRIES))]);
      last = BigInt((applied.rows[0] as { seq: string }).seq);
    }
    return last;
  }

  /**
   * A session's namespace was just made: the least recently used sessions of the same shared
   * namespace beyond `maxSessions` are dropped from the database, as one process drops them from
   * memory, so sessions that nobody ends (a CI job gone) do not pile up. One being written now
   * (its lock held) is left for a later turn: its lock is only tried, never waited for.
   */
  protected async evictSessions(client: PoolClient): Promise<void> {
    const prefix = this.namespace.slice(0, this.namespace.lastIndexOf(SESSIONS) + SESSIONS.length);
    const { rows } = await client.query('SELECT ns FROM mock_spaces WHERE starts_with(ns, $1) AND ns <> $2 ORDER BY touched DESC OFFSET $3', [prefix, this.namespace, Math.max(0, this.owner.maxSessions - 1)]);
    for (const { ns } of rows as Array<{ ns: string }>) {
      const free = await client.query('SELECT pg_try_advisory_xact_lock($1, $2) AS free', [LOCK_SPACE, fnv1a(ns) | 0]);
      if ((free.rows[0] as { free: boolean }).free) await client.query(DROP_NAMESPACE, [ns]);
    }
  }

  /** Replaces the copy with the namespace's records and sequences, read in the transaction given. */
  protected async load(client: PoolClient, epoch: string): Promise<void> {
    const head = await client.query('SELECT coalesce(max(seq), 0)::text AS seq FROM mock_changes WHERE ns = $1', [this.namespace]);
    await this.reread(client);
    this.epoch = epoch;
    this.last = BigInt((head.rows[0] as { seq: string }).seq);
    this.stale = false;
  }

  /**
   * Replaces collections of the copy (`names`, else all of them) with their records and key
   * sequences as the transaction given sees them: the whole namespace when it is loaded, the
   * collections a work had changed when the database refused what it changed.
   */
  protected async reread(client: PoolClient, names?: readonly string[]): Promise<void> {
    const only = names ? ' AND c = ANY($2)' : '';
    const values = names ? [this.namespace, names] : [this.namespace];
    // Ordered by the indexed scope (r.s), not by its text: the order of the index; a scope's records are in list order either way.
    const records = await client.query({
      text: `SELECT r.c, coalesce(r.s_full, r.s), coalesce(r.k_full, r.k), coalesce(r.raw, r.body::text) FROM mock_records r WHERE r.ns = $1${only} ORDER BY r.c, r.s, r.position`,
      values,
      rowMode: 'array',
    });
    const sequences = await client.query(`SELECT c, coalesce(s_full, s) AS s, next::text AS next FROM mock_sequences WHERE ns = $1${only}`, values);
    this.applying = true;
    try {
      for (const name of names ?? this.names) this.memory.collection(name).clear();
      // The namespace holds this document's collections (openIn checked them).
      for (const [c, s, k, body] of records.rows as Array<[string, string, string, string]>) this.memory.collection(c).putAt(fromColumn(k), JSON.parse(body) as StoredRecord, fromColumn(s));
      for (const { c, s, next } of sequences.rows as Array<{ c: string; s: string; next: string }>) this.memory.collection(c).advance(Number(next), s === '' ? undefined : fromColumn(s));
    } finally {
      this.applying = false;
    }
  }

  /** Runs `work`, and gives back the changes it made to the copy (the journal's entries). */
  protected recorded(work: () => void): string[] {
    const recorded: string[] = (this.recording = []);
    try {
      work();
    } finally {
      this.recording = undefined;
    }
    return recorded;
  }
}
