/**
 * The bound on the state a mock holds: records and their size (as JSON), counted over the shared
 * store and every session's, and the heap. A create that would pass a bound is refused with 507
 * (or the document's declared status) instead of growing until the process dies.
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

export class StateBudget {
  records = 0;
  bytes = 0;
  readonly maxRecords: number;
  readonly maxBytes: number;

  constructor(private readonly limits: StateLimits = {}) {
    this.maxRecords = limits.maxRecords ?? DEFAULT_MAX_RECORDS;
    this.maxBytes = limits.maxBytes ?? DEFAULT_MAX_STATE_BYTES;
  }

  /** Why no more can be stored, or undefined while there is room. */
  full(): string | undefined {
    if (this.records >= this.maxRecords) return `the mock holds ${this.records} records, its limit (--max-records ${this.maxRecords})`;
    if (this.bytes >= this.maxBytes) return `the mock holds ${mib(this.bytes)} of records, its limit (--max-state-mb ${Math.round(this.maxBytes / 1024 / 1024)})`;
    if (this.limits.heapPressure?.()) return 'the process is close to its memory limit';
    return undefined;
  }

  /** Whether `records` more records (seeding, an import) would fit. */
  fits(records: number): boolean {
    return this.records + records <= this.maxRecords;
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
