/**
 * The contract CLI's flags, parsed without side effects: read against `CONTRACT_FLAGS` (the
 * shared reader, src/cli/flags.ts), so a mistake is one line naming the flag and what it accepts.
 */
import { invalidValue, parseFlags, quoted, seeHelp, type FlagTable } from './flags.js';
import { CHECK_IDS } from '../contract/case.js';

export interface ContractArgs {
  command: 'run';
  baseUrl: string;
  token?: string;
  spec?: string;
  junit?: string;
  /** Where to write the coverage JSON; none unless asked. */
  coverage?: string;
  /** Check ids as given (checked against the checks of the run's plugins by the CLI). */
  only?: string[];
  /** Operation ids as given (checked against the document by the CLI). */
  operations?: string[];
  /** Plugin names as given; undefined means the default (the Petstore's for the bundled document). */
  plugins?: string[];
  strict: boolean;
  readOnly: boolean;
  /** A local document may refer to URLs (--allow-remote-refs). */
  allowRemoteRefs: boolean;
  /** Compare the records of others before and after the run (off with --no-harm-check). */
  harmCheck: boolean;
  /** Records the suite created and could not delete are a warning, not exit 4 (--allow-leftovers). */
  allowLeftovers: boolean;
  /** Operation ids (or `all`) whose writes are sent though the suite cannot prove them safe. */
  allowWrites?: string[];
  /** List the requests a run would send, against the built-in mock of the document, sending nothing to --base-url. */
  dryRun: boolean;
  /** The seed given; undefined means the command picks one at random and prints it. */
  seed?: number;
  /** Explore past the fixed checks (off with --no-explore). */
  explore: boolean;
  /** Exploration's budget: requests (--budget-requests) and milliseconds (--budget-seconds); undefined means the default. */
  budgetRequests?: number;
  budgetMs?: number;
  /** Collections explored at once (--explore-lanes); undefined means the default. */
  exploreLanes?: number;
  /** Where to write the failures exploration found, as a cassette (only if it found any). */
  cassette?: string;
  /** A cassette to send again instead of running the suite. */
  replay?: string;
  /** Extra headers for every request, from `-H 'Name: value'`. */
  headers: Record<string, string>;
  requestTimeoutMs: number;
  /** The whole run's limit, if any. */
  timeoutMs?: number;
  maxResponseBytes: number;
}

export const CONTRACT_USAGE = `Usage: petstore-mock-kit contract --base-url URL [--token TOKEN] [options]
       (in a clone: npm run contract -- --base-url URL ...)

Checks a live implementation against the OpenAPI document: status codes, response schemas, the
Error shape, headers, authentication, rejection of bad input, and stateful behaviour. Exits 0 only
when everything conforms. Creates its own data through the API and deletes it afterwards.

Options:
  --base-url URL      where the implementation answers (stands in for the document's server URL)
  --token TOKEN       the API key to authenticate with (also CONTRACT_TOKEN)
  --spec FILE|URL     the document, a file or an http(s) URL (default: the embedded
                      spec/openapi.yaml); a URL's document may refer only to its own origin
  --allow-remote-refs
                      let a local document refer to URLs ($ref: https://...)
  --junit FILE        write a JUnit XML report
  --coverage FILE     write the operation x status coverage as JSON (only when asked)
  --only CHECK        run only this check; repeat or separate with commas
  --operation ID      only judge this operation id; repeat or separate with commas
  --plugin NAME       add a plugin's checks (the rules a document states in prose): petstore
                      (on by default for the embedded document only), or none; repeat or
                      separate with commas
  --strict            gaps of the document (an invalid request refused with a status it does
                      not declare, say) fail the run too
  -H, --header 'N: V' send this header with every request (repeatable); an unauthenticated case
                      leaves out credential headers
  --request-timeout S how long one answer may take, in seconds (default 10); a late answer is a
                      failure of response_received, not a crash
  --timeout S         the whole run's limit, in seconds (default none): past it nothing more is
                      sent, the clean-up still runs, and what was not reached is skipped
  --max-response-bytes N
                      read at most this much of an answer (default 10485760)
  --dry-run           list the requests a run would send, played against the built-in mock of
                      the document: nothing is sent to --base-url
  --read-only         send only requests that change nothing
  --allow-write ID    send this operation's writes even though the suite cannot prove they touch
                      only its own records (you vouch that they do); all for a disposable
                      server; repeat or separate with commas
  --no-harm-check     do not compare the first page of every list before and after the run
                      (for a server others write to meanwhile; the report says it was off)
  --allow-leftovers   records the suite created and could not delete are a warning, not exit 4
  --seed N            seed for generated data and exploration (default: one picked at random);
                      every run prints its seed, and the same seed sends the same cases in the
                      same order
  --no-explore        run only the fixed checks: no generated inputs or sequences
  --budget-requests N requests exploration may send after the fixed checks (default 3000)
  --budget-seconds S  seconds exploration may take (default 30); the first bound reached stops it
  --explore-lanes N   collections explored at once, their requests overlapping (default 4; 1: one
                      after another); the same seed still sends the same requests
  --cassette FILE     write the failures exploration found (their steps, shrunk) as JSON, only
                      if it found any
  --replay FILE       send each failure of a cassette again against --base-url, judge it with the
                      same check and say still failing, fixed, or not judged (and why); nothing
                      else is checked. Exits 1 if any still fails, 2 if any could not be judged
  -h, --help          show this help

Checks: ${CHECK_IDS.join(', ')}; the petstore plugin adds referential_integrity and
state_transitions.

Never harms: a request that could change records the suite did not create (a write on a collection
path, a write whose query selects records, one whose answer counts records) is never sent, and is
listed with why (--allow-write sends it on your word). Records of others on the first page of each list are compared before and after.

Exit codes: 0 conforms, 1 does not conform, 2 could not check (a bad flag or value, said in one
line; an unknown check, operation or plugin; an unreachable server; a refused token; a base URL
where every path answers 404), 3 records the suite did not create were changed or gone after the
run (said first), 4 records the suite created are left on the server (named; --allow-leftovers).
`;

/** The contract command's flags: what each accepts, for its messages (`--help` says it at length). */
export const CONTRACT_FLAGS = {
  'base-url': { type: 'string', value: 'URL', accepts: 'an http(s) URL like http://127.0.0.1:4010' },
  token: { type: 'string', value: 'TOKEN', accepts: 'an API key' },
  spec: { type: 'string', value: 'FILE|URL', accepts: 'a file or an http(s) URL' },
  junit: { type: 'string', value: 'FILE', accepts: 'a file to write' },
  coverage: { type: 'string', value: 'FILE', accepts: 'a file to write' },
  only: { type: 'string', multiple: true, value: 'CHECK', accepts: 'a check id, or several separated with commas' },
  operation: { type: 'string', multiple: true, value: 'ID', accepts: 'an operation id, or several separated with commas' },
  plugin: { type: 'string', multiple: true, value: 'NAME', accepts: 'petstore or none, or several separated with commas' },
  strict: { type: 'boolean' },
  header: { type: 'string', short: 'H', multiple: true, value: "'N: V'", accepts: '"Name: value"' },
  'request-timeout': { type: 'string', value: 'S', accepts: 'a number of seconds above 0 (at most 86400)' },
  timeout: { type: 'string', value: 'S', accepts: 'a number of seconds above 0 (at most 86400)' },
  'max-response-bytes': { type: 'string', value: 'N', accepts: 'a positive integer' },
  'dry-run': { type: 'boolean' },
  'read-only': { type: 'boolean' },
  'allow-remote-refs': { type: 'boolean' },
  'no-harm-check': { type: 'boolean' },
  'allow-leftovers': { type: 'boolean' },
  'allow-write': { type: 'string', multiple: true, value: 'ID', accepts: 'an operation id, or all, or several separated with commas' },
  seed: { type: 'string', value: 'N', accepts: 'a non-negative integer' },
  'no-explore': { type: 'boolean' },
  'budget-requests': { type: 'string', value: 'N', accepts: 'a positive integer' },
  'budget-seconds': { type: 'string', value: 'S', accepts: 'a number of seconds above 0 (at most 86400)' },
  'explore-lanes': { type: 'string', value: 'N', accepts: 'an integer from 1 to 16' },
  cassette: { type: 'string', value: 'FILE', accepts: 'a file to write' },
  replay: { type: 'string', value: 'FILE', accepts: 'a cassette file written by --cassette' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies FlagTable;

const list = (values: string[] | undefined) => values?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);

/**
 * @example parseContractArgs(['--base-url', 'http://127.0.0.1:4010'], {}) // { command: 'run', baseUrl: 'http://127.0.0.1:4010', ... }
 * @example parseContractArgs(['--base-url'], {}) // { command: 'error', message: '--base-url needs a value: an http(s) URL like http://127.0.0.1:4010. (see petstore-mock-kit contract --help)' }
 */
export function parseContractArgs(argv: string[], env: Record<string, string | undefined>): ContractArgs | { command: 'help' } | { command: 'error'; message: string } {
  const parsed = parseFlags(argv, CONTRACT_FLAGS, 'contract');
  if ('error' in parsed) return { command: 'error', message: parsed.error };
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (positionals.length) return { command: 'error', message: `Unexpected argument ${quoted(positionals[0])}: contract takes only flags. ${seeHelp('contract')}` };
  const error = (message: string) => ({ command: 'error' as const, message });
  const baseUrl = values['base-url'];
  if (baseUrl === undefined) return error(`--base-url is required: ${CONTRACT_FLAGS['base-url'].accepts}. ${seeHelp('contract')}`);
  if (!/^https?:\/\/[^/]/.test(baseUrl)) return error(invalidValue(CONTRACT_FLAGS, 'base-url', baseUrl));
  if (values.spec !== undefined && /^[a-z][a-z\d+.-]*:\/\//i.test(values.spec) && !/^https?:\/\//i.test(values.spec)) return error(invalidValue(CONTRACT_FLAGS, 'spec', values.spec));
  if (values.seed !== undefined && !/^\d+$/.test(values.seed)) return error(invalidValue(CONTRACT_FLAGS, 'seed', values.seed));
  const headers: Record<string, string> = {};
  for (const header of values.header ?? []) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(header);
    if (!match) return error(invalidValue(CONTRACT_FLAGS, 'header', header));
    headers[match[1]] = match[2];
  }
  const requestTimeoutMs = seconds('request-timeout', values['request-timeout'], 10_000);
  if (typeof requestTimeoutMs === 'string') return error(requestTimeoutMs);
  const timeoutMs = seconds('timeout', values.timeout);
  if (typeof timeoutMs === 'string') return error(timeoutMs);
  const budgetRequests = values['budget-requests'];
  if (budgetRequests !== undefined && (!/^\d+$/.test(budgetRequests) || Number(budgetRequests) < 1)) return error(invalidValue(CONTRACT_FLAGS, 'budget-requests', budgetRequests));
  const budgetMs = seconds('budget-seconds', values['budget-seconds']);
  if (typeof budgetMs === 'string') return error(budgetMs);
  const lanes = values['explore-lanes'];
  if (lanes !== undefined && (!/^\d+$/.test(lanes) || Number(lanes) < 1 || Number(lanes) > 16)) return error(invalidValue(CONTRACT_FLAGS, 'explore-lanes', lanes));
  const explore = !(values['no-explore'] ?? false);
  const exploring = [values.cassette !== undefined && '--cassette', budgetRequests !== undefined && '--budget-requests', budgetMs !== undefined && '--budget-seconds', lanes !== undefined && '--explore-lanes'].find(Boolean);
  if (values.replay !== undefined && exploring) return error(`--replay sends a cassette again and explores nothing: it takes no ${exploring}. ${seeHelp('contract')}`);
  if (!explore && exploring) return error(`--no-explore turns exploration off: it takes no ${exploring}. ${seeHelp('contract')}`);
  const maxBytes = values['max-response-bytes'];
  if (maxBytes !== undefined && (!/^\d+$/.test(maxBytes) || Number(maxBytes) < 1)) return error(invalidValue(CONTRACT_FLAGS, 'max-response-bytes', maxBytes));
  return {
    command: 'run',
    baseUrl,
    token: values.token ?? env.CONTRACT_TOKEN,
    spec: values.spec,
    junit: values.junit,
    coverage: values.coverage,
    only: list(values.only),
    operations: list(values.operation),
    plugins: list(values.plugin),
    strict: values.strict ?? false,
    readOnly: values['read-only'] ?? false,
    allowRemoteRefs: values['allow-remote-refs'] ?? false,
    harmCheck: !(values['no-harm-check'] ?? false),
    allowLeftovers: values['allow-leftovers'] ?? false,
    allowWrites: list(values['allow-write']),
    dryRun: values['dry-run'] ?? false,
    seed: values.seed === undefined ? undefined : Number(values.seed),
    explore,
    budgetRequests: budgetRequests === undefined ? undefined : Number(budgetRequests),
    budgetMs,
    exploreLanes: lanes === undefined ? undefined : Number(lanes),
    cassette: values.cassette,
    replay: values.replay,
    headers,
    requestTimeoutMs: requestTimeoutMs!,
    timeoutMs,
    maxResponseBytes: maxBytes === undefined ? 10 * 1024 * 1024 : Number(maxBytes),
  };
}

/** A number of seconds (above 0, at most a day) as milliseconds, `fallback` when not given, or the sentence naming the flag. */
function seconds(name: 'request-timeout' | 'timeout' | 'budget-seconds', value: string | undefined, fallback?: number): number | string | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  return /^\d+(\.\d+)?$/.test(value) && n > 0 && n <= 86_400 ? n * 1000 : invalidValue(CONTRACT_FLAGS, name, value);
}
