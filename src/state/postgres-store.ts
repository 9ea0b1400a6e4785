/**
 * The state in PostgreSQL (`--store postgres://…`), shared by every replica of the mock that names
 * the same database and namespace, behind the `StateStore` interface (state-store.ts).
 *
 * How (docs/replicas.md says it for users):
 * - Each replica keeps the state in memory as well, in the in-memory store (store.ts), so lists
 *   keep its indexes and its paging, and answers its cached JSON: a list page costs what it
 *   costs in memory. PostgreSQL holds the records (a JSONB row per record, in list order), the key
 *   sequences, and an ordered log of changes; it is the truth, and the copies follow its log.
 * - A request that may write (`TransactIntent.writes`) runs under a transaction-scoped advisory
 *   lock of its namespace: the replica catches up the log, runs the work on its copy (the rules
 *   read and write the same state, so an order never oversells), appends what the work changed
 *   (the journal's entries, observe-store.ts) to the log and to the records in the same
 *   transaction, and answers once it has committed: a write that was answered is in the database.
 *   The writes waiting in one replica go in one transaction (group commit); a work that fails is
 *   its request's error, not the others', and so is a work whose changes the database refuses for
 *   what they hold (they are committed again one by one, under a savepoint each: see batch).
 * - Text PostgreSQL cannot hold as it is (NUL, lone surrogates) is written so that it reads back
 *   exactly (postgres-text.ts). A key or a scope of any length is kept: past INDEXED_BYTES, the
 *   indexed column holds a digest of it (`mock_key`) and another column its text.
 * - A read catches up the log first (one query, shared by the reads that arrive while another is
 *   under way), so what was written through any replica before the read began is seen.
 * - The first replica seeds the namespace under the lock; the others find it seeded and load it.
 *   The log is trimmed; a replica that fell behind what is left of it loads the records again.
 * - Sessions (X-Mock-Session) are namespaces of their own, seeded on first use through any replica;
 *   the database keeps `maxSessions` of them per shared namespace, the least recently used dropped.
 *
 * When the database cannot be reached, every transaction is refused with a 503 and `Retry-After`
 * (`StoreUnavailable`), `health()` says why, and a probe finds it back by itself. A failed write
 * transaction leaves the copy holding changes the database did not take: it is loaded again before
 * the next request uses it. A request whose changes alone the database refuses is answered 500
 * (`StoreRefused`): not a lost database, so `health()` stays ready.
 *
 * `pg` is loaded only when a PostgreSQL store is asked for: the in-memory default never loads it.
 */
import type { Pool, PoolClient, QueryResult } from 'pg';
import { ApiError } from '../core/api-error.js';
import { fnv1a } from '../core/fnv.js';
import type { Collection } from '../operations/collection.js';
import { StateBudget } from './budget.js';
import type { PersistenceHealth } from './journal.js';
import { observeStore, type JournalEntry } from './observe-store.js';
import { entriesOf, fromColumn, unitOf } from './postgres-text.js';
import type { CollectionSnapshot, StateStore, StoredRecord, TransactIntent } from './state-store.js';
import { MemoryCollection, MemoryStore } from './store.js';

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

/** The database could not be reached or refused the work: the request is answered 503 with Retry-After. */
export class StoreUnavailable extends ApiError {
  constructor(reason: string) {
    super(503, 'STORE_UNAVAILABLE', `The state is kept in PostgreSQL, which cannot be used now (${reason}). Try again shortly (GET /__health says when it is back).`, undefined, { 'Retry-After': '1' });
  }
}

/**
 * The database refused what one request changed, for what it holds (see refusedForContent), and
 * kept none of it: that request alone is answered 500; the database still serves the others.
 */
export class StoreRefused extends ApiError {
  constructor(reason: string) {
    super(500, 'STORE_REFUSED', `PostgreSQL refused what this request changed (${reason}), so none of it was kept; other requests are not affected.`);
  }
}

/** Why the store cannot start: one sentence, for the CLI's fatal line or the library's rejection. */
export class StoreStartError extends Error {
  override readonly name = 'StoreStartError';
}

/** The log keeps at least this many units per namespace; a replica further behind loads the records again. */
const KEPT_UNITS = 4096;
/** Writes of one replica committed together at most. */
const BATCH = 256;
/** Entries in one unit of the log at most (a unit is one row of mock_changes, one call of mock_apply). */
const UNIT_ENTRIES = 4096;
/** A session read through a replica is marked in use in the database at most this often. */
const TOUCH_MS = 10_000;
/** What follows the shared namespace in a session's: `default/session/<name>`. */
const SESSIONS = '/session/';
/** A namespace removed whole ($1): its records, sequences, log and its row. */
const DROP_NAMESPACE =
  'WITH records AS (DELETE FROM mock_records WHERE ns = $1), sequences AS (DELETE FROM mock_sequences WHERE ns = $1), changes AS (DELETE FROM mock_changes WHERE ns = $1) DELETE FROM mock_spaces WHERE ns = $1';
/**
 * Keys and scopes longer than this, in bytes, are indexed by a digest (mock_key in the schema), with
 * their text in a column beside: the primary key's index row holds about 2,700 bytes for the
 * namespace, the collection, the scope and the key together. Shorter ones are indexed as they are.
 */
const INDEXED_BYTES = 1024;
/** Key space of the advisory locks (`pg_advisory_xact_lock(LOCK_SPACE, the namespace's hash)`): 'mock' in ASCII. */
const LOCK_SPACE = 0x6d6f636b;

/** The tables and the function that applies a unit of changes, made once per database (idempotent). */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS mock_spaces (ns text PRIMARY KEY, epoch bigint NOT NULL, horizon bigint NOT NULL DEFAULT 0, collections text NOT NULL);
-- When a namespace was last written (or, for a session's, read): the least recently used sessions go first.
ALTER TABLE mock_spaces ADD COLUMN IF NOT EXISTS touched timestamptz NOT NULL DEFAULT now();
-- s and k hold a scope and a key as mock_key gives them; s_full and k_full the text of one mock_key shortened (else null).
CREATE TABLE IF NOT EXISTS mock_records (ns text NOT NULL, c text NOT NULL, s text NOT NULL, k text NOT NULL, position bigint NOT NULL, body jsonb, raw text, s_full text, k_full text, PRIMARY KEY (ns, c, s, k));
CREATE INDEX IF NOT EXISTS mock_records_order ON mock_records (ns, c, s, position);
CREATE TABLE IF NOT EXISTS mock_sequences (ns text NOT NULL, c text NOT NULL, s text NOT NULL, next bigint NOT NULL, s_full text, PRIMARY KEY (ns, c, s));
CREATE TABLE IF NOT EXISTS mock_changes (ns text NOT NULL, seq bigint NOT NULL, entries text NOT NULL, PRIMARY KEY (ns, seq));
CREATE SEQUENCE IF NOT EXISTS mock_seq;
CREATE SEQUENCE IF NOT EXISTS mock_position;
-- A key or a scope as the indexes hold it: itself up to ${INDEXED_BYTES} bytes; past that (an index row holds about 2,700)
-- U+0001, "#" and its SHA-256 in hex, which no shorter one is (postgres-text.ts writes any that begins with U+0001 as U+0001 and a JSON string).
-- STABLE, as convert_to is: only then is it inlined into the statements that use it (IMMUTABLE, it was called, and mock_apply took 27% longer).
CREATE OR REPLACE FUNCTION mock_key(p_text text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $f$
  SELECT CASE WHEN octet_length(p_text) <= ${INDEXED_BYTES} THEN p_text ELSE chr(1) || '#' || encode(sha256(convert_to(p_text, 'UTF8')), 'hex') END
$f$;
-- A database made before s_full and k_full: the columns added, and its keys and scopes past that length (it stored them as they were) put in that form, once.
DO $m$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_attribute WHERE attrelid = 'mock_records'::regclass AND attname = 'k_full' AND NOT attisdropped) THEN
    ALTER TABLE mock_records ADD COLUMN IF NOT EXISTS s_full text, ADD COLUMN IF NOT EXISTS k_full text;
    ALTER TABLE mock_sequences ADD COLUMN IF NOT EXISTS s_full text;
    UPDATE mock_records SET s = mock_key(s), s_full = nullif(s, mock_key(s)), k = mock_key(k), k_full = nullif(k, mock_key(k))
      WHERE octet_length(s) > ${INDEXED_BYTES} OR octet_length(k) > ${INDEXED_BYTES};
    UPDATE mock_sequences SET s = mock_key(s), s_full = s WHERE octet_length(s) > ${INDEXED_BYTES};
  END IF;
END $m$;
CREATE OR REPLACE FUNCTION mock_next(p_ns text, p_c text, p_s text, p_next numeric) RETURNS void LANGUAGE sql AS $f$
  INSERT INTO mock_sequences (ns, c, s, s_full, next) VALUES (p_ns, p_c, mock_key(p_s), nullif(p_s, mock_key(p_s)), p_next)
  ON CONFLICT (ns, c, s) DO UPDATE SET next = greatest(mock_sequences.next, excluded.next);
$f$;
CREATE OR REPLACE FUNCTION mock_apply(p_ns text, p_unit text) RETURNS bigint LANGUAGE plpgsql AS $f$
DECLARE
  -- sc and v_k: the scope and the key as given; v_si and v_ki: as the indexes hold them (mock_key).
  e record; sc text; v_si text; v_k text; v_ki text; v_next numeric; v_seq bigint; v_cut bigint;
  -- The key sequences the unit moves, written once at its end: ["collection","scope"] -> next.
  v_seqs jsonb := '{}'; v_at text;
BEGIN
  v_seq := nextval('mock_seq');
  INSERT INTO mock_changes (ns, seq, entries) VALUES (p_ns, v_seq, p_unit);
  -- The unit parsed once (json_to_recordset), not once per field read: the key kept as json, so its text is what was sent.
  FOR e IN SELECT x.op, x.c, x.s, x.k, x.r, x.raw, x.n FROM ROWS FROM (json_to_recordset(p_unit::json) AS (op text, c text, s text, k json, r json, raw text, n numeric)) WITH ORDINALITY AS x(op, c, s, k, r, raw, n, i) ORDER BY x.i LOOP
    sc := coalesce(e.s, '');
    v_si := mock_key(sc);
    IF e.op = 'put' THEN
      v_k := CASE WHEN json_typeof(e.k) = 'string' THEN e.k #>> '{}' ELSE e.k::text END;
      v_ki := mock_key(v_k);
      -- A record holding what jsonb cannot (NUL, a lone surrogate) comes as its JSON text (postgres-text.ts) and is kept so.
      INSERT INTO mock_records (ns, c, s, k, position, body, raw, s_full, k_full)
        VALUES (p_ns, e.c, v_si, v_ki, nextval('mock_position'), CASE WHEN e.raw IS NULL THEN e.r::jsonb END, e.raw, nullif(sc, v_si), nullif(v_k, v_ki))
        ON CONFLICT (ns, c, s, k) DO UPDATE SET body = excluded.body, raw = excluded.raw;
      IF json_typeof(e.k) = 'number' THEN
        -- Kept in v_seqs until the end of the unit: one statement per sequence, not one per record.
        v_next := v_k::numeric + 1;
        v_at := json_build_array(e.c, '')::text;
        v_seqs := v_seqs || jsonb_build_object(v_at, greatest(v_next, (v_seqs->>v_at)::numeric));
        IF sc <> '' THEN
          v_at := json_build_array(e.c, sc)::text;
          v_seqs := v_seqs || jsonb_build_object(v_at, greatest(v_next, (v_seqs->>v_at)::numeric));
        END IF;
      END IF;
    ELSIF e.op = 'del' THEN
      v_k := CASE WHEN json_typeof(e.k) = 'string' THEN e.k #>> '{}' ELSE e.k::text END;
      DELETE FROM mock_records WHERE ns = p_ns AND c = e.c AND s = v_si AND k = mock_key(v_k);
    ELSIF e.op = 'drop' THEN
      DELETE FROM mock_records WHERE ns = p_ns AND c = e.c AND s = v_si;
      DELETE FROM mock_sequences WHERE ns = p_ns AND c = e.c AND s = v_si AND sc <> '';
      IF sc <> '' THEN v_seqs := v_seqs - json_build_array(e.c, sc)::text; END IF;
    ELSIF e.op = 'clear' THEN
      DELETE FROM mock_records WHERE ns = p_ns AND c = e.c;
      DELETE FROM mock_sequences WHERE ns = p_ns AND c = e.c;
      -- What the unit moved before the clear is gone with it.
      v_seqs := v_seqs - ARRAY(SELECT k FROM jsonb_object_keys(v_seqs) AS k WHERE (k::jsonb)->>0 = e.c);
    ELSIF e.op = 'next' THEN
      PERFORM mock_next(p_ns, e.c, sc, e.n);
    END IF;
  END LOOP;
  INSERT INTO mock_sequences (ns, c, s, s_full, next)
    SELECT p_ns, x.c, mock_key(x.s), nullif(x.s, mock_key(x.s)), x.v
    FROM (SELECT (k::jsonb)->>0 AS c, (k::jsonb)->>1 AS s, v::numeric AS v FROM jsonb_each_text(v_seqs) AS y(k, v)) AS x
    ON CONFLICT (ns, c, s) DO UPDATE SET next = greatest(mock_sequences.next, excluded.next);
  IF v_seq % 256 = 0 THEN
    SELECT c.seq INTO v_cut FROM mock_changes c WHERE c.ns = p_ns ORDER BY c.seq DESC OFFSET ${KEPT_UNITS} LIMIT 1;
    IF v_cut IS NOT NULL THEN
      DELETE FROM mock_changes c WHERE c.ns = p_ns AND c.seq <= v_cut;
      UPDATE mock_spaces SET horizon = v_cut WHERE ns = p_ns;
    END IF;
  END IF;
  UPDATE mock_spaces SET touched = now() WHERE ns = p_ns;
  RETURN v_seq;
END
$f$;
`;

type PgModule = typeof import('pg');

/** The URL with its password masked, for messages. */
export function maskUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

/** What a failed query says, in a few words (the pg error's code and message). */
function reasonOf(error: unknown): string {
  const e = error as { code?: string; message?: string };
  const message = (e?.message ?? String(error)).split('\n')[0];
  return e?.code && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}

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
export class PostgresStores {
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

interface Job {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** One namespace's state: a copy in memory that follows the database's log. */
export class PostgresStore implements StateStore {
  private readonly memory: MemoryStore;
  private readonly names: string[];
  /** Resolves once the namespace is seeded or loaded; rejects (StoreStartError) when it cannot be. */
  readonly ready: Promise<void>;
  /** The last unit of the log the copy holds, and the namespace's epoch (it changes when the namespace is made again). */
  private last = 0n;
  private epoch = '';
  /** The copy may hold changes the database does not (a write transaction failed): load it again before use. */
  private stale = false;
  /** Changes made while applying the log or loading are not recorded; `recording` collects a transaction's; `loose` the others (the seed, before opening). */
  private applying = false;
  private recording?: string[];
  private loose: string[] = [];
  /** A session's seed, kept to seed its namespace again if it was dropped meanwhile (through another replica). */
  private seedEntries?: string[];
  private readonly queue: Job[] = [];
  private writing?: Promise<void>;
  /** While the copy holds a write's changes not yet committed (from its works to its commit): reads wait for it. */
  private uncommitted?: Promise<void>;
  /** Whether the namespace was opened (seeded or loaded): changes made outside a transaction after that are written on their own. */
  private open = false;
  private flushing = false;
  private fetching?: Promise<void>;
  private nextFetch?: Promise<void>;
  private released = false;
  /** Whether its first opening found the namespace seeded (by another replica) and loaded it. */
  loadedAtOpen = false;
  /** When this replica last told the database that the namespace is in use (a session's, by its reads). */
  private touchedAt = 0;
  /** The namespace's advisory lock, as the second key of `pg_advisory_xact_lock` (an int4). */
  private readonly lock: number;
  /** The namespace as an SQL literal. */
  private readonly literal: string;

  constructor(
    private readonly owner: PostgresStores,
    readonly namespace: string,
    collections: readonly Collection[],
    budget: StateBudget,
    private readonly session: boolean,
  ) {
    this.memory = new MemoryStore(collections, budget);
    this.names = collections.map((c) => c.name);
    this.lock = fnv1a(namespace) | 0;
    this.literal = owner.literal(namespace);
    observeStore(this.memory, this.names, (entry) => {
      if (this.applying) return;
      if (this.recording) return void this.recording.push(entry);
      this.loose.push(entry);
      // A change outside a transaction (a read that made a record; the library's reset): written after the turn that made it.
      if (this.open && !this.flushing) {
        this.flushing = true;
        queueMicrotask(() => this.flushLoose());
      }
    });
    // Opened once the synchronous seeding that follows the store's making is done.
    this.ready = Promise.resolve().then(() => this.opening());
    this.ready.catch(() => undefined);
  }

  get budget(): StateBudget {
    return this.memory.budget;
  }

  collection(name: string): MemoryCollection {
    return this.memory.collection(name);
  }

  has(name: string): boolean {
    return this.memory.has(name);
  }

  full(): string | undefined {
    return this.memory.full();
  }

  export(): Record<string, CollectionSnapshot> {
    return this.memory.export();
  }

  counts(): Record<string, number> {
    return this.memory.counts();
  }

  transact<T>(work: () => T, intent?: TransactIntent): Promise<T> {
    if (intent && !intent.writes) return this.read(work);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.kick();
    });
  }

  /** Resolves once no write is queued or under way. */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /**
   * A session dropped (reset, evicted): its records leave the budget, and its namespace the
   * database, so its next request, through any replica, starts from the seed.
   */
  release(): void {
    this.released = true;
    this.applying = true;
    try {
      this.memory.clearAll();
    } finally {
      this.applying = false;
    }
    this.owner.forget(this);
    if (!this.session) return;
    void this.owner
      .inOrder(this.namespace, async () => {
        await this.settled();
        await this.locked((client) => client.query(DROP_NAMESPACE, [this.namespace]));
      })
      .catch(() => undefined);
  }

  private async read<T>(work: () => T): Promise<T> {
    await this.opened();
    for (;;) {
      try {
        await this.caughtUp();
      } catch (error) {
        throw this.owner.failed(error);
      }
      if (!this.uncommitted) return work();
      // A write of this replica whose changes are in the copy but not yet committed: the read waits
      // for its end; if it failed, the copy is loaded again (caughtUp) before the read runs.
      while (this.uncommitted) await this.uncommitted;
      if (!this.stale) return work();
    }
  }

  private flushLoose(): void {
    this.flushing = false;
    const entries = this.loose.splice(0);
    if (entries.length === 0) return;
    // Applied again under the lock, after the log: written as this replica's change, after the others'.
    void this.transact(() => this.apply(entries.map((text) => JSON.parse(text) as JournalEntry), true)).catch(() => undefined);
  }

  private async opened(): Promise<void> {
    try {
      await this.ready;
    } catch (error) {
      throw error instanceof StoreStartError ? new StoreUnavailable(error.message) : this.owner.failed(error);
    }
    if (this.released) throw new StoreUnavailable('this session was dropped');
  }

  /** Brings the copy up to the log: one query, shared by the reads that arrive while another is under way. */
  private caughtUp(): Promise<void> {
    if (!this.fetching) {
      this.fetching = this.fetchLog().finally(() => (this.fetching = undefined));
      return this.fetching;
    }
    // The query under way began before this read: the next one serves it.
    this.nextFetch ??= this.fetching
      .catch(() => undefined)
      .then(() => {
        this.nextFetch = undefined;
        return this.caughtUp();
      });
    return this.nextFetch;
  }

  private async fetchLog(): Promise<void> {
    if (this.session && Date.now() - this.touchedAt > TOUCH_MS) {
      // A session only read is still in use: told to the database now and then (writes tell it themselves).
      this.touchedAt = Date.now();
      void this.owner.pool.query('UPDATE mock_spaces SET touched = now() WHERE ns = $1', [this.namespace]).catch(() => undefined);
    }
    if (this.stale) return this.reopen();
    const result = await this.owner.pool.query(this.logQuery());
    this.owner.succeeded(false);
    if (!this.follow(result)) await this.reopen();
  }

  /**
   * The namespace's epoch and horizon, and the units of its log past what the copy holds, in order:
   * a simple query (no parameters), so a write sends it in the round trip that takes the lock.
   */
  private logQuery(): string {
    return `SELECT s.epoch::text AS epoch, s.horizon::text AS horizon, c.seq::text AS seq, c.entries FROM mock_spaces s LEFT JOIN mock_changes c ON c.ns = s.ns AND c.seq > ${this.last.toString()} WHERE s.ns = ${this.literal} ORDER BY c.seq`;
  }

  /**
   * Applies the log's rows (those past what the copy holds); false when the copy cannot follow
   * (the namespace dropped or made again, or the log trimmed past it) and must be loaded again.
   */
  private follow(result: QueryResult): boolean {
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
  private reopen(): Promise<void> {
    return this.owner.inOrder(this.namespace, () => this.locked((client) => this.openIn(client, false)));
  }

  /** Applies entries to the copy: recorded (`record`, a change of this replica's) or not (the log of others). */
  private apply(entries: JournalEntry[], record: boolean): void {
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
  private async locked<T>(work: (client: PoolClient, then?: QueryResult) => Promise<T>, then?: string): Promise<T> {
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

  /** The first opening: the seed made in memory is written, unless another replica seeded the namespace first. */
  private async opening(): Promise<void> {
    try {
      await this.owner.inOrder(this.namespace, () => this.locked((client) => this.openIn(client, true)));
    } catch (error) {
      if (error instanceof StoreStartError) throw error;
      throw new StoreStartError(`Cannot open the state in PostgreSQL (namespace "${this.namespace}"): ${reasonOf(error)}.`);
    }
    this.open = true;
    this.owner.succeeded(true);
  }

  /** Under the lock: loads the namespace, or seeds it (from the seed made in memory) when it has none. */
  private async openIn(client: PoolClient, first: boolean): Promise<void> {
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
  private async append(client: PoolClient, entries: readonly string[]): Promise<bigint> {
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
  private async evictSessions(client: PoolClient): Promise<void> {
    const prefix = this.namespace.slice(0, this.namespace.lastIndexOf(SESSIONS) + SESSIONS.length);
    const { rows } = await client.query('SELECT ns FROM mock_spaces WHERE starts_with(ns, $1) AND ns <> $2 ORDER BY touched DESC OFFSET $3', [prefix, this.namespace, Math.max(0, this.owner.maxSessions - 1)]);
    for (const { ns } of rows as Array<{ ns: string }>) {
      const free = await client.query('SELECT pg_try_advisory_xact_lock($1, $2) AS free', [LOCK_SPACE, fnv1a(ns) | 0]);
      if ((free.rows[0] as { free: boolean }).free) await client.query(DROP_NAMESPACE, [ns]);
    }
  }

  /** Replaces the copy with the namespace's records and sequences, read in the transaction given. */
  private async load(client: PoolClient, epoch: string): Promise<void> {
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
  private async reread(client: PoolClient, names?: readonly string[]): Promise<void> {
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

  private kick(): void {
    if (this.writing || this.queue.length === 0) return;
    this.writing = this.batch().finally(() => {
      this.writing = undefined;
      this.kick();
    });
  }

  /**
   * The writes queued: one transaction under the lock, each work run in turn on the copy caught up,
   * committed together. When the database refuses what they changed for what it holds (not for a
   * lost connection: see refusedForContent), the transaction is rolled back and the works run
   * again in another, each committed under a savepoint of its own, so that the one refused fails
   * alone (`StoreRefused`) and the others are committed.
   */
  private async batch(): Promise<void> {
    const jobs = this.queue.splice(0, BATCH);
    try {
      await this.opened();
    } catch (error) {
      for (const job of jobs) job.reject(error);
      return;
    }
    let outcomes: Outcome[];
    /** Settles `uncommitted`, once the copy holds only what the database does (or is stale): set by the first transaction that changes it. */
    let release: (() => void) | undefined;
    const hold = () => {
      if (release) return;
      let committed!: () => void;
      this.uncommitted = new Promise<void>((resolve) => (committed = resolve));
      release = () => {
        this.uncommitted = undefined;
        committed();
      };
    };
    try {
      try {
        outcomes = await this.commit(jobs, hold);
      } catch (error) {
        if (!(error instanceof ContentRefused)) throw error;
        outcomes = await this.commit(jobs, hold, error.collections);
      }
      this.stale = false;
    } catch (error) {
      // The works may have changed the copy: it holds what the database does not.
      if (release) this.stale = true;
      const refused = error instanceof StoreStartError ? new StoreUnavailable(error.message) : this.owner.failed(error);
      for (const job of jobs) job.reject(refused);
      return;
    } finally {
      release?.();
    }
    this.owner.succeeded(true);
    jobs.forEach((job, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }

  /**
   * One transaction of a batch: the works run on the copy caught up, their changes appended
   * together, or (`alone`: the collections the first transaction had changed in the copy, read
   * again first) each work's under a savepoint of its own, a refused one rolled back to it and the
   * collections it changed read again.
   * @throws ContentRefused when, together, the database refused what they changed for what it holds.
   */
  private commit(jobs: readonly Job[], hold: () => void, alone?: ReadonlySet<string>): Promise<Outcome[]> {
    // The log past what the copy holds, read once the lock is held, in the lock's round trip (follow skips what a read applied meanwhile).
    const logQuery = this.logQuery();
    return this.locked(async (client, log) => {
      if (this.stale || !this.follow(log!)) await this.openIn(client, false);
      else if (alone?.size) await this.reread(client, [...alone]);
      hold();
      if (!alone) {
        const outcomes: Outcome[] = [];
        const recorded = this.recorded(() => jobs.forEach((job) => outcomes.push(run(job))));
        if (recorded.length === 0) return outcomes;
        try {
          this.last = await this.append(client, recorded);
        } catch (error) {
          throw refusedForContent(error) ? new ContentRefused(collectionsOf(recorded)) : error;
        }
        return outcomes;
      }
      const outcomes: Outcome[] = [];
      for (const job of jobs) {
        let outcome!: Outcome;
        const recorded = this.recorded(() => (outcome = run(job)));
        if (recorded.length > 0) {
          await client.query('SAVEPOINT work');
          try {
            this.last = await this.append(client, recorded);
          } catch (error) {
            if (!refusedForContent(error)) throw error;
            await client.query('ROLLBACK TO SAVEPOINT work');
            outcome = { ok: false, error: new StoreRefused(reasonOf(error)) };
            await this.reread(client, [...collectionsOf(recorded)]);
          }
        }
        outcomes.push(outcome);
      }
      return outcomes;
    }, logQuery);
  }

  /** Runs `work`, and gives back the changes it made to the copy (the journal's entries). */
  private recorded(work: () => void): string[] {
    const recorded: string[] = (this.recording = []);
    try {
      work();
    } finally {
      this.recording = undefined;
    }
    return recorded;
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A queued work run: its result, or what it threw. */
function run(job: Job): Outcome {
  try {
    return { ok: true, value: job.work() };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Whether the database refused a unit for what it holds, rather than failing: a data exception
 * (SQLSTATE class 22), an integrity constraint (23), a limit (54: the size of an index row, which a
 * key or a scope no longer reaches, or one an operator's index adds), or an exception raised in
 * PL/pgSQL (P0: a trigger of the operator's). That is one request's failure. Anything else (no SQLSTATE: the connection;
 * a server shutting down, a timeout, a missing table) means the database cannot be used.
 */
function refusedForContent(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^(22|23|54|P0)/.test(code);
}

/** Out of a transaction whose changes, together, the database refused for what they hold: the collections they changed in the copy. */
class ContentRefused extends Error {
  constructor(readonly collections: ReadonlySet<string>) {
    super('The database refused the changes of a group commit for what they hold.');
  }
}

/** The collections entries change. */
function collectionsOf(entries: readonly string[]): Set<string> {
  return new Set(entries.map((entry) => (JSON.parse(entry) as JournalEntry).c));
}

/**
 * A client of the pool, and how to give it back (`destroy`: not reused). A connection lost while
 * the client is checked out (the server stopped) fails the query under way, and the client emits
 * 'error' too: the pool listens only to idle clients, and an 'error' nobody listens to would end
 * the process, so one is listened to (and ignored: the query reports it) until it is given back.
 */
async function borrow(pool: Pool): Promise<{ client: PoolClient; giveBack: (destroy: boolean) => void }> {
  const client = await pool.connect();
  client.on('error', ignore);
  return {
    client,
    giveBack: (destroy) => {
      client.removeListener('error', ignore);
      client.release(destroy);
    },
  };
}

const ignore = (): void => undefined;
