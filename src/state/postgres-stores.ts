/**
 * The PostgreSQL store's connection to one database (`--store postgres://…`): connectPostgres makes
 * the database ready (schema: postgres-schema.ts) and gives the PostgresStores of one mock, which
 * make its stores (postgres-store.ts: the shared state's, each session's), report their health,
 * probe a lost database until it answers again, and close the connections.
 *
 * `pg` is loaded only when a PostgreSQL store is asked for: the in-memory default never loads it.
 */
import type { Pool } from 'pg';
import type { Collection } from '../openapi/operations/collection.js';
import { borrow } from './borrow-client.js';
import type { StateBudget } from './budget.js';
import type { PersistenceHealth } from './persistence-health.js';
import { maskUrl, reasonOf, StoreStartError, StoreUnavailable } from './postgres-errors.js';
import type { NamespaceOwner } from './postgres-namespace.js';
import { LOCK_SPACE, SCHEMA, SESSIONS } from './postgres-schema.js';
import { PostgresStore } from './postgres-store.js';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:5432/database` */
  url: string;
  /** The namespace of the shared state (default `default`): replicas that share state name the same one; another document needs another. */
  namespace?: string;
  /** Connections to the database per replica (default 8). */
  poolSize?: number;
  /** How long a statement (a lock wait included) may take before the request is refused with a 503 (default 10,000 ms). */
  statementTimeoutMs?: number;
  /** Told when the database is lost and when it is back (one line each). */
  onEvent?: (message: string) => void;
  /** How often the database is probed (default 1,000 ms). */
  probeMs?: number;
  /**
   * Sessions kept in the database for the shared namespace, across replicas (default 100, as each
   * process keeps): making one more drops the least recently used.
   */
  maxSessions?: number;
}

type PgModule = typeof import('pg');

/**
 * Connects to the database (made ready once: tables and functions), and makes the stores of one
 * mock: the shared state's under the namespace, each session's under a namespace of its own.
 * @throws StoreStartError (one sentence) when the database cannot be reached or set up.
 */
export async function connectPostgres(options: PostgresStoreOptions): Promise<PostgresStores> {
  let pg: PgModule;
  try {
    pg = (await import('pg')).default as unknown as PgModule;
  } catch {
    throw new StoreStartError('The PostgreSQL store needs the "pg" package, which cannot be loaded; install it (npm install pg).');
  }
  const statementTimeout = options.statementTimeoutMs ?? 10_000;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 8,
    connectionTimeoutMillis: 3_000,
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout + 2_000,
    idle_in_transaction_session_timeout: statementTimeout,
    keepAlive: true,
    application_name: 'petstore-mock-kit',
  } as ConstructorParameters<PgModule['Pool']>[0]);
  // A connection lost while idle (the server stopped) is an event, not a crash.
  pool.on('error', () => undefined);
  try {
    const { client, giveBack } = await borrow(pool);
    try {
      // Replicas starting together make the tables once: under a lock of the session.
      await client.query(`SELECT pg_advisory_lock(${LOCK_SPACE}, 0)`);
      try {
        await client.query(SCHEMA);
      } finally {
        await client.query(`SELECT pg_advisory_unlock(${LOCK_SPACE}, 0)`);
      }
    } finally {
      giveBack(false);
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StoreStartError(`Cannot use PostgreSQL at ${maskUrl(options.url)}: ${reasonOf(error)}.`);
  }
  return new PostgresStores(pool, options, pg.escapeLiteral);
}

/** The stores of one mock in one database, their health, and their connections. */
export class PostgresStores implements NamespaceOwner {
  private readonly namespace: string;
  private readonly stores = new Set<PostgresStore>();
  /** Work on a namespace's existence (opened, dropped), in order within this process. */
  private readonly chains = new Map<string, Promise<unknown>>();
  private failure?: string;
  private lastWrite?: number;
  private readonly probe: NodeJS.Timeout;
  private probing = false;
  private closed = false;

  readonly maxSessions: number;

  /**
   * @param literal pg's escapeLiteral: a text as an SQL literal, for the statements sent as simple
   *   queries (several in one round trip), which take no parameters.
   */
  constructor(
    readonly pool: Pool,
    private readonly options: PostgresStoreOptions,
    readonly literal: (text: string) => string,
  ) {
    this.namespace = options.namespace ?? 'default';
    this.maxSessions = options.maxSessions ?? 100;
    this.probe = setInterval(() => void this.check(), options.probeMs ?? 1_000).unref();
  }

  /**
   * A store for the collections: the shared state (no `session`) or a session's, counting its
   * records in `budget`. What is put in it before it opens (the seed) is written as its namespace's
   * seed by the first replica; the others load the namespace instead.
   */
  make = (collections: readonly Collection[], budget: StateBudget, session?: string): PostgresStore => {
    const namespace = session === undefined ? this.namespace : `${this.namespace}${SESSIONS}${session}`;
    const store = new PostgresStore(this, namespace, collections, budget, session !== undefined);
    this.stores.add(store);
    return store;
  };

  /** Runs `work` after the earlier work on the namespace's existence in this process. */
  inOrder<T>(namespace: string, work: () => Promise<T>): Promise<T> {
    const before = this.chains.get(namespace) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.catch(() => undefined);
    this.chains.set(namespace, tail);
    void tail.then(() => {
      if (this.chains.get(namespace) === tail) this.chains.delete(namespace);
    });
    return run;
  }

  forget(store: PostgresStore): void {
    this.stores.delete(store);
  }

  /** A query worked: the database is back, if it was lost. */
  succeeded(wrote: boolean): void {
    if (wrote) this.lastWrite = Date.now();
    if (this.failure === undefined) return;
    this.failure = undefined;
    this.options.onEvent?.('PostgreSQL answers again: requests are served.');
  }

  /** A query failed: the reason, as a 503 for the request. */
  failed(error: unknown): StoreUnavailable {
    if (error instanceof StoreUnavailable) return error;
    const reason = reasonOf(error);
    if (this.failure === undefined) this.options.onEvent?.(`PostgreSQL cannot be used (${reason}): requests are answered 503 until it is back.`);
    this.failure = reason;
    return new StoreUnavailable(reason);
  }

  /** What GET /__health reports: degraded while the database cannot be used. */
  health(): PersistenceHealth {
    return { enabled: true, ok: this.failure === undefined, lastWrite: this.lastWrite === undefined ? null : new Date(this.lastWrite).toISOString(), error: this.failure ?? null };
  }

  /** Whether the shared state was loaded at start, seeded earlier by another replica (false: seeded by this one). */
  loadedShared(): boolean {
    return [...this.stores].some((store) => store.namespace === this.namespace && store.loadedAtOpen);
  }

  /** Resolves once every store made so far has opened (seeded or loaded); rejects with the first one's reason. */
  async ready(): Promise<void> {
    await Promise.all([...this.stores].map((store) => store.ready));
  }

  private async check(): Promise<void> {
    if (this.probing || this.closed) return;
    this.probing = true;
    try {
      await this.pool.query('SELECT 1');
      this.succeeded(false);
    } catch (error) {
      this.failed(error);
    } finally {
      this.probing = false;
    }
  }

  /** Waits for the writes under way, then closes the connections. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.probe);
    await Promise.all([...this.stores].map((store) => store.settled()));
    await this.pool.end().catch(() => undefined);
  }
}
