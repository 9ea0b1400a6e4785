/**
 * `petstore-mock-kit proxy --upstream URL`: the validating proxy on a port, a line per exchange
 * (who answered, what it broke), and at exit (SIGINT or SIGTERM) the summary, the JUnit file and
 * the recording written, the exit code saying whether a violation was seen when asked.
 */
import { writeFileSync } from 'node:fs';
import { BUNDLED_FIXTURES, BUNDLED_SPEC } from '../core/bundled.js';
import { loadContractParts } from '../contract/plugin.js';
import { packageDocsAssets } from '../mock/docs/docs-assets.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { allowedHostsFor } from '../mock/middleware/host-guard.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { buildProxy, type Proxy, type ProxyExchange } from '../proxy/proxy.js';
import { createRecorder, type Recorder } from '../proxy/record.js';
import { compileDocument } from '../openapi/validation/compiled-document.js';
import { startServer, type RunningServer } from '../server/serve.js';
import { startBanner } from './banner.js';
import { shownSpec } from './banner-spec-path.js';
import { createLogger, writeTo, type Logger } from './log.js';
import { mockOptionsOf } from './mock-options.js';
import { refuseToStart } from './parse-args.js';
import { parseProxyArgs, PROXY_USAGE, type ProxyArgs } from './proxy-args.js';

export interface ProxyCommandContext {
  heapPressure: () => boolean;
  /** Hands the logger to the bin, which flushes it however the process exits. */
  setLogger: (logger: Logger) => void;
}

export async function proxyCommand(argv: string[], env: Record<string, string | undefined>, context: ProxyCommandContext): Promise<number> {
  const args = parseProxyArgs(argv, env);
  if (args.command === 'help') {
    process.stdout.write(PROXY_USAGE);
    return 0;
  }
  if (args.command === 'error') {
    process.stderr.write(`${args.message}\n`);
    return 2;
  }
  const offset = args.now ? args.now.getTime() - Date.now() : 0;
  const log = createLogger({ level: args.logLevel, format: args.logFormat }, { out: writeTo(process.stdout), err: writeTo(process.stderr), now: () => Date.now() + offset });
  context.setLogger(log);
  const refused = refuseToStart({ ...args, command: 'serve' });
  if (refused) {
    log.fatal(refused);
    return 1;
  }
  const specPath = args.spec ?? BUNDLED_SPEC;
  const allowedHosts = allowedHostsFor(args.host, args.allowedHosts);
  let proxy: Proxy;
  let recorder: Recorder | undefined;
  let loaded;
  try {
    loaded = await loadDocument(specPath, { allowRemoteRefs: args.allowRemoteRefs });
    // One compiled document for the proxy's mock, its inspector and the recorder.
    const compiled = compileDocument(loaded);
    recorder = args.record ? createRecorder({ dir: args.record, document: loaded, warn: log.warn, compiled }) : undefined;
    const mock = mockOptionsOf(args, {
      fixtures: args.fixtures ?? (args.spec ? undefined : BUNDLED_FIXTURES),
      docs: args.noDocs ? undefined : packageDocsAssets(),
      allowedHosts,
      heapPressure: context.heapPressure,
      now: args.now ? () => new Date(Date.now() + offset) : undefined,
      log,
    });
    proxy = buildProxy(loaded, {
      compiled,
      upstream: args.upstream,
      errors: args.errors,
      fallback: args.fallback,
      mockOperations: args.mockOperations,
      timeoutMs: args.upstreamTimeoutMs,
      // The Petstore's rules judge the traffic of the embedded document, as the contract suite applies them.
      contractPlugins: args.spec === undefined ? await loadContractParts(DEFAULT_PLUGINS) : [],
      // The mock's own line for its own endpoints; an exchange through the proxy gets the proxy's line.
      mock: { ...mock, onRequest: mock.onRequest && ((entry) => (entry.path.startsWith('/__') ? mock.onRequest!(entry) : undefined)) },
      onExchange: exchangeLine(log),
      onAnswer: recorder && ((answer) => recorder!.observe(answer)),
    });
  } catch (error) {
    // A document or fixtures it cannot serve (DocumentLoadError, FixtureError), an upstream or an operation that is not one, a recording directory it cannot make: one sentence each.
    if (error instanceof Error) {
      log.fatal(error.message);
      recorder?.close();
      return 1;
    }
    throw error;
  }

  let running: RunningServer;
  try {
    running = await startServer({ fetch: proxy.fetch }, { port: args.port, host: args.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    log.fatal(code === 'EADDRINUSE' ? `Port ${args.port} is already in use; choose another with --port.` : `Cannot listen on ${args.host}:${args.port}: ${(error as Error).message}.`);
    recorder?.close();
    return 1;
  }

  const shown = shownSpec(specPath, process.cwd());
  const banner = startBanner({ url: running.url, mock: proxy.mock, document: loaded, shown, args: { ...args }, restored: false, allowedHosts });
  const fills = args.fallback === 'mock' ? 'the mock answers what the upstream does not implement' : 'none';
  log.banner({
    ...banner,
    what: 'Proxy',
    lines: [
      { label: 'upstream', text: `${args.upstream} (${args.errors ? 'requests that break the document are refused; answers that do are marked in X-Proxy-Violations' : 'every request forwarded'})`, fields: { upstream: args.upstream, errors: args.errors } },
      { label: 'checks', text: `${proxy.checks.join(', ')}; violations at ${running.url}/__admin/violations`, fields: { checks: proxy.checks, violations: `${running.url}/__admin/violations` } },
      { label: 'fallback', text: `${fills}${args.mockOperations.length ? `; always mocked: ${args.mockOperations.join(', ')}` : ''}`, fields: { fallback: args.fallback ?? 'none', mocked: args.mockOperations } },
      ...(args.record ? [{ label: 'record', text: `${args.record} (fixtures for serve --fixtures)`, fields: { record: args.record } }] : []),
      // The mock's keys and records matter only where it fills in; clients send the upstream's own credentials.
      ...banner.lines
        .filter((line) => line.label !== 'try' && line.label !== 'API key' && (line.label !== 'records' || args.fallback === 'mock' || args.mockOperations.length > 0))
        .map((line) => (line.label === 'docs' ? { ...line, text: line.text.replace('against this mock', 'through this proxy') } : line)),
    ],
  });

  return new Promise((resolve) => {
    const stop = (signal: string) => {
      log.info(`${signal}: finishing in-flight requests (up to 10 s), then stopping.`, { signal });
      running
        .close()
        .then(() => proxy.close())
        .then(() => resolve(finish(args, proxy, recorder, log)));
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

/** At exit: the recording and the JUnit file written, the summary printed, and the exit code. */
function finish(args: ProxyArgs, proxy: Proxy, recorder: Recorder | undefined, log: Logger): number {
  if (recorder) {
    const { files, records } = recorder.close();
    log.info(`Recorded ${records} record${records === 1 ? '' : 's'} in ${files.length} fixture file${files.length === 1 ? '' : 's'} under ${args.record}.`, { recorded: { records, files } });
  }
  if (args.junit) writeFileSync(args.junit, proxy.violations.junit(proxy.operations, proxy.checks));
  const counts = proxy.violations.counts();
  const [head, ...rest] = proxy.violations.summary();
  if (log.settings.format === 'json') log.info('summary', { ...counts });
  else log.info([head, ...rest].join('\n'));
  return args.failOnViolation && counts.failures > 0 ? 1 : 0;
}

/**
 * The line of an exchange: when, what, who answered, and each violation under it. What a violation
 * quotes (a property name, a value) is the client's or the upstream's text: its control characters
 * are escaped, so that it cannot end the line and write one of its own.
 */
export function exchangeLine(log: Logger): ((entry: ProxyExchange) => void) | undefined {
  if (log.settings.level === 'silent') return undefined;
  return (entry) => {
    const violations = entry.violations.map(({ check, received, documented, path, rule }) => ({ check, received, documented, path, rule }));
    if (log.settings.format === 'json') {
      log.info('request', { method: entry.method, path: entry.path, status: entry.status, ms: entry.ms, answeredBy: entry.answeredBy, operationId: entry.operationId, note: entry.note, violations });
      return;
    }
    const head = `${entry.time.toISOString()} ${entry.method} ${entry.path} ${entry.status} ${entry.ms.toFixed(1)}ms ${entry.answeredBy}${entry.note ? ` (${oneLine(entry.note)})` : ''}`;
    log.info([head, ...violations.map((v) => `    violation ${v.check}: received ${oneLine(v.received)}, documented ${oneLine(v.documented)}`)].join('\n'));
  };
}

/** A text on one line: CR, LF and tab as `\r`, `\n`, `\t`, other control characters and the line separators as `\uXXXX`. */
function oneLine(text: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (char) => named[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
