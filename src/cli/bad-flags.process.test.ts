/**
 * The built CLI (dist/cli.js) given bad flags: exit code 2, one line on stderr, nothing on stdout,
 * for both subcommands; each command's help; and --spec given as an http(s) URL to both.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../test-support/petstore.js';
import { runCli, startCli } from '../test-support/processes.js';

const BAD: Array<[string[], string]> = [
  [['--prot', '3'], 'Unknown flag --prot; did you mean --port? (see petstore-mock-kit serve --help)'],
  [['serve', '--port'], '--port needs a value: an integer from 0 to 65535. (see petstore-mock-kit serve --help)'],
  [['serve', '--watch=yes'], '--watch takes no value. (see petstore-mock-kit serve --help)'],
  [['--port', '1', '--port', '2'], '--port was given twice ("1", then "2"); it takes one value. (see petstore-mock-kit serve --help)'],
  [['--log-level', 'verbose'], '--log-level must be silent, error, info or debug, not "verbose".'],
  [['contrac', '--base-url', 'http://127.0.0.1:1'], 'Unknown command "contrac"; did you mean contract? The commands are serve (the default), contract, proxy and help. (see petstore-mock-kit --help)'],
  [['contract', '--base-ur', 'http://127.0.0.1:1'], 'Unknown flag --base-ur; did you mean --base-url? (see petstore-mock-kit contract --help)'],
  [['contract', '--base-url'], '--base-url needs a value: an http(s) URL like http://127.0.0.1:4010. (see petstore-mock-kit contract --help)'],
  [['contract', '--base-url', 'http://127.0.0.1:1', '--dry-run=yes'], '--dry-run takes no value. (see petstore-mock-kit contract --help)'],
  [['contract', '--base-url', 'http://127.0.0.1:1', 'extra'], 'Unexpected argument "extra": contract takes only flags. (see petstore-mock-kit contract --help)'],
  [['contract', '--base-url', 'http://127.0.0.1:1', '--timeout', 'soon'], '--timeout must be a number of seconds above 0 (at most 86400), not "soon".'],
];

describe('bad flags (dist/cli.js)', () => {
  for (const [args, message] of BAD) {
    it(`exits 2 with one line for: ${args.join(' ')}`, async () => {
      const { code, stdout, stderr } = await runCli(args);
      expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `${message}\n` });
    });
  }
});

describe('help and version (dist/cli.js)', () => {
  it("prints serve's help for --help, serve --help, help and help serve, and contract's for contract --help and help contract", async () => {
    const serve = await runCli(['--help']);
    expect(serve).toMatchObject({ code: 0, stderr: '' });
    expect(serve.stdout).toMatch(/^Usage: petstore-mock-kit serve \[options\]\n {7}petstore-mock-kit contract /);
    for (const args of [['serve', '--help'], ['help'], ['help', 'serve'], ['-h']]) expect(await runCli(args), args.join(' ')).toEqual(serve);
    const contract = await runCli(['contract', '--help']);
    expect(contract).toMatchObject({ code: 0, stderr: '' });
    expect(contract.stdout).toMatch(/^Usage: petstore-mock-kit contract --base-url URL/);
    expect(contract.stdout).toContain('--spec FILE|URL');
    expect(await runCli(['help', 'contract'])).toEqual(contract);
  });

  it('prints the version for -v and --version', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    for (const flag of ['-v', '--version']) expect(await runCli([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('--spec as an http(s) URL (dist/cli.js)', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const document = readFileSync(join(ROOT, 'spec/openapi.yaml'));
    server = createServer((request, response) => {
      if (request.url !== '/openapi.yaml') return void response.writeHead(404).end();
      response.writeHead(200, { 'Content-Type': 'application/yaml' }).end(document);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/openapi.yaml`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('contract --dry-run reads the document from the URL', async () => {
    const { code, stdout, stderr } = await runCli(['contract', '--dry-run', '--base-url', 'http://127.0.0.1:9', '--spec', url]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^GET {4}\/pets/m);
    expect(stdout).toMatch(/\n\d+ requests would be sent to http:\/\/127\.0\.0\.1:9 /);
  });

  it('serve serves the document from the URL', async () => {
    const cli = await startCli(['--spec', url]);
    try {
      expect(cli.banner).toMatch(/Mock of 19 operations listening on/);
      expect((await fetch(`${cli.url}/pets?limit=1`, { headers: { Authorization: 'Bearer petstore-demo-key' } })).status).toBe(200);
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  it('says so, in one line with exit code 2, when nothing answers at the URL', async () => {
    const { code, stdout, stderr } = await runCli(['contract', '--dry-run', '--base-url', 'http://127.0.0.1:9', '--spec', url.replace('openapi.yaml', 'missing.yaml')]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toMatch(/^Cannot fetch the OpenAPI document http:\/\/127\.0\.0\.1:\d+\/missing\.yaml: it answered 404\.\n$/);
  });
});
