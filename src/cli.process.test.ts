/**
 * The real CLI, started as a child process on a free port, spoken to over HTTP.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, ROOT } from './test-support/petstore.js';
import { runCli, startCli } from './test-support/processes.js';

describe('the CLI over HTTP', () => {
  let server: Awaited<ReturnType<typeof startCli>>;
  const auth = { Authorization: 'Bearer petstore-demo-key' };
  beforeAll(async () => (server = await startCli([])));
  afterAll(() => server?.child.kill('SIGKILL'));

  it('prints a banner with the URL, the demo key and the record counts', () => {
    expect(server.banner).toMatch(/Mock of 19 operations listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(server.banner).toContain('petstore-demo-key');
    expect(server.banner).toContain('records   pets 20, categories 6, orders 20, inventory 20 (seed 1)');
  });

  it('serves a stateful Petstore: create, read, list, delete', async () => {
    const created = await fetch(`${server.url}/pets`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' });
    expect(created.status).toBe(201);
    const location = created.headers.get('Location')!;
    const pet = (await created.json()) as { id: number };
    expect(((await (await fetch(`${server.url}${location}`, { headers: auth })).json()) as { name: string }).name).toBe('Rex');
    const list = await fetch(`${server.url}/pets?id=${pet.id}`, { headers: auth });
    expect(await list.json()).toHaveLength(1);
    expect((await fetch(`${server.url}${location}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    expect((await fetch(`${server.url}${location}`, { headers: auth })).status).toBe(404);
  });

  it('answers 401 without a key', async () => {
    const response = await fetch(`${server.url}/pets`);
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toBe('Bearer realm="Petstore"');
  });

  it('says in its banner which operations of another document are not stateful, and where to read why', async () => {
    const other = await startCli(['--spec', join(ROOT, 'test/documents/notes-api.yaml')]);
    other.child.kill('SIGKILL');
    expect(other.banner).toMatch(/ {2}canned {4}2 of 7 operations answer from examples or generated data, not state \(GET \/notes\/\{noteId\}\/text, GET \/stats\); why: http:\/\/127\.0\.0\.1:\d+\/__admin\/operations/);
    expect(server.banner).not.toMatch(/canned/); // every Petstore operation answers from state
    // Hints as that document asks for credentials, under its base path.
    expect(other.banner).toContain('API key   petstore-demo-key  (send X-API-Key: petstore-demo-key)');
    expect(other.banner).toMatch(/ {2}try {7}curl -H 'X-API-Key: petstore-demo-key' http:\/\/127\.0\.0\.1:\d+\/api\/notes\n/);
  });

  it('gives curl hints that fit the document: an apiKey in the query, or no credentials at all', async () => {
    const keys = await startCli(['--spec', join(ROOT, 'test/documents/keys-api.yaml')]);
    keys.child.kill('SIGKILL');
    expect(keys.banner).toMatch(/ {2}try {7}curl -H 'Authorization: Bearer petstore-demo-key' http:\/\/127\.0\.0\.1:\d+\/status\n/);
    const open = await startCli(['--spec', join(ROOT, 'test/documents/upsert-api.yaml')]);
    open.child.kill('SIGKILL');
    expect(open.banner).toContain('API key   not needed: the document asks for no credentials');
    expect(open.banner).toMatch(/ {2}try {7}curl http:\/\/127\.0\.0\.1:\d+\/items\n/);
  });

  it('serves a Swagger 2.0 document, converted to OpenAPI 3.0 on load, and says so in its banner', async () => {
    const uber = await startCli(['--spec', `${CORPUS}/oai-swagger2-uber.yaml`]);
    try {
      expect(uber.banner).toMatch(/Mock of 5 operations listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(uber.banner).toContain('  converted Swagger 2.0 to OpenAPI 3.0 on load (swagger2openapi)\n');
      // Its basePath became the server's path, its apiKey in the query is asked for.
      const products = await fetch(`${uber.url}/v1/products?latitude=52.5&longitude=13.4&server_token=petstore-demo-key`);
      expect(products.status).toBe(200);
      expect(await products.json()).toBeInstanceOf(Array);
      expect((await fetch(`${uber.url}/v1/products?latitude=52.5&longitude=13.4`)).status).toBe(401);
    } finally {
      uber.child.kill('SIGKILL');
    }
    expect(server.banner).not.toMatch(/converted/);
  });

  it('stops cleanly on SIGTERM with exit code 0', async () => {
    const other = await startCli(['--api-key', 'secret-key']);
    expect(other.banner).not.toContain('secret-key');
    expect((await fetch(`${other.url}/pets`, { headers: { Authorization: 'Bearer secret-key' } })).status).toBe(200);
    const exited = new Promise((resolve) => other.child.on('exit', resolve));
    other.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('the CLI refusing to start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-'));
  const cases: Array<[string, string[], RegExp]> = [
    ['a missing document', ['serve', '--spec', join(dir, 'missing.yaml')], /^Cannot read the OpenAPI document .*missing\.yaml: the file does not exist\.\n$/],
    ['bad YAML', ['serve', '--spec', (writeFileSync(join(dir, 'bad.yaml'), 'a: [1,'), join(dir, 'bad.yaml'))], /bad\.yaml is not valid YAML or JSON: /],
    ['a Swagger 2.0 document that cannot be converted', ['serve', '--spec', (writeFileSync(join(dir, 's2.yaml'), "swagger: '2.0'\ninfo: x\npaths: {}\n"), join(dir, 's2.yaml'))], /s2\.yaml is a Swagger 2\.0 document that cannot be converted to OpenAPI 3\.0: info must be an object\.\n$/],
    ['an invalid document', ['serve', '--spec', (writeFileSync(join(dir, 'inv.yaml'), 'openapi: 3.0.3\ninfo: {}\npaths: {}\n'), join(dir, 'inv.yaml'))], /is not a valid OpenAPI 3\.0\.3 document: /],
    ['a bad fixture', ['serve', '--fixtures', (writeFileSync(join(dir, 'pets.json'), '[{"id":1}]'), dir)], /pets\.json: record 1 \(id 1\) does not match the schema: name: is required\./],
  ];
  for (const [what, args, message] of cases) {
    it(`exits 1 with one clear sentence and no stack trace for ${what}`, async () => {
      const { code, stderr } = await runCli(args);
      expect(code).toBe(1);
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('exits 2 on a bad flag, and 0 with --help listing every flag, each one in the table of docs/mock.md too', async () => {
    expect((await runCli(['serve', '--port', 'x'])).code).toBe(2);
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    const helped = new Set([...help.stdout.matchAll(/^\s+(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]));
    const page = readFileSync(join(ROOT, 'docs/mock.md'), 'utf8');
    const section = page.slice(page.indexOf('\n## Flags'), page.indexOf('\n## ', page.indexOf('\n## Flags') + 5));
    const documented = new Set([...section.matchAll(/^\| `(--[a-z-]+)/gm)].map((m) => m[1]));
    expect(helped.size).toBeGreaterThan(20);
    expect([...helped].filter((flag) => !documented.has(flag) && flag !== '--help' && flag !== '--version')).toEqual([]);
    expect([...documented].filter((flag) => !helped.has(flag))).toEqual([]);
  });
});
