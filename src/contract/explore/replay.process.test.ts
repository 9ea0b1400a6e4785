/**
 * The built CLI (dist/cli.js: `npm run build` first): every run prints its seed, a random one when
 * none is given; `--seed N` is the run's seed; `--replay FILE` exits 1 while the server still
 * fails, 0 once it is fixed, 2 for a file that is not a cassette. In-process: replay.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/serve.js';
import { petstore } from '../../test-support/petstore.js';
import { runCli, startCli } from '../../test-support/processes.js';
import { writeCassette } from './cassette.js';
import type { Cassette } from './sequence.js';

const TOKEN = 'petstore-demo-key';
const stop: Array<() => unknown> = [];
afterAll(async () => {
  for (const s of stop.reverse()) await s();
});

const contract = async (args: string[]) => {
  const { code, stdout: out, stderr: err } = await runCli(['contract', ...args], { cwd: mkdtempSync(join(tmpdir(), 'replay-')) });
  return { code, out, err };
};

const cassette: Cassette = {
  version: 1,
  document: { title: 'Petstore', version: '1.0.0' },
  seed: 77,
  failures: [
    {
      kind: 'input',
      check: 'not_a_server_error',
      operationId: 'getPet',
      received: '500 for read the pet just created',
      documented: 'no 5xx for a valid request',
      steps: [
        { operationId: 'createCategory', label: 'create a categories record', body: { name: 'Toys' } },
        { operationId: 'createPet', label: 'create a pets record', body: { name: 'Rex', categoryId: { $fromStep: 0 } } },
        { operationId: 'getPet', label: 'read the pet just created', params: { petId: { $fromStep: 1 } } },
      ],
      repro: [],
      seed: 77,
      tried: 5,
      shrinks: 2,
    },
  ],
};

describe('the seed of a CLI run', () => {
  it('is printed in the header and the verdict: the one given, or one picked at random', async () => {
    const cli = await startCli([]);
    stop.push(() => cli.child.kill('SIGKILL'));
    const given = await contract(['--base-url', cli.url, '--token', TOKEN, '--seed', '31337', '--only', 'not_a_server_error']);
    expect(given.code, given.out + given.err).toBe(0);
    expect(given.out).toMatch(/^Checking .* seed 31337\n/);
    expect(given.out).toContain('--seed 31337');
    expect(given.out).toMatch(/PASS: .*; seed 31337; /);
    const seeds = await Promise.all([1, 2].map(async () => (await contract(['--base-url', cli.url, '--token', TOKEN, '--only', 'not_a_server_error'])).out.match(/; seed (\d+); /)?.[1]));
    expect(seeds.every((s) => s !== undefined)).toBe(true);
    // Two draws from 2^31 alike would be one in two billion.
    expect(seeds[0]).not.toBe(seeds[1]);
  });
});

describe('contract --replay FILE', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'cassette-')), 'found.json');
  writeFileSync(file, writeCassette(cassette));

  it('exits 1 while the server still fails, naming the failure and the requests sent', async () => {
    const mock = await petstore();
    const created = new Set<string>();
    const upstream = await startServer(
      {
        fetch: async (request: Request) => {
          const { pathname } = new URL(request.url);
          const id = /^\/pets\/([^/]+)$/.exec(pathname)?.[1];
          if (request.method === 'GET' && id && created.has(id)) return Response.json({ code: 'internal', message: 'broken read' }, { status: 500 });
          const response = await mock.app.fetch(request);
          if (request.method === 'POST' && pathname === '/pets' && response.status === 201) created.add(String(((await response.clone().json()) as { id: unknown }).id));
          return response;
        },
      },
      { port: 0, host: '127.0.0.1' },
    );
    stop.push(() => upstream.close());
    const result = await contract(['--base-url', upstream.url, '--token', TOKEN, '--replay', file]);
    expect(result.code, result.out + result.err).toBe(1);
    expect(result.out).toContain('✗ still failing: [not_a_server_error] getPet: received 500 for read the pet just created; documented no 5xx for a valid request');
    expect(result.out).toMatch(/\n {6}3\. curl -sS -i -X GET '[^']+\/pets\/\d+' -H "Authorization: Bearer \$TOKEN"/);
    expect(result.out).toContain('FAIL: 1 still failing, 0 fixed, 0 not judged');
  });

  it('exits 0 against the mock, where it is fixed', async () => {
    const cli = await startCli([]);
    stop.push(() => cli.child.kill('SIGKILL'));
    const result = await contract(['--base-url', cli.url, '--token', TOKEN, '--replay', file]);
    expect(result.code, result.out + result.err).toBe(0);
    expect(result.out).toContain('FIXED: 0 still failing, 1 fixed, 0 not judged');
  });

  it('exits 2 with one sentence for a file that is not a cassette, sending nothing', async () => {
    const other = join(mkdtempSync(join(tmpdir(), 'cassette-')), 'junit.xml');
    writeFileSync(other, '<testsuites/>');
    const result = await contract(['--base-url', 'http://127.0.0.1:9', '--token', TOKEN, '--replay', other]);
    expect(result.code).toBe(2);
    expect(result.err).toBe(`${other} is not a cassette: it is not JSON.\n`);
    expect(result.out).toBe('');
  });
});
