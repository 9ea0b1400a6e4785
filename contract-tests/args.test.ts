import { describe, expect, it } from 'vitest';
import { parseContractArgs } from './args.js';
import { toJUnit } from './report/junit.js';

describe('parseContractArgs', () => {
  it('reads every flag, with lists given repeated or comma-separated', () => {
    expect(parseContractArgs(['--base-url', 'http://h:1', '--token', 't', '--junit', 'j.xml', '--coverage', 'c.json', '--only', 'auth_enforced,error_shape', '--only', 'use_after_delete', '--operation', 'listPets', '--read-only', '--seed', '7'], {})).toEqual({
      command: 'run', baseUrl: 'http://h:1', token: 't', spec: undefined, junit: 'j.xml', coverage: 'c.json', only: ['auth_enforced', 'error_shape', 'use_after_delete'], operations: ['listPets'], readOnly: true, seed: 7,
    });
  });

  it('takes the token from CONTRACT_TOKEN and writes coverage to contract-coverage.json by default', () => {
    expect(parseContractArgs(['--base-url', 'https://x.example'], { CONTRACT_TOKEN: 'env' })).toMatchObject({ token: 'env', coverage: 'contract-coverage.json', readOnly: false });
  });

  it('explains what is wrong', () => {
    expect(parseContractArgs([], {})).toEqual({ command: 'error', message: '--base-url must be an http(s) URL, e.g. --base-url http://127.0.0.1:4010.' });
    expect(parseContractArgs(['--base-url', 'ftp://x'], {})).toMatchObject({ command: 'error' });
    expect(parseContractArgs(['--base-url', 'http://x', '--only', 'magic'], {})).toMatchObject({ message: expect.stringMatching(/^Unknown check magic; the checks are: not_a_server_error, /) });
    expect(parseContractArgs(['--base-url', 'http://x', '--seed', 'x'], {})).toMatchObject({ command: 'error' });
    expect(parseContractArgs(['--help'], {})).toEqual({ command: 'help' });
  });
});

describe('toJUnit', () => {
  it('escapes what it quotes and counts failing operations per check', () => {
    const xml = toJUnit({
      requests: 2,
      durationMs: 1500,
      checks: ['error_shape'],
      coverage: [{ operationId: 'listPets', operation: 'GET /pets', status: '200', exercised: true }],
      failures: [{ check: 'error_shape', operation: 'GET /pets', operationId: 'listPets', received: '400 with code = "<x>"', documented: 'an Error & more', request: 'GET /pets?a=1&b=2', label: "it's" }],
    });
    expect(xml).toContain('<testsuites name="contract" tests="1" failures="1" time="1.500">');
    expect(xml).toContain('<failure message="GET /pets: received 400 with code = &quot;&lt;x&gt;&quot;, documented an Error &amp; more" type="error_shape">case: it&apos;s\nrequest: GET /pets?a=1&amp;b=2</failure>');
  });
});
