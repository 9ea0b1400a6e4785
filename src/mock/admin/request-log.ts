/**
 * The last requests the mock answered, for `GET /__admin/requests`: method, path, status,
 * duration, session, what a scenario did and the validation problems of a 400. A fixed-size ring,
 * so it costs nothing to keep. Query values of parameters that carry API keys are redacted: keys
 * are never recorded.
 */
import { safeDecode } from '../../core/safe-decode.js';
import type { AppliedScenario } from '../scenarios/read-scenario.js';
import type { Problem } from '../../core/problem.js';

export interface LoggedRequest {
  /** Milliseconds since the epoch; shown as an ISO date by `latest` (formatting is left off the hot path). */
  time: number | string;
  method: string;
  path: string;
  status: number;
  ms: number;
  session?: string;
  /** What the request's scenario did (`Prefer`, `--delay`, `--error-rate`); `none` when nothing applied. */
  scenario?: AppliedScenario | 'none';
  problems?: Problem[];
  fitted?: string[];
  selfCheck?: Problem[];
}

/**
 * One request answered, as `MockOptions.onRequest` receives it: every request, the operations'
 * and the mock's own (404, 405, admin, health, the document). Read it, do not keep a reference:
 * the request log may hold the same object.
 */
export interface RequestEntry {
  /** Milliseconds since the epoch, by the mock's clock (`--now` moves it). */
  time: number;
  method: string;
  /** The path and query as sent, values of query parameters that carry API keys `REDACTED`. */
  path: string;
  status: number;
  /** Milliseconds from the request to its answer (a chaos delay included), to 0.1 ms. */
  ms: number;
  /** The `X-Mock-Session` it named, if any. */
  session?: string;
  /** What its scenario did, or `none`. */
  scenario: AppliedScenario | 'none';
  /** The validation problems of a refused request. */
  problems?: Problem[];
  /**
   * How the answer was fitted to what the operation declares, one sentence each: a status the
   * operation declares put for the mock's own (a 404 answered 400 where only 400 is declared), a
   * status sent undeclared because none fits, a media type other than the one `Accept` asks for.
   */
  fitted?: string[];
  /** With `selfCheck: true`, what the answer breaks in the document (absent when it keeps to it). */
  selfCheck?: Problem[];
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
      .map(({ scenario, ...entry }) => ({ ...entry, time: new Date(entry.time).toISOString(), path: this.redact(entry.path), ...(scenario && scenario !== 'none' ? { scenario } : {}) }));
  }

  /** The path with the values of query parameters that carry API keys replaced by `REDACTED` (a redacted path is left as it is). */
  redact(path: string): string {
    return redactQuery(path, this.secretParams);
  }
}

/**
 * Replaces the values of the query parameters named in `secretParams` by `REDACTED`.
 *
 * @example redactQuery('/v1/products?server_token=abc&x=1', ['server_token']) // '/v1/products?server_token=REDACTED&x=1'
 */
export function redactQuery(path: string, secretParams: readonly string[]): string {
  if (!secretParams.length || !path.includes('?')) return path;
  const at = path.indexOf('?');
  return `${path.slice(0, at)}?${path
    .slice(at + 1)
    .split('&')
    .map((pair) => (secretParams.includes(safeDecode(pair.split('=')[0])) ? `${pair.split('=')[0]}=REDACTED` : pair))
    .join('&')}`;
}

/**
 * What a scenario did, in a few words: the directives asked for, then what came of them.
 *
 * @example describeScenario({ asked: { code: 404, delay: [300, 300] }, outcome: 'forced', delay: { ms: 300, from: 'prefer' } }) // 'code=404 delay=300: forced, held 300 ms'
 */
export function describeScenario(scenario: AppliedScenario): string {
  const asked = scenario.asked ? scenarioDirectives(scenario.asked) : '';
  const done = [
    scenario.invalid !== undefined && 'refused: invalid Prefer',
    scenario.outcome === 'forced' && 'forced',
    scenario.outcome === 'undeclared' && 'refused: not declared',
    scenario.fault !== undefined && `injected fault ${scenario.fault}`,
    scenario.delay && `held ${scenario.delay.ms} ms${scenario.delay.from === 'server' ? ' (--delay)' : ''}`,
  ].filter(Boolean);
  return [asked, done.join(', ')].filter(Boolean).join(': ');
}

/** `code=404 example=empty delay=100-800`: the directives as a client writes them. */
export function scenarioDirectives(asked: NonNullable<AppliedScenario['asked']>): string {
  const parts: string[] = [];
  if (asked.code !== undefined) parts.push(`code=${asked.code}`);
  if (asked.example !== undefined) parts.push(`example=${asked.example}`);
  if (asked.dynamic !== undefined) parts.push(`dynamic=${asked.dynamic}`);
  if (asked.seed !== undefined) parts.push(`seed=${asked.seed}`);
  if (asked.delay) parts.push(`delay=${asked.delay[0] === asked.delay[1] ? asked.delay[0] : asked.delay.join('-')}`);
  for (const [name, value] of Object.entries(asked.extra ?? {})) parts.push(`${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return parts.join(' ');
}
