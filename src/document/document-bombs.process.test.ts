/**
 * The built CLI (dist/cli.js) given a document that is small as written and huge expanded (issue
 * 37): a YAML alias bomb and a JSON fan-out of `$ref`s. Before the bounds, the first never started
 * and the second stalled the server on its first GET. Now each start stops in one sentence naming
 * the bound (exit 1), and a document just under the bounds is served.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aliasBomb, refFanOut } from '../test-support/document-bombs.js';
import { runCli, startCli } from '../test-support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'bombs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('documents past the bounds, given to the CLI', () => {
  for (const [name, text, bound] of [
    ['alias-bomb.yaml', aliasBomb(9, 9), /alias/i],
    ['fan-out.json', refFanOut({ levels: 10, fan: 10 }), /past the bound of 1,000,000/],
  ] as const) {
    it(`${name} (${text.length} bytes) stops the start in one sentence naming the bound, exit 1`, async () => {
      const { code, stdout, stderr } = await runCli(['--spec', file(name, text), '--port', '0']);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(bound);
    });
  }

  it('a fan-out just under the bounds is served: the document, an answer, and the health meanwhile', async () => {
    const cli = await startCli(['--spec', file('under.json', refFanOut({ levels: 5, fan: 10 }))]);
    const answers = await Promise.all([fetch(`${cli.url}/things`, { headers: { Authorization: 'Bearer petstore-demo-key' } }), fetch(`${cli.url}/__spec.yaml`), fetch(`${cli.url}/__health`)]);
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200]);
  });
});
