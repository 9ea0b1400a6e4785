import { describe, expect, it } from 'vitest';
import { parseCommand } from './parse-args.js';

describe('parseCommand', () => {
  it('serves on the embedded defaults with no arguments', () => {
    expect(parseCommand([], {})).toEqual({ command: 'serve', spec: undefined, port: 4010, host: '127.0.0.1', seed: undefined, apiKeys: undefined, fixtures: undefined, counts: {} });
  });

  it('reads every flag', () => {
    const args = ['serve', '--spec', 'a.yaml', '--port', '8080', '--host', '0.0.0.0', '--seed', '9', '--api-key', 'k1', '--api-key', 'k2', '--fixtures', 'fx', '--count', '5', '--count', 'pets=100'];
    expect(parseCommand(args, {})).toEqual({ command: 'serve', spec: 'a.yaml', port: 8080, host: '0.0.0.0', seed: 9, apiKeys: ['k1', 'k2'], fixtures: 'fx', counts: { default: 5, pets: 100 } });
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

  it('recognises help and version', () => {
    expect(parseCommand(['--help'], {})).toEqual({ command: 'help' });
    expect(parseCommand(['serve', '-h'], {})).toEqual({ command: 'help' });
    expect(parseCommand(['-v'], {})).toEqual({ command: 'version' });
  });
});
