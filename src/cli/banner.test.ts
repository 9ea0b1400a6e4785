/**
 * The start banner fits the document it serves: the key as the document asks for it (or none),
 * its base path, and a `try` line that the mock answers without an error, whatever operations the
 * document has. Built in-process; the CLI prints the same.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { largeDocument } from '../../bench/large-document.js';
import { buildMock } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { DEFAULT_PLUGINS } from '../plugins/index.js';
import { CORPUS, FIXTURES, ROOT, SPEC } from '../test-support/petstore.js';
import { NAMED_COLLECTIONS, recordsText, startBanner, tryCommand, type BannerInput } from './banner.js';
import { formatBanner } from './log.js';

const URL_ = 'http://127.0.0.1:4010';
const ARGS: BannerInput['args'] = { host: '127.0.0.1', watch: false };

async function bannerFor(file: string, args: BannerInput['args'] = ARGS) {
  const document = await loadDocument(file);
  const mock = buildMock(document, { fixtures: file === SPEC ? FIXTURES : undefined, plugins: DEFAULT_PLUGINS });
  const input: BannerInput = { url: URL_, mock, document, shown: file.replace(ROOT, ''), args, restored: false, allowedHosts: ['127.0.0.1'] };
  return { mock, input, text: formatBanner(startBanner(input), 0, { level: 'info', format: 'text' })! };
}

/** Sends the request a `try` line shows to the mock, in-process: its status. */
async function tryIt(mock: ReturnType<typeof buildMock>, command: string): Promise<number> {
  const words = [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replaceAll(`'\\''`, "'") : m[2]));
  expect(words[0]).toBe('curl');
  const headers: Record<string, string> = {};
  let method = 'GET';
  let body: string | undefined;
  let url = '';
  for (let i = 1; i < words.length; i++) {
    if (words[i] === '-X') method = words[++i];
    else if (words[i] === '-H') {
      const [name, ...value] = words[++i].split(':');
      headers[name] = value.join(':').trim();
    } else if (words[i] === '-d') body = words[++i];
    else url = words[i];
  }
  expect(url.startsWith(URL_), command).toBe(true);
  const response = await mock.app.request(url, { method, headers, body });
  return response.status;
}

describe('the banner', () => {
  it('for the bundled Petstore: the document and where it is served, the key, records, admin and health, a list to try', async () => {
    const { text } = await bannerFor(SPEC);
    expect(text).toBe(
      [
        'Mock of 19 operations listening on http://127.0.0.1:4010',
        '  document  spec/openapi.yaml (served at http://127.0.0.1:4010/__spec)',
        '  docs      http://127.0.0.1:4010/__docs (interactive reference; try it out against this mock)',
        '  API key   petstore-demo-key  (send Authorization: Bearer petstore-demo-key)',
        '  records   pets 20, categories 6, orders 20, inventory 20 (seed 1)',
        '  admin     http://127.0.0.1:4010/__admin (loopback only); health at /__health',
        "  try       curl -H 'Authorization: Bearer petstore-demo-key' http://127.0.0.1:4010/pets",
        '',
      ].join('\n'),
    );
  });

  it('names at most six collections in the records line and counts the rest (a large document has hundreds); the JSON banner has them all', async () => {
    // 12 resources, one collection each, 20 records each (the default count).
    const document = await loadDocument(largeDocument({ operations: 60, chain: 5 }));
    const mock = buildMock(document, { plugins: DEFAULT_PLUGINS });
    const counts = mock.store.counts();
    expect(Object.keys(counts)).toHaveLength(12);
    const input: BannerInput = { url: URL_, mock, document, shown: 'large.json', args: ARGS, restored: false, allowedHosts: ['127.0.0.1'] };
    const records = formatBanner(startBanner(input), 0, { level: 'info', format: 'text' })!
      .split('\n')
      .find((line) => line.startsWith('  records'));
    const named = Object.keys(counts).slice(0, NAMED_COLLECTIONS);
    expect(records).toBe(`  records   ${named.map((name) => `${name} 20`).join(', ')} and 6 more collections, 20 records each (seed 1)`);
    expect(JSON.parse(formatBanner(startBanner(input), 0, { level: 'info', format: 'json' })!).records).toEqual(counts);
  });

  it('counts the records of the collections it does not name: all of them, or each when they hold the same', () => {
    const counts = (...ns: number[]) => Object.fromEntries(ns.map((n, i) => [`c${i}`, n]));
    expect(recordsText(counts(1, 2, 3, 4, 5, 6))).toBe('c0 1, c1 2, c2 3, c3 4, c4 5, c5 6');
    expect(recordsText(counts(1, 2, 3, 4, 5, 6, 7))).toBe('c0 1, c1 2, c2 3, c3 4, c4 5, c5 6 and 1 more collection, 7 records');
    expect(recordsText(counts(0, 0, 0, 0, 0, 0, 1, 1))).toBe('c0 0, c1 0, c2 0, c3 0, c4 0, c5 0 and 2 more collections, 1 record each');
    expect(recordsText(counts(0, 0, 0, 0, 0, 0, 1000, 2000, 0))).toBe('c0 0, c1 0, c2 0, c3 0, c4 0, c5 0 and 3 more collections, 3,000 records');
    expect(recordsText(counts(...Array<number>(400).fill(20)))).toBe('c0 20, c1 20, c2 20, c3 20, c4 20, c5 20 and 394 more collections, 20 records each');
    expect(recordsText({})).toBe('');
  });

  it('for a document with no security and a base path: no key, the base path in the try line', async () => {
    const { text } = await bannerFor(`${CORPUS}/oai-petstore.yaml`);
    expect(text).toContain('  API key   not needed: the document asks for no credentials\n');
    expect(text).toContain('  try       curl http://127.0.0.1:4010/v1/pets\n');
  });

  it('tells a front end where to get an OAuth token, in place of the identity provider the document names', async () => {
    const { text } = await bannerFor(`${ROOT}test/documents/oauth-api.yaml`);
    expect(text).toContain(
      "  oauth     token http://127.0.0.1:4010/__oauth/token, authorize /__oauth/authorize in place of the document's https://login.example.com/oauth2/authorize, https://login.example.com/oauth2/token; tokens last 3600 s\n",
    );
    expect(text).not.toContain('openid');
    const oidc = await bannerFor(`${ROOT}test/documents/oidc-api.yaml`);
    expect(oidc.text).toContain("  openid    http://127.0.0.1:4010/__oauth/.well-known/openid-configuration in place of the document's https://login.example.com/.well-known/openid-configuration\n");
    // The Petstore has no oauth2 scheme: no such line.
    expect((await bannerFor(SPEC)).text).not.toContain('oauth');
  });

  it('names the document’s own token and authorization URLs on the API’s origin, which the mock answers at too', async () => {
    const raw = parse(readFileSync(`${ROOT}test/documents/oauth-api.yaml`, 'utf8'));
    const { authorizationCode } = raw.components.securitySchemes.boardsAuth.flows;
    Object.assign(authorizationCode, { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', refreshUrl: '/oauth/token' });
    const document = await loadDocument(raw);
    const mock = buildMock(document);
    const input: BannerInput = { url: URL_, mock, document, shown: 'boards.yaml', args: ARGS, restored: false, allowedHosts: ['127.0.0.1'] };
    expect(formatBanner(startBanner(input), 0, { level: 'info', format: 'text' })).toContain(
      "  oauth     token http://127.0.0.1:4010/__oauth/token, authorize /__oauth/authorize (also at the document's /oauth/authorize, /oauth/token) in place of the document's https://login.example.com/oauth2/token; tokens last 3600 s\n",
    );
  });

  it('has no docs line with --no-docs', async () => {
    const { text } = await bannerFor(SPEC, { ...ARGS, noDocs: true });
    expect(text).not.toContain('docs');
  });

  it('says "1 operation", and the admin line follows --no-admin and a token', async () => {
    const { text } = await bannerFor(`${CORPUS}/apisguru-dvla-vehicle-enquiry.yaml`, { ...ARGS, noAdmin: true });
    expect(text).toMatch(/^Mock of 1 operation listening on/);
    expect(text).toContain('  admin     off (--no-admin); health at /__health\n');
    expect((await bannerFor(SPEC, { ...ARGS, adminToken: 't' })).text).toContain('/__admin (token required)');
  });

  const documents = [
    'spec/openapi.yaml',
    'test/corpus/oai-petstore.yaml',
    'test/corpus/oai-petstore-expanded.yaml',
    'test/corpus/oai-swagger2-uber.yaml', // a list with required query parameters and a key in the query
    'test/corpus/oai-callback-example.yaml', // no GET: a POST with a required query parameter
    'test/corpus/apisguru-dvla-vehicle-enquiry.yaml', // no GET: a POST with a body, under a base path
    'test/corpus/oai-link-example.yaml', // only GETs with path parameters
    'test/corpus/apisguru-twilio-bulkexports.yaml', // basic auth, lists under /v1
    'test/corpus/readme-polymorphism.yaml',
    'test/corpus/readme-discriminators.yaml',
    'test/corpus/readme31-schema-types.yaml',
    'test/corpus/oai-uspto.yaml',
    'test/documents/library-api.yaml',
    'test/documents/swagger2-notes.yaml',
    'test/documents/notes-api.yaml',
  ];
  for (const file of documents) {
    it(`for ${file}: the try line is answered without an error`, async () => {
      const { mock, input } = await bannerFor(`${ROOT}${file}`);
      const command = tryCommand(input);
      const status = await tryIt(mock, command);
      expect(status, command).toBeLessThan(400);
    });
  }

  it('for a document with no operation (webhooks only): the document itself to try', async () => {
    const { input, mock } = await bannerFor(`${CORPUS}/oai31-webhook-example.yaml`);
    expect(mock.operations).toHaveLength(0);
    expect(tryCommand(input)).toBe('curl http://127.0.0.1:4010/__spec');
  });

  it('shows the placeholder, never a key given with --api-key', async () => {
    const { text } = await bannerFor(SPEC, { ...ARGS, apiKeys: ['secret-key'] });
    expect(text).not.toContain('secret-key');
    expect(text).toContain("  API key   1 key(s) from --api-key (not shown)\n");
    expect(text).toContain("try       curl -H 'Authorization: Bearer <API_KEY>' http://127.0.0.1:4010/pets");
  });

  it('is one JSON object with the same facts in the JSON format', async () => {
    const { input } = await bannerFor(SPEC);
    const banner = JSON.parse(formatBanner(startBanner(input), 0, { level: 'info', format: 'json' })!);
    expect(banner).toMatchObject({
      level: 'info',
      msg: 'listening',
      url: URL_,
      operations: 19,
      document: 'spec/openapi.yaml',
      spec: `${URL_}/__spec`,
      docs: `${URL_}/__docs`,
      records: { pets: 20, categories: 6, orders: 20, inventory: 20 },
      seed: 1,
      admin: `${URL_}/__admin`,
      health: `${URL_}/__health`,
      try: `curl -H 'Authorization: Bearer petstore-demo-key' ${URL_}/pets`,
    });
  });
});
