/**
 * References and parameter values on a headless-CMS-shaped server (issue 38, points 2 and 4): a
 * folder names its role and its parent folder by key, fields live under a collection named in the
 * path, a comment names an item of any collection, and `fields`/`sort` must name fields of the
 * list's own records. The suite must create what it refers to, never write into what it did not
 * create, and take parameter values from the operation itself.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { ROOT } from '../test-support/petstore.js';
import { foldersServer, type FoldersServer } from '../test-support/contract-servers/folders-server.js';
import { describeFinding } from './case.js';
import { runContract } from './run-contract.js';

const FILE = `${ROOT}test/documents/folders-api.yaml`;

/** The server in process, with the status of every answer beside its call. */
function inProcess(server: FoldersServer) {
  const statuses: number[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    const response = await server.fetch(new Request(url, init));
    statuses[server.calls.length - 1] = response.status;
    return response;
  };
  return { fetch, statuses };
}

/** What the server held before the run, by kind: the keys of its own records. */
function theirs(server: FoldersServer) {
  return {
    roles: new Set(server.roles.keys()),
    folders: new Set(server.folders.keys()),
    collections: new Set(server.collections.keys()),
    snapshot: JSON.stringify({ roles: [...server.roles], folders: [...server.folders], collections: [...server.collections].map(([k, c]) => [k, c.note, [...c.fields], [...c.items]]) }),
  };
}

function snapshotOf(server: FoldersServer, before: ReturnType<typeof theirs>): string {
  const keep = <T>(map: Map<string, T>, keys: Set<string>) => [...map].filter(([k]) => keys.has(k));
  return JSON.stringify({ roles: keep(server.roles, before.roles), folders: keep(server.folders, before.folders), collections: keep(server.collections, before.collections).map(([k, c]) => [k, c.note, [...c.fields], [...c.items]]) });
}

/** Every write aimed at a record of the server's own (in the path or the body). */
function writesIntoTheirs(server: FoldersServer, before: ReturnType<typeof theirs>): string[] {
  return server.calls
    .filter((call) => call.method !== 'GET')
    .filter((call) => {
      const [top, first] = call.path.split('?')[0].split('/').filter(Boolean).map(decodeURIComponent);
      const inPath = (top === 'roles' && before.roles.has(first)) || (top === 'folders' && before.folders.has(first)) || ((top === 'collections' || top === 'fields') && before.collections.has(first));
      const b = call.body ?? {};
      const inBody = before.roles.has(b.role as string) || before.folders.has(b.parent as string) || (top === 'comments' && before.collections.has(b.collection as string));
      return inPath || inBody;
    })
    .map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body ?? null)}`);
}

describe('references to other records, and parameter values of the operation itself', () => {
  it('creates what a record refers to, answers 2xx, writes into nothing of the server\'s, and passes', async () => {
    const document = await loadDocument(FILE);
    const server = foldersServer();
    const before = theirs(server);
    const { fetch, statuses } = inProcess(server);
    // Input exploration draws page numbers from the whole range the document allows: a 404 past the last page is a refusal there, never a failure.
    const drawn = new Set<string>();
    const report = await runContract({ document, baseUrl: 'http://cms.test', fetch, onExchange: (e) => e.case.label.startsWith('a drawn valid request') && drawn.add(e.case.path) });
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(writesIntoTheirs(server, before)).toEqual([]);
    expect(snapshotOf(server, before)).toBe(before.snapshot);
    // Every operation reached: a field of the suite's own collection is read and deleted too.
    expect(report.notSent).toEqual([]);
    // Creates that refer: a folder names a role the suite made, a folder names a folder the suite made, a field lives in a collection the suite made.
    const answered = (method: string, test: (path: string, body: Record<string, unknown>) => boolean) =>
      server.calls.flatMap((call, i) => (call.method === method && test(call.path, call.body ?? {}) ? [statuses[i]] : []));
    const folderCreates = answered('POST', (path, b) => path === '/folders' && typeof b.role === 'string' && !b.invalid);
    expect(folderCreates.filter((s) => s === 201).length).toBeGreaterThan(0);
    expect(answered('POST', (path, b) => path === '/folders' && typeof b.parent === 'string')).toContain(201);
    expect(answered('POST', (path) => /^\/fields\/[^/]+$/.test(path))).toContain(201);
    expect(answered('POST', (path) => path === '/comments')).toContain(201);
    // Query values from the list's own records: fields and sort are answered 200.
    expect(answered('GET', (path) => /^\/folders\?(.*&)?fields=/.test(path))).toEqual(expect.arrayContaining([200]));
    expect(answered('GET', (path) => /^\/folders\?(.*&)?sort=/.test(path))).toEqual(expect.arrayContaining([200]));
    expect(answered('GET', (path) => /^\/folders\?(.*&)?role=/.test(path))).toEqual(expect.arrayContaining([200]));
    // Page numbers within the pages the list has (the edge probes' page -1 and past any bound aside).
    const pages = server.calls.flatMap((call, i) => (call.method === 'GET' && /^\/roles\?(.*&)?page=\d+(&|$)/.test(call.path) && !/page=(0|1000+1)\b/.test(call.path) && !drawn.has(call.path) ? [`${call.path} ${statuses[i]}`] : []));
    expect(pages.length).toBeGreaterThan(0);
    // A 404 only for the page right after one answered 200 (a walk to the list's end cannot know it was the last without a total).
    const afterAnswered = (line: string) => pages.includes(line.replace(/page=(\d+) 404$/, (_, n) => `page=${Number(n) - 1} 200`));
    expect(pages.filter((line) => !line.endsWith(' 200') && !(line.endsWith(' 404') && afterAnswered(line)))).toEqual([]);
    // Nothing left of the suite's.
    expect(report.leftBehind).toEqual([]);
    expect(server.roles.size).toBe(before.roles.size);
    expect(server.folders.size).toBe(before.folders.size);
    expect(server.collections.size).toBe(before.collections.size);
  });

  it('leaves out an optional reference it can only point at a record of others', async () => {
    const document = await loadDocument(FILE);
    delete document.api.paths!['/roles'].post;
    const folder = document.api.components!.schemas!.Folder as { required: string[] };
    folder.required = ['name'];
    const server = foldersServer({ roleOptional: true });
    const before = theirs(server);
    const { fetch, statuses } = inProcess(server);
    const report = await runContract({ document, baseUrl: 'http://cms.test', fetch });
    expect(writesIntoTheirs(server, before)).toEqual([]);
    expect(report.failures.map(describeFinding)).toEqual([]);
    // Folders are made, without a role (and one inside another).
    const made = server.calls.filter((call, i) => call.method === 'POST' && call.path === '/folders' && statuses[i] === 201);
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter((call) => call.body?.role !== undefined)).toEqual([]);
    expect(made.some((call) => typeof call.body?.parent === 'string')).toBe(true);
  });

  it('never sends a write under a parent or naming a record it did not create, and says why', async () => {
    const document = await loadDocument(FILE);
    // Without a way to create collections or roles, every collection and role is someone else's.
    delete document.api.paths!['/collections'].post;
    delete document.api.paths!['/roles'].post;
    const server = foldersServer();
    const before = theirs(server);
    const { fetch, statuses } = inProcess(server);
    const report = await runContract({ document, baseUrl: 'http://cms.test', fetch });
    expect(writesIntoTheirs(server, before)).toEqual([]);
    expect(snapshotOf(server, before)).toBe(before.snapshot);
    // No field under a collection of others; a comment names no collection, or one a read showed free (the edge probe's dangling reference).
    expect(server.calls.filter((call) => call.method === 'POST' && call.path.startsWith('/fields/'))).toEqual([]);
    const shownFree = (name: string, before: number) => server.calls.slice(0, before).some((call, i) => call.method === 'GET' && call.path === `/collections/${encodeURIComponent(name)}` && statuses[i] === 404);
    const comments = server.calls.flatMap((call, i) => (call.path === '/comments' && typeof call.body?.collection === 'string' ? [{ name: call.body.collection as string, i }] : []));
    expect(comments.filter(({ name, i }) => !shownFree(name, i))).toEqual([]);
    const reasons = Object.fromEntries(report.notSent.map((row) => [row.operationId, row.reason]));
    expect(reasons.createField).toMatch(/path parameter `collection` = "authors" names no collections record the suite created/);
    // A folder requires a role: the one the list showed is the server's, so no folder is made.
    expect(reasons.createFolder).toBe(`its body's \`role\` = "${[...before.roles][0]}" names a roles record the suite did not create`);
    expect(server.calls.filter((call, i) => call.method === 'POST' && call.path === '/folders' && statuses[i] < 300)).toEqual([]);
    expect(reasons.createComment).toMatch(/body's `collection` = "\w+" names a collections record the suite did not create/);
    expect(report.failures.map(describeFinding)).toEqual([]);
  });
});
