/**
 * The contract CLI's flags, parsed without side effects.
 */
import { parseArgs } from 'node:util';
import { CHECK_IDS } from './case.js';

export interface ContractArgs {
  command: 'run';
  baseUrl: string;
  token?: string;
  spec?: string;
  junit?: string;
  coverage: string;
  /** Check ids as given (checked against the checks of the run's profiles by the CLI). */
  only?: string[];
  /** Operation ids as given (checked against the document by the CLI). */
  operations?: string[];
  /** Profile names as given; undefined means the default (the Petstore's for the bundled document). */
  profiles?: string[];
  strict: boolean;
  readOnly: boolean;
  /** List the requests a run would send, against the built-in mock of the document, sending nothing to --base-url. */
  dryRun: boolean;
  seed?: number;
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
  --spec FILE         the document (default: the embedded spec/openapi.yaml)
  --junit FILE        write a JUnit XML report
  --coverage FILE     write the operation x status coverage as JSON (default contract-coverage.json)
  --only CHECK        run only this check; repeat or separate with commas
  --operation ID      only judge this operation id; repeat or separate with commas
  --profile NAME      add the rules of a profile: petstore (on by default for the embedded
                      document only), or none; repeat or separate with commas
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
  --seed N            seed for generated request data (default 1)
  -h, --help          show this help

Checks: ${CHECK_IDS.join(', ')}; the petstore profile adds referential_integrity and
state_transitions.

Exit codes: 0 conforms, 1 does not conform, 2 could not check (bad flag, unknown check, operation
or profile, unreachable server, refused token).
`;

const list = (values: string[] | undefined) => values?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);

export function parseContractArgs(argv: string[], env: Record<string, string | undefined>): ContractArgs | { command: 'help' } | { command: 'error'; message: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        'base-url': { type: 'string' },
        token: { type: 'string' },
        spec: { type: 'string' },
        junit: { type: 'string' },
        coverage: { type: 'string' },
        only: { type: 'string', multiple: true },
        operation: { type: 'string', multiple: true },
        profile: { type: 'string', multiple: true },
        strict: { type: 'boolean' },
        header: { type: 'string', short: 'H', multiple: true },
        'request-timeout': { type: 'string' },
        timeout: { type: 'string' },
        'max-response-bytes': { type: 'string' },
        'read-only': { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { command: 'error', message: `${(error as Error).message.split('\n')[0]} (see --help).` };
  }
  if (values.help) return { command: 'help' };
  const baseUrl = values['base-url'];
  if (!baseUrl || !/^https?:\/\/[^/]/.test(baseUrl)) return { command: 'error', message: '--base-url must be an http(s) URL, e.g. --base-url http://127.0.0.1:4010.' };
  if (values.seed !== undefined && !/^\d+$/.test(values.seed)) return { command: 'error', message: `--seed must be a non-negative integer, not "${values.seed}".` };
  const headers: Record<string, string> = {};
  for (const header of values.header ?? []) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(header);
    if (!match) return { command: 'error', message: `--header must be "Name: value", not "${header}".` };
    headers[match[1]] = match[2];
  }
  const seconds = (name: string, value: string | undefined, fallback?: number): number | string | undefined => {
    if (value === undefined) return fallback;
    const n = Number(value);
    return /^\d+(\.\d+)?$/.test(value) && n > 0 && n <= 86_400 ? n * 1000 : `${name} must be a number of seconds above 0 (at most 86400), not "${value}".`;
  };
  const requestTimeoutMs = seconds('--request-timeout', values['request-timeout'], 10_000);
  if (typeof requestTimeoutMs === 'string') return { command: 'error', message: requestTimeoutMs };
  const timeoutMs = seconds('--timeout', values.timeout);
  if (typeof timeoutMs === 'string') return { command: 'error', message: timeoutMs };
  const maxBytes = values['max-response-bytes'];
  if (maxBytes !== undefined && (!/^\d+$/.test(maxBytes) || Number(maxBytes) < 1)) return { command: 'error', message: `--max-response-bytes must be a positive integer, not "${maxBytes}".` };
  return {
    command: 'run',
    baseUrl,
    token: values.token ?? env.CONTRACT_TOKEN,
    spec: values.spec,
    junit: values.junit,
    coverage: values.coverage ?? 'contract-coverage.json',
    only: list(values.only),
    operations: list(values.operation),
    profiles: list(values.profile),
    strict: values.strict ?? false,
    readOnly: values['read-only'] ?? false,
    dryRun: values['dry-run'] ?? false,
    seed: values.seed === undefined ? undefined : Number(values.seed),
    headers,
    requestTimeoutMs: requestTimeoutMs!,
    timeoutMs,
    maxResponseBytes: maxBytes === undefined ? 10 * 1024 * 1024 : Number(maxBytes),
  };
}
