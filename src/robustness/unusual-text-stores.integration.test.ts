/**
 * "A write fails alone, on every store" (issue 37), in process: the property of
 * src/test-support/unusual-text.ts (arbitrary Unicode in keys, scopes and values, lone surrogates,
 * NUL and the rest, sent with ordinary creates) on the in-memory store, and on the state file
 * (`--state-file`), whose files are read back as the CLI reads them at start into a new mock that
 * must give back the same. PostgreSQL: src/state/unusual-text.process.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildMock, type Mock } from '../mock/app.js';
import { loadDocument, type LoadedDocument } from '../openapi/document/load-document.js';
import { StateJournal } from '../state/journal.js';
import { persistAnswers, persistenceRefusal } from '../state/persistence.js';
import { missingCollections } from '../state/snapshot.js';
import { readStateFile } from '../state/state-file.js';
import { caller, ROOT, type Call } from '../test-support/petstore.js';
import { checkUnusualText, LABELS_DOCUMENT } from '../test-support/unusual-text.js';

const SEED = Number(process.env.FUZZ_SEED) || 20_261_128;
const RUNS = Number(process.env.FUZZ_RUNS) || 40;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const document = (): Promise<LoadedDocument> => loadDocument(`${ROOT}${LABELS_DOCUMENT}`);

/** Requests through a fetch function, as caller() sends them to an app. */
function callerOf(fetch: (request: Request) => Response | Promise<Response>): Call {
  const mock = { app: { request: (path: string, init: RequestInit) => fetch(new Request(`http://localhost${path}`, init)) } } as unknown as Mock;
  return caller(mock);
}

describe('arbitrary Unicode in keys, scopes and values, with ordinary writes alongside', () => {
  it('in memory: no 5xx, every ordinary write taken, lone surrogates refused with a 400, the rest read back exactly', async () => {
    const mock = buildMock(await document(), {});
    await checkUnusualText({ call: caller(mock) }, { seed: SEED, runs: RUNS });
  });

  it('in the state file: the same, and a mock started from the files gives back the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'unusual-text-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'state.json');
    const loaded = await document();
    let journal: StateJournal | undefined;
    const mock = buildMock(loaded, { writable: () => (journal ? persistenceRefusal(journal) : undefined), persistence: () => journal!.health() });
    journal = new StateJournal({ file, generation: 1 });
    cleanups.push(() => journal!.close().catch(() => undefined));
    await journal.start(mock.store, mock.collections.map((c) => c.name));
    // Answered once the change is written, as the CLI's server answers.
    const call = callerOf(persistAnswers((request) => mock.app.fetch(request), journal));

    const restarted = async (): Promise<Call[]> => {
      await journal!.close();
      const fresh = buildMock(loaded, {});
      const read = readStateFile(file, fresh.collections, (data) => {
        const checked = fresh.checkState(data);
        return typeof checked === 'string' ? checked : (missingCollections(checked, fresh.collections) ?? checked);
      });
      expect(read.state, read.notes.join('; ')).toBeDefined();
      expect(fresh.importState(fresh.store, read.state!)).toBeUndefined();
      return [caller(fresh)];
    };
    await checkUnusualText({ call, finally: restarted }, { seed: SEED, runs: RUNS });
  });
});
