/**
 * The command line, parsed into options: pure (argv and env in, options or a message out), so
 * it is tested without starting anything.
 */
import { parseArgs } from 'node:util';

export interface ServeArgs {
  command: 'serve';
  spec?: string;
  port: number;
  host: string;
  seed?: number;
  apiKeys?: string[];
  fixtures?: string;
  counts: Record<string, number>;
}

export type CliCommand = ServeArgs | { command: 'help' } | { command: 'version' } | { command: 'error'; message: string };

export const USAGE = `Usage: petstore-mock-kit serve [options]

Serve an OpenAPI document as a stateful mock: routes, validation, auth and CRUD state are derived
from the document, seeded with Faker data.

Options:
  --spec FILE        OpenAPI 3.0/3.1 document to serve (default: the embedded spec/openapi.yaml)
  --port N           port to listen on (default 4010; also the PORT environment variable)
  --host H           interface to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --seed N           seed for generated data: the same seed gives the same data (default 1)
  --api-key KEY      accept this API key; repeat for several; replaces the demo key
                     (also MOCK_API_KEYS, comma-separated)
  --fixtures DIR     load records from DIR/<collection>.json (default: the embedded fixtures/
                     when serving the embedded document, none otherwise)
  --count N          generated records per collection without fixtures (default 20)
  --count NAME=N     generated records for one collection (e.g. --count pets=1000)
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
  if (command !== 'serve' || positionals.length > 1) return { command: 'error', message: `Unknown command "${positionals.join(' ')}"; the command is "serve" (see --help).` };

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
  return {
    command: 'serve',
    spec: values.spec,
    port,
    host: values.host ?? '127.0.0.1',
    seed,
    apiKeys: keys?.length ? keys : undefined,
    fixtures: values.fixtures,
    counts,
  };
}

function integer(text: string, flag: string, min: number, max: number): number | string {
  const n = Number(text);
  return /^\d+$/.test(text) && n >= min && n <= max ? n : `${flag} must be an integer from ${min} to ${max}, not "${text}".`;
}
