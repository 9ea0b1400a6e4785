/**
 * The command line, parsed into options: pure (argv and env in, options or a message out), so
 * it is tested without starting anything. Flags are read against `SERVE_FLAGS` (./flags.ts):
 * a mistake is one line naming the flag and what it accepts.
 */
import { isHostPattern, isLoopbackAddress } from '../mock/middleware/host-guard.js';
import { MAX_DELAY_MS, parseDelay } from '../mock/scenarios/read-scenario.js';
import { DEFAULT_MAX_RECORDS } from '../state/budget.js';
import { closest, invalidValue, orList, parseFlags, quoted, seeHelp, type FlagTable, type FlagValues } from './flags.js';

/** How much `serve` prints (`--log-level`); each level prints what the one before it prints, and more. */
export type LogLevel = 'silent' | 'error' | 'info' | 'debug';

/** How `serve` prints it (`--log-format`): lines of text, or one JSON object per line. */
export type LogFormat = 'text' | 'json';

const LOG_LEVELS: readonly LogLevel[] = ['silent', 'error', 'info', 'debug'];
const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

export interface ServeArgs {
  command: 'serve';
  spec?: string;
  port: number;
  host: string;
  seed?: number;
  apiKeys?: string[];
  fixtures?: string;
  counts: Record<string, number>;
  delay?: [number, number];
  errorRate?: number;
  corsOrigins?: string[];
  adminToken?: string;
  /** `--no-admin`: the admin API is off. */
  noAdmin?: boolean;
  /** `--no-docs`: no docs page at /__docs (and / is not led there). */
  noDocs?: boolean;
  /** Peers are reverse proxies: loopback proves nothing. */
  trustProxy?: boolean;
  /** Host names answered besides loopback ones (`--allowed-host`). */
  allowedHosts?: string[];
  stateFile?: string;
  /** `postgres://…`: the state in PostgreSQL, shared by the replicas that name it (--store, MOCK_STORE). */
  store?: string;
  /** The namespace of the state in that database (--store-namespace, MOCK_STORE_NAMESPACE; default `default`). */
  storeNamespace?: string;
  /** `--oauth-token-ttl`: seconds an access token of the mock's authorization server lasts. */
  oauthTokenTtl?: number;
  /** `--oauth-redirect-origin`: origins a redirect_uri may name besides loopback ones (never the rest of the mock itself: only its docs page's callback). */
  oauthRedirectOrigins?: string[];
  /** `--max-records`: records held by all stores together. */
  maxRecords?: number;
  /** `--max-state-mb`: their size as JSON, in MiB. */
  maxStateMb?: number;
  /** `--max-admin-body-mb`: the largest body the admin API reads, in MiB. */
  maxAdminBodyMb?: number;
  /** What the clock said at start (`--now`); it runs on from there. */
  now?: Date;
  watch: boolean;
  /** A local document may refer to URLs (--allow-remote-refs). */
  allowRemoteRefs: boolean;
  /** `--log-level` (default `info`). */
  logLevel: LogLevel;
  /** `--log-format` (default `text`). */
  logFormat: LogFormat;
  /** `--self-check`: every answer checked against the document before it leaves. */
  selfCheck: boolean;
}

/** Whose help to print: `serve`'s (also `--help` alone) or `contract`'s (`help contract`). */
export type HelpTopic = 'serve' | 'contract' | 'proxy';

export type CliCommand = ServeArgs | { command: 'help'; topic: HelpTopic } | { command: 'version' } | { command: 'error'; message: string };

/** The integer flags' bounds: their phrases in `SERVE_FLAGS` and their checks read the same numbers. */
const RANGES = {
  port: [0, 65535],
  seed: [0, 2 ** 32 - 1],
  count: [0, 10_000_000],
  'max-records': [1, 100_000_000],
  'max-state-mb': [1, 1_000_000],
  // Past about 512 MiB a body no longer fits in one JavaScript string.
  'max-admin-body-mb': [1, 500],
  'oauth-token-ttl': [1, 31_536_000],
} as const;

const integerIn = ([min, max]: readonly [number, number]) => `an integer from ${min} to ${max}`;

/** `serve`'s flags: what each accepts, for its messages (`--help` says it at length). */
export const SERVE_FLAGS = {
  spec: { type: 'string', value: 'FILE|URL', accepts: 'a file or an http(s) URL' },
  port: { type: 'string', value: 'N', accepts: integerIn(RANGES.port) },
  host: { type: 'string', value: 'H', accepts: 'an interface address, such as 127.0.0.1 or 0.0.0.0' },
  'allowed-host': { type: 'string', multiple: true, value: 'N', accepts: 'a host name or address like demo.example.com, demo.example.com:8443, .example.com or [::1]' },
  seed: { type: 'string', value: 'N', accepts: integerIn(RANGES.seed) },
  'api-key': { type: 'string', multiple: true, value: 'KEY', accepts: 'printable ASCII without spaces' },
  fixtures: { type: 'string', value: 'DIR', accepts: 'a directory of <collection>.json files' },
  count: { type: 'string', multiple: true, value: 'N', accepts: `${integerIn(RANGES.count)}, or NAME=N for one collection` },
  delay: { type: 'string', value: 'MS', accepts: `milliseconds (200) or a range (100-800), at most ${MAX_DELAY_MS}` },
  'error-rate': { type: 'string', value: 'R', accepts: 'a number from 0 to 1' },
  'cors-origin': { type: 'string', multiple: true, value: 'O', accepts: 'an origin like http://localhost:5173' },
  'admin-token': { type: 'string', value: 'T', accepts: 'at least 8 printable ASCII characters without spaces' },
  'no-admin': { type: 'boolean' },
  'no-docs': { type: 'boolean' },
  'trust-proxy': { type: 'boolean' },
  'state-file': { type: 'string', value: 'FILE', accepts: 'a file' },
  store: { type: 'string', value: 'URL', accepts: 'a postgres:// URL' },
  'store-namespace': { type: 'string', value: 'NAME', accepts: '1 to 64 letters, digits, ".", "_" or "-"' },
  'oauth-token-ttl': { type: 'string', value: 'S', accepts: `${integerIn(RANGES['oauth-token-ttl'])} (seconds)` },
  'oauth-redirect-origin': { type: 'string', multiple: true, value: 'O', accepts: 'an origin like https://app.example.com' },
  'max-records': { type: 'string', value: 'N', accepts: integerIn(RANGES['max-records']) },
  'max-state-mb': { type: 'string', value: 'N', accepts: integerIn(RANGES['max-state-mb']) },
  'max-admin-body-mb': { type: 'string', value: 'N', accepts: integerIn(RANGES['max-admin-body-mb']) },
  now: { type: 'string', value: 'DATE', accepts: 'a date like 2027-07-01 or 2027-07-01T12:00:00Z' },
  'log-level': { type: 'string', value: 'L', accepts: orList(LOG_LEVELS) },
  'log-format': { type: 'string', value: 'F', accepts: orList(LOG_FORMATS) },
  watch: { type: 'boolean' },
  'self-check': { type: 'boolean' },
  'allow-remote-refs': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies FlagTable;

export const USAGE = `Usage: petstore-mock-kit serve [options]
       petstore-mock-kit contract --base-url URL [options]   (see contract --help)
       petstore-mock-kit proxy --upstream URL [options]      (see proxy --help)
       petstore-mock-kit help [serve|contract|proxy]

Serve an OpenAPI document as a stateful mock: routes, validation, auth and CRUD state are derived
from the document, seeded with Faker data. \`contract\` checks a running implementation against
the document instead; \`proxy\` checks the traffic between clients and a real server.

Options:
  --spec FILE|URL    OpenAPI 3.0/3.1 (or Swagger 2.0, converted) document to serve, a file or an
                     http(s) URL (default: the embedded spec/openapi.yaml); a URL's document may
                     refer only to its own origin
  --allow-remote-refs
                     let a local document refer to URLs ($ref: https://...)
  --port N           port to listen on (default 4010; also the PORT environment variable)
  --host H           interface to listen on (default 127.0.0.1; 0.0.0.0 for every interface,
                     which needs --admin-token or --no-admin)
  --allowed-host N   also answer requests whose Host is N (repeatable; N:PORT for one port,
                     .example.com for it and its subdomains); others get 421. Loopback names
                     always pass; with --host 0.0.0.0 and none given, any Host does
  --seed N           seed for generated data: the same seed gives the same data (default 1)
  --api-key KEY      accept this API key; repeat for several; replaces the demo key
                     (also MOCK_API_KEYS, comma-separated)
  --fixtures DIR     load records from DIR/<collection>.json (default: the embedded fixtures/
                     when serving the embedded document, none otherwise)
  --count N          generated records per collection without fixtures (default 20)
  --count NAME=N     generated records for one collection (e.g. --count pets=1000)
  --delay MS         add latency to every answer: MS or a range MIN-MAX (e.g. 100-800)
  --error-rate R     answer a share R (0 to 1) of requests with a declared 5xx (or 500),
                     drawn from --seed so a run can be replayed
  --cors-origin O    allow only this browser origin (repeatable; default: any origin)
  --admin-token T    token of the admin API under /__admin (also MOCK_ADMIN_TOKEN);
                     without it the admin API answers only on loopback
  --no-admin         turn the admin API off (404 under /__admin)
  --no-docs          turn the docs page off (404 at /__docs; / is not led there)
  --trust-proxy      the mock runs behind a reverse proxy, so loopback proves nothing:
                     needs --admin-token or --no-admin
  --state-file FILE  load the state from FILE at start and save it there after changes
  --store URL        keep the state in PostgreSQL (postgres://user:pass@host/db, also
                     MOCK_STORE): replicas naming the same database share it (docs/replicas.md)
  --store-namespace NAME
                     the state's name in that database (default "default", also
                     MOCK_STORE_NAMESPACE): another document, or another environment, needs its own
  --oauth-token-ttl S
                     seconds an access token from the mock's /__oauth lasts (default 3600),
                     for a document with oauth2 or openIdConnect schemes
  --oauth-redirect-origin O
                     let /__oauth send sign-ins back to this origin too (repeatable; default:
                     loopback origins, and on the mock itself only its docs page's callback)
  --max-records N    records held at most, the shared state and all sessions together (default
                     2000000; sessions at most half); a create or an import past it, or past
                     --max-state-mb, or near the heap's limit, gets 507; a start past it stops
  --max-state-mb N   size of those records as JSON, in MiB, at most (default 512; sessions at
                     most half)
  --max-admin-body-mb N
                     the largest body the admin API reads (an imported state), in MiB (default
                     64); a larger one gets 413
  --now DATE         start the clock at DATE (e.g. 2027-07-01), for sunset demos and tests
  --log-level L      silent, error, info (default) or debug. info: the banner and one line per
                     request (method, path, status, ms, the scenario applied); debug adds each
                     request's validation problems; error: only failures (5xx answers, warnings
                     about the document, the state file); silent: nothing but why a start failed
  --log-format F     text (default) or json: one JSON object per line, the banner included
  --watch            reload the document when it changes, keeping the state that still fits
  --self-check       check every answer against the document before it is sent (status, media
                     type, body, required headers): a violation is a warning on stderr, counted
                     in GET /__health
  -h, --help         show this help
  -v, --version      show the version

A bad flag or value gets one line on stderr and exit code 2.
`;

/** The words that may come first. */
const COMMANDS = ['serve', 'contract', 'proxy', 'help'];

/**
 * @example parseCommand(['serve', '--port', '8080'], {}) // { command: 'serve', port: 8080, ... }
 * @example parseCommand(['--prot', '8080'], {}) // { command: 'error', message: 'Unknown flag --prot; did you mean --port? (see petstore-mock-kit serve --help)' }
 */
export function parseCommand(argv: string[], env: Record<string, string | undefined>): CliCommand {
  // A mistyped command first: its flags would be judged against serve's otherwise.
  if (argv[0] !== undefined && !argv[0].startsWith('-') && !COMMANDS.includes(argv[0])) return { command: 'error', message: unknownCommand(argv[0]) };
  const parsed = parseFlags(argv, SERVE_FLAGS, 'serve');
  if ('error' in parsed) return { command: 'error', message: parsed.error };
  const { values, positionals } = parsed;
  const asked = readCommand(positionals);
  if (asked?.help) return { command: 'help', topic: asked.help };
  if (values.help) return { command: 'help', topic: 'serve' };
  if (values.version) return { command: 'version' };
  if (asked?.error) return { command: 'error', message: asked.error };
  const serve = serveArgs(values, env);
  return typeof serve === 'string' ? { command: 'error', message: serve } : serve;
}

/**
 * What the positional arguments ask for: nothing (serve), a help topic, or a mistake. `serve`
 * and `help` may stand anywhere among the flags; `contract` only first (the bin dispatches on it there).
 */
function readCommand(positionals: readonly string[]): { help?: HelpTopic; error?: string } | undefined {
  const [first, ...rest] = positionals;
  if (first === undefined) return undefined;
  const unexpected = (arg: string) => ({ error: `Unexpected argument ${quoted(arg)}: serve takes only flags. ${seeHelp('serve')}` });
  if (first === 'serve') return rest.length ? unexpected(rest[0]) : undefined;
  if (first === 'help') {
    const [topic, ...more] = rest;
    if (topic === undefined) return { help: 'serve' };
    if ((topic === 'serve' || topic === 'contract' || topic === 'proxy') && more.length === 0) return { help: topic };
    return { error: `help takes serve, contract or proxy, not ${quoted(rest.join(' '))}. ${seeHelp()}` };
  }
  if (first === 'contract') return { error: `contract must come first, before its flags: petstore-mock-kit contract --base-url URL [options]. ${seeHelp('contract')}` };
  if (first === 'proxy') return { error: `proxy must come first, before its flags: petstore-mock-kit proxy --upstream URL [options]. ${seeHelp('proxy')}` };
  return unexpected(first);
}

/** `Unknown command "contrac"; did you mean contract? The commands are ...` */
function unknownCommand(word: string): string {
  const near = closest(word, COMMANDS);
  return `Unknown command ${quoted(word)}${near.length ? `; did you mean ${orList(near)}?` : '.'} The commands are serve (the default), contract, proxy and help. ${seeHelp()}`;
}

/** The flags' values checked and turned into options, or the sentence that says which is wrong (`proxy` reads its server's flags with it too). */
export function serveArgs(values: FlagValues<typeof SERVE_FLAGS>, env: Record<string, string | undefined>): ServeArgs | string {
  const port = values.port !== undefined ? integer('port', values.port) : integer('port', env.PORT || '4010', 'PORT');
  if (typeof port === 'string') return port;
  const seed = values.seed === undefined ? undefined : integer('seed', values.seed);
  if (typeof seed === 'string') return seed;
  const counts: Record<string, number> = {};
  for (const entry of values.count ?? []) {
    const [name, value] = /^[^=]+=/.test(entry) ? [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)] : ['default', entry];
    const count = integer('count', value);
    if (typeof count === 'string') return invalidValue(SERVE_FLAGS, 'count', entry);
    counts[name] = count;
  }
  const keysFrom = values['api-key'] ? undefined : 'MOCK_API_KEYS';
  const keys = values['api-key'] ?? env.MOCK_API_KEYS?.split(',').map((k) => k.trim()).filter(Boolean);
  if (keys?.some((k) => !/^[\x21-\x7e]+$/.test(k))) return invalidValue(SERVE_FLAGS, 'api-key', '', { source: keysFrom, secret: true });
  const delay = values.delay === undefined ? undefined : parseDelay(values.delay);
  if (values.delay !== undefined && !delay) return invalidValue(SERVE_FLAGS, 'delay', values.delay);
  const rate = values['error-rate'];
  const errorRate = rate === undefined ? undefined : Number(rate);
  if (rate !== undefined && !(/^(0(\.\d+)?|1(\.0+)?)$/.test(rate) && errorRate! >= 0 && errorRate! <= 1)) return invalidValue(SERVE_FLAGS, 'error-rate', rate);
  const origins = values['cors-origin'];
  const badOrigin = origins?.find((o) => !/^https?:\/\/[^/\s]+$/.test(o.replace(/\/+$/, '')));
  if (badOrigin !== undefined) return invalidValue(SERVE_FLAGS, 'cors-origin', badOrigin);
  if (values['no-admin'] && values['admin-token'] !== undefined) return '--no-admin turns the admin API off; leave out --admin-token, or --no-admin.';
  // MOCK_ADMIN_TOKEN may be set for every run; --no-admin wins over it.
  const adminToken = values['no-admin'] ? undefined : (values['admin-token'] ?? env.MOCK_ADMIN_TOKEN);
  const tokenFrom = values['admin-token'] === undefined ? 'MOCK_ADMIN_TOKEN' : '--admin-token';
  const badHost = values['allowed-host']?.find((h) => !isHostPattern(h));
  if (badHost !== undefined) return invalidValue(SERVE_FLAGS, 'allowed-host', badHost);
  if (values.spec !== undefined && !isDocumentSource(values.spec)) return invalidValue(SERVE_FLAGS, 'spec', values.spec);
  if (values.watch && values.spec && /^https?:\/\//i.test(values.spec)) return '--watch needs --spec to be a file, not a URL.';
  if (adminToken !== undefined && !/^[\x21-\x7e]{8,}$/.test(adminToken)) return invalidValue(SERVE_FLAGS, 'admin-token', adminToken, { source: tokenFrom, secret: true });
  if (adminToken !== undefined && (keys ?? ['petstore-demo-key']).includes(adminToken)) return `${tokenFrom} must differ from every API key.`;
  const oauthTokenTtl = values['oauth-token-ttl'] === undefined ? undefined : integer('oauth-token-ttl', values['oauth-token-ttl']);
  if (typeof oauthTokenTtl === 'string') return oauthTokenTtl;
  const redirectOrigins = values['oauth-redirect-origin'];
  const badRedirect = redirectOrigins?.find((o) => !/^https?:\/\/[^/\s]+$/.test(o.replace(/\/+$/, '')));
  if (badRedirect !== undefined) return invalidValue(SERVE_FLAGS, 'oauth-redirect-origin', badRedirect);
  const maxRecords = values['max-records'] === undefined ? undefined : integer('max-records', values['max-records']);
  if (typeof maxRecords === 'string') return maxRecords;
  const maxStateMb = values['max-state-mb'] === undefined ? undefined : integer('max-state-mb', values['max-state-mb']);
  if (typeof maxStateMb === 'string') return maxStateMb;
  const maxAdminBodyMb = values['max-admin-body-mb'] === undefined ? undefined : integer('max-admin-body-mb', values['max-admin-body-mb']);
  if (typeof maxAdminBodyMb === 'string') return maxAdminBodyMb;
  const seeded = Object.values(counts).reduce((a, b) => a + b, 0);
  if (seeded > (maxRecords ?? DEFAULT_MAX_RECORDS)) return `--count asks for ${seeded} records, more than --max-records allows (${maxRecords ?? DEFAULT_MAX_RECORDS}).`;
  const now = values.now === undefined ? undefined : new Date(/^\d{4}-\d{2}-\d{2}$/.test(values.now) ? `${values.now}T00:00:00Z` : values.now);
  if (values.now !== undefined && Number.isNaN(now!.getTime())) return invalidValue(SERVE_FLAGS, 'now', values.now);
  const store = values.store ?? (env.MOCK_STORE || undefined);
  const storeFrom = values.store === undefined ? 'MOCK_STORE' : '--store';
  if (store !== undefined && !/^postgres(ql)?:\/\/\S+$/i.test(store)) return invalidValue(SERVE_FLAGS, 'store', store, { source: storeFrom, secret: true });
  const storeNamespace = values['store-namespace'] ?? (env.MOCK_STORE_NAMESPACE || undefined);
  if (storeNamespace !== undefined && !/^[A-Za-z0-9._-]{1,64}$/.test(storeNamespace)) return invalidValue(SERVE_FLAGS, 'store-namespace', storeNamespace, { source: values['store-namespace'] === undefined ? 'MOCK_STORE_NAMESPACE' : '--store-namespace' });
  if (store !== undefined && values['state-file'] !== undefined) return `--state-file and ${storeFrom} are two places to keep the state; give one.`;
  if (store !== undefined && values.watch) return `--watch reloads the document in this process only, so it cannot be used with ${storeFrom} (the replicas would serve two documents).`;
  const logLevel = oneOf(LOG_LEVELS, values['log-level'] ?? 'info');
  if (logLevel === undefined) return invalidValue(SERVE_FLAGS, 'log-level', values['log-level']!);
  const logFormat = oneOf(LOG_FORMATS, values['log-format'] ?? 'text');
  if (logFormat === undefined) return invalidValue(SERVE_FLAGS, 'log-format', values['log-format']!);
  return {
    command: 'serve',
    spec: values.spec,
    port,
    host: values.host ?? '127.0.0.1',
    seed,
    apiKeys: keys?.length ? keys : undefined,
    fixtures: values.fixtures,
    counts,
    delay,
    errorRate,
    corsOrigins: origins,
    adminToken,
    noAdmin: values['no-admin'],
    noDocs: values['no-docs'],
    trustProxy: values['trust-proxy'],
    allowedHosts: values['allowed-host']?.map((h) => h.toLowerCase()),
    stateFile: values['state-file'],
    store,
    storeNamespace,
    oauthTokenTtl,
    oauthRedirectOrigins: redirectOrigins,
    maxRecords,
    maxStateMb,
    maxAdminBodyMb,
    now,
    watch: values.watch ?? false,
    allowRemoteRefs: values['allow-remote-refs'] ?? false,
    logLevel,
    logFormat,
    selfCheck: values['self-check'] ?? false,
  };
}

/**
 * Why the server must not start as asked, in one sentence: the admin API would answer callers from
 * elsewhere (another machine, or anyone through a proxy) with no token to stop them.
 */
export function refuseToStart(args: ServeArgs): string | undefined {
  if (args.noAdmin || args.adminToken !== undefined) return undefined;
  if (args.trustProxy) return 'Refusing to start: behind a proxy (--trust-proxy) every caller looks local, so the admin API needs --admin-token (or MOCK_ADMIN_TOKEN), or --no-admin to turn it off.';
  if (!isLoopbackAddress(args.host)) return `Refusing to start: --host ${args.host} lets other machines reach the admin API, so it needs --admin-token (or MOCK_ADMIN_TOKEN), or --no-admin to turn it off.`;
  return undefined;
}

/** `text` as an integer within the flag's bounds, or the sentence naming the flag (or `source`, the environment variable it came from). */
function integer(name: keyof typeof RANGES, text: string, source?: string): number | string {
  const [min, max] = RANGES[name];
  const n = Number(text);
  return /^\d+$/.test(text) && n >= min && n <= max ? n : invalidValue(SERVE_FLAGS, name, text, { source });
}

/** `text` if it is one of `words`. */
function oneOf<T extends string>(words: readonly T[], text: string): T | undefined {
  return words.find((word) => word === text);
}

/** A file, or a URL the document can be fetched from: another scheme (ftp://) is neither. */
function isDocumentSource(text: string): boolean {
  return !/^[a-z][a-z\d+.-]*:\/\//i.test(text) || /^https?:\/\//i.test(text);
}
