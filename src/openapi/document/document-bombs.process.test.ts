/**
 * Nothing a document holds stalls the built CLI (dist/cli.js): each bomb of issue 37 is refused at
 * start with one sentence naming the bound (exit 1), and each document just under the bounds is
 * served: its copy (`/__spec.yaml`, `/__spec.json`), the docs page and its operation answer, with
 * other requests made at the same time answered too. A hang would show as a request that never
 * completes: each has a generous bound (120 s), never a measure of speed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aliasBomb, documentAnswering, refFanOut } from '../../test-support/document-bombs.js';
import { runCli, startCli } from '../../test-support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'document-bombs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const REFUSED: Array<[string, string, RegExp]> = [
  ['the 576-byte YAML alias bomb (nine anchors of nine)', file('laughs.yaml', aliasBomb(9)), /laughs\.yaml is refused: its YAML aliases expand past the bound of 10,000 alias uses \(each counted with the aliases inside what it names\), at \*[a-i] \(\d+:\d+\)\.\n$/],
  ['the 4.2 KB JSON whose $refs fan out', file('fan.json', refFanOut({ levels: 10 })), /fan\.json is refused: #\/paths\/~1things, with its \$refs replaced by what they name, would hold [\d,]+ values, past the bound of 1,000,000 on what the mock walks at once\.\n$/],
  ['$refs that fan out through schemas that are not named', file('defs.json', refFanOut({ levels: 7, under: 'x-defs', request: true })), /defs\.json is refused: #\/paths\/~1things, with its \$refs replaced/],
  ['a YAML alias inside the node it names', file('itself.yaml', `${aliasBomb(1)}x-z: &z {self: [*z]}\n`), /itself\.yaml is refused: the alias \*z \(13:17\) is inside the node it names, so the document would hold itself\.\n$/],
];

describe('a document bomb given to --spec', () => {
  for (const [what, path, sentence] of REFUSED) {
    it(`is refused at start in one sentence, exit 1: ${what}`, async () => {
      const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--spec', path]);
      expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
      expect(stderr).toMatch(sentence);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    });
  }
});

/** A record collection whose records expand (fan-out of ten, five deep, every property required), listed, created and read. */
function collection(): string {
  const document = JSON.parse(refFanOut({ levels: 5, required: true }));
  document.components.schemas.Thing = { type: 'object', required: ['id', 'data'], properties: { id: { type: 'integer', readOnly: true }, data: { $ref: '#/components/schemas/L0' } } };
  const thing = { $ref: '#/components/schemas/Thing' };
  const content = (schema: unknown) => ({ content: { 'application/json': { schema } } });
  document.paths = {
    '/things': {
      get: { operationId: 'listThings', responses: { '200': { description: 'the things', ...content({ type: 'array', items: thing }) } } },
      post: { operationId: 'sendThings', requestBody: { required: true, ...content(thing) }, responses: { '201': { description: 'made', ...content(thing) } } },
    },
    '/things/{id}': { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], get: { operationId: 'readThing', responses: { '200': { description: 'a thing', ...content(thing) } } } },
  };
  return JSON.stringify(document);
}

/** Arrays of `minItems` arrays, `levels` deep, of strings. */
const arrays = (levels: number, minItems: number): unknown => (levels === 0 ? { type: 'string' } : { type: 'array', minItems, items: arrays(levels - 1, minItems) });

/** What each document is, the file, and what its POST /things answers the body `{"p0":{"p0":5}}` (405: it has no POST; 400: the body is checked). */
const SERVED: Array<[string, string, number]> = [
  ['YAML aliases just under the bound (nine anchors of nine, five deep: 59,049 strings)', file('five.yaml', aliasBomb(5)), 405],
  ['$refs fanning out just under the bound, every property required (six deep: 100,000 strings)', file('under.json', refFanOut({ levels: 6, required: true, request: true })), 400],
  ['$refs to schemas that are not named, every property required', file('under-defs.json', refFanOut({ levels: 6, under: 'x-defs', required: true, request: true })), 400],
  ['arrays of 2,000 arrays of 2,000 arrays of 2,000 strings, no $ref at all', file('arrays.json', JSON.stringify(documentAnswering(arrays(3, 2000), {}, true))), 400],
  ['a collection whose records fan out', file('collection.json', collection()), 400],
];

describe('a document just under the bounds', () => {
  for (const [what, path, post] of SERVED) {
    it(`is served, each request answered while others are: ${what}`, async () => {
      const cli = await startCli(['--spec', path]);
      try {
        const send = async (target: string, init: RequestInit = {}) => {
          const response = await fetch(`${cli.url}${target}`, { ...init, signal: AbortSignal.timeout(120_000) });
          return { target, status: response.status, body: await response.text() };
        };
        const auth = { Authorization: 'Bearer petstore-demo-key' };
        const answers = await Promise.all([
          send('/__spec.yaml'),
          send('/__health'),
          send('/__spec.json'),
          send('/things', { headers: auth }),
          send('/__docs'),
          send('/things', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"p0":{"p0":5}}' }),
          send('/__health'),
        ]);
        for (const answer of answers) expect(answer.status, answer.target).toBeLessThan(500);
        const [yaml, health, json, things, docs] = answers;
        expect([yaml.status, health.status, json.status, things.status, docs.status]).toEqual([200, 200, 200, 200, 200]);
        expect(JSON.parse(json.body)).toMatchObject({ openapi: '3.0.3', paths: { '/things': {} } });
        expect(yaml.body).toMatch(/^openapi: 3\.0\.3$/m);
        expect(() => JSON.parse(things.body)).not.toThrow();
        expect(answers[5].status).toBe(post); // a body is checked against the schema that expands
      } finally {
        cli.child.kill('SIGKILL');
      }
    });
  }
});
