/**
 * `petstore-mock-kit contract --base-url URL --token TOKEN` (in a clone: `npm run contract -- ...`):
 * the only module of the suite that writes to the terminal and files. The bin (src/cli.ts) hands it
 * the arguments after `contract` and the environment, and exits with the code it returns.
 */
import { randomInt } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { DocumentLoadError, loadDocument, type LoadedDocument } from '../openapi/document/load-document.js';
import { buildMock, DEMO_API_KEY } from '../mock/app.js';
import { compileDocument } from '../openapi/validation/compiled-document.js';
import { DEFAULT_PLUGINS, PLUGINS } from '../plugins/index.js';
import { BUNDLED_FIXTURES, BUNDLED_SPEC } from '../core/bundled.js';
import { CONTRACT_USAGE, parseContractArgs, type ContractArgs } from './contract-args.js';
import type { Exchange } from '../contract/case.js';
import type { CheckId } from '../contract/check-id.js';
import type { LoadedPlugin } from '../contract/plugin.js';
import { formatReport } from '../contract/report/console.js';
import { setupErrorJUnit, toJUnit } from '../contract/report/junit.js';
import { ContractSetupError, runContract } from '../contract/run-contract.js';
import { selectRun } from '../contract/select.js';
import { cassetteOf, parseCassette, writeCassette } from '../contract/explore/cassette.js';
import { replayCassette } from '../contract/explore/replay.js';
import { formatReplay } from '../contract/report/explored.js';


export async function contractCommand(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const args = parseContractArgs(argv, env);
  if (args.command === 'help') {
    process.stdout.write(CONTRACT_USAGE);
    return 0;
  }
  if (args.command === 'error') {
    process.stderr.write(`${args.message}\n`);
    return 2;
  }
  let document;
  try {
    document = await loadDocument(args.spec ?? BUNDLED_SPEC, { allowRemoteRefs: args.allowRemoteRefs });
  } catch (error) {
    if (error instanceof DocumentLoadError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const selection = await selectRun({ plugins: args.plugins, only: args.only, operations: args.operations, allowWrites: args.allowWrites }, document, args.spec === undefined, PLUGINS);
  if (typeof selection === 'string') {
    process.stderr.write(`${selection}\n`);
    return 2;
  }
  const { plugins, only } = selection;
  // Only the CLI draws randomness: a run without --seed gets one, printed, so it can be run again exactly.
  const seed = args.seed ?? randomInt(0, 2 ** 31);
  if (args.replay !== undefined) return replay(args, document, plugins);
  if (args.dryRun) return dryRun({ ...args, seed }, document, selection);
  process.stdout.write(`Checking ${args.baseUrl} against ${document.api.info?.title ?? 'the document'} ${document.api.info?.version ?? ''}${plugins.length ? ` with the ${plugins.map((p) => p.name).join(', ')} plugin` : ''}${args.readOnly ? ' (read-only)' : ''}, seed ${seed}\n`);
  let report;
  try {
    report = await runContract({
      document,
      baseUrl: args.baseUrl,
      token: args.token,
      only,
      operations: args.operations,
      readOnly: args.readOnly,
      seed,
      explore: args.explore,
      budgetRequests: args.budgetRequests,
      budgetMs: args.budgetMs,
      exploreLanes: args.exploreLanes,
      plugins,
      strict: args.strict,
      headers: args.headers,
      requestTimeoutMs: args.requestTimeoutMs,
      timeoutMs: args.timeoutMs,
      maxResponseBytes: args.maxResponseBytes,
      harmCheck: args.harmCheck,
      allowLeftovers: args.allowLeftovers,
      allowWrites: args.allowWrites,
      onExchange: progress(),
    });
  } catch (error) {
    if (error instanceof ContractSetupError) {
      process.stderr.write(`${error.message}\n`);
      // CI reads the JUnit file: a run that could not start says why there too.
      if (args.junit) writeFileSync(args.junit, setupErrorJUnit(error.message));
      return 2;
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    process.stderr.write(`Cannot talk to ${args.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}.\n`);
    return 2;
  }
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  const cassette = args.cassette === undefined ? undefined : cassetteOf(report, document.api.info ?? {});
  if (cassette) writeFileSync(args.cassette!, writeCassette(cassette));
  process.stdout.write(formatReport(report, cassette && args.cassette));
  if (args.coverage) writeFileSync(args.coverage, `${JSON.stringify(report.coverage, null, 2)}\n`);
  if (args.junit) writeFileSync(args.junit, toJUnit(report));
  if (report.harm?.length) return 3; // records the suite did not create changed during the run: first of all
  if (report.leftBehind.length && !report.leftBehindAllowed) return 4; // the server holds records of the run: someone must delete them
  if (report.failures.length === 0 && report.incomplete) return 2; // nothing wrong found, but not everything checked
  return report.conforms ? 0 : 1;
}

/**
 * `--replay FILE`: the cassette's failures sent again and judged by the same checks. Exits 1 when
 * one still fails, 2 when none does but one could not be judged (or the file is not a cassette),
 * 4 when the replay left records behind, else 0.
 */
async function replay(args: ContractArgs, document: LoadedDocument, plugins: LoadedPlugin[]): Promise<number> {
  const file = args.replay!;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    process.stderr.write(`Cannot read the cassette ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.\n`);
    return 2;
  }
  const cassette = parseCassette(text);
  if (typeof cassette === 'string') {
    process.stderr.write(`${file} is not a cassette: ${cassette}.\n`);
    return 2;
  }
  let report;
  try {
    report = await replayCassette({ document, baseUrl: args.baseUrl, token: args.token, plugins, headers: args.headers, requestTimeoutMs: args.requestTimeoutMs, timeoutMs: args.timeoutMs, maxResponseBytes: args.maxResponseBytes, allowWrites: args.allowWrites }, cassette);
  } catch (error) {
    if (error instanceof ContractSetupError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    process.stderr.write(`Cannot talk to ${args.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}.\n`);
    return 2;
  }
  process.stdout.write(formatReplay(report, file));
  if (report.failing) return 1;
  if (report.unjudged) return 2;
  return report.leftBehind.length && !args.allowLeftovers ? 4 : 0;
}

/** On a terminal, one line that says how far the run is (requests sent, the latest operation), at most ten times a second. */
function progress(): ((exchange: Exchange, sent: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let last = 0;
  return (exchange, sent) => {
    const now = Date.now();
    if (now - last < 100) return;
    last = now;
    process.stderr.write(`\r\x1b[K  ${sent} requests  ${exchange.case.method} ${exchange.case.operation.path}`.slice(0, (process.stderr.columns || 80) - 1));
  };
}

/**
 * `--dry-run`: the run played against the built-in mock of the document (a server that keeps it),
 * printing each request it sends, exploration's included; nothing goes to --base-url. Against a
 * real server the requests that depend on answers (the ids of created records) may differ.
 */
async function dryRun(args: ContractArgs, document: LoadedDocument, { plugins, only }: { plugins: LoadedPlugin[]; only?: CheckId[] }): Promise<number> {
  const key = args.token ?? DEMO_API_KEY;
  // The mock and the suite in one process: one compiled document for both.
  const compiled = compileDocument(document);
  const mock = buildMock(document, { compiled, apiKeys: [key], fixtures: args.spec === undefined ? BUNDLED_FIXTURES : undefined, onWarning: () => undefined, plugins: DEFAULT_PLUGINS });
  const lines: string[] = [];
  const report = await runContract({
    document,
    compiled,
    baseUrl: args.baseUrl,
    token: key,
    only,
    operations: args.operations,
    readOnly: args.readOnly,
    seed: args.seed,
    explore: args.explore,
    budgetRequests: args.budgetRequests,
    budgetMs: args.budgetMs,
    exploreLanes: args.exploreLanes,
    plugins,
    headers: args.headers,
    fetch: async (url, init) => mock.app.fetch(new Request(url, init)),
    onExchange: (exchange) => lines.push(`${exchange.case.method.padEnd(6)} ${exchange.case.path}  # ${exchange.case.operation.id}: ${exchange.case.label}`),
  });
  const explored = report.exploration && 'requests' in report.exploration ? report.exploration.requests : 0;
  // Exploration draws the same inputs and sequences for a seed whatever the server; it sends more only to shrink a failure.
  const exploring = explored ? `, and ${explored} more by exploration (seed ${report.seed}; the same for this seed unless a failure is shrunk; --no-explore leaves them out)` : '';
  process.stdout.write(`${lines.join('\n')}\n${lines.length - explored} requests would be sent to ${args.baseUrl} (played here against the built-in mock of the document; ids of created records may differ)${exploring}\n`);
  return 0;
}
