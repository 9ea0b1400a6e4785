/**
 * `petstore-mock-kit proxy`'s command line, parsed into options: pure, like `serve`'s. The server's
 * flags (port, host, the admin API, the docs page, the mock that fills in) are `serve`'s, read by
 * the same code; the proxy adds its own.
 */
import { upstreamIsItself } from '../proxy/loop-guard.js';
import { invalidValue, orList, parseFlags, quoted, seeHelp, type FlagTable, type FlagValues } from './flags.js';
import { SERVE_FLAGS, serveArgs, type ServeArgs } from './parse-args.js';

/** What the mock fills in for (`--fallback`). */
const FALLBACKS = ['mock', 'none'] as const;

/** `serve`'s flags that mean nothing in front of a real server: its state is the upstream's. */
const NOT_FOR_PROXY = ['state-file', 'watch', 'delay', 'error-rate', 'self-check'] as const;

const SERVER_FLAGS = Object.fromEntries(Object.entries(SERVE_FLAGS).filter(([name]) => !(NOT_FOR_PROXY as readonly string[]).includes(name))) as Omit<typeof SERVE_FLAGS, (typeof NOT_FOR_PROXY)[number]>;

export const PROXY_FLAGS = {
  ...SERVER_FLAGS,
  upstream: { type: 'string', value: 'URL', accepts: 'the real server\'s http(s) base URL, such as http://127.0.0.1:3000' },
  errors: { type: 'boolean' },
  'fail-on-violation': { type: 'boolean' },
  junit: { type: 'string', value: 'FILE', accepts: 'a file to write' },
  fallback: { type: 'string', value: 'WHAT', accepts: orList(FALLBACKS) },
  mock: { type: 'string', multiple: true, value: 'OPERATION_ID', accepts: 'an operationId of the document' },
  record: { type: 'string', value: 'DIR', accepts: 'a directory' },
  'upstream-timeout': { type: 'string', value: 'S', accepts: 'a number of seconds from 0.1 to 3600' },
} as const satisfies FlagTable;

export interface ProxyArgs extends Omit<ServeArgs, 'command'> {
  command: 'proxy';
  upstream: string;
  errors: boolean;
  failOnViolation: boolean;
  junit?: string;
  fallback?: 'mock';
  mockOperations: string[];
  record?: string;
  upstreamTimeoutMs: number;
}

export type ProxyCommand = ProxyArgs | { command: 'help' } | { command: 'error'; message: string };

export const PROXY_USAGE = `Usage: petstore-mock-kit proxy --upstream URL [options]

Sit between clients and a real server: every request is forwarded to the upstream and its answer
passed back, and each exchange is checked against the document with the mock's and the contract
suite's validators (the request's parameters and body; the answer's status, media type, body,
headers and error shape). Violations are logged on the request's line, listed at
GET /__admin/violations, summed up at exit and written to --junit. The mock's own endpoints
(/__admin, /__health, /__spec, /__docs) stay the mock's.

Options:
  --upstream URL     the real server's base URL (also MOCK_UPSTREAM); a request's path and query are
                     appended to it, and only its origin is ever connected to
  --spec FILE|URL    the document to check against (default: the embedded spec/openapi.yaml)
  --errors           answer a request that breaks the document with the document's error (400 or
                     the declared fitting status) without forwarding it, and name what an answer
                     breaks in an X-Proxy-Violations header
  --fail-on-violation
                     exit with code 1 when any violation was seen (on SIGINT or SIGTERM)
  --junit FILE       write the violations as JUnit XML at exit: a test case per check and operation
  --fallback WHAT    mock: the stateful mock answers an operation the upstream does not implement
                     (404, 405 or 501 that is not the operation's own answer) or cannot answer
                     (unreachable, too slow); none (the default): the client gets that answer, or 502/504
  --mock OPERATION_ID
                     the mock always answers this operation (repeatable): endpoints not built yet
  --record DIR       write what the upstream answers as fixtures (DIR/<collection>.json, secrets
                     left out), for \`serve --fixtures DIR\`
  --upstream-timeout S
                     seconds the upstream has for its whole answer (its headers and a body that is
                     checked), else 504; a body streamed unchecked is cut after as long a silence
                     (default 30)

The server's options are serve's (see serve --help): --port (default 4010), --host, --allowed-host,
--admin-token, --no-admin, --no-docs, --trust-proxy, --cors-origin, --log-level, --log-format,
--allow-remote-refs, and for the mock that fills in: --seed, --fixtures, --count, --api-key, --now,
--max-records, --max-state-mb, --max-admin-body-mb, --oauth-token-ttl, --oauth-redirect-origin.

Exit codes: 0 when stopped (SIGINT or SIGTERM), 1 with --fail-on-violation and a violation seen,
or when it cannot start; 2 for a bad flag or value.
`;

/**
 * @example parseProxyArgs(['--upstream', 'http://127.0.0.1:3000'], {}) // { command: 'proxy', upstream: 'http://127.0.0.1:3000', port: 4010, ... }
 */
export function parseProxyArgs(argv: string[], env: Record<string, string | undefined>): ProxyCommand {
  const parsed = parseFlags(argv, PROXY_FLAGS, 'proxy');
  if ('error' in parsed) return { command: 'error', message: parsed.error };
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (positionals.length) return { command: 'error', message: `Unexpected argument ${quoted(positionals[0])}: proxy takes only flags. ${seeHelp('proxy')}` };
  const server = serveArgs(values as FlagValues<typeof SERVE_FLAGS>, env);
  if (typeof server === 'string') return { command: 'error', message: server };
  const upstream = values.upstream ?? env.MOCK_UPSTREAM;
  if (upstream === undefined) return { command: 'error', message: `proxy needs --upstream URL (or MOCK_UPSTREAM): the real server to forward to. ${seeHelp('proxy')}` };
  if (!/^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/i.test(upstream)) return { command: 'error', message: invalidValue(PROXY_FLAGS, 'upstream', upstream, { source: values.upstream === undefined ? 'MOCK_UPSTREAM' : undefined }) };
  const fallback = values.fallback ?? 'none';
  if (!(FALLBACKS as readonly string[]).includes(fallback)) return { command: 'error', message: invalidValue(PROXY_FLAGS, 'fallback', fallback) };
  const timeout = values['upstream-timeout'] === undefined ? 30 : Number(values['upstream-timeout']);
  if (!(/^\d+(\.\d+)?$/.test(values['upstream-timeout'] ?? '30') && timeout >= 0.1 && timeout <= 3600)) return { command: 'error', message: invalidValue(PROXY_FLAGS, 'upstream-timeout', values['upstream-timeout']!) };
  const badId = values.mock?.find((id) => !/^\S+$/.test(id));
  if (badId !== undefined) return { command: 'error', message: invalidValue(PROXY_FLAGS, 'mock', badId) };
  const { command: _serve, ...rest } = server;
  if (upstreamIsItself(upstream, rest)) return { command: 'error', message: `--upstream ${upstream} is this proxy's own address (it listens on ${rest.host}:${rest.port}), so it would forward every request to itself; give the real server's URL, or another --port.` };
  return {
    ...rest,
    command: 'proxy',
    upstream,
    errors: values.errors ?? false,
    failOnViolation: values['fail-on-violation'] ?? false,
    junit: values.junit,
    fallback: fallback === 'mock' ? 'mock' : undefined,
    mockOperations: values.mock ?? [],
    record: values.record,
    upstreamTimeoutMs: Math.round(timeout * 1000),
  };
}
