/**
 * ContractContext against an in-process server: a request is built from the operation and the
 * spec (path parameters, the token as the document asks for it), sent through the fetch it was
 * given, recorded, and judged by the selected checks; the operations and their collection come
 * from the document.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { checkRegistry } from './checks/index.js';
import { ContractContext, UnsafeRequestError } from './context.js';
import { NOTES, notesServer } from '../test-support/contract-servers/small-notes.js';

const document = await loadDocument(NOTES);
const contextFor = (server: ReturnType<typeof notesServer>) => new ContractContext({ document, baseUrl: 'http://notes.test/', token: 't0ken', fetch: server.fetch }, checkRegistry());
const outcome = (ctx: ContractContext, check: string, operationId: string) => ctx.results.rows(() => '').find((o) => o.check === check && o.operationId === operationId)!;

describe('ContractContext', () => {
  it('reads the operations and their collection from the document', () => {
    const ctx = contextFor(notesServer());
    expect(ctx.operations.map((op) => op.id)).toEqual(['listNotes', 'getNote', 'deleteNote']);
    expect(ctx.collections.map((c) => [c.name, c.itemPath, c.keyParam])).toEqual([['notes', '/notes/{id}', 'id']]);
  });

  it('sends a request with its path parameters and the token, records the exchange and judges it', async () => {
    const server = notesServer();
    const ctx = contextFor(server);
    const getNote = ctx.operations.find((op) => op.id === 'getNote')!;
    const exchange = await ctx.request(getNote, { label: 'note 1', params: { id: 1 } });
    expect(server.seen).toEqual(['GET /notes/1 Bearer t0ken']);
    expect(exchange).toMatchObject({ status: 200, json: { id: 1, text: 'note 1' } });
    expect(ctx.exchanges).toEqual([exchange]);
    expect(outcome(ctx, 'status_code_conformance', 'getNote')).toMatchObject({ passed: 1, failed: 0 });
    expect(outcome(ctx, 'response_schema_conformance', 'getNote')).toMatchObject({ passed: 1, failed: 0 });
    expect(ctx.results.findings).toEqual([]);
  });

  it('files a finding, with a curl to repeat it, for an answer that breaks the document', async () => {
    const ctx = contextFor(notesServer((id) => ({ id: String(id) })));
    const getNote = ctx.operations.find((op) => op.id === 'getNote')!;
    await ctx.request(getNote, { label: 'note 2', params: { id: 2 } });
    const checks = ctx.results.findings.map((f) => f.check);
    expect(checks).toContain('response_schema_conformance');
    const finding = ctx.results.findings.find((f) => f.check === 'response_schema_conformance')!;
    expect(finding).toMatchObject({ operationId: 'getNote', request: 'GET /notes/2' });
    expect(finding.repro).toMatch(/^curl .*'http:\/\/notes\.test\/notes\/2'.*\$TOKEN/);
  });

  it('never sends a write on a record it did not create', async () => {
    const server = notesServer();
    const ctx = contextFor(server);
    const deleteNote = ctx.operations.find((op) => op.id === 'deleteNote')!;
    await expect(ctx.request(deleteNote, { label: 'note 1', params: { id: 1 } })).rejects.toThrow(UnsafeRequestError);
    expect(server.seen).toEqual([]);
  });
});
