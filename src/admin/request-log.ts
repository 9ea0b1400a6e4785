/**
 * The last requests the mock answered, for `GET /__admin/requests`: method, path, status,
 * duration and the validation problems of a 400. A fixed-size ring, so it costs nothing to keep.
 * Query values of parameters that carry API keys are redacted: keys are never recorded.
 */
import { safeDecode } from '../validation/safe-decode.js';
import type { Problem } from '../validation/problem.js';

export interface LoggedRequest {
  /** Milliseconds since the epoch; shown as an ISO date by `latest` (formatting is left off the hot path). */
  time: number | string;
  method: string;
  path: string;
  status: number;
  ms: number;
  session?: string;
  problems?: Problem[];
}

export class RequestLog {
  private readonly entries: LoggedRequest[] = [];
  private next = 0;

  constructor(
    private readonly size = 500,
    private readonly secretParams: string[] = [],
  ) {}

  add(entry: LoggedRequest): void {
    if (this.entries.length < this.size) this.entries.push(entry);
    else this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.size;
  }

  /** The newest first. */
  latest(limit: number): LoggedRequest[] {
    const ordered = this.entries.length < this.size ? [...this.entries] : [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)];
    return ordered
      .reverse()
      .slice(0, limit)
      .map((entry) => ({ ...entry, time: new Date(entry.time).toISOString(), path: this.redact(entry.path) }));
  }

  private redact(path: string): string {
    if (!this.secretParams.length || !path.includes('?')) return path;
    const [base, query] = path.split('?');
    return `${base}?${query
      .split('&')
      .map((pair) => (this.secretParams.includes(safeDecode(pair.split('=')[0])) ? `${pair.split('=')[0]}=REDACTED` : pair))
      .join('&')}`;
  }
}
