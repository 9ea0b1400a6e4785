/**
 * The suite against a server nobody here wrote: json-server 0.17 (a dev dependency), started on
 * loopback with records of its own, checked against an honest hand-written document
 * (fixtures/json-server-notes.yaml). What it reports, and why each finding is real, is in
 * docs/contract-suite.md ("Against json-server").
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { ROOT } from '../test-support/petstore.js';
import { freePort, startProcess } from '../test-support/processes.js';
import { formatReport } from './report/console.js';
import { runContract } from './run-contract.js';

const THEIRS = [
  { id: 1, text: 'Buy milk', done: false },
  { id: 2, text: 'Call the vet', done: true },
];

describe('json-server 0.17 with an honest document', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'json-server-'));
  writeFileSync(join(dir, 'db.json'), JSON.stringify({ notes: THEIRS }, null, 2));
  const port = await freePort();
  const server = await startProcess(join(ROOT, 'node_modules/.bin/json-server'), [join(dir, 'db.json'), '--port', String(port), '--host', '127.0.0.1'], /Resources|Done/, {});
  afterAll(() => void server.child.kill('SIGKILL'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const document = await loadDocument(`${ROOT}test/documents/json-server-notes.yaml`);

  it('finds that it stores whatever it is sent, and leaves its records as they were', async () => {
    await waitUntilAnswering(`${baseUrl}/notes`);
    const report = await runContract({ document, baseUrl });
    process.stdout.write(formatReport(report));
    const found = new Set(report.failures.map((f) => `${f.check} ${f.operationId}`));
    // Bad input accepted where the document declares 400: json-server validates nothing.
    for (const op of ['createNote', 'replaceNote', 'updateNote']) expect(found, op).toContain(`negative_data_rejection ${op}`);
    expect(report.failures.some((f) => f.check === 'negative_data_rejection' && f.operationId === 'createNote' && f.label === 'body.text missing (required)' && f.received.startsWith('201'))).toBe(true);
    // A body sent without Content-Type makes a note of nothing at all.
    expect(report.failures.some((f) => f.label === 'a body without Content-Type' && f.received.startsWith('201'))).toBe(true);
    // What it stored comes back breaking the document, wherever notes are returned.
    for (const op of ['createNote', 'replaceNote', 'updateNote', 'getNote', 'listNotes']) expect(found, op).toContain(`response_schema_conformance ${op}`);
    // Nothing else: statuses, media types, 404s, read-backs, updates, filters and deletes keep the document.
    expect(new Set(report.failures.map((f) => f.check))).toEqual(new Set(['negative_data_rejection', 'response_schema_conformance']));
    expect(report.conforms).toBe(false);
    // Its own notes, byte for byte, and nothing of the suite's left behind.
    expect(await (await fetch(`${baseUrl}/notes`)).json()).toEqual(THEIRS);
    expect(report.leftBehind).toEqual([]);
  });
});

async function waitUntilAnswering(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}
