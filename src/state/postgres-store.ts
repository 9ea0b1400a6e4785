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
 * Here the store: reads caught up with the log, writes queued and committed in groups. The
 * namespace, its copy in memory and its log are postgres-namespace.ts; the connection and the
 * stores of one database, postgres-stores.ts; the schema, postgres-schema.ts.
 */
import type { Collection } from '../openapi/operations/collection.js';
import type { StateBudget } from './budget.js';
import type { MemoryCollection } from './memory-collection.js';
import { observeStore, type JournalEntry } from './observe-store.js';
import { ContentRefused, reasonOf, refusedForContent, StoreRefused, StoreStartError, StoreUnavailable } from './postgres-errors.js';
import { PostgresNamespace, type NamespaceOwner } from './postgres-namespace.js';
import { DROP_NAMESPACE } from './postgres-schema.js';
import type { CollectionSnapshot, StateStore, TransactIntent } from './state-store.js';

/** Writes of one replica committed together at most. */
const BATCH = 256;
/** A session read through a replica is marked in use in the database at most this often. */
const TOUCH_MS = 10_000;

interface Job {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** One namespace's state as a store: a copy in memory that follows the database's log (PostgresNamespace). */
export class PostgresStore extends PostgresNamespace implements StateStore {
  /** Resolves once the namespace is seeded or loaded; rejects (StoreStartError) when it cannot be. */
  readonly ready: Promise<void>;
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
  /** When this replica last told the database that the namespace is in use (a session's, by its reads). */
  private touchedAt = 0;

  constructor(owner: NamespaceOwner, namespace: string, collections: readonly Collection[], budget: StateBudget, session: boolean) {
    super(owner, namespace, collections, budget, session);
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

/** The collections entries change. */
function collectionsOf(entries: readonly string[]): Set<string> {
  return new Set(entries.map((entry) => (JSON.parse(entry) as JournalEntry).c));
}
