/**
 * A mock on a small heap (a small container) fed records until memory runs short: it refuses
 * creates with 507 and keeps answering, instead of dying with "JavaScript heap out of memory" and
 * losing everything since the last write.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { AUTH } from '../test-support/petstore.js';
import { startCli } from '../test-support/processes.js';

const stop: Array<() => void> = [];
afterAll(() => stop.forEach((s) => s()));

describe('a small heap', () => {
  it('refuses writes with 507 before the process runs out of memory, and still serves reads', async () => {
    const mock = await startCli(['--count', '0'], { NODE_OPTIONS: '--max-old-space-size=32' });
    stop.push(() => mock.child.kill());
    const body = JSON.stringify({ name: 'n', description: 'x'.repeat(490) });
    const post = () =>
      fetch(`${mock.url}/categories`, { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body }).then(
        (r) => r.status,
        () => 0, // the connection failed: the process died
      );
    const statuses = new Map<number, number>();
    const started = Date.now();
    while (!statuses.has(507) && !statuses.has(0) && Date.now() - started < 75_000) {
      for (const status of await Promise.all(Array.from({ length: 50 }, post))) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect([...statuses.keys()].sort()).toEqual([201, 507]);
    expect(mock.child.exitCode).toBeNull();
    const refused = await fetch(`${mock.url}/categories`, { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body });
    expect(await refused.json()).toMatchObject({ code: 'STORAGE_FULL', status: 507, message: expect.stringContaining('close to its memory limit') });
    expect((await fetch(`${mock.url}/categories/1`, { headers: AUTH })).status).toBe(200);
  });
});
