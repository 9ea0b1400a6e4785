/**
 * The documentation cannot drift: every command of the `sh` and `yaml` blocks of the README and of
 * each page of docs/ runs here, the README first and then the pages by name, each page's blocks in
 * the order written, as a reader of that page would run them from a clone. `npm start` lines start
 * the real server through npm (on a free port instead of 4010); `curl` lines run with bash against
 * it. Each command must exit 0 and print the output written under it (`#   ...` lines); the HTTP
 * status of a curl must be the one its comment or its output shows, or below 400 when they show
 * none. The banner shown after "`npm start` prints:" must be the one `npm start` prints. The few
 * commands not run here are listed in NOT_RUN with the reason, and any other command this test
 * cannot run fails it.
 *
 * Each page is run as a reader who opens it would run it: the README's `npm start` is running in
 * another terminal (it serves every page after it), and the page's commands run in a terminal of
 * their own, so the shell variables a page uses (`KEY`) are the ones it sets itself (`URL` is always
 * the address of the server a command runs against, in place of the documented one). A page
 * whose curl commands reach that running server starts from a known state: the first of them is
 * the admin API's reset (`curl -s -X POST "$URL/__admin/reset"`), checked here. A block that starts
 * its own server (`npm start -- --flags`) starts it from the seed and stops it at its end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { staleReason } from '../scripts/start.mjs';
import { DEMO_API_KEY } from './mock/app.js';
import { ROOT } from './test-support/petstore.js';
import { documentationPages } from './test-support/markdown-links.js';
import { missingOutput, readmeBlocks, type ReadmeBlock, type ReadmeCommand } from './test-support/readme-commands.js';
import { track } from './test-support/processes.js';
import { startPostgres, type RunningPostgres } from './test-support/postgres.js';

/** The README, then every page of docs/ by name, each with its code blocks. */
const PAGES = documentationPages(ROOT).map((name) => ({
  name,
  blocks: readmeBlocks(readFileSync(join(ROOT, name), 'utf8')),
}));

/** The command a page starts with to forget what earlier pages (and earlier readers) changed. */
const RESET = /^curl -s -X POST "\$URL\/__admin\/reset"$/;

/** Commands shown in the README or in docs/ that this test does not run, and why. */
const NOT_RUN: Array<[RegExp, string]> = [
  [/^npm (ci|install)\b/, '.ci/run installs from a clean clone before it runs npm test'],
  [/^npm i -D petstore-mock-kit\b/, 'src/package.e2e.test.ts packs this checkout and installs the tarball that way in an empty project'],
  [/^npm test\b/, 'this test is part of npm test'],
  [/^npm run test:unit\b/, 'npm test runs the unit tier first, then this one'],
  [/^npm run build$/, 'npm test builds first'],
  [/^npm run bench\b/, 'about 30 minutes against Prism, Mockoon and Scalar; kept out of npm test on purpose'],
  [/^npm run fuzz$/, 'the property tests npm test runs, with 2,000 cases each instead of the default (about 30 s)'],
];

/** What a reader supplies to the commands that name it: their server, their token, their CI workspace. */
const workspace = mkdtempSync(join(tmpdir(), 'readme-'));
const READER_ENV: Record<string, string> = { TOKEN: DEMO_API_KEY, PETSTORE_TOKEN: DEMO_API_KEY, GITHUB_WORKSPACE: workspace };

/** The reader's PostgreSQL for the commands that name $DATABASE_URL (docs/replicas.md): a real server, started on first use. */
let database: RunningPostgres | undefined;
async function withDatabase(text: string): Promise<void> {
  if (!/\$DATABASE_URL\b/.test(text) || database) return;
  database = await startPostgres();
  READER_ENV.DATABASE_URL = database.url;
}

/** The documented default address (and the CI example's), replaced by the test server's. */
const DOCUMENTED_URL = /http:\/\/(?:127\.0\.0\.1|localhost):(?:4010|8080)\b/g;

interface Server {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Runs an `npm start ...` line as written, on a free port, and resolves once its banner is out. */
function npmStart(command: string): Promise<Server> {
  const onFreePort = command.includes(' -- ') ? `${command} --port 0` : `${command} -- --port 0`;
  const child = track(spawn('bash', ['-c', onFreePort], { cwd: ROOT, detached: true, env: { ...process.env, PORT: '' } }), true);
  let out = '';
  const stop = () => stopGroup(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (void stop(), reject(new Error(`${command}: no banner after 300 s:\n${out}`))), 300_000);
    const onData = (chunk: Buffer) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)[\s\S]*try /.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url: url.replace('0.0.0.0', '127.0.0.1'), output: () => out, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`${command} exited with ${code}:\n${out}`))));
  });
}

/** SIGTERM to npm and the server under it, as Ctrl-C would; SIGKILL if they are not gone after 12 s. */
function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 12_000);
    child.once('exit', () => (clearTimeout(kill), resolve()));
    process.kill(-child.pid!, 'SIGTERM');
  });
}

interface Ran {
  code: number | null;
  output: string;
  /** The HTTP status of each curl the command ran, in order. */
  statuses: number[];
}

/** Runs one command with bash: assignments made earlier on its page first, curl wrapped to record each status. */
function sh(command: string, assignments: string[], cwd: string, url: string): Promise<Ran> {
  const headers = mkdtempSync(join(tmpdir(), 'readme-curl-'));
  const prelude = [`curl() { __n=$((__n+1)); command curl -D "${headers}/$__n" "$@"; }`, ...assignments, `URL=${url}`].join('\n');
  const child = track(spawn('bash', ['-c', `${prelude}\n${command}`], { cwd, env: { ...process.env, ...READER_ENV, BASE_URL: url } }));
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  return new Promise((resolve) => {
    // Long enough for `npm run lint` on a loaded machine (25 s seen at load 2-3): a limit only for a command that hangs.
    const timer = setTimeout(() => child.kill('SIGKILL'), 540_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const files = readdirSync(headers).sort((a, b) => Number(a) - Number(b));
      const statuses = files.map((f) => Number([...readFileSync(join(headers, f), 'latin1').matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].pop()?.[1]));
      rmSync(headers, { recursive: true, force: true });
      resolve({ code, output, statuses });
    });
  });
}

/**
 * The status a command is shown to get: an error status its comment names (`# 404 NOT_FOUND`,
 * `# a 400 with ...`), else the one in the output written under it (`HTTP/1.1 401 ...`, `"status":400`).
 */
function namedStatus(command: ReadmeCommand): number | undefined {
  const inComment = /\b([45]\d\d)\b/.exec(command.comment)?.[1];
  const inOutput = command.output.map((line) => /^HTTP\/[\d.]+ (\d{3})/.exec(line)?.[1] ?? /"status":(\d{3})\b/.exec(line)?.[1]).find(Boolean);
  return Number(inComment ?? inOutput) || undefined;
}

/**
 * The first curl of a page that reaches the running `npm start` rather than a server its block
 * started (`npm start -- --flags` earlier in the same block).
 */
function firstCurlOnRunningServer(blocks: ReadmeBlock[]): ReadmeCommand | undefined {
  for (const block of blocks) {
    let ownServer = false;
    for (const command of block.commands) {
      if (/^npm start\b/.test(command.text) && command.text !== 'npm start') ownServer = true;
      else if (!ownServer && /\bcurl\b/.test(command.text)) return command;
    }
  }
  return undefined;
}

/** Where the commands may write: the checkout, and contract-tests/ (vitest's root there, so its --outputFile lands in it). */
const WRITTEN_INTO = [ROOT, join(ROOT, 'contract-tests')];
const before = new Map(WRITTEN_INTO.map((dir) => [dir, new Set(readdirSync(dir))]));
let defaultServer: Server | undefined;
const skipped: string[] = [];

afterAll(async () => {
  await defaultServer?.stop();
  await database?.stop();
  // What the commands wrote into the checkout (contract.xml, demo-state.json, contract-tests/contract-vitest.xml).
  for (const dir of WRITTEN_INTO) for (const entry of readdirSync(dir)) if (!before.get(dir)!.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

describe('every command of the README and of docs/', () => {
  it('runs against a current build (npm test builds first)', () => {
    expect(staleReason(ROOT.slice(0, -1))).toBeUndefined();
  });

  it('finds the commands of the README and of docs/', () => {
    expect(PAGES.length).toBeGreaterThan(5);
    expect(PAGES.flatMap((page) => page.blocks).filter((b) => b.commands.length).length).toBeGreaterThan(10);
  });

  for (const page of PAGES.filter((p) => p.blocks.some((b) => b.commands.length))) {
    describe(page.name, () => {
      /** The shell variables the page has set so far (`KEY=...`): its own terminal's. */
      const assignments: string[] = [];
      const first = firstCurlOnRunningServer(page.blocks);
      if (first) {
        it('starts from the seeded data: its first curl against the running npm start is the admin reset', () => {
          expect(first.text, `${page.name} line ${first.line}`).toMatch(RESET);
        });
      }

      for (const block of page.blocks.filter((b) => b.commands.length)) {
        it(`runs the ${block.lang} block at line ${block.line} (${block.heading})`, async () => {
          let blockServer: Server | undefined;
          try {
            for (const command of block.commands) {
              const where = `${page.name} line ${command.line}`;
              const reason = NOT_RUN.find(([pattern]) => pattern.test(command.text))?.[1];
              if (reason) {
                skipped.push(`${where}: ${command.text}: ${reason}`);
                continue;
              }
              if (/^npm start\b/.test(command.text)) {
                await blockServer?.stop();
                const server = await npmStart(command.text);
                expect(server.output(), `${where}: npm start on a built tree rebuilt`).not.toMatch(/Building first/);
                if (command.text === 'npm start' && !defaultServer) {
                  defaultServer = server;
                  checkBanner(server);
                } else blockServer = server;
                continue;
              }
              const server = blockServer ?? defaultServer;
              if (/\bcurl\b|\$URL\b|--base-url/.test(command.text)) expect(server, `${where}: no server is running for ${command.text}`).toBeDefined();
              const url = server?.url ?? 'http://127.0.0.1:4010';
              const text = command.text.replace(DOCUMENTED_URL, url).replace(/\$\{\{ secrets\.(\w+) \}\}/g, '$$$1');
              if (/^[A-Z_]+=\S/.test(text) && !/\s(?:&&|;)\s/.test(text)) {
                assignments.push(text);
                continue;
              }
              await runAndCheck(where, command, text, url, assignments);
            }
          } finally {
            await blockServer?.stop();
          }
        });
      }
    });
  }

  it('leaves out only the commands listed in NOT_RUN, each with its reason', () => {
    expect(skipped.length).toBeGreaterThan(0);
    for (const line of skipped) expect(line).toMatch(/: .{10,}/);
  });
});

async function runAndCheck(line: string, command: ReadmeCommand, text: string, url: string, assignments: string[]): Promise<void> {
  const where = `${line}: ${command.text}`;
  const cwd = /^npm /.test(text) ? ROOT : workspace;
  await withDatabase(text);
  const ran = await sh(text, assignments, cwd, url);
  expect(ran.code, `${where}\n${ran.output}`).toBe(0);
  const missing = missingOutput(command.output.map((line) => line.replace(DOCUMENTED_URL, url)), ran.output);
  expect(missing, `${where}: the output lacks this line\n${ran.output}`).toBeUndefined();
  if (!/\bcurl\b/.test(text)) return;
  expect(ran.statuses.length, `${where}: no HTTP answer`).toBeGreaterThan(0);
  const last = ran.statuses.at(-1)!;
  ran.statuses.slice(0, -1).forEach((status) => expect(status, where).toBeLessThan(400));
  const named = namedStatus(command);
  if (named) expect(last, `${where}: the page shows ${named}\n${ran.output}`).toBe(named);
  else expect(last, `${where}: an error status the page does not show\n${ran.output}`).toBeLessThan(400);
}

/** The banner the documentation shows after "`npm start` prints:" is the one npm start prints. */
function checkBanner(server: Server): void {
  const shown = PAGES.flatMap((page) => page.blocks).find((b) => b.intro.includes('`npm start` prints:'));
  expect(shown, 'the documentation shows the banner of npm start').toBeDefined();
  const port = new URL(server.url).port;
  const printed = server.output().slice(server.output().indexOf('Mock of'));
  for (const line of shown!.text.split('\n')) expect(printed, 'the banner shown in the documentation').toContain(line.replaceAll(':4010', `:${port}`));
}
