/**
 * No pattern can stall the server (issue 26): the document's `^(a+)+$` against 5000 `a` and a `!`
 * is a 400 at once, and /__health sent meanwhile answers. With RegExp the same request took 32 s at
 * 31 `a` (each more doubled it: 5000 would never end), and every other request waited behind it.
 * A pattern RE2 cannot run is named at start and not enforced.
 *
 * The mock runs as a child (the CLI), so that a stalled server stalls it, not this test. The one
 * time limit is a ceiling a backtracking engine could never meet (2^5000 steps) and a linear one
 * meets in milliseconds, however loaded the machine.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from '../test-support/processes.js';

const DOCUMENT = `
openapi: 3.0.3
info: { title: Words, version: '1' }
paths:
  /words:
    post:
      operationId: addWord
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [text]
              properties:
                text: { type: string, pattern: '^(a+)+$' }
                code: { type: string, pattern: '^(?=[A-Z])\\w+$' }
      responses:
        '201':
          description: Added
          content:
            application/json:
              schema: { type: object, properties: { text: { type: string } } }
        '400':
          description: Invalid
          content:
            application/json:
              schema:
                type: object
                required: [error, detail]
                properties: { error: { type: string }, detail: { type: string } }
`;

/** Each request's ceiling. */
const ceiling = () => ({ signal: AbortSignal.timeout(120_000) });

describe('a pattern that backtracks for ever in RegExp', () => {
  it('is decided at once: a 400 in the shape the document gives, and /__health answers meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slow-patterns-'));
    writeFileSync(join(dir, 'words.yaml'), DOCUMENT);
    const { url, output } = await startCli(['--spec', join(dir, 'words.yaml')]);

    // The rule for a pattern RE2 cannot run, told at start.
    expect(output()).toContain(
      'warning: The pattern "^(?=[A-Z])\\\\w+$" at #/paths/~1words/post/requestBody/content/application~1json/schema/properties/code/pattern is not enforced: it has a lookahead',
    );

    const post = fetch(`${url}/words`, { ...ceiling(), method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text: `${'a'.repeat(5000)}!` }) });
    const health = fetch(`${url}/__health`, ceiling());
    const [posted, healthy] = await Promise.all([post, health]);
    expect(healthy.status).toBe(200);
    expect(posted.status).toBe(400);
    expect(await posted.json()).toEqual({ error: expect.stringContaining('must match pattern "^(a+)+$"'), detail: expect.any(String) });

    const valid = await fetch(`${url}/words`, { ...ceiling(), method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text: 'a'.repeat(5000) }) });
    expect(valid.status).toBe(201);
    // Not enforced: `lower` would fail the lookahead.
    const unenforced = await fetch(`${url}/words`, { ...ceiling(), method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text: 'aaa', code: 'lower' }) });
    expect(unenforced.status).toBe(201);
  });
});
