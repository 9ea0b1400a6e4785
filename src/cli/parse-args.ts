/**
 * The command line, parsed into options: pure (argv and env in, options or a message out), so
 * it is tested without starting anything.
 */
import { parseArgs } from 'node:util';
import { isHostPattern, isLoopbackAddress } from '../middleware/host-guard.js';
import { DEFAULT_MAX_RECORDS } from '../state/budget.js';
import { parseDelay } from '../scenarios/read-scenario.js';

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
  /** Peers are reverse proxies: loopback proves nothing. */
  trustProxy?: boolean;
  /** Host names answered besides loopback ones (`--allowed-host`). */
  allowedHosts?: string[];
  stateFile?: string;
  /** `--max-records`: records held by all stores together. */
  maxRecords?: number;
  /** `--max-state-mb`: their size as JSON, in MiB. */
  maxStateMb?: number;
  /** What the clock said at start (`--now`); it runs on from there. */
  now?: Date;
  watch: boolean;
}

export type CliCommand = ServeArgs | { command: 'help' } | { command: 'version' } | { command: 'error'; message: string };

export const USAGE = `Usage: petstore-mock-kit serve [options]
       petstore-mock-kit contract --base-url URL [options]   (see contract --help)

Serve an OpenAPI document as a stateful mock: routes, validation, auth and CRUD state are derived
from the document, seeded with Faker data. \`contract\` checks a running implementation against
the document instead.

Options:
  --spec FILE|URL    OpenAPI 3.0/3.1 (or Swagger 2.0, converted) document to serve (default: the embedded spec/openapi.yaml)
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
  --trust-proxy      the mock runs behind a reverse proxy, so loopback proves nothing:
                     needs --admin-token or --no-admin
  --state-file FILE  load the state from FILE at start and save it there after changes
  --max-records N    records held at most, all sessions together (default 2000000); a create
                     past it, or past --max-state-mb, or near the heap's limit, gets 507
  --max-state-mb N   size of those records as JSON, in MiB, at most (default 512)
  --now DATE         start the clock at DATE (e.g. 2027-07-01), for sunset demos and tests
  --watch            reload the document when it changes, keeping the state that still fits
  -h, --help         show this help
  -v, --version      show the version
`;

/** @example parseCommand(['serve', '--port', '8080'], {}) // { command: 'serve', port: 8080, ... } */
export function parseCommand(argv: string[], env: Record<string, string | undefined>): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        spec: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        'api-key': { type: 'string', multiple: true },
        fixtures: { type: 'string' },
        count: { type: 'string', multiple: true },
        delay: { type: 'string' },
        'error-rate': { type: 'string' },
        'cors-origin': { type: 'string', multiple: true },
        'admin-token': { type: 'string' },
        'no-admin': { type: 'boolean' },
        'trust-proxy': { type: 'boolean' },
        'allowed-host': { type: 'string', multiple: true },
        'state-file': { type: 'string' },
        'max-records': { type: 'string' },
        'max-state-mb': { type: 'string' },
        now: { type: 'string' },
        watch: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    return { command: 'error', message: `${(error as Error).message.split('\n')[0]} (see --help).` };
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };
  const command = positionals[0] ?? 'serve';
  if (command !== 'serve' || positionals.length > 1) return { command: 'error', message: `Unknown command "${positionals.join(' ')}"; the commands are "serve" (the default) and "contract" (see --help).` };

  const port = integer(values.port ?? env.PORT ?? '4010', '--port', 0, 65535);
  if (typeof port === 'string') return { command: 'error', message: port };
  const seed = values.seed === undefined ? undefined : integer(values.seed, '--seed', 0, 2 ** 32 - 1);
  if (typeof seed === 'string') return { command: 'error', message: seed };
  const counts: Record<string, number> = {};
  for (const entry of values.count ?? []) {
    const [name, value] = entry.includes('=') ? entry.split('=', 2) : ['default', entry];
    const count = integer(value, `--count ${entry}`, 0, 10_000_000);
    if (typeof count === 'string') return { command: 'error', message: count };
    counts[name] = count;
  }
  const keys = values['api-key'] ?? env.MOCK_API_KEYS?.split(',').map((k) => k.trim()).filter(Boolean);
  if (keys?.some((k) => !/^[\x21-\x7e]+$/.test(k))) return { command: 'error', message: 'An API key must be printable ASCII without spaces.' };
  const delay = values.delay === undefined ? undefined : parseDelay(values.delay);
  if (values.delay !== undefined && !delay) return { command: 'error', message: `--delay must be milliseconds (200) or a range (100-800), at most 30000, not "${values.delay}".` };
  const errorRate = values['error-rate'] === undefined ? undefined : Number(values['error-rate']);
  if (errorRate !== undefined && !(/^(0(\.\d+)?|1(\.0+)?)$/.test(values['error-rate']!) && errorRate >= 0 && errorRate <= 1)) {
    return { command: 'error', message: `--error-rate must be a number from 0 to 1, not "${values['error-rate']}".` };
  }
  const origins = values['cors-origin'];
  const badOrigin = origins?.find((o) => !/^https?:\/\/[^/\s]+$/.test(o.replace(/\/+$/, '')));
  if (badOrigin) return { command: 'error', message: `--cors-origin must be an origin like http://localhost:5173, not "${badOrigin}".` };
  if (values['no-admin'] && values['admin-token'] !== undefined) return { command: 'error', message: '--no-admin turns the admin API off; leave out --admin-token, or --no-admin.' };
  // MOCK_ADMIN_TOKEN may be set for every run; --no-admin wins over it.
  const adminToken = values['no-admin'] ? undefined : (values['admin-token'] ?? env.MOCK_ADMIN_TOKEN);
  const badHost = values['allowed-host']?.find((h) => !isHostPattern(h));
  if (badHost !== undefined) return { command: 'error', message: `--allowed-host must be a host name or address like demo.example.com, demo.example.com:8443, .example.com or [::1], not "${badHost}".` };
  if (values.watch && values.spec && /^https?:\/\//i.test(values.spec)) return { command: 'error', message: '--watch needs --spec to be a file, not a URL.' };
  if (adminToken !== undefined && !/^[\x21-\x7e]{8,}$/.test(adminToken)) return { command: 'error', message: 'The admin token must be at least 8 printable ASCII characters without spaces.' };
  if (adminToken !== undefined && (keys ?? ['petstore-demo-key']).includes(adminToken)) return { command: 'error', message: 'The admin token must differ from every API key.' };
  const maxRecords = values['max-records'] === undefined ? undefined : integer(values['max-records'], '--max-records', 1, 100_000_000);
  if (typeof maxRecords === 'string') return { command: 'error', message: maxRecords };
  const maxStateMb = values['max-state-mb'] === undefined ? undefined : integer(values['max-state-mb'], '--max-state-mb', 1, 1_000_000);
  if (typeof maxStateMb === 'string') return { command: 'error', message: maxStateMb };
  const seeded = Object.values(counts).reduce((a, b) => a + b, 0);
  if (seeded > (maxRecords ?? DEFAULT_MAX_RECORDS)) return { command: 'error', message: `--count asks for ${seeded} records, more than --max-records allows (${maxRecords ?? DEFAULT_MAX_RECORDS}).` };
  const now = values.now === undefined ? undefined : new Date(/^\d{4}-\d{2}-\d{2}$/.test(values.now) ? `${values.now}T00:00:00Z` : values.now);
  if (now && Number.isNaN(now.getTime())) return { command: 'error', message: `--now must be a date like 2027-07-01 or 2027-07-01T12:00:00Z, not "${values.now}".` };
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
    trustProxy: values['trust-proxy'],
    allowedHosts: values['allowed-host']?.map((h) => h.toLowerCase()),
    stateFile: values['state-file'],
    maxRecords,
    maxStateMb,
    now,
    watch: values.watch ?? false,
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

function integer(text: string, flag: string, min: number, max: number): number | string {
  const n = Number(text);
  return /^\d+$/.test(text) && n >= min && n <= max ? n : `${flag} must be an integer from ${min} to ${max}, not "${text}".`;
}
