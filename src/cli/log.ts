/**
 * The CLI's output: the banner, one line per request, warnings and messages, as text or as one
 * JSON object per line, filtered by level. The formatters are pure (an entry in, a line or nothing
 * out); the writer buffers lines and writes them once per turn of the event loop, so a busy server
 * does one write per turn rather than one per request. Nothing here reads `process`: the CLI hands
 * in the streams, the clock and the flush on exit.
 *
 * Levels, each showing what the one before shows:
 * - `silent`: nothing (the CLI still says why a start failed);
 * - `error`: answers with a 5xx, warnings, state-file failures;
 * - `info` (default): the banner, one line per request, reloads;
 * - `debug`: each request's validation problems, what its scenario did, in detail, how its answer
 *   was fitted to the operation's declarations, and what the self-check found in it.
 */
import { describeScenario, scenarioDirectives, type RequestEntry } from '../mock/admin/request-log.js';
import type { AppliedScenario } from '../mock/scenarios/read-scenario.js';
import type { LogFormat, LogLevel } from './parse-args.js';

export type { LogFormat, LogLevel };

/** What a line is: shown from `--log-level error` (`error`, `warn`), `info` or `debug`. */
export type Severity = 'error' | 'warn' | 'info' | 'debug';

/** What the CLI was asked to print (`--log-level`, `--log-format`). */
export interface LogSettings {
  level: LogLevel;
  format: LogFormat;
}

const RANK: Record<LogLevel | Severity, number> = { silent: 0, error: 1, warn: 1, info: 2, debug: 3 };

/** Whether `level` shows lines of `severity`. */
export function shows(level: LogLevel, severity: Severity): boolean {
  return RANK[level] >= RANK[severity];
}

/** The severity of a request's line: `error` for a 5xx answer, `info` for the others. */
export function requestSeverity(status: number): Severity {
  return status >= 500 ? 'error' : 'info';
}

/** What a scenario did, spelled out (the `debug` level's detail line). */
export function explainScenario(scenario: AppliedScenario): string {
  return [
    scenario.asked && `asked ${scenarioDirectives(scenario.asked) || 'nothing the mock knows'}`,
    scenario.invalid !== undefined && `refused: ${scenario.invalid}`,
    scenario.outcome === 'forced' && "answered with the scenario's response; the state was not changed",
    scenario.outcome === 'undeclared' && 'refused: the operation does not declare what it asks for',
    scenario.fault !== undefined && `a fault injected by --error-rate answered ${scenario.fault}`,
    scenario.delay && `the answer was held ${scenario.delay.ms} ms by ${scenario.delay.from === 'server' ? '--delay' : 'Prefer delay'}`,
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * A request as a line (with, at `debug`, its problems and what its scenario did), or undefined when
 * the level hides it.
 *
 * @example formatRequest({ time: 0, method: 'GET', path: '/pets', status: 200, ms: 1.2, scenario: 'none' }, { level: 'info', format: 'text' }) // '1970-01-01T00:00:00.000Z GET /pets 200 1.2ms\n'
 */
export function formatRequest(entry: RequestEntry, { level, format }: LogSettings): string | undefined {
  const severity = requestSeverity(entry.status);
  if (!shows(level, severity)) return undefined;
  const applied = entry.scenario === 'none' ? undefined : entry.scenario;
  const scenario = applied && describeScenario(applied);
  const debug = shows(level, 'debug');
  if (format === 'json') {
    // Written out rather than JSON.stringify of an object: half the cost, on every request.
    let line = `{"time":"${isoTime(entry.time)}","level":"${severity}","msg":"request","method":${JSON.stringify(entry.method)},"path":${JSON.stringify(entry.path)},"status":${entry.status},"ms":${entry.ms}`;
    if (entry.session !== undefined) line += `,"session":${JSON.stringify(entry.session)}`;
    if (scenario) line += `,"scenario":${JSON.stringify(scenario)}`;
    if (debug && applied) line += `,"scenarioDetail":${JSON.stringify(applied)}`;
    if (debug && entry.problems?.length) line += `,"problems":${JSON.stringify(entry.problems)}`;
    if (debug && entry.fitted) line += `,"fitted":${JSON.stringify(entry.fitted)}`;
    if (debug && entry.selfCheck) line += `,"selfCheck":${JSON.stringify(entry.selfCheck)}`;
    return `${line}}\n`;
  }
  let line = `${isoTime(entry.time)} ${entry.method} ${entry.path} ${entry.status} ${entry.ms.toFixed(1)}ms`;
  if (scenario) line += `  scenario: ${scenario}`;
  if (entry.session !== undefined) line += `  session: ${entry.session}`;
  line += '\n';
  if (debug) {
    if (applied) line += `    scenario: ${explainScenario(applied)}\n`;
    for (const problem of entry.problems ?? []) line += `    problem: ${problem.path}: ${problem.message} (${problem.rule})\n`;
    for (const fitted of entry.fitted ?? []) line += `    declared: ${fitted}\n`;
    for (const problem of entry.selfCheck ?? []) line += `    self-check: ${problem.path}: ${problem.message} (${problem.rule})\n`;
  }
  return line;
}

/**
 * A message (a warning, a reload, a stop), or undefined when the level hides it. As text: the
 * message, a warning prefixed `warning: `; as JSON: `{"time", "level", "msg", ...fields}`.
 */
export function formatMessage(severity: Severity, message: string, time: number, { level, format }: LogSettings, fields: Record<string, unknown> = {}): string | undefined {
  if (!shows(level, severity)) return undefined;
  if (format === 'json') return jsonLine(time, severity, message, fields);
  return `${severity === 'warn' ? 'warning: ' : ''}${message}\n`;
}

/** One line of the start banner: a label and a text, and the same facts as JSON fields. */
export interface BannerLine {
  /** The text label (at most 9 characters): `document`, `API key`... */
  label: string;
  text: string;
  /** The JSON banner's fields for this line: `{ document: 'spec/openapi.yaml', spec: 'http://...' }`. */
  fields: Record<string, unknown>;
}

/** What the server says once it listens. */
export interface Banner {
  url: string;
  /** What listens: `Mock` (the default) or `Proxy`. */
  what?: string;
  operations: number;
  lines: BannerLine[];
}

/**
 * The banner: as text, `Mock of N operations listening on URL` and a line per fact; as JSON, one
 * object (`{"msg": "listening", "url", "operations", "document", ...}`). Undefined below `info`.
 */
export function formatBanner(banner: Banner, time: number, { level, format }: LogSettings): string | undefined {
  if (!shows(level, 'info')) return undefined;
  if (format === 'json') {
    return jsonLine(time, 'info', 'listening', { url: banner.url, operations: banner.operations, ...Object.assign({}, ...banner.lines.map((line) => line.fields)) });
  }
  const head = `${banner.what ?? 'Mock'} of ${banner.operations} operation${banner.operations === 1 ? '' : 's'} listening on ${banner.url}`;
  return `${[head, ...banner.lines.map((line) => `  ${line.label.padEnd(9)} ${line.text}`)].join('\n')}\n`;
}

/** `{"time":"...","level":"info","msg":"...",...}` and a newline; fields that are undefined are left out. */
function jsonLine(time: number, level: Severity, msg: string, fields: Record<string, unknown>): string {
  return `${JSON.stringify({ time: isoTime(time), level, msg, ...fields })}\n`;
}

let lastTime = NaN;
let lastIso = '';
/** `2026-05-01T10:00:00.123Z`, kept for the last millisecond asked: under load, many lines share one (toISOString is most of a line's cost). */
function isoTime(time: number): string {
  if (time !== lastTime) {
    lastTime = time;
    lastIso = new Date(time).toISOString();
  }
  return lastIso;
}

/**
 * Lines held until the end of the event-loop turn they were written in, then written together,
 * in order, one write per stream and turn (a write to a pipe is a system call). `flush` writes
 * what is held at once: on exit and on stop.
 */
export class LineBuffer {
  private parts: Array<{ sink: (chunk: string) => void; text: string }> = [];
  private scheduled = false;

  constructor(private readonly schedule: (flush: () => void) => void = setImmediate) {}

  /** Holds a line (or several, newline-terminated) for `sink`. */
  write(sink: (chunk: string) => void, text: string): void {
    const last = this.parts[this.parts.length - 1];
    if (last?.sink === sink) last.text += text;
    else this.parts.push({ sink, text });
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }

  /** Writes everything held, in the order it was written. */
  flush(): void {
    this.scheduled = false;
    const parts = this.parts;
    if (parts.length === 0) return;
    this.parts = [];
    for (const { sink, text } of parts) sink(text);
  }
}

/** Writes to a stream while it can be written: a closed one (`npm start | head`, a log collector gone) drops the lines. */
export const writeTo = (stream: NodeJS.WritableStream) => (chunk: string) => {
  if (stream.writable) stream.write(chunk);
};

/** Where a logger writes, and its clock. */
export interface LoggerOutput {
  /** Where the banner, request lines and messages go (stdout). */
  out: (chunk: string) => void;
  /** Where warnings, errors and failures go (stderr). */
  err: (chunk: string) => void;
  /** The clock, in milliseconds since the epoch (timestamps of messages and the banner). */
  now?: () => number;
  /** Runs a flush at the end of this turn of the event loop (default setImmediate). */
  schedule?: (flush: () => void) => void;
}

/** The CLI's output: every line the server prints goes through one. */
export interface Logger {
  readonly settings: LogSettings;
  /** The `onRequest` hook for the mock; undefined when the level shows no request line (`silent`). */
  readonly request?: (entry: RequestEntry) => void;
  banner(banner: Banner): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Why the start failed: shown at every level, `silent` included, and written at once. */
  fatal(message: string): void;
  /** Writes what is held (on exit, before a stop). */
  flush(): void;
}

/**
 * A logger writing through a `LineBuffer`: request lines and messages on `out`, warnings and
 * errors on `err`.
 *
 * @example
 * const log = createLogger({ level: 'info', format: 'text' }, { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) });
 * buildMock(document, { onRequest: log.request, onWarning: log.warn });
 */
export function createLogger(settings: LogSettings, output: LoggerOutput): Logger {
  const { out, err, now = Date.now } = output;
  const buffer = new LineBuffer(output.schedule);
  const write = (sink: (chunk: string) => void, line: string | undefined) => {
    if (line !== undefined) buffer.write(sink, line);
  };
  const message = (severity: Severity, sink: (chunk: string) => void) => (text: string, fields?: Record<string, unknown>) => write(sink, formatMessage(severity, text, now(), settings, fields));
  return {
    settings,
    request: settings.level === 'silent' ? undefined : (entry) => write(out, formatRequest(entry, settings)),
    banner: (banner) => write(out, formatBanner(banner, now(), settings)),
    info: message('info', out),
    warn: (text) => write(err, formatMessage('warn', text, now(), settings)),
    error: message('error', err),
    fatal(text) {
      buffer.flush();
      err(settings.format === 'json' ? formatMessage('error', text, now(), { ...settings, level: 'error' })! : `${text}\n`);
    },
    flush: () => buffer.flush(),
  };
}
