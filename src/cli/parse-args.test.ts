import { describe, expect, it } from 'vitest';
import { parseCommand, SERVE_FLAGS, USAGE } from './parse-args.js';

/** The message of a command line that must be refused, checked to be one line. */
const error = (args: string[], env: Record<string, string> = {}) => {
  const parsed = parseCommand(args, env);
  if (parsed.command !== 'error') throw new Error(`not refused: ${args.join(' ')}`);
  expect(parsed.message).not.toMatch(/[\n\r]/);
  return parsed.message;
};

describe('parseCommand', () => {
  it('serves on the embedded defaults with no arguments', () => {
    expect(parseCommand([], {})).toEqual({
      command: 'serve', spec: undefined, port: 4010, host: '127.0.0.1', seed: undefined, apiKeys: undefined, fixtures: undefined, counts: {},
      delay: undefined, errorRate: undefined, corsOrigins: undefined, adminToken: undefined, stateFile: undefined, now: undefined, watch: false,
      logLevel: 'info', logFormat: 'text', allowRemoteRefs: false, selfCheck: false,
    });
  });

  it('reads every flag', () => {
    const args = ['serve', '--spec', 'a.yaml', '--port', '8080', '--host', '0.0.0.0', '--seed', '9', '--api-key', 'k1', '--api-key', 'k2', '--fixtures', 'fx', '--count', '5', '--count', 'pets=100'];
    const more = ['--delay', '100-800', '--error-rate', '0.05', '--cors-origin', 'http://localhost:5173', '--cors-origin', 'https://app.example', '--admin-token', 'admin-token-1', '--state-file', 's.json', '--now', '2027-07-01', '--watch', '--allow-remote-refs', '--self-check'];
    const logs = ['--log-level', 'debug', '--log-format=json', '--max-records', '1000', '--max-state-mb', '64', '--max-admin-body-mb', '8', '--oauth-token-ttl', '120', '--oauth-redirect-origin', 'https://app.example.com', '--oauth-redirect-origin', 'http://10.0.0.5:5173'];
    expect(parseCommand([...args, ...more, ...logs], {})).toEqual({
      command: 'serve', spec: 'a.yaml', port: 8080, host: '0.0.0.0', seed: 9, apiKeys: ['k1', 'k2'], fixtures: 'fx', counts: { default: 5, pets: 100 },
      delay: [100, 800], errorRate: 0.05, corsOrigins: ['http://localhost:5173', 'https://app.example'], adminToken: 'admin-token-1', stateFile: 's.json', now: new Date('2027-07-01T00:00:00Z'), watch: true, allowRemoteRefs: true,
      logLevel: 'debug', logFormat: 'json', maxRecords: 1000, maxStateMb: 64, maxAdminBodyMb: 8, oauthTokenTtl: 120, oauthRedirectOrigins: ['https://app.example.com', 'http://10.0.0.5:5173'], selfCheck: true,
    });
  });

  it('takes the port from PORT and the keys from MOCK_API_KEYS, flags winning', () => {
    expect(parseCommand([], { PORT: '5000', MOCK_API_KEYS: 'a, b' })).toMatchObject({ port: 5000, apiKeys: ['a', 'b'] });
    expect(parseCommand(['--port', '6000', '--api-key', 'c'], { PORT: '5000', MOCK_API_KEYS: 'a' })).toMatchObject({ port: 6000, apiKeys: ['c'] });
    expect(parseCommand([], { PORT: '' })).toMatchObject({ port: 4010 });
  });

  it('reads every log level and format, and an http(s) URL for --spec', () => {
    for (const level of ['silent', 'error', 'info', 'debug']) expect(parseCommand(['--log-level', level], {})).toMatchObject({ logLevel: level });
    for (const format of ['text', 'json']) expect(parseCommand(['--log-format', format], {})).toMatchObject({ logFormat: format });
    expect(parseCommand(['--spec', 'https://api.example/openapi.yaml'], {})).toMatchObject({ spec: 'https://api.example/openapi.yaml' });
    expect(parseCommand(['--spec', 'C:\\specs\\openapi.yaml'], {})).toMatchObject({ spec: 'C:\\specs\\openapi.yaml' });
  });

  it('recognises help, help [serve|contract] and version', () => {
    expect(parseCommand(['--help'], {})).toEqual({ command: 'help', topic: 'serve' });
    expect(parseCommand(['serve', '-h'], {})).toEqual({ command: 'help', topic: 'serve' });
    expect(parseCommand(['help'], {})).toEqual({ command: 'help', topic: 'serve' });
    expect(parseCommand(['help', 'serve'], {})).toEqual({ command: 'help', topic: 'serve' });
    expect(parseCommand(['help', 'contract'], {})).toEqual({ command: 'help', topic: 'contract' });
    expect(parseCommand(['--port', '1', 'help'], {})).toEqual({ command: 'help', topic: 'serve' });
    expect(parseCommand(['-v'], {})).toEqual({ command: 'version' });
    expect(parseCommand(['--version'], {})).toEqual({ command: 'version' });
  });
});

describe('bad flags: one line naming the flag and what it accepts', () => {
  it('an unknown flag, with the flag it is close to', () => {
    expect(error(['--prot', '3'])).toBe('Unknown flag --prot; did you mean --port? (see petstore-mock-kit serve --help)');
    expect(error(['serve', '--log-levl', 'debug'])).toBe('Unknown flag --log-levl; did you mean --log-level? (see petstore-mock-kit serve --help)');
    expect(error(['--allow', 'a.example'])).toBe('Unknown flag --allow; did you mean --allowed-host or --allow-remote-refs? (see petstore-mock-kit serve --help)');
    expect(error(['--frobnicate'])).toBe('Unknown flag --frobnicate. (see petstore-mock-kit serve --help)');
    expect(error(['--nope'])).toBe('Unknown flag --nope; did you mean --now? (see petstore-mock-kit serve --help)');
  });

  it('a flag without its value', () => {
    expect(error(['--port'])).toBe('--port needs a value: an integer from 0 to 65535. (see petstore-mock-kit serve --help)');
    expect(error(['--port', '--watch'])).toBe('--port needs a value: an integer from 0 to 65535. (see petstore-mock-kit serve --help)');
    expect(error(['--spec'])).toBe('--spec needs a value: a file or an http(s) URL. (see petstore-mock-kit serve --help)');
    expect(error(['--log-level'])).toBe('--log-level needs a value: silent, error, info or debug. (see petstore-mock-kit serve --help)');
    expect(error(['--log-format'])).toBe('--log-format needs a value: text or json. (see petstore-mock-kit serve --help)');
  });

  it('a value for a flag that takes none', () => {
    expect(error(['--watch=yes'])).toBe('--watch takes no value. (see petstore-mock-kit serve --help)');
    expect(error(['--no-admin=true'])).toBe('--no-admin takes no value. (see petstore-mock-kit serve --help)');
  });

  it('a single-value flag given twice', () => {
    expect(error(['--port', '1', '--port', '2'])).toBe('--port was given twice ("1", then "2"); it takes one value. (see petstore-mock-kit serve --help)');
    expect(error(['--log-level', 'info', '--log-level=debug'])).toBe('--log-level was given twice ("info", then "debug"); it takes one value. (see petstore-mock-kit serve --help)');
  });

  it('an unknown command, or an argument where none is taken', () => {
    expect(error(['contrac'])).toBe('Unknown command "contrac"; did you mean contract? The commands are serve (the default), contract, proxy and help. (see petstore-mock-kit --help)');
    expect(error(['contrac', '--base-url', 'http://127.0.0.1:4010'])).toMatch(/^Unknown command "contrac"; did you mean contract\?/);
    expect(error(['launch', '--help'])).toMatch(/^Unknown command "launch"\./);
    expect(error(['launch'])).toBe('Unknown command "launch". The commands are serve (the default), contract, proxy and help. (see petstore-mock-kit --help)');
    expect(error(['serve', 'now'])).toBe('Unexpected argument "now": serve takes only flags. (see petstore-mock-kit serve --help)');
    expect(error(['--port', '1', 'extra'])).toBe('Unexpected argument "extra": serve takes only flags. (see petstore-mock-kit serve --help)');
    expect(error(['--port', '1', 'contract'])).toBe('contract must come first, before its flags: petstore-mock-kit contract --base-url URL [options]. (see petstore-mock-kit contract --help)');
    expect(error(['help', 'me'])).toBe('help takes serve, contract or proxy, not "me". (see petstore-mock-kit --help)');
  });

  it('bad values, each naming its flag (or the variable it came from)', () => {
    expect(error(['--port', '70000'])).toBe('--port must be an integer from 0 to 65535, not "70000".');
    expect(error([], { PORT: 'abc' })).toBe('PORT must be an integer from 0 to 65535, not "abc".');
    expect(error(['--seed=-1'])).toBe('--seed must be an integer from 0 to 4294967295, not "-1".');
    expect(error(['--seed', '-1'])).toBe('--seed must be an integer from 0 to 4294967295, not "-1".');
    expect(error(['--count', 'pets=many'])).toBe('--count must be an integer from 0 to 10000000, or NAME=N for one collection, not "pets=many".');
    expect(error(['--count', '=5'])).toBe('--count must be an integer from 0 to 10000000, or NAME=N for one collection, not "=5".');
    expect(error(['--api-key', 'has space'])).toBe('--api-key must be printable ASCII without spaces.');
    expect(error([], { MOCK_API_KEYS: 'a b' })).toBe('MOCK_API_KEYS must be printable ASCII without spaces.');
    expect(error(['--delay', 'slow'])).toBe('--delay must be milliseconds (200) or a range (100-800), at most 30000, not "slow".');
    expect(error(['--delay', '800-100'])).toMatch(/^--delay must be/);
    expect(error(['--error-rate', '1.5'])).toBe('--error-rate must be a number from 0 to 1, not "1.5".');
    expect(error(['--cors-origin', 'localhost:5173'])).toBe('--cors-origin must be an origin like http://localhost:5173, not "localhost:5173".');
    expect(error(['--admin-token', 'short'])).toBe('--admin-token must be at least 8 printable ASCII characters without spaces.');
    expect(error([], { MOCK_ADMIN_TOKEN: 'short' })).toBe('MOCK_ADMIN_TOKEN must be at least 8 printable ASCII characters without spaces.');
    expect(error(['--admin-token', 'petstore-demo-key'])).toBe('--admin-token must differ from every API key.');
    expect(error(['--api-key', 'same-key-1', '--admin-token', 'same-key-1'])).toBe('--admin-token must differ from every API key.');
    expect(error(['--api-key', 'same-key-1'], { MOCK_ADMIN_TOKEN: 'same-key-1' })).toBe('MOCK_ADMIN_TOKEN must differ from every API key.');
    expect(error(['--now', 'tomorrow'])).toBe('--now must be a date like 2027-07-01 or 2027-07-01T12:00:00Z, not "tomorrow".');
    expect(error(['--max-records', '0'])).toBe('--max-records must be an integer from 1 to 100000000, not "0".');
    expect(error(['--max-state-mb', 'lots'])).toBe('--max-state-mb must be an integer from 1 to 1000000, not "lots".');
    expect(error(['--max-admin-body-mb', '600'])).toBe('--max-admin-body-mb must be an integer from 1 to 500, not "600".');
    expect(error(['--oauth-token-ttl', '0'])).toBe('--oauth-token-ttl must be an integer from 1 to 31536000 (seconds), not "0".');
    expect(error(['--oauth-redirect-origin', 'app.example.com'])).toBe('--oauth-redirect-origin must be an origin like https://app.example.com, not "app.example.com".');
    expect(error(['--log-level', 'verbose'])).toBe('--log-level must be silent, error, info or debug, not "verbose".');
    expect(error(['--log-format', 'yaml'])).toBe('--log-format must be text or json, not "yaml".');
    expect(error(['--spec', 'ftp://api.example/openapi.yaml'])).toBe('--spec must be a file or an http(s) URL, not "ftp://api.example/openapi.yaml".');
    expect(error(['--watch', '--spec', 'https://api.example/openapi.yaml'])).toBe('--watch needs --spec to be a file, not a URL.');
    expect(error(['--port', '1\n2'])).toBe('--port must be an integer from 0 to 65535, not "1\\n2".');
    expect(parseCommand([], { MOCK_ADMIN_TOKEN: 'from-the-env' })).toMatchObject({ adminToken: 'from-the-env' });
  });

  it('takes the PostgreSQL store from --store or MOCK_STORE, never printing the URL it refuses (it may hold a password)', () => {
    const url = 'postgres://mock:secret@db.internal:5432/mock';
    expect(parseCommand(['--store', url, '--store-namespace', 'staging'], {})).toMatchObject({ store: url, storeNamespace: 'staging' });
    expect(parseCommand([], { MOCK_STORE: url, MOCK_STORE_NAMESPACE: 'ci-42' })).toMatchObject({ store: url, storeNamespace: 'ci-42' });
    expect(parseCommand(['--store', 'postgresql://db/mock'], { MOCK_STORE: url })).toMatchObject({ store: 'postgresql://db/mock' });
    expect(parseCommand([], { MOCK_STORE: '' })).toMatchObject({ store: undefined });
    expect(error(['--store', 'mysql://mock:secret@db/mock'])).toBe('--store must be a postgres:// URL.');
    expect(error([], { MOCK_STORE: 'redis://secret@db' })).toBe('MOCK_STORE must be a postgres:// URL.');
    expect(error(['--store', url, '--store-namespace', 'has space'])).toBe('--store-namespace must be 1 to 64 letters, digits, ".", "_" or "-", not "has space".');
    expect(error(['--store', url, '--state-file', 's.json'])).toBe('--state-file and --store are two places to keep the state; give one.');
    expect(error(['--watch'], { MOCK_STORE: url })).toBe('--watch reloads the document in this process only, so it cannot be used with MOCK_STORE (the replicas would serve two documents).');
  });
});

describe('USAGE', () => {
  it('lists every flag of the table with its placeholder, and nothing else', () => {
    const listed = new Set([...USAGE.matchAll(/^ {2}(?:-\w, )?--([a-z-]+)(?: (\S+))?/gm)].map((m) => `${m[1]} ${m[2] ?? ''}`.trim()));
    const table = Object.entries(SERVE_FLAGS).map(([name, spec]) => `${name} ${'value' in spec ? spec.value : ''}`.trim());
    expect([...listed].filter((flag) => !table.includes(flag) && flag !== 'count NAME=N')).toEqual([]);
    expect(table.filter((flag) => !listed.has(flag))).toEqual([]);
  });

  it('keeps within 100 columns', () => {
    expect(USAGE.split('\n').filter((line) => line.length > 100)).toEqual([]);
  });
});
