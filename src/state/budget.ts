/**
 * The bound on the state a mock holds: records and their size (as JSON), counted over the shared
 * store and every session's, and the heap. A create that would pass a bound is refused with 507
 * (or the document's declared status) instead of growing until the process dies.
 *
 * Sessions together (the pristine seeded copy they read, and the collections they copied) hold at
 * most a share of each bound (`SESSION_SHARE`), and never the room the shared state uses: a write
 * of the shared state that finds the mock full drops sessions first (least recently used first),
 * so it is refused only for the shared state's own records. Each budget below the whole one
 * (`part()`: the sessions', one session's) counts its records in the budgets above it.
 */
export interface StateLimits {
  /** Records held in all stores together (default 2,000,000). */
  maxRecords?: number;
  /** Their size as JSON, in bytes (default 512 MiB). */
  maxBytes?: number;
  /** True when the heap is nearly full: writes are refused before the process runs out of memory. */
  heapPressure?: () => boolean;
}

export const DEFAULT_MAX_RECORDS = 2_000_000;
export const DEFAULT_MAX_STATE_BYTES = 512 * 1024 * 1024;
/** The share of each bound that sessions may hold together: half of the records, half of the bytes. */
export const SESSION_SHARE = 0.5;

/** A refusal at start: the state the mock would start with is past a bound. */
export class StateLimitError extends Error {
  override readonly name = 'StateLimitError';
}

export class StateBudget {
  private heldRecords = 0;
  private heldBytes = 0;
  readonly maxRecords: number;
  readonly maxBytes: number;
  /** Records and bytes that sessions may hold together (`SESSION_SHARE` of each bound). */
  readonly sessionMaxRecords: number;
  readonly sessionMaxBytes: number;
  /**
   * Drops one session (or the seeded copy sessions read, once none is left) to make room for the
   * shared state; false when there is nothing left to drop. Set by the mock's state.
   */
  reclaim?: () => boolean;
  private sessionPart?: StateBudget;

  constructor(
    private readonly limits: StateLimits = {},
    /** The budget this one is a part of (it counts every record counted here). */
    private readonly above?: StateBudget,
    /** Why a store counting in this part cannot take more (a session's rule), instead of the whole's. */
    private readonly check?: () => string | undefined,
  ) {
    this.maxRecords = above?.maxRecords ?? limits.maxRecords ?? DEFAULT_MAX_RECORDS;
    this.maxBytes = above?.maxBytes ?? limits.maxBytes ?? DEFAULT_MAX_STATE_BYTES;
    this.sessionMaxRecords = Math.floor(this.maxRecords * SESSION_SHARE);
    this.sessionMaxBytes = Math.floor(this.maxBytes * SESSION_SHARE);
  }

  /** Records counted here (and in the parts below). */
  get records(): number {
    return this.heldRecords;
  }
  set records(value: number) {
    if (this.above) this.above.records += value - this.heldRecords;
    this.heldRecords = value;
  }

  /** Their size as JSON, in bytes. */
  get bytes(): number {
    return this.heldBytes;
  }
  set bytes(value: number) {
    if (this.above) this.above.bytes += value - this.heldBytes;
    this.heldBytes = value;
  }

  /** The whole budget, that every part counts in. */
  get root(): StateBudget {
    return this.above ? this.above.root : this;
  }

  /** What the sessions hold together: the seeded copy they read and their own copies. */
  get sessions(): StateBudget {
    const root = this.root;
    return (root.sessionPart ??= new StateBudget({}, root));
  }

  /** A budget counted in this one; `check` says why a store counting there cannot take more. */
  part(check?: () => string | undefined): StateBudget {
    return new StateBudget({}, this, check);
  }

  /**
   * Why no more can be stored, or undefined while there is room. For the whole budget (the shared
   * state), sessions are dropped first while the mock is full: only the shared state's own records
   * refuse a write.
   */
  full(): string | undefined {
    if (this.check) return this.check();
    if (this.above) return this.root.full();
    while ((this.records >= this.maxRecords || this.bytes >= this.maxBytes) && this.reclaim?.()) {
      // a session (or the seeded copy sessions read) dropped; look again
    }
    if (this.records >= this.maxRecords) return `the mock holds ${this.records} records, its limit (--max-records ${this.maxRecords})`;
    if (this.bytes >= this.maxBytes) return `the mock holds ${mib(this.bytes)} of records, its limit (--max-state-mb ${this.maxMiB})`;
    if (this.limits.heapPressure?.()) return 'the process is close to its memory limit';
    return undefined;
  }

  /**
   * Why the sessions cannot take `records` more records and `bytes` more bytes: their share of a
   * bound, or the bound itself (the shared state's room is never taken), or (unless `heap` is
   * false) the heap; undefined when they can.
   */
  sessionsFull(records: number, bytes: number, heap = true): string | undefined {
    const root = this.root;
    const sessions = root.sessions;
    if (records > 0 && sessions.records + records > root.sessionMaxRecords) {
      return `sessions would hold ${sessions.records + records} records, more than their share (${root.sessionMaxRecords}, half of --max-records ${root.maxRecords})`;
    }
    if (bytes > 0 && sessions.bytes + bytes > root.sessionMaxBytes) {
      return `sessions would hold ${mib(sessions.bytes + bytes)} of records, more than their share (${mib(root.sessionMaxBytes)}, half of --max-state-mb ${root.maxMiB})`;
    }
    if (records > 0 && root.records + records > root.maxRecords) return `the mock would hold ${root.records + records} records, more than its limit (--max-records ${root.maxRecords})`;
    if (bytes > 0 && root.bytes + bytes > root.maxBytes) return `the mock would hold ${mib(root.bytes + bytes)} of records, more than its limit (--max-state-mb ${root.maxMiB})`;
    if (heap && root.limits.heapPressure?.()) return 'the process is close to its memory limit';
    return undefined;
  }

  /** Whether `records` more records (seeding, an import) would fit. */
  fits(records: number): boolean {
    return this.root.records + records <= this.maxRecords;
  }

  /** --max-state-mb, as given. */
  get maxMiB(): number {
    return Math.round(this.maxBytes / 1024 / 1024);
  }
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
