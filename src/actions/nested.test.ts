import { describe, expect, it } from 'vitest';
import { ROOT } from '../test-support/petstore.js';
import { walk } from '../test-support/walk.js';

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
  it('deal their records to the seeded parents, each listed under its own parent only', async () => {
    const { call } = await walk(ISSUES, { apiKeys: ['k-123'], counts: { projects: 3, issues: 7 } }, { Authorization: 'Bearer k-123' });
    const projects: Array<{ key: string }> = (await call('GET', '/projects')).body;
    const lists = await Promise.all(projects.map(async (p) => (await call('GET', `/projects/${p.key}/issues`)).body as Array<{ number: number }>));
    expect(lists.map((issues) => issues.length)).toEqual([3, 2, 2]);
    const numbers = lists.flat().map((issue) => issue.number);
    expect(new Set(numbers).size).toBe(7);
    const [first] = lists[1];
    expect((await call('GET', `/projects/${projects[1].key}/issues/${first.number}`)).body).toEqual(first);
    expect((await call('GET', `/projects/${projects[0].key}/issues/${first.number}`)).status).toBe(404);
  });
});
