import { describe, expect, it } from 'vitest';
import { parseProxyArgs } from './proxy-args.js';

describe('proxy\'s command line', () => {
  it('reads the proxy\'s flags and the server\'s, as serve reads them', () => {
    const args = parseProxyArgs(['--upstream', 'http://127.0.0.1:3000/api', '--errors', '--fail-on-violation', '--junit', 'v.xml', '--fallback', 'mock', '--mock', 'listPets', '--mock', 'getPet', '--record', 'rec', '--upstream-timeout', '2.5', '--port', '4020', '--admin-token', 'a-long-admin-token'], {});
    expect(args).toMatchObject({
      command: 'proxy',
      upstream: 'http://127.0.0.1:3000/api',
      errors: true,
      failOnViolation: true,
      junit: 'v.xml',
      fallback: 'mock',
      mockOperations: ['listPets', 'getPet'],
      record: 'rec',
      upstreamTimeoutMs: 2500,
      port: 4020,
      host: '127.0.0.1',
      adminToken: 'a-long-admin-token',
    });
    expect(parseProxyArgs([], { MOCK_UPSTREAM: 'https://api.example.com', PORT: '5000' })).toMatchObject({ upstream: 'https://api.example.com', port: 5000, errors: false, fallback: undefined, upstreamTimeoutMs: 30_000 });
  });

  it('says what is wrong in one line', () => {
    const error = (argv: string[]) => {
      const parsed = parseProxyArgs(argv, {});
      return parsed.command === 'error' ? parsed.message : undefined;
    };
    expect(error([])).toBe('proxy needs --upstream URL (or MOCK_UPSTREAM): the real server to forward to. (see petstore-mock-kit proxy --help)');
    expect(error(['--upstream', 'http://x/?q=1'])).toBe('--upstream must be the real server\'s http(s) base URL, such as http://127.0.0.1:3000, not "http://x/?q=1".');
    expect(error(['--upstream', 'http://x', '--fallback', 'maybe'])).toBe('--fallback must be mock or none, not "maybe".');
    expect(error(['--upstream', 'http://x', '--upstream-timeout', '0'])).toBe('--upstream-timeout must be a number of seconds from 0.1 to 3600, not "0".');
    expect(error(['--upstream', 'http://x', '--watch'])).toBe('Unknown flag --watch. (see petstore-mock-kit proxy --help)');
    expect(error(['--upstream', 'http://x', '--port', 'x'])).toBe('--port must be an integer from 0 to 65535, not "x".');
    expect(error(['--upstream', 'http://x', 'extra'])).toBe('Unexpected argument "extra": proxy takes only flags. (see petstore-mock-kit proxy --help)');
    expect(parseProxyArgs(['--help'], {})).toEqual({ command: 'help' });
  });

  it('refuses an upstream that is the proxy\'s own listening address, which would forward to itself', () => {
    const error = (argv: string[], env: Record<string, string> = {}) => {
      const parsed = parseProxyArgs(argv, env);
      return parsed.command === 'error' ? parsed.message : undefined;
    };
    expect(error(['--upstream', 'http://127.0.0.1:4022', '--port', '4022'])).toBe("--upstream http://127.0.0.1:4022 is this proxy's own address (it listens on 127.0.0.1:4022), so it would forward every request to itself; give the real server's URL, or another --port.");
    expect(error(['--upstream', 'http://localhost:4010/api'])).toMatch(/^--upstream http:\/\/localhost:4010\/api is this proxy's own address \(it listens on 127\.0\.0\.1:4010\)/);
    expect(error(['--upstream', 'http://127.0.0.1:5000', '--host', '0.0.0.0'], { PORT: '5000' })).toMatch(/is this proxy's own address/);
    expect(error(['--upstream', 'http://127.0.0.1:4023', '--port', '4022'])).toBeUndefined();
    expect(error(['--upstream', 'http://127.0.0.1:4022', '--port', '0'])).toBeUndefined();
  });
});
