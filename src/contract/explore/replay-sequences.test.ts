/**
 * `--replay` of what stateful exploration finds (issue 39, point 4): a deleted record still listed,
 * a deleted record back after a create, a filter ignored beside another are broken promises of the
 * sequence's model, not of one answer. The cassette a run writes for each state fault, read back
 * from its file text, is judged again by the same model: still failing against the faulty server,
 * fixed against the unbroken mock, and no record left behind on either.
 */
import { describe, expect, it } from 'vitest';
import { petstoreContract } from '../../plugins/petstore/contract.js';
import { STATE_FAULTS } from '../../test-support/contract-servers/state-faults.js';
import { petstore, petstoreDocument } from '../../test-support/petstore.js';
import { runContract } from '../run-contract.js';
import type { RunOptions } from '../run-options.js';
import { cassetteOf, parseCassette, writeCassette } from './cassette.js';
import { replayCassette } from './replay.js';
import type { Cassette, ExploredFailure } from './sequence.js';

const document = await petstoreDocument();
const TOKEN = 'petstore-demo-key';
type Handler = (request: Request) => Promise<Response> | Response;
const options = (handler: Handler): RunOptions => ({
  document,
  plugins: [{ name: 'petstore', part: petstoreContract }],
  baseUrl: 'http://server.test',
  token: TOKEN,
  fetch: (url, init) => Promise.resolve(handler(new Request(url, init))),
});

/** The cassette a run at seed 7 writes against the server, as a file would hold it. */
async function cassetteFound(handler: Handler): Promise<Cassette> {
  const report = await runContract({ ...options(handler), seed: 7 });
  const found = cassetteOf(report, document.api.info ?? {});
  expect(found, 'the run found a failure to store').toBeDefined();
  const read = parseCassette(writeCassette(found!));
  if (typeof read === 'string') throw new Error(`not a cassette: ${read}`);
  return read;
}

describe('replaying the sequences stateful exploration found', () => {
  for (const fault of STATE_FAULTS) {
    it(`judges ${fault.name} (${fault.breaks}) failing against that server and fixed against the mock, leaving nothing behind`, async () => {
      const cassette = await cassetteFound(fault.wrap(await petstore()));
      const failure = cassette.failures.find((f) => f.check === fault.caughtBy)!;
      expect(failure.kind).toBe('sequence');
      expect(failure.collection).toBe('pets');
      const only: Cassette = { ...cassette, failures: [failure] };

      const faulty = await petstore();
      const faultyCounts = JSON.stringify(faulty.store.counts());
      const still = await replayCassette(options(fault.wrap(faulty)), only);
      // The same promise broken at the same kind of step (a filter names this run's category key, not the one the cassette holds).
      expect(still.replayed.map((r) => [r.verdict, r.why])).toEqual([['failing', expect.stringMatching(/^received .+; documented .+/)]]);
      expect(still.replayed[0].why.replace(/\d+/g, 'N')).toContain(failure.documented.replace(/\d+/g, 'N'));
      expect(still).toMatchObject({ failing: 1, fixed: 0, unjudged: 0, leftBehind: [] });
      expect(still.replayed[0].repro.every((line) => line.startsWith('curl '))).toBe(true);
      expect(JSON.stringify(faulty.store.counts())).toBe(faultyCounts);

      const mock = await petstore();
      const counts = JSON.stringify(mock.store.counts());
      const fixed = await replayCassette(options(mock.app.fetch), only);
      expect(fixed.replayed.map((r) => [r.verdict, r.why])).toEqual([['fixed', expect.any(String)]]);
      expect(fixed).toMatchObject({ failing: 0, fixed: 1, unjudged: 0, leftBehind: [] });
      expect(JSON.stringify(mock.store.counts())).toBe(counts);
    });
  }
});

/** A sequence as the stateful phase writes one: a pet created, deleted, then read (a 404 is documented). */
const readAfterDelete: ExploredFailure = {
  kind: 'sequence',
  collection: 'pets',
  check: 'use_after_delete',
  operationId: 'getPet',
  received: '200',
  documented: '404 or 410 for a deleted record, also after later requests',
  steps: [
    { operationId: 'createPet', label: 'create a pets record', body: { name: 'contract-0badcafe-3', categoryId: 41, status: 'available' } },
    { operationId: 'deletePet', label: 'delete the pets record of step 0', params: { petId: { $fromStep: 0 } } },
    { operationId: 'getPet', label: 'read the pets record of step 0 after its delete', params: { petId: { $fromStep: 0 } } },
  ],
  repro: [],
  seed: 5,
  tried: 2,
  shrinks: 1,
};
const cassette = (...failures: ExploredFailure[]): Cassette => ({ version: 1, document: { title: 'Petstore', version: '1.0.0' }, seed: 5, failures });
const withSteps = (...steps: ExploredFailure['steps']): ExploredFailure => ({ ...readAfterDelete, steps });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('replaying a sequence that cannot be judged', () => {
  it('says which step could not be sent, and why, rather than calling it fixed', async () => {
    const mock = await petstore();
    const counts = JSON.stringify(mock.store.counts());
    const [create, remove, read] = readAfterDelete.steps;
    const report = await replayCassette(
      options(mock.app.fetch),
      cassette(
        withSteps(create, { operationId: 'noSuchOperation', label: 'what' }, read),
        withSteps(create, { operationId: 'createCategory', label: 'create a categories record', body: { name: 'Toys' } }),
        withSteps(create, remove, { ...read, params: { petId: { $fromStep: 1 } } }),
        withSteps(create, { ...read, params: { petId: 7 } }),
        withSteps({ ...create, body: { name: 'Rex', status: 'lost' } }, remove, read),
        withSteps(create, remove, remove),
      ),
    );
    expect(report.replayed.map((r) => [r.verdict, r.why])).toEqual([
      ['unjudged', 'step 2 names the operation noSuchOperation, which the document does not have'],
      ['unjudged', "step 2 names createCategory, which is not an operation on the pets collection's records"],
      ['unjudged', 'step 3 needs the record step 2 made, and step 2 made none on this run'],
      ['unjudged', 'step 2 names no record of the sequence (its petId is not { "$fromStep": i })'],
      ['unjudged', "step 1 was not sent: no request of it could be built that the document's validator confirms and that touches only records of the suite's"],
      ['unjudged', 'step 3 acts on the record of step 1, deleted at an earlier step'],
    ]);
    expect(report).toMatchObject({ failing: 0, fixed: 0, unjudged: 6, leftBehind: [] });
    expect(JSON.stringify(mock.store.counts())).toBe(counts);
  });

  it('calls a sequence that breaks another promise first unjudged, and one past the --timeout unjudged too', async () => {
    const ignoresCategory = STATE_FAULTS.find((f) => f.caughtBy === 'filter_conformance')!;
    const [create, remove, read] = readAfterDelete.steps;
    const list = { operationId: 'listPets', label: 'list pets filtered by status and category', query: { status: ['available'], categoryId: [41], limit: 100 } };
    const other = await replayCassette(options(ignoresCategory.wrap(await petstore())), cassette(withSteps(create, list, remove, read)));
    expect(other.replayed.map((r) => [r.verdict, r.why])).toEqual([['unjudged', expect.stringMatching(/^step 2 broke another promise first, filter_conformance \(list pets filtered by status=available&categoryId=\d+, pages of 100: received a record whose categoryId is/)]]);
    expect(other.leftBehind).toEqual([]);

    const mock = await petstore();
    // Every create of a category answers after the run's --timeout: the pet's create after it is not sent.
    const slow: Handler = async (request) => {
      if (request.method === 'POST' && new URL(request.url).pathname === '/categories') await sleep(60);
      return mock.app.fetch(request);
    };
    const late = await replayCassette({ ...options(slow), timeoutMs: 30 }, cassette(readAfterDelete));
    expect(late.replayed.map((r) => [r.verdict, r.why])).toEqual([['unjudged', 'step 1 was not sent: the run took longer than its --timeout']]);
    expect(late.leftBehind).toEqual([]);
  });

  it('reads a cassette older than kinds and collections as the sequence it is', async () => {
    const mock = await petstore();
    const { kind: _kind, collection: _collection, ...older } = readAfterDelete;
    const read = parseCassette(JSON.stringify(cassette(older as ExploredFailure)));
    if (typeof read === 'string') throw new Error(read);
    const back = STATE_FAULTS.find((f) => f.name === 'deleted-back-after-create')!;
    const withCreate = { ...read.failures[0], steps: [...older.steps.slice(0, 2), older.steps[0], older.steps[2]] };
    expect((await replayCassette(options(back.wrap(mock)), { ...read, failures: [withCreate] })).replayed.map((r) => r.verdict)).toEqual(['failing']);
    expect((await replayCassette(options((await petstore()).app.fetch), read)).replayed.map((r) => r.verdict)).toEqual(['fixed']);
  });
});

describe('replaying a sequence with updates', () => {
  const updates = withSteps(
    readAfterDelete.steps[0],
    { operationId: 'replacePet', label: 'replace the pets record of step 0', params: { petId: { $fromStep: 0 } }, body: { name: 'Rex', categoryId: 41, status: 'sold' } },
    { operationId: 'updatePet', label: 'merge the pets record of step 0', params: { petId: { $fromStep: 0 } }, body: { status: 'pending' } },
    { operationId: 'getPet', label: 'read the pets record of step 0', params: { petId: { $fromStep: 0 } } },
  );
  const persisted = { ...updates, check: 'update_persists' as const, documented: 'the record as last written, by its URL and in every list that selects it' };

  it('sends each update with its body, on the record and category of this run, and judges the read by the model', async () => {
    const mock = await petstore();
    const seen: string[] = [];
    const fetch: Handler = async (request) => {
      if (request.method === 'PUT' || request.method === 'PATCH') seen.push(`${request.method} ${await request.clone().text()}`);
      return mock.app.fetch(request);
    };
    const fixed = await replayCassette(options(fetch), cassette(persisted));
    expect(fixed.replayed.map((r) => [r.verdict, r.why])).toEqual([['fixed', 'all 4 steps ran and kept every promise']]);
    const category = JSON.parse(/--data-raw '(.*)'$/.exec(fixed.replayed[0].repro[1])![1]).categoryId;
    expect(category).not.toBe(41);
    expect(seen).toEqual([`PUT {"name":"Rex","categoryId":${category},"status":"sold"}`, 'PATCH {"status":"pending"}']);

    // A server that answers a merge 200 and keeps the record as it was.
    const forgets: Handler = (request) => (request.method === 'PATCH' ? mock.app.fetch(new Request(request.url, { headers: request.headers })) : mock.app.fetch(request));
    const still = await replayCassette(options(forgets), cassette(persisted));
    expect(still.replayed.map((r) => [r.verdict, r.why])).toEqual([['failing', 'received status = "sold" instead of "pending" (read the pets record of step 0); documented the record as last written, by its URL and in every list that selects it']]);
    expect(still.leftBehind).toEqual([]);
  });
});
