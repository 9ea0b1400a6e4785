import { describe, expect, it } from 'vitest';
import { parseCommand } from './parse-args.js';

describe('parseCommand', () => {
  it('serves on the embedded defaults with no arguments', () => {
    expect(parseCommand([], {})).toEqual({
      command: 'serve', spec: undefined, port: 4010, host: '127.0.0.1', seed: undefined, apiKeys: undefined, fixtures: undefined, counts: {},
      delay: undefined, errorRate: undefined, corsOrigins: undefined, adminToken: undefined, stateFile: undefined, now: undefined, watch: false,
    });
  });

  it('reads every flag', () => {
    const args = ['serve', '--spec', 'a.yaml', '--port', '8080', '--host', '0.0.0.0', '--seed', '9', '--api-key', 'k1', '--api-key', 'k2', '--fixtures', 'fx', '--count', '5', '--count', 'pets=100'];
    const more = ['--delay', '100-800', '--error-rate', '0.05', '--cors-origin', 'http://localhost:5173', '--cors-origin', 'https://app.example', '--admin-token', 'admin-token-1', '--state-file', 's.json', '--now', '2027-07-01', '--watch'];
    expect(parseCommand([...args, ...more], {})).toEqual({
      command: 'serve', spec: 'a.yaml', port: 8080, host: '0.0.0.0', seed: 9, apiKeys: ['k1', 'k2'], fixtures: 'fx', counts: { default: 5, pets: 100 },
      delay: [100, 800], errorRate: 0.05, corsOrigins: ['http://localhost:5173', 'https://app.example'], adminToken: 'admin-token-1', stateFile: 's.json', now: new Date('2027-07-01T00:00:00Z'), watch: true,
    });
  });

  it('takes the port from PORT and the keys from MOCK_API_KEYS, flags winning', () => {
    expect(parseCommand([], { PORT: '5000', MOCK_API_KEYS: 'a, b' })).toMatchObject({ port: 5000, apiKeys: ['a', 'b'] });
    expect(parseCommand(['--port', '6000', '--api-key', 'c'], { PORT: '5000', MOCK_API_KEYS: 'a' })).toMatchObject({ port: 6000, apiKeys: ['c'] });
  });

  it('explains bad values in one sentence', () => {
    expect(parseCommand(['--port', '70000'], {})).toEqual({ command: 'error', message: '--port must be an integer from 0 to 65535, not "70000".' });
    expect(parseCommand(['--seed=-1'], {})).toMatchObject({ command: 'error', message: expect.stringMatching(/--seed must be an integer/) });
    expect(parseCommand(['--count', 'pets=many'], {})).toMatchObject({ command: 'error', message: expect.stringMatching(/--count pets=many must be an integer/) });
    expect(parseCommand(['--nope'], {})).toMatchObject({ command: 'error', message: expect.stringMatching(/Unknown option '--nope'.*\(see --help\)\.$/) });
    expect(parseCommand(['launch'], {})).toMatchObject({ command: 'error', message: expect.stringMatching(/Unknown command "launch"/) });
    expect(parseCommand(['--api-key', 'has space'], {})).toMatchObject({ command: 'error' });
  });

  it('explains bad values of the demo flags', () => {
    const error = (args: string[], env = {}) => (parseCommand(args, env) as { message?: string }).message;
    expect(error(['--delay', 'slow'])).toMatch(/--delay must be milliseconds/);
    expect(error(['--delay', '800-100'])).toMatch(/--delay/);
    expect(error(['--error-rate', '1.5'])).toMatch(/--error-rate must be a number from 0 to 1/);
    expect(error(['--cors-origin', 'localhost:5173'])).toMatch(/--cors-origin must be an origin/);
    expect(error(['--admin-token', 'short'])).toMatch(/at least 8/);
    expect(error(['--admin-token', 'petstore-demo-key'])).toBe('The admin token must differ from every API key.');
    expect(error(['--api-key', 'same-key-1', '--admin-token', 'same-key-1'])).toBe('The admin token must differ from every API key.');
    expect(error(['--now', 'tomorrow'])).toMatch(/--now must be a date/);
    expect(error(['--watch', '--spec', 'https://api.example/openapi.yaml'])).toBe('--watch needs --spec to be a file, not a URL.');
    expect(error(['contrac'])).toBe('Unknown command "contrac"; the commands are "serve" (the default) and "contract" (see --help).');
    expect(parseCommand([], { MOCK_ADMIN_TOKEN: 'from-the-env' })).toMatchObject({ adminToken: 'from-the-env' });
  });

  it('recognises help and version', () => {
    expect(parseCommand(['--help'], {})).toEqual({ command: 'help' });
    expect(parseCommand(['serve', '-h'], {})).toEqual({ command: 'help' });
    expect(parseCommand(['-v'], {})).toEqual({ command: 'version' });
  });
});
