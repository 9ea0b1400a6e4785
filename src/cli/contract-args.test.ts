import { describe, expect, it } from 'vitest';
import { CONTRACT_FLAGS, CONTRACT_USAGE, parseContractArgs } from './contract-args.js';
import type { CheckId } from '../contract/check-id.js';
import { toJUnit } from '../contract/report/junit.js';

describe('parseContractArgs', () => {
  it('reads every flag, with lists given repeated or comma-separated', () => {
    const argv = ['--base-url', 'http://h:1', '--token', 't', '--junit', 'j.xml', '--coverage', 'c.json', '--only', 'auth_enforced,error_shape', '--only', 'use_after_delete', '--operation', 'listPets', '--read-only', '--seed', '7'];
    const more = ['-H', 'X-Tenant: blue', '--header', 'X-Trace:1', '--request-timeout', '2.5', '--timeout', '60', '--max-response-bytes', '1000', '--no-harm-check', '--allow-write', 'updateAll,deleteAll'];
    expect(parseContractArgs([...argv, ...more], {})).toEqual({
      command: 'run', baseUrl: 'http://h:1', token: 't', spec: undefined, junit: 'j.xml', coverage: 'c.json', only: ['auth_enforced', 'error_shape', 'use_after_delete'], operations: ['listPets'], plugins: undefined, strict: false, readOnly: true, allowRemoteRefs: false, dryRun: false, seed: 7,
      headers: { 'X-Tenant': 'blue', 'X-Trace': '1' }, requestTimeoutMs: 2500, timeoutMs: 60_000, maxResponseBytes: 1000, harmCheck: false, allowLeftovers: false, allowWrites: ['updateAll', 'deleteAll'],
      explore: true, budgetRequests: undefined, budgetMs: undefined, exploreLanes: undefined, cassette: undefined, replay: undefined,
    });
  });

  it('reads the exploration flags: the budget, --no-explore, the cassette and --replay', () => {
    const url = ['--base-url', 'http://x'];
    expect(parseContractArgs([...url, '--budget-requests', '500', '--budget-seconds', '12.5', '--cassette', 'found.json'], {})).toMatchObject({ explore: true, budgetRequests: 500, budgetMs: 12_500, cassette: 'found.json', seed: undefined });
    expect(parseContractArgs([...url, '--no-explore'], {})).toMatchObject({ explore: false });
    expect(parseContractArgs([...url, '--explore-lanes', '1'], {})).toMatchObject({ exploreLanes: 1 });
    expect(parseContractArgs([...url, '--replay', 'found.json'], {})).toMatchObject({ replay: 'found.json' });
    const error = (argv: string[]) => (parseContractArgs([...url, ...argv], {}) as { message?: string }).message;
    expect(error(['--budget-requests', '0'])).toBe('--budget-requests must be a positive integer, not "0".');
    expect(error(['--budget-seconds', 'lots'])).toBe('--budget-seconds must be a number of seconds above 0 (at most 86400), not "lots".');
    expect(error(['--replay', 'a.json', '--cassette', 'b.json'])).toBe('--replay sends a cassette again and explores nothing: it takes no --cassette. (see petstore-mock-kit contract --help)');
    for (const lanes of ['0', '17', 'two']) expect(error(['--explore-lanes', lanes])).toBe(`--explore-lanes must be an integer from 1 to 16, not "${lanes}".`);
    expect(error(['--no-explore', '--explore-lanes', '2'])).toBe('--no-explore turns exploration off: it takes no --explore-lanes. (see petstore-mock-kit contract --help)');
    expect(error(['--no-explore', '--budget-requests', '9'])).toBe('--no-explore turns exploration off: it takes no --budget-requests. (see petstore-mock-kit contract --help)');
  });

  it('takes the token from CONTRACT_TOKEN, and writes coverage only when asked', () => {
    expect(parseContractArgs(['--base-url', 'https://x.example'], { CONTRACT_TOKEN: 'env' })).toMatchObject({ token: 'env', coverage: undefined, readOnly: false });
  });

  it('explains what is wrong in one line naming the flag and what it accepts', () => {
    const error = (argv: string[]) => {
      const parsed = parseContractArgs(argv, {});
      if (parsed.command !== 'error') throw new Error(`not refused: ${argv.join(' ')}`);
      expect(parsed.message).not.toMatch(/[\n\r]/);
      return parsed.message;
    };
    const url = ['--base-url', 'http://x'];
    expect(error([])).toBe('--base-url is required: an http(s) URL like http://127.0.0.1:4010. (see petstore-mock-kit contract --help)');
    expect(error(['--base-url', 'ftp://x'])).toBe('--base-url must be an http(s) URL like http://127.0.0.1:4010, not "ftp://x".');
    expect(error([...url, '--seed', 'x'])).toBe('--seed must be a non-negative integer, not "x".');
    expect(error([...url, '-H', 'no colon'])).toBe('--header must be "Name: value", not "no colon".');
    expect(error([...url, '--timeout', '0'])).toBe('--timeout must be a number of seconds above 0 (at most 86400), not "0".');
    expect(error([...url, '--request-timeout', 'soon'])).toBe('--request-timeout must be a number of seconds above 0 (at most 86400), not "soon".');
    expect(error([...url, '--max-response-bytes', '-1'])).toBe('--max-response-bytes must be a positive integer, not "-1".');
    expect(error([...url, '--spec', 'ftp://x/openapi.yaml'])).toBe('--spec must be a file or an http(s) URL, not "ftp://x/openapi.yaml".');
    // How the flags are written.
    expect(error(['--base-ur', 'http://x'])).toBe('Unknown flag --base-ur; did you mean --base-url? (see petstore-mock-kit contract --help)');
    expect(error([...url, '--dryrun'])).toBe('Unknown flag --dryrun; did you mean --dry-run? (see petstore-mock-kit contract --help)');
    expect(error([...url, '--prot', '3'])).toBe('Unknown flag --prot. (see petstore-mock-kit contract --help)');
    expect(error(['--base-url'])).toBe('--base-url needs a value: an http(s) URL like http://127.0.0.1:4010. (see petstore-mock-kit contract --help)');
    expect(error(['--base-url', '--read-only'])).toBe('--base-url needs a value: an http(s) URL like http://127.0.0.1:4010. (see petstore-mock-kit contract --help)');
    expect(error([...url, '--spec'])).toBe('--spec needs a value: a file or an http(s) URL. (see petstore-mock-kit contract --help)');
    expect(error([...url, '--token', '-secret'])).toBe('--token needs a value: an API key (one beginning with "-" is written --token=TOKEN). (see petstore-mock-kit contract --help)');
    expect(error([...url, '--dry-run=yes'])).toBe('--dry-run takes no value. (see petstore-mock-kit contract --help)');
    expect(error([...url, '--token', 'a', '--token', 'b'])).toBe('--token was given twice ("a", then "b"); it takes one value. (see petstore-mock-kit contract --help)');
    expect(error([...url, 'http://y'])).toBe('Unexpected argument "http://y": contract takes only flags. (see petstore-mock-kit contract --help)');
  });

  it('reads the rest, and --help before any check of values', () => {
    expect(parseContractArgs(['--base-url', 'http://x', '--plugin', 'petstore,none', '--strict'], {})).toMatchObject({ plugins: ['petstore', 'none'], strict: true });
    expect(parseContractArgs(['--base-url', 'http://x'], {})).toMatchObject({ headers: {}, requestTimeoutMs: 10_000, timeoutMs: undefined, maxResponseBytes: 10_485_760 });
    expect(parseContractArgs(['--base-url', 'http://x', '--spec', 'https://api.example/openapi.yaml', '--dry-run', '--token=-t'], {})).toMatchObject({ spec: 'https://api.example/openapi.yaml', dryRun: true, token: '-t' });
    expect(parseContractArgs(['--help'], {})).toEqual({ command: 'help' });
    expect(parseContractArgs(['-h', '--seed', 'x'], {})).toEqual({ command: 'help' });
  });

  it('lists every flag of the table in its help, with its placeholder', () => {
    const listed = new Set([...CONTRACT_USAGE.matchAll(/^ {2}(?:-\w, )?--([a-z-]+)(?: ('[^']+'|\S+))?/gm)].map((m) => `${m[1]} ${m[2] ?? ''}`.trim()));
    const table = Object.entries(CONTRACT_FLAGS).map(([name, spec]) => `${name} ${'value' in spec ? spec.value : ''}`.trim());
    expect([...listed].filter((flag) => !table.includes(flag))).toEqual([]);
    expect(table.filter((flag) => !listed.has(flag))).toEqual([]);
    expect(CONTRACT_USAGE).toContain('--spec FILE|URL');
  });
});

describe('toJUnit', () => {
  const finding = { check: 'error_shape' as const, kind: 'failure' as const, operation: 'GET /pets', operationId: 'listPets', received: '400 with code = "<x>"', documented: 'an Error & more', request: 'GET /pets?a=1&b=2', label: "it's", repro: "curl -sS -i -X GET 'http://h/pets?a=1&b=2'" };
  const outcome = (check: CheckId, operationId: string, counts: Partial<{ passed: number; failed: number; gaps: number; skipped: string[]; ms: number }>) => ({ check, operationId, operation: operationId === 'listPets' ? 'GET /pets' : 'POST /pets', passed: 0, failed: 0, gaps: 0, skipped: [], ms: 0, ...counts });
  const report = (strict: boolean) =>
    toJUnit({
      requests: 2,
      seed: 5,
      durationMs: 1500,
      checks: ['error_shape', 'auth_enforced'],
      plugins: [],
      strict,
      conforms: false,
      coverage: [],
      leftBehind: [],
      flaky: [],
      causes: { failures: [], gaps: [], flaky: [] },
      confirmed: { valid: 2, invalid: 0, unconfirmed: 0, unjudged: 0 },
      unconfirmed: [],
      notSent: [],
      unmapped: [],
      unenforcedPatterns: [],
      failures: [finding],
      gaps: [{ ...finding, check: 'auth_enforced', kind: 'gap', operationId: 'createPet', operation: 'POST /pets', received: '401', documented: 'one of 201, 400' }],
      outcomes: [
        outcome('error_shape', 'listPets', { passed: 3, failed: 1, ms: 120 }),
        outcome('error_shape', 'createPet', { passed: 2, ms: 35 }),
        outcome('auth_enforced', 'listPets', { skipped: ['the operation declares no security'] }),
        outcome('auth_enforced', 'createPet', { passed: 1, gaps: 1, ms: 7 }),
      ],
    });

  it('escapes what it quotes, gives each failure its case and repro, and counts per suite', () => {
    const xml = report(false);
    expect(xml).toContain('<testsuites name="contract" tests="5" failures="1" skipped="2" time="1.500">');
    expect(xml).toContain('<testsuite name="error_shape" tests="2" failures="1" skipped="0" time="0.155">');
    expect(xml).toContain('<failure message="GET /pets: received 400 with code = &quot;&lt;x&gt;&quot;, documented an Error &amp; more" type="error_shape">GET /pets: received 400 with code = &quot;&lt;x&gt;&quot;, documented an Error &amp; more\ncase: it&apos;s\nrequest: GET /pets?a=1&amp;b=2\nrepro: curl -sS -i -X GET &apos;http://h/pets?a=1&amp;b=2&apos;</failure>');
    expect(xml).toContain('<testcase classname="error_shape" name="POST /pets (createPet)" time="0.035"/>');
    expect(xml).toContain('<testcase classname="error_shape" name="GET /pets (listPets)" time="0.120">');
  });

  it('marks what did not run as skipped with its reason, and gaps as cases of their own (failures with --strict)', () => {
    const xml = report(false);
    expect(xml).toContain('<testcase classname="auth_enforced" name="GET /pets (listPets)" time="0.000">\n      <skipped message="the operation declares no security"/>');
    expect(xml).toContain('<testcase classname="auth_enforced" name="POST /pets (createPet): document gap" time="0.007">\n      <skipped message="document gap: POST /pets: received 401, documented one of 201, 400"/>');
    expect(report(true)).toContain('<failure message="document gap: POST /pets: received 401, documented one of 201, 400" type="document_gap">');
    expect(report(true)).toContain('<testsuites name="contract" tests="5" failures="2" skipped="1"');
  });
});
