import { describe, expect, it } from 'vitest';
import { ROOT } from '../../test-support/petstore.js';
import { walk } from '../../test-support/walk.js';

const ISSUES = `${ROOT}test/documents/issues-api.yaml`;

describe('nested collections (/projects/{projectKey}/issues/{issueNumber})', () => {
  it('scope children under their parent: 404 under an unknown parent, none under a new one, gone with their parent', async () => {
    const { call } = await walk(ISSUES, { apiKeys: ['k-123'], counts: { default: 3, issues: 0 } }, { Authorization: 'Bearer k-123' });
    expect((await call('GET', '/projects/NOPE/issues')).status).toBe(404);
    expect((await call('POST', '/projects/NOPE/issues', { title: 'Lost' })).status).toBe(404);
    expect((await call('GET', '/projects/NOPE/issues/1')).status).toBe(404);

    expect((await call('POST', '/projects', { key: 'ALPHA', name: 'Alpha' })).status).toBe(201);
    expect((await call('POST', '/projects', { key: 'BETA', name: 'Beta' })).status).toBe(201);
    expect((await call('GET', '/projects/ALPHA/issues')).body).toEqual([]);
    const bug = await call('POST', '/projects/ALPHA/issues', { title: 'Bug' });
    expect([bug.status, bug.body, bug.headers.get('location')]).toEqual([201, { title: 'Bug', number: 1 }, '/projects/ALPHA/issues/1']);
    expect((await call('GET', '/projects/ALPHA/issues')).body).toEqual([bug.body]);
    // Another project does not see it, and its numbers are its own.
    expect((await call('GET', '/projects/BETA/issues')).body).toEqual([]);
    expect((await call('GET', '/projects/BETA/issues/1')).status).toBe(404);

    expect((await call('PATCH', '/projects/ALPHA/issues/1', { title: 'Bug, confirmed' })).body).toEqual({ title: 'Bug, confirmed', number: 1 });
    expect((await call('GET', '/projects/ALPHA/issues/1')).body.title).toBe('Bug, confirmed');
    expect((await call('DELETE', '/projects/ALPHA/issues/1')).status).toBe(204);
    expect((await call('GET', '/projects/ALPHA/issues/1')).status).toBe(404);

    await call('POST', '/projects/ALPHA/issues', { title: 'Second' });
    expect((await call('DELETE', '/projects/ALPHA')).status).toBe(204); // "Deleted, with its issues."
    expect((await call('GET', '/projects/ALPHA/issues')).status).toBe(404);
    expect((await call('POST', '/projects', { key: 'ALPHA', name: 'Alpha again' })).status).toBe(201);
    expect((await call('GET', '/projects/ALPHA/issues')).body).toEqual([]);
  });
});

describe('seeded nested collections', () => {
  it('deal their records to the seeded parents, each listed under its own parent only, numbered within it', async () => {
    const { call } = await walk(ISSUES, { apiKeys: ['k-123'], counts: { projects: 3, issues: 7 } }, { Authorization: 'Bearer k-123' });
    const projects: Array<{ key: string }> = (await call('GET', '/projects')).body;
    const lists = await Promise.all(projects.map(async (p) => (await call('GET', `/projects/${p.key}/issues`)).body as Array<{ number: number }>));
    // "issues numbered within each project": an issue's number is its key, counted in its project.
    expect(lists.map((issues) => issues.map((issue) => issue.number))).toEqual([[1, 2, 3], [1, 2], [1, 2]]);
    const [first] = lists[1];
    expect((await call('GET', `/projects/${projects[1].key}/issues/${first.number}`)).body).toEqual(first);
    expect((await call('GET', `/projects/${projects[0].key}/issues/1`)).body).toEqual(lists[0][0]);
    expect((await call('GET', `/projects/${projects[1].key}/issues/3`)).status).toBe(404);
  });
});

describe('keys counted per parent (test/documents/numbered-api.yaml)', () => {
  const NUMBERED = `${ROOT}test/documents/numbered-api.yaml`;

  it("numbers a project's issues from 1, never giving a deleted number again, while comment ids stay global", async () => {
    const { call } = await walk(NUMBERED, { counts: { projects: 3, issues: 6, comments: 0 } }, { Authorization: 'Bearer petstore-demo-key' });
    const seeded = (await call('GET', '/projects/1/issues')).body.map((issue: { number: number }) => issue.number);
    expect(seeded).toEqual([1, 2]);
    const project = (await call('POST', '/projects', { name: 'New' })).body;
    const first = await call('POST', `/projects/${project.id}/issues`, { title: 'First' });
    expect([first.status, first.body, first.headers.get('location')]).toEqual([201, { title: 'First', number: 1, projectId: project.id }, `/projects/${project.id}/issues/1`]);
    const second = await call('POST', `/projects/${project.id}/issues`, { title: 'Second' });
    expect(second.body.number).toBe(2);
    // Deleted, the number stays taken in its project: the next issue is 3.
    expect((await call('DELETE', `/projects/${project.id}/issues/2`)).body).toEqual({});
    expect((await call('POST', `/projects/${project.id}/issues`, { title: 'Third' })).body.number).toBe(3);
    expect((await call('POST', '/projects/1/issues', { title: 'Next' })).body.number).toBe(3);

    const a = await call('POST', `/projects/${project.id}/issues/1/comments`, { body: 'a' });
    const b = await call('POST', '/projects/1/issues/1/comments', { body: 'b' });
    expect([a.body.id, b.body.id]).toEqual([1, 2]);
  });

  it('never gives a number twice in a project: past 2^53 - 1 its creates are refused (NO_FREE_KEY), other projects go on', async () => {
    const { call, app } = await walk(NUMBERED, { counts: { projects: 2, issues: 2, comments: 0 } }, { Authorization: 'Bearer petstore-demo-key' });
    const state = (await (await app.request('/__admin/state')).json()) as any;
    state.collections.issues.sequences = { ...state.collections.issues.sequences, '1': Number.MAX_SAFE_INTEGER };
    const put = await app.request('/__admin/state', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ format: state.format, collections: { issues: state.collections.issues } }) });
    expect(put.status).toBe(200);
    const last = await call('POST', '/projects/1/issues', { title: 'Last' });
    expect(last.body.number).toBe(Number.MAX_SAFE_INTEGER);
    // Sent past the walk: the document declares no error for a create, and the mock has to say something.
    const refused = await app.request('/projects/1/issues', { method: 'POST', headers: { Authorization: 'Bearer petstore-demo-key', 'Content-Type': 'application/json' }, body: '{"title":"One too many"}' });
    expect([refused.status, ((await refused.json()) as any).code]).toEqual([409, 'NO_FREE_KEY']);
    expect((await call('GET', `/projects/1/issues/${Number.MAX_SAFE_INTEGER}`)).body.title).toBe('Last');
    expect((await call('POST', '/projects/2/issues', { title: 'Elsewhere' })).status).toBe(201);
  });

  it('answers a confirmation that is not the record with the record\'s fields it has a place for', async () => {
    const { call } = await walk(NUMBERED, { counts: { projects: 1, issues: 1, comments: 0 } }, { Authorization: 'Bearer petstore-demo-key' });
    const comment = (await call('POST', '/projects/1/issues/1/comments', { body: 'Bye' })).body;
    const deleted = await call('DELETE', `/projects/1/issues/1/comments/${comment.id}`);
    expect([deleted.status, deleted.body]).toEqual([200, { deleted: true, id: comment.id }]);
  });
});
