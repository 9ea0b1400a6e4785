/**
 * The suite asserts only what a document states: servers that keep to their own document but not
 * to the Petstore's conventions pass, and a server that upserts on POST and holds records of its
 * own keeps them byte for byte, with nothing left behind.
 */
import { describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { ROOT } from '../test-support/petstore.js';
import { describeFinding } from './case.js';
import { eventsServer } from '../test-support/contract-servers/events-server.js';
import { issuesServer } from '../test-support/contract-servers/issues-server.js';
import { notesServer } from '../test-support/contract-servers/notes-server.js';
import { upsertServer } from '../test-support/contract-servers/upsert-server.js';
import { formatReport } from './report/console.js';
import { runContract } from './run-contract.js';

const KEY = 'notes-key';
const inProcess = (handler: (request: Request) => Promise<Response>) => (url: string, init: RequestInit) => handler(new Request(url, init));

describe('a server with its own conventions, correct by its own document', async () => {
  const document = await loadDocument(`${ROOT}test/documents/notes-api.yaml`);

  it('passes: 403 for a bad key, no Location, problem details, no deprecation headers, an operation without client errors', async () => {
    const server = notesServer(KEY, [{ text: 'theirs', tag: 'home' }, { text: 'also theirs' }]);
    const before = JSON.stringify([...server.notes]);
    const report = await runContract({ document, baseUrl: 'http://notes.test/api', token: KEY, fetch: inProcess(server.fetch) });
    process.stdout.write(formatReport(report));
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(report.conforms).toBe(true);
    // Not vacuous: the checks that matter here ran.
    const ran = (check: string) => report.outcomes.filter((o) => o.check === check && o.passed > 0).map((o) => o.operationId);
    expect(ran('auth_enforced')).toEqual(expect.arrayContaining(['listNotes', 'createNote', 'getNote', 'replaceNote', 'deleteNote', 'getNoteText']));
    expect(ran('error_shape')).toEqual(expect.arrayContaining(['createNote', 'getNote']));
    expect(ran('create_read_back')).toContain('getNote');
    expect(ran('negative_data_rejection')).toEqual(expect.arrayContaining(['createNote', 'replaceNote']));
    expect(ran('list_contains_created')).toEqual(['listNotes']);
    // What the document leaves open is reported apart: getStats declares no client error, and takes any window.
    expect(report.gaps.map((g) => `${g.check} ${g.operationId}`)).toEqual(expect.arrayContaining(['negative_data_rejection getStats']));
    expect(report.outcomes.find((o) => o.check === 'auth_enforced' && o.operationId === 'getStats')?.skipped).toEqual(['the operation declares no security']);
    // What it could not map, it says.
    expect(report.unmapped).toEqual([
      { operationId: 'getNoteText', operation: 'GET /notes/{noteId}/text', reason: 'a path below one notes record, not a collection of its own' },
      { operationId: 'getStats', operation: 'GET /stats', reason: 'no collection path with an item path (`/things` and `/things/{id}`) explains it' },
    ]);
    // Its own notes untouched, nothing left behind.
    expect(JSON.stringify([...server.notes])).toBe(before);
  });

  it('fails the same server when it breaks its document, with the check that says what', async () => {
    const server = notesServer(KEY);
    const broken = async (request: Request) => {
      const response = await server.fetch(request);
      // Problem details whose status lies about the HTTP status (RFC 9457 says it must not).
      if (response.status === 404) return new Response(JSON.stringify({ title: 'Not Found', status: 400 }), { status: 404, headers: { 'Content-Type': 'application/problem+json' } });
      return response;
    };
    const report = await runContract({ document, baseUrl: 'http://notes.test/api', token: KEY, fetch: inProcess(broken) });
    expect(report.conforms).toBe(false);
    expect(new Set(report.failures.map((f) => f.check))).toEqual(new Set(['error_shape']));
    expect(report.failures[0].documented).toBe('status equal to the HTTP status 404 (RFC 9457)');
  });

  it('takes credentials given as a header of every request (-H), and leaves them out of the cases that must be refused', async () => {
    const server = notesServer(KEY);
    const keys: Array<string | null> = [];
    const spy = (request: Request) => (keys.push(request.headers.get('x-api-key')), server.fetch(request));
    const report = await runContract({ document, baseUrl: 'http://notes.test/api', headers: { 'X-API-Key': KEY, 'X-Trace': 'ci-42' }, fetch: inProcess(spy) });
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(report.outcomes.filter((o) => o.check === 'auth_enforced' && o.passed > 0).length).toBe(6);
    expect(keys.filter((k) => k === KEY).length).toBeGreaterThan(20);
  });

  it('with --strict, the gaps of the document fail the run', async () => {
    const server = notesServer(KEY);
    const report = await runContract({ document, baseUrl: 'http://notes.test/api', token: KEY, fetch: inProcess(server.fetch), strict: true });
    expect(report.failures).toEqual([]);
    expect(report.gaps.length).toBeGreaterThan(0);
    expect(report.conforms).toBe(false);
  });
});

describe('a server that upserts on POST and holds records of its own', async () => {
  const document = await loadDocument(`${ROOT}test/documents/upsert-api.yaml`);

  it('keeps its records byte for byte, and the suite leaves nothing behind', async () => {
    const server = upsertServer(['Alice\'s item', 'Bob\'s item', 'Carol\'s item', 'Dan\'s item', 'Eve\'s item']);
    const before = JSON.stringify([...server.items]);
    const sent: string[] = [];
    const spy = async (request: Request) => {
      const body = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.clone().text();
      sent.push(`${request.method} ${new URL(request.url).pathname} ${body}`);
      return server.fetch(request);
    };
    const report = await runContract({ document, baseUrl: 'http://items.test', fetch: inProcess(spy) });
    process.stdout.write(formatReport(report));
    expect(JSON.stringify([...server.items])).toBe(before);
    // No create or update carried an id the suite had not chosen safely, and nothing touched items 1 to 5.
    expect(sent.filter((line) => /^POST /.test(line) && /"id":/.test(line))).toEqual([]);
    expect(sent.filter((line) => /^(PUT|DELETE) \/items\/[1-5]\b/.test(line))).toEqual([]);
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(report.leftBehind).toEqual([]);
    expect(report.outcomes.filter((o) => o.check === 'create_read_back' && o.passed > 0).length).toBeGreaterThan(0);
  });
});

describe('an operation with several ways to authenticate', async () => {
  const document = await loadDocument(`${ROOT}test/documents/keys-api.yaml`);

  it('is sent the token each way it declares: a bearer header, an apiKey in the query, one in a cookie', async () => {
    const mock = buildMock(document, { apiKeys: ['k-123'] });
    const seen: string[] = [];
    const spy = async (request: Request) => {
      const url = new URL(request.url);
      seen.push([request.headers.get('authorization'), url.searchParams.get('key'), request.headers.get('cookie')].map((v) => v ?? '-').join(' | '));
      return mock.app.fetch(request);
    };
    const report = await runContract({ document, baseUrl: 'http://keys.test', token: 'k-123', fetch: inProcess(spy) });
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(seen).toEqual(expect.arrayContaining(['Bearer k-123 | - | -', '- | k-123 | -', '- | - | session=k-123']));
    expect(report.outcomes.find((o) => o.check === 'positive_data_acceptance')?.passed).toBeGreaterThanOrEqual(3);
  });
});

describe('a collection keyed by a property the client chooses, under a path with a trailing slash', async () => {
  const document = await loadDocument(`${ROOT}test/documents/projects-api.yaml`);

  it('passes against the mock: the key is checked free before it is used, the record read back under it, and cleaned up', async () => {
    const mock = buildMock(document, { counts: { default: 3 } });
    const before = JSON.stringify([...mock.store.collection('projects').all()]);
    const sent: string[] = [];
    const spy = async (request: Request) => (sent.push(`${request.method} ${new URL(request.url).pathname}`), mock.app.fetch(request));
    const report = await runContract({ document, baseUrl: 'http://projects.test', fetch: inProcess(spy) });
    expect(report.failures.map(describeFinding)).toEqual([]);
    const create = sent.findIndex((line) => line === 'POST /projects/');
    expect(sent[create - 1]).toMatch(/^GET \/projects\/[A-Z]{2,10}$/); // the key it chose, read first: 404
    expect(report.outcomes.find((o) => o.check === 'create_read_back' && o.operationId === 'getProject')?.passed).toBeGreaterThan(0);
    expect(JSON.stringify([...mock.store.collection('projects').all()])).toBe(before);
  });
});

describe('a nested collection: issues numbered within their project', async () => {
  const document = await loadDocument(`${ROOT}test/documents/issues-api.yaml`);

  it('creates a project of its own first, runs the lifecycle of issues under it, and leaves the server\'s projects as they were', async () => {
    const server = issuesServer([{ key: 'CORE', name: 'Core', issues: ['Crash on start', 'Typo'] }]);
    const snapshot = () => JSON.stringify([...server.projects.values()].map((p) => ({ ...p, issues: [...p.issues.values()] })));
    const before = snapshot();
    const sent: string[] = [];
    const spy = async (request: Request) => (sent.push(`${request.method} ${new URL(request.url).pathname}`), server.fetch(request));
    const report = await runContract({ document, baseUrl: 'http://issues.test', fetch: inProcess(spy) });
    expect(report.failures.map(describeFinding)).toEqual([]);
    const passed = (check: string) => report.outcomes.filter((o) => o.check === check && o.passed > 0).map((o) => o.operationId);
    expect(passed('create_read_back')).toEqual(expect.arrayContaining(['getProject', 'getIssue']));
    expect(passed('update_persists')).toContain('updateIssue');
    expect(passed('list_contains_created')).toEqual(expect.arrayContaining(['listProjects', 'listIssues']));
    expect(passed('use_after_delete')).toEqual(expect.arrayContaining(['deleteIssue']));
    // Issues were only ever created, changed or deleted under projects the suite created.
    expect(sent.filter((line) => /^(POST|PATCH|DELETE) \/projects\/CORE\b/.test(line))).toEqual([]);
    expect(snapshot()).toBe(before);
    expect(report.leftBehind).toEqual([]);
  });
});

describe('a list paged by cursor', async () => {
  const document = await loadDocument(`${ROOT}test/documents/events-api.yaml`);

  it('follows the next cursor the first page gives, and passes a server that pages right', async () => {
    const report = await runContract({ document, baseUrl: 'http://events.test', fetch: inProcess(eventsServer(7).fetch) });
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(report.outcomes.find((o) => o.check === 'pagination_conformance' && o.operationId === 'listEvents')?.passed).toBe(2);
  });

  it('fails a server that answers the first page whatever cursor it is given', async () => {
    const report = await runContract({ document, baseUrl: 'http://events.test', fetch: inProcess(eventsServer(7, { ignoreCursor: true }).fetch) });
    expect(report.failures.map((f) => `${f.check}: ${f.label}`)).toEqual(['pagination_conformance: page 2 of size 2, by the cursor page 1 gave']);
  });
});
