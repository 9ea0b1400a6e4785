/**
 * The unknown-resources phase on its own: for each item operation that declares 404, it reads a
 * key no record has and expects the 404; an operation declaring no 404 is skipped with the reason.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../openapi/document/load-document.js';
import { NOTES, notesServer } from '../../test-support/contract-servers/small-notes.js';
import { checkRegistry } from '../checks/index.js';
import { ContractContext } from '../context.js';
import { Targets } from './phase.js';
import { unknownPhase } from './unknown.js';

const document = await loadDocument(NOTES);

async function runPhase(server: ReturnType<typeof notesServer>) {
  const ctx = new ContractContext({ document, baseUrl: 'http://notes.test', token: 't0ken', fetch: server.fetch, only: ['unknown_resource'] }, checkRegistry());
  await unknownPhase.run(ctx, new Targets(ctx));
  const row = (id: string) => ctx.results.rows(() => 'nothing judged').find((o) => o.check === 'unknown_resource' && o.operationId === id)!;
  return { ctx, row };
}

describe('unknownPhase', () => {
  it('reads a key no record has and passes on the 404; aims a DELETE only at a key a read showed free', async () => {
    const server = notesServer();
    const { ctx, row } = await runPhase(server);
    const probes = ctx.exchanges.filter((ex) => ex.case.purpose?.check === 'unknown_resource');
    expect(probes.map((ex) => `${ex.case.method} ${ex.status}`)).toContain('GET 404');
    expect(row('getNote')).toMatchObject({ passed: 1, failed: 0 });
    const deletes = server.seen.filter((line) => line.startsWith('DELETE'));
    expect(deletes.length).toBeGreaterThan(0);
    for (const line of deletes) {
      const path = line.split(' ')[1];
      expect(path).not.toMatch(/^\/notes\/[12]$/); // the records that were there
      expect(server.seen.indexOf(`GET ${path} Bearer t0ken`), `${line} after a read of it`).toBeGreaterThanOrEqual(0);
      expect(server.seen.indexOf(`GET ${path} Bearer t0ken`)).toBeLessThan(server.seen.indexOf(line));
    }
    expect(row('deleteNote')).toMatchObject({ passed: 1, failed: 0 });
    expect(row('listNotes').skipped).toEqual(['not an operation on one record of a collection the suite recognised']);
  });

  it('fails a server that answers 200 for a key no record has', async () => {
    const server = notesServer();
    const always = async (url: string, init?: RequestInit) => {
      const response = await server.fetch(url, init);
      return response.status === 404 ? new Response(JSON.stringify({ id: 404, text: 'made up' }), { status: 200, headers: { 'Content-Type': 'application/json' } }) : response;
    };
    const { ctx, row } = await runPhase({ ...server, fetch: always });
    expect(row('getNote').failed).toBeGreaterThan(0);
    expect(ctx.results.findings.find((f) => f.check === 'unknown_resource')).toMatchObject({ operationId: 'getNote', request: expect.stringMatching(/^GET \/notes\/\d+$/) });
  });
});
