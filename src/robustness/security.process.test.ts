/**
 * Security of the real CLI (dist/cli.js: `npm run build` first): an API key, accepted or refused,
 * is never written to its log. The rest of security.test.ts runs in-process.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startCli } from '../test-support/processes.js';

const stop: Array<() => void> = [];
afterAll(() => stop.forEach((s) => s()));

describe('security', () => {
  it('never writes an API key to the logs, whether accepted or refused', async () => {
    const cli = await startCli(['--api-key', 'k3y-accepted-123'], { MOCK_API_KEYS: 'k3y-from-env-456' });
    stop.push(() => cli.child.kill('SIGKILL'));
    for (const token of ['k3y-accepted-123', 'k3y-refused-789']) {
      await fetch(`${cli.url}/pets`, { headers: { Authorization: `Bearer ${token}` } });
      await fetch(`${cli.url}/pets`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{' });
      await fetch(`${cli.url}/nowhere`, { headers: { Authorization: `Bearer ${token}` } });
    }
    const exited = new Promise((resolve) => cli.child.on('exit', resolve));
    cli.child.kill('SIGTERM');
    await exited;
    expect(cli.output()).toMatch(/1 key\(s\) from --api-key \(not shown\)/);
    expect(cli.output()).not.toMatch(/k3y-/);
  });
});
