/**
 * `--replay`'s engine, in-process: cassettes written here by hand (the explorers that write them
 * are built elsewhere), sent against a server whose fault they show (still failing), against the
 * mock (fixed), and in ways that cannot be judged (a step naming a record no step made). Every step
 * goes through the suite's client: a record made by step 0 is read by the key it got on this run.
 */
import { describe, expect, it } from 'vitest';
import { petstoreContract } from '../../plugins/petstore/contract.js';
import { petstore, petstoreDocument } from '../../test-support/petstore.js';
import { replayCassette } from './replay.js';
import type { Cassette, ExploredFailure } from './sequence.js';

const document = await petstoreDocument();
const TOKEN = 'petstore-demo-key';
type Handler = (request: Request) => Promise<Response>;

/** A failure: a category created, a pet in it, then the pet read by the key it got; the read answered 500. */
const readAfterCreate: ExploredFailure = {
  kind: 'input',
  check: 'not_a_server_error',
  operationId: 'getPet',
  received: '500 for read the pet just created',
  documented: 'no 5xx for a valid request',
  steps: [
    { operationId: 'createCategory', label: 'create a categories record', body: { name: 'Toys' } },
    { operationId: 'createPet', label: 'create a pets record', body: { name: 'Ünïcødé ✓', categoryId: { $fromStep: 0 }, status: 'available' } },
    { operationId: 'getPet', label: 'read the pet just created', params: { petId: { $fromStep: 1 } } },
  ],
  repro: [],
  seed: 9,
  tried: 3,
  shrinks: 1,
};
const cassette = (...failures: ExploredFailure[]): Cassette => ({ version: 1, document: { title: 'Petstore', version: '1.0.0' }, seed: 9, failures });

/** The mock, with every request it received noted; `fault` may answer instead of it. */
async function server(fault?: (request: Request, created: Set<string>) => Response | undefined) {
  const mock = await petstore();
  const seen: string[] = [];
  const created = new Set<string>();
  const fetch: Handler = async (request) => {
    seen.push(`${request.method} ${new URL(request.url).pathname}`);
    const faulty = fault?.(request, created);
    if (faulty) return faulty;
    const response = await mock.app.fetch(request);
    if (request.method === 'POST' && new URL(request.url).pathname === '/pets' && response.status === 201) created.add(String(((await response.clone().json()) as { id: unknown }).id));
    return response;
  };
  return { fetch, seen, mock };
}

const replay = (fetch: Handler, c: Cassette) =>
  replayCassette({ document, plugins: [{ name: 'petstore', part: petstoreContract }], baseUrl: 'http://server.test', token: TOKEN, fetch: (url, init) => fetch(new Request(url, init)) }, c);

/** Reading a pet this server created answers 500 (with the document's error shape). */
const brokenRead = (request: Request, created: Set<string>) => {
  const id = /^\/pets\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1];
  return request.method === 'GET' && id && created.has(id) ? Response.json({ code: 'internal', message: 'broken read' }, { status: 500 }) : undefined;
};

describe('replaying a cassette', () => {
  it('reports a failure the server still has as failing, reading the record the create made on this run', async () => {
    const { fetch, seen } = await server(brokenRead);
    const report = await replay(fetch, cassette(readAfterCreate));
    expect(report.replayed.map((r) => [r.verdict, r.why])).toEqual([['failing', 'received 500 for read the pet just created; documented no 5xx for a valid request']]);
    const create = seen.indexOf('POST /pets');
    const id = report.replayed[0].repro[2].match(/\/pets\/(\d+)/)![1];
    // The read named the record the create made here, after it; then the clean-up deleted it.
    expect(seen.indexOf(`GET /pets/${id}`)).toBeGreaterThan(create);
    expect(seen).toContain(`DELETE /pets/${id}`);
    expect(report.replayed[0].repro[1]).toMatch(/^curl -sS -i -X POST .*\/pets' -H "Authorization: Bearer \$TOKEN"/);
    expect(report.replayed[0].repro.join('\n')).not.toContain(TOKEN);
    expect(report).toMatchObject({ failing: 1, fixed: 0, unjudged: 0, leftBehind: [] });
  });

  it('reports it fixed against the mock, and leaves nothing behind', async () => {
    const { fetch, mock } = await server();
    const before = (await mock.call('GET', '/pets?limit=100')).body;
    const report = await replay(fetch, cassette(readAfterCreate, readAfterCreate));
    expect(report.replayed.map((r) => r.verdict)).toEqual(['fixed', 'fixed']);
    expect(report).toMatchObject({ failing: 0, fixed: 2, leftBehind: [] });
    const after = (await mock.call('GET', '/pets?limit=100')).body;
    expect(after).toEqual(before);
  });

  it('says why a failure cannot be judged, rather than calling it fixed', async () => {
    const { fetch } = await server();
    const refusedCreate: ExploredFailure = { ...readAfterCreate, steps: [readAfterCreate.steps[0], { ...readAfterCreate.steps[1], body: { categoryId: { $fromStep: 0 } } }, readAfterCreate.steps[2]] };
    const unknownOperation: ExploredFailure = { ...readAfterCreate, steps: [{ operationId: 'noSuchOperation', label: 'what' }] };
    const acrossRequests: ExploredFailure = { ...readAfterCreate, check: 'use_after_delete' };
    const report = await replay(fetch, cassette(refusedCreate, unknownOperation, acrossRequests));
    expect(report.replayed.map((r) => r.verdict)).toEqual(['unjudged', 'unjudged', 'unjudged']);
    expect(report.replayed[0].why).toMatch(/^step 2 was not sent: the document's validator finds it invalid: body.name/);
    expect(report.replayed[1].why).toBe('step 1 names the operation noSuchOperation, which the document does not have');
    expect(report.replayed[2].why).toMatch(/^the check use_after_delete has nothing to say about this answer on its own/);
  });
});
