/**
 * Persistence of the shared state (`--state-file FILE`): a snapshot, and an append-only journal of
 * the changes since.
 *
 * Why a journal: writing the whole state after changes costs as much as the state (45 MB of
 * JSON at 200,000 pets, stringified on the event loop every 200 ms, took POST /pets from 26.6k to
 * 3.1k req/s, p99 6 -> 913 ms), while a change costs an entry of JSON the store has already made.
 * A worker thread would still have to copy the state to it; the journal writes what changed.
 *
 * What is written when:
 * - Every change to the shared state becomes an entry (observe-store.ts) and is written to
 *   `FILE.<generation>.journal` with an asynchronous write, in batches: the entries made while one
 *   write is under way go in the next one. No answer is sent before the changes made before it are
 *   written (`waitWritten`, used by the server: persistence.ts), so whatever a client was told
 *   survives the process being killed (kill -9, a crash). The journal is synced to the disk
 *   (fdatasync) every `syncMs` (100 ms): a power loss or an operating-system crash loses at most
 *   that much.
 * - A batch is one line, a JSON array of its entries, ended by a newline: the unit that is read
 *   back whole or not at all (state-file.ts drops a last line without its newline, a write cut
 *   short). A batch is cut only between turns of the event loop (`kick` runs from callbacks, never
 *   while a change is made), and the work of a request on the in-memory store (its action and the
 *   rules', e.g. a pet and its inventory item), an admin reset or an import runs within one turn:
 *   each is in one batch, so a write cut short (the disk full, a crash) leaves all of it or none
 *   of it. The requests of a batch are answered once the whole line is written, so a line cut
 *   short holds nothing a client was told was saved. (Older journals have one entry per line;
 *   they are still read.)
 * - Once the journal outgrows the snapshot (and `compactBytes`), it is compacted: a new journal is
 *   started, the snapshot is rewritten in slices (snapshot-writer.ts), and the old journals are
 *   deleted once the new snapshot is in place. A crash in between leaves the old snapshot and both
 *   journals, which replay to the same state.
 * - At start (and after a --watch reload) the whole state is written as a new snapshot first; the
 *   changes made meanwhile are held (their answers wait) until it is in place.
 *
 * When writing fails (a write, a sync, a snapshot, or the file or its directory removed, replaced,
 * or made read-only, checked every `syncMs`), the journal says so (`failure`, `health`): the mock
 * answers writes 503 and GET /__health reports it. Every `retryMs` it tries to write the whole state
 * again; once that works, the journal starts afresh from it and writes are accepted again.
 */
import { close, unlink } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { observeStore, type ObservedStore } from './observe-store.js';
import { journalPath, listJournals } from './state-file.js';
import { syncDirectory, writeSnapshotFile } from './snapshot-writer.js';
import type { StateStore } from './state-store.js';
import { describe, fileProblem, openJournal, safely, writeAll, type OpenJournal } from './journal-file.js';
import type { PersistenceHealth } from './persistence-health.js';

export interface JournalOptions {
  /** The state file (the snapshot); journals go next to it. */
  file: string;
  /** The generation of the first journal: past every one on disk (readStateFile says which). */
  generation: number;
  /** How often the journal is synced and its location checked (default 100 ms). */
  syncMs?: number;
  /** How often writing is tried again after a failure (default 1,000 ms). */
  retryMs?: number;
  /** A journal is compacted once larger than this and than the snapshot (default 8 MiB). */
  compactBytes?: number;
  /** Work done per turn of the event loop while a snapshot is built (default 2 ms). */
  sliceMs?: number;
  /** The clock, for `lastWrite` (default Date.now). */
  now?: () => number;
  /** Told when writing fails and when it works again (one line each). */
  onEvent?: (message: string) => void;
}

/** Entries of one journal file waiting to be written; `fd` is undefined until the file may be written (a rebase in progress). */
interface Group {
  generation: number;
  fd: number | undefined;
  parts: string[];
  /** The sequence number of its last entry. */
  last: number;
}

export class StateJournal {
  private readonly file: string;
  private readonly directory: string;
  private readonly syncMs: number;
  private readonly retryMs: number;
  private readonly compactBytes: number;
  private readonly sliceMs: number;
  private readonly now: () => number;
  private readonly onEvent: (message: string) => void;

  private generation: number;
  private store?: StateStore;
  private names: readonly string[] = [];
  private observed?: ObservedStore;
  private readonly queue: Group[] = [];
  /** Entries made so far, and entries known to be written (or covered by a snapshot in place). */
  private appended = 0;
  private written = 0;
  private writing = false;
  private scheduled = false;
  private readonly waiters: Array<{ seq: number; resolve: (ok: boolean) => void }> = [];
  /** The journal being written now, and older ones to close once nothing uses them. */
  private current?: OpenJournal;
  private readonly retired: number[] = [];
  private journalBytes = 0;
  private snapshotBytes = 0;
  private unsynced = false;
  private probing = false;
  /** A snapshot (compaction or rebase) under way, and rebases waiting for their turn. */
  private busy: Promise<unknown> = Promise.resolve();
  private snapshotting = 0;
  private rebasing = 0;
  private failure?: string;
  private lastWrite?: number;
  private timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(options: JournalOptions) {
    this.file = options.file;
    this.directory = dirname(resolve(options.file));
    this.generation = options.generation - 1;
    this.syncMs = options.syncMs ?? 100;
    this.retryMs = options.retryMs ?? 1_000;
    this.compactBytes = options.compactBytes ?? 8 * 1024 * 1024;
    this.sliceMs = options.sliceMs ?? 2;
    this.now = options.now ?? Date.now;
    this.onEvent = options.onEvent ?? (() => undefined);
  }

  /**
   * Writes the store's whole state as the snapshot, then journals its changes. Resolves once the
   * snapshot is in place; rejects (with one sentence) when it cannot be written.
   */
  async start(store: StateStore, names: readonly string[]): Promise<void> {
    const error = await this.switchTo(store, names);
    if (error) {
      this.observed?.detach();
      throw new Error(error);
    }
    this.timers.push(setInterval(() => this.probe(), this.syncMs).unref(), setInterval(() => this.retry(), this.retryMs).unref());
  }

  /**
   * Journals another store from now on (a --watch reload built a new one): its whole state is
   * written as a new snapshot first; its changes are held until then.
   * @returns why it could not be written (writes are then refused until it can), or undefined.
   */
  async rebase(store: StateStore, names: readonly string[]): Promise<string | undefined> {
    const error = await this.switchTo(store, names);
    if (error && this.store === store) this.fail(error);
    return error;
  }

  private switchTo(store: StateStore, names: readonly string[]): Promise<string | undefined> {
    if (store !== this.store || !this.observed) {
      this.observed?.detach();
      this.observed = observeStore(store, names, (entry) => this.append(entry));
    }
    this.store = store;
    this.names = names;
    const observed = this.observed;
    const generation = ++this.generation;
    const held: Group = { generation, fd: undefined, parts: [], last: this.appended };
    this.queue.push(held);
    const base = this.appended;
    this.rebasing++;
    return this.exclusive(async () => {
      let journal: OpenJournal | undefined;
      try {
        const size = await writeSnapshotFile(this.file, { store, names, nextInteger: observed.nextInteger, sequences: observed.sequences }, generation, { sliceMs: this.sliceMs });
        journal = await openJournal(journalPath(this.file, generation));
        await syncDirectory(this.directory);
        held.fd = journal.fd;
        this.rebased(generation, base, size, journal);
        return undefined;
      } catch (error) {
        if (journal) this.retire(journal.fd);
        return `Cannot write the state file ${this.file}: ${describe(error)}`;
      } finally {
        this.rebasing--;
      }
    });
  }

  /** Resolves once every change made so far is written: true, or false when writing failed. */
  waitWritten(): boolean | Promise<boolean> {
    if (this.failure) return false;
    if (this.written >= this.appended) return true;
    return new Promise((resolve) => this.waiters.push({ seq: this.appended, resolve }));
  }

  /** Why changes cannot be written now, or undefined. */
  get failing(): string | undefined {
    return this.failure;
  }

  health(): PersistenceHealth {
    return { enabled: true, ok: !this.failure, lastWrite: this.lastWrite === undefined ? null : new Date(this.lastWrite).toISOString(), error: this.failure ?? null };
  }

  /** Resolves once no snapshot (a compaction, a rebase) is under way, including those the last writes started. */
  async settled(): Promise<void> {
    for (let seen: Promise<unknown> | undefined; seen !== this.busy; ) {
      seen = this.busy;
      await seen;
    }
  }

  /**
   * At shutdown (no request in flight): the journal written, then the whole state as the
   * snapshot, and the journals removed, so the file alone holds the state.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await this.busy;
    await this.drain();
    if (!this.failure && this.store) {
      const generation = ++this.generation;
      try {
        const observed = this.observed!;
        this.snapshotBytes = await writeSnapshotFile(this.file, { store: this.store, names: this.names, nextInteger: observed.nextInteger, sequences: observed.sequences }, generation, { sliceMs: this.sliceMs });
        if (this.current) this.retired.push(this.current.fd);
        this.current = undefined;
        this.closeRetired();
        await this.removeJournalsBefore(generation);
      } catch (error) {
        this.onEvent(`Cannot write the state file ${this.file} at shutdown: ${describe(error)}; the journal next to it keeps the changes.`);
      }
    }
    this.observed?.detach();
    if (this.current) this.retired.push(this.current.fd);
    this.current = undefined;
    this.closeRetired();
  }

  private append(entry: string): void {
    // While failing, entries are dropped: the rebase that ends the failure writes the whole state.
    if (this.failure && this.rebasing === 0) return;
    const group = this.queue[this.queue.length - 1];
    group.parts.push(entry);
    group.last = ++this.appended;
    if (!this.scheduled) {
      // Written once the event loop has read what it had: the entries of every request of this turn
      // go in one write, one line (a write per request cost ~10% of a core at 11k POST/s).
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.kick();
      });
    }
  }

  /** Writes the oldest waiting entries as one line, unless a write is under way. */
  private kick(): void {
    if (this.writing || this.failure) return;
    while (this.queue.length > 1 && this.queue[0].parts.length === 0) this.queue.shift();
    const group = this.queue[0];
    if (!group || group.parts.length === 0 || group.fd === undefined) return;
    // One line for the whole batch: read back whole, or not at all when the write is cut short.
    const buffer = Buffer.from(`[${group.parts.join(',')}]\n`);
    const seq = group.last;
    group.parts = [];
    this.writing = true;
    writeAll(group.fd, buffer, (error) => {
      this.writing = false;
      if (error) {
        this.fail(`Cannot write the journal ${journalPath(this.file, group.generation)}: ${describe(error)}`);
      } else if (!this.failure) {
        this.wrote(seq);
        if (group.generation === this.generation) this.journalBytes += buffer.length;
        this.unsynced = true;
        this.maybeCompact();
      }
      this.closeRetired();
      this.kick();
    });
  }

  private wrote(seq: number): void {
    this.written = Math.max(this.written, seq);
    this.lastWrite = this.now();
    while (this.waiters.length && this.waiters[0].seq <= this.written) this.waiters.shift()!.resolve(true);
  }

  private maybeCompact(): void {
    if (this.snapshotting > 0 || this.rebasing > 0 || this.closed || !this.store || this.journalBytes < Math.max(this.compactBytes, this.snapshotBytes)) return;
    const store = this.store;
    const observed = this.observed!;
    this.snapshotting++;
    void this.exclusive(async () => {
      let journal: OpenJournal | undefined;
      try {
        if (this.failure || this.store !== store) return;
        const generation = ++this.generation;
        journal = await openJournal(journalPath(this.file, generation));
        // From here on, entries go to the new journal; the snapshot may show some of them already.
        const base = this.appended;
        this.queue.push({ generation, fd: journal.fd, parts: [], last: base });
        this.journalBytes = 0;
        const size = await writeSnapshotFile(this.file, { store, names: this.names, nextInteger: observed.nextInteger, sequences: observed.sequences }, generation, { sliceMs: this.sliceMs });
        if (this.failure) throw new Error('writing failed meanwhile');
        this.rebased(generation, base, size, journal);
      } catch (error) {
        if (journal && this.current?.fd !== journal.fd) this.retire(journal.fd);
        this.fail(`Cannot compact the state file ${this.file}: ${describe(error)}`);
      } finally {
        this.snapshotting--;
      }
    });
  }

  /**
   * A snapshot of `generation` is in place: it holds every change up to `base`, so older journals
   * (and entries still waiting for them) are no longer needed.
   */
  private rebased(generation: number, base: number, size: number, journal: OpenJournal): void {
    while (this.queue.length && this.queue[0].generation < generation) this.queue.shift();
    if (this.current && this.current.fd !== journal.fd) this.retired.push(this.current.fd);
    this.current = journal;
    this.snapshotBytes = size;
    this.journalBytes = 0;
    this.wrote(base);
    void this.removeJournalsBefore(generation);
    this.closeRetired();
    if (this.failure) {
      this.failure = undefined;
      this.onEvent(`The state file ${this.file} is written again; writes are accepted.`);
    }
    this.kick();
  }

  /** Deletes the journals a snapshot in place made useless (resolves once they are gone, or could not be). */
  private removeJournalsBefore(generation: number): Promise<void> {
    const old = (safely(() => listJournals(this.file)) ?? []).filter((journal) => journal.generation < generation);
    return Promise.all(old.map((journal) => new Promise<void>((done) => unlink(journal.path, () => done())))).then(() => undefined);
  }

  private fail(message: string): void {
    if (this.failure || this.closed) return;
    this.failure = message;
    this.onEvent(`${message}; writes are refused (503) until it can be written again.`);
    for (const group of this.queue) group.parts = [];
    for (const waiter of this.waiters.splice(0)) waiter.resolve(false);
  }

  private retry(): void {
    if (!this.failure || this.snapshotting > 0 || this.rebasing > 0 || !this.store || this.closed) return;
    void this.rebase(this.store, this.names);
  }

  /**
   * Every `syncMs`: the journal synced to the disk, and its location checked, so that a file
   * removed or replaced, or a directory made read-only, is reported rather than written in vain.
   */
  private probe(): void {
    const journal = this.current;
    if (this.probing || this.failure || !journal || this.snapshotting > 0 || this.rebasing > 0) return;
    this.probing = true;
    const sync = this.unsynced;
    this.unsynced = false;
    void fileProblem(journal, this.file, this.directory, sync).then((problem) => {
      this.probing = false;
      // A snapshot that began meanwhile may have replaced the journal checked: that is no failure.
      if (problem && this.current === journal) this.fail(problem);
      this.closeRetired();
    });
  }

  /** Runs snapshots one after another. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.busy.then(work, work);
    this.busy = run.catch(() => undefined);
    return run;
  }

  /** Resolves once the entries appended so far are written (or failed). */
  private async drain(): Promise<void> {
    await this.waitWritten();
    while (this.writing) await new Promise((resolve) => setTimeout(resolve, 1));
  }

  private retire(fd: number): void {
    this.retired.push(fd);
    this.closeRetired();
  }

  /** Closes journals no group and no write or check uses any more. */
  private closeRetired(): void {
    if (this.writing || this.probing) return;
    for (const fd of this.retired.splice(0)) close(fd, () => undefined);
  }
}
