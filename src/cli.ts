#!/usr/bin/env node
/**
 * The command line: the only module that reads `process` (argv, env, signals, exit codes).
 */
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { contractCommand } from './cli/contract-command.js';
import { mockOptionsOf } from './cli/mock-options.js';
import { proxyCommand } from './cli/proxy-command.js';
import { buildMock, type Mock } from './mock/app.js';
import { BUNDLED_FIXTURES, BUNDLED_SPEC } from './core/bundled.js';
import { shownSpec } from './cli/banner-spec-path.js';
import { startBanner } from './cli/banner.js';
import { createLogger, writeTo, type Logger } from './cli/log.js';
import { parseCommand, refuseToStart, USAGE, type ServeArgs } from './cli/parse-args.js';
import { packageDocsAssets } from './mock/docs/docs-assets.js';
import { DocumentLoadError, loadDocument, type LoadedDocument } from './openapi/document/load-document.js';
import { allowedHostsFor } from './mock/middleware/host-guard.js';
import { PACKAGE_ROOT } from './core/package-root.js';
import { carryState } from './mock/reload.js';
import { startServer } from './server/serve.js';
import { FixtureError } from './state/load-fixtures.js';
import { StateJournal } from './state/journal.js';
import { persistAnswers, persistenceRefusal } from './state/persistence.js';
import { missingCollections } from './state/snapshot.js';
import { StateLimitError } from './state/budget.js';
import { readStateFile, stateLocationProblem, StateFileError } from './state/state-file.js';
import type { StoreStartError } from './state/postgres-errors.js';
import { connectPostgres, type PostgresStores } from './state/postgres-stores.js';


// A closed stdout or stderr (`npm start | head`, a log collector gone) must not stop the server
// and lose its state: the lines are dropped, the requests go on being answered.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);


/** Lines held by the logger are written before the process exits, however it exits. */
let logger: Logger | undefined;
process.on('exit', () => logger?.flush());

async function main(): Promise<number> {
  if (process.argv[2] === 'contract') return contractCommand(process.argv.slice(3), process.env);
  if (process.argv[2] === 'proxy') return proxyCommand(process.argv.slice(3), process.env, { heapPressure, setLogger: (l) => (logger = l) });
  const command = parseCommand(process.argv.slice(2), process.env);
  switch (command.command) {
    case 'help':
      if (command.topic === 'contract') return contractCommand(['--help'], process.env);
      if (command.topic === 'proxy') return proxyCommand(['--help'], process.env, { heapPressure, setLogger: (l) => (logger = l) });
      process.stdout.write(USAGE);
      return 0;
    case 'version':
      process.stdout.write(`${JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version}\n`);
      return 0;
    case 'error':
      process.stderr.write(`${command.message}\n`);
      return 2;
    default:
      return serve(command);
  }
}

/** The heap is nearly full (80% of what Node gives the old generation): writes are refused before the process runs out of memory. Read at most every 100 ms. */
let heapCheckedAt = 0;
let heapFull = false;
function heapPressure(): boolean {
  const now = Date.now();
  if (now - heapCheckedAt > 100) {
    heapCheckedAt = now;
    const heap = getHeapStatistics();
    heapFull = heap.used_heap_size > 0.8 * oldSpaceLimit(heap.heap_size_limit);
  }
  return heapFull;
}

/**
 * What the old generation (where records live) may grow to: `--max-old-space-size` where it is
 * given (on the command line or in NODE_OPTIONS), else the heap's limit less the young
 * generation's share. The limit Node reports counts the young generation too, whose size differs
 * by version (48 MiB on Node 20 and 22, 192 MiB on Node 24 for a 32 MiB old space).
 */
const oldSpaceLimit = (() => {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const given = flags.map((flag) => /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(flag)?.[1]).filter(Boolean).at(-1);
  return (heapLimit: number) => (given ? Number(given) * 1024 * 1024 : Math.max(heapLimit - 48 * 1024 * 1024, heapLimit / 4));
})();

async function serve(args: ServeArgs): Promise<number> {
  // --now sets where the clock starts; it runs on from there.
  const offset = args.now ? args.now.getTime() - Date.now() : 0;
  const log = (logger = createLogger({ level: args.logLevel, format: args.logFormat }, { out: writeTo(process.stdout), err: writeTo(process.stderr), now: () => Date.now() + offset }));
  const refused = refuseToStart(args);
  if (refused) {
    log.fatal(refused);
    return 1;
  }
  const allowedHosts = allowedHostsFor(args.host, args.allowedHosts);
  const specPath = args.spec ?? BUNDLED_SPEC;
  const fixtures = args.fixtures ?? (args.spec ? undefined : BUNDLED_FIXTURES);
  const warn = log.warn;
  let journal: StateJournal | undefined;
  // The state in PostgreSQL (--store): connected before anything is built, so a database that
  // cannot be reached stops the start with one sentence.
  let stores: PostgresStores | undefined;
  if (args.store) {
    try {
      stores = await connectPostgres({ url: args.store, namespace: args.storeNamespace, onEvent: warn });
    } catch (error) {
      log.fatal((error as Error).message);
      return 1;
    }
  }
  // Read once, kept across reloads (--watch).
  const docsAssets = args.noDocs ? undefined : packageDocsAssets();
  const now = args.now ? () => new Date(Date.now() + offset) : undefined;
  const build = (document: LoadedDocument) =>
    buildMock(document, {
      ...mockOptionsOf(args, { fixtures, docs: docsAssets, allowedHosts, heapPressure, now, log }),
      // The state file: writes refused (503) while it cannot be written, and its health reported.
      writable: () => (journal ? persistenceRefusal(journal) : undefined),
      persistence: args.stateFile ? () => journal!.health() : stores ? () => stores!.health() : undefined,
      store: stores?.make,
    });

  let mock: Mock;
  let loaded: LoadedDocument;
  let restored = false;
  try {
    loaded = await loadDocument(specPath, { allowRemoteRefs: args.allowRemoteRefs });
    const unusable = args.stateFile && stateLocationProblem(args.stateFile); // before seeding: said at once
    if (unusable) throw new StateFileError(unusable);
    mock = build(loaded);
    if (args.stateFile) {
      // A state file holds every collection: a partial one is refused, never mixed with the seed.
      const read = readStateFile(args.stateFile, mock.collections, (data) => {
        const checked = mock.checkState(data);
        return typeof checked === 'string' ? checked : (missingCollections(checked, mock.collections) ?? checked);
      });
      read.notes.forEach(warn);
      // Past --max-records or --max-state-mb, it is refused at start, never loaded in part.
      const full = read.state && mock.importState(mock.store, read.state);
      if (full) throw new StateFileError(`The state file ${args.stateFile} was not loaded: ${full}; it was left untouched.`);
      restored = Boolean(read.state);
      journal = new StateJournal({ file: args.stateFile, generation: read.generation, onEvent: warn });
    }
  } catch (error) {
    if (error instanceof DocumentLoadError || error instanceof FixtureError || error instanceof StateFileError || error instanceof StateLimitError) {
      log.fatal(error.message);
      return 1;
    }
    throw error;
  }
  try {
    await journal?.start(mock.store, mock.collections.map((c) => c.name)); // the whole state written before serving
  } catch (error) {
    log.fatal(`${(error as Error).message}.`);
    return 1;
  }
  try {
    await stores?.ready(); // seeded by this replica, or loaded as another seeded it
  } catch (error) {
    await stores?.close();
    log.fatal((error as StoreStartError).message); // opening rejects with a StoreStartError only
    return 1;
  }

  let running;
  try {
    running = await startServer({ fetch: journal ? persistAnswers((request, env) => mock.app.fetch(request, env), journal) : (request, env) => mock.app.fetch(request, env) }, { port: args.port, host: args.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    log.fatal(code === 'EADDRINUSE' ? `Port ${args.port} is already in use; choose another with --port.` : `Cannot listen on ${args.host}:${args.port}: ${(error as Error).message}.`);
    return 1;
  }

  const shown = shownSpec(specPath, process.cwd());
  const keysFrom = process.env.MOCK_API_KEYS && !process.argv.includes('--api-key') ? 'MOCK_API_KEYS' : '--api-key';
  if (allowedHosts === 'any') {
    warn(`--host ${args.host} without --allowed-host answers any Host name, so a web page whose own name points at this machine (DNS rebinding) can call the mock API as its own origin; name the hosts clients use with --allowed-host to refuse the others.`);
  }
  const loadedFrom = stores?.loadedShared() ? `PostgreSQL, namespace ${args.storeNamespace ?? 'default'}` : undefined;
  log.banner(startBanner({ url: running.url, mock, document: loaded, shown, args, keysFrom, restored, loadedFrom, allowedHosts }));

  const watcher = args.watch
    ? watchDocument(specPath, async () => {
        try {
          const next = build(await loadDocument(specPath, { allowRemoteRefs: args.allowRemoteRefs }));
          const { kept, reseeded } = carryState(mock, next);
          mock = next;
          void journal?.rebase(mock.store, mock.collections.map((c) => c.name));
          log.info(`Reloaded ${shown}: ${mock.operations.length} operations; state kept for ${kept.join(', ') || 'no collection'}${reseeded.length ? `; reseeded ${reseeded.join(', ')}` : ''}.`, { kept, reseeded });
        } catch (error) {
          log.error(`Kept the running document: ${(error as Error).message}`);
        }
      })
    : undefined;

  return new Promise((resolve) => {
    const stop = (signal: string) => {
      log.info(`${signal}: finishing in-flight requests (up to 10 s), then stopping.`, { signal });
      watcher?.close();
      running.close().then(async () => {
        await journal?.close();
        await stores?.close();
        resolve(0);
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

/** Calls `reload` once an edit of the file settles (editors write in several steps). */
function watchDocument(file: string, reload: () => Promise<void>): { close: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let busy = Promise.resolve();
  const listener = () => {
    clearTimeout(timer);
    timer = setTimeout(() => (busy = busy.then(reload)), 150);
  };
  watchFile(file, { interval: 100 }, listener);
  return { close: () => unwatchFile(file, listener) };
}

/** Resolves once what was written to stdout and stderr has left the process (a pipe is written asynchronously: exiting first cuts it). */
const drained = () => Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));

main().then(
  async (code) => {
    await drained();
    process.exit(code);
  },
  (error) => {
    logger?.flush();
    process.stderr.write(`Unexpected failure: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
