/**
 * Every answer the suite receives is judged for a 5xx, those of clean-up and of edge probes
 * included; and a 5xx the suite's own requests provoked for every later caller (an author deleted
 * while a book still points at it, then every read of the book answering 500) is reported with the
 * sequence that led to it, as curl lines in order.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { ORPHANS, orphansServer } from '../test-support/contract-servers/orphans-server.js';
import { formatReport } from './report/console.js';
import { toJUnit } from './report/junit.js';
import { runContract } from './run-contract.js';

const document = await loadDocument(ORPHANS);
const inProcess = (handler: (request: Request) => Promise<Response>) => (url: string, init: RequestInit) => handler(new Request(url, init));

describe('5xx everywhere', async () => {
  const server = orphansServer();
  const report = await runContract({ document, baseUrl: 'http://orphans.test', fetch: inProcess(server.fetch) });
  // The book the suite made whose author it then deleted: the server can neither read nor delete it.
  const orphans = [...server.books.values()].filter((book) => !server.authors.has(book.authorId as number));
  const serverErrors = report.failures.filter((f) => f.check === 'not_a_server_error');

  it('a read that answered 200, then 500 after the suite deleted what it points at: a finding with the requests that led to it', () => {
    expect(orphans).toHaveLength(1);
    const [book] = orphans;
    const provoked = serverErrors.filter((f) => f.operationId === 'getBook');
    expect(provoked).toHaveLength(1);
    expect(provoked[0].received).toBe(`500 Internal Server Error: author of book not found, after DELETE /authors/${String(book.authorId)} answered 204 (the same read answered 200 before it)`);
    expect(provoked[0].sequence).toEqual([
      `curl -sS -i -X GET 'http://orphans.test/books/${book.id}'  # answered 200`,
      `curl -sS -i -X DELETE 'http://orphans.test/authors/${String(book.authorId)}'  # answered 204`,
      `curl -sS -i -X GET 'http://orphans.test/books/${book.id}'  # answered 500`,
    ]);
    // For every later caller: the read, sent once more, failed again.
    expect(provoked[0].confirmation).toBe('seen again when sent once more (500)');
    expect(server.calls.filter((call) => call === `GET /books/${book.id} 500`)).toHaveLength(2);
    const text = formatReport(report);
    expect(text).toContain(`    sequence that led to it:\n      ${provoked[0].sequence!.join('\n      ')}\n`);
    expect(toJUnit(report)).toContain(`sequence:\n${provoked[0].sequence!.join('\n').replace(/'/g, '&apos;')}`);
  });

  it('a clean-up DELETE answered 500 is a not_a_server_error finding, and the record it could not delete is named', () => {
    const [book] = orphans;
    const cleanUp = serverErrors.filter((f) => f.operationId === 'deleteBook');
    expect(cleanUp.length).toBeGreaterThan(0);
    expect(cleanUp.every((f) => f.label === 'clean-up' && f.request === `DELETE /books/${book.id}` && f.received === '500 Internal Server Error: author of book not found')).toBe(true);
    expect(report.leftBehind).toEqual([`POST /books answered 201, key ${book.id}: not deleted, its DELETE answered 500`]);
    expect(report.flaky).toEqual([]);
    // Nothing else failed: the 5xx are all the server did wrong.
    expect([...new Set(report.failures.map((f) => `${f.check} ${f.operationId}`))].sort()).toEqual(['edge_cases getBook', 'not_a_server_error deleteBook', 'not_a_server_error getBook', 'status_code_conformance getBook']);
  });
});

describe('a 5xx after a write of the suite\'s that a second read does not show', () => {
  it('is a 5xx all the same, reported without a sequence (it does not hold for every later caller), never flaky', async () => {
    const server = orphansServer({ crash: 'once' });
    const report = await runContract({ document, baseUrl: 'http://orphans.test', fetch: inProcess(server.fetch) });
    const errors = report.failures.filter((f) => f.check === 'not_a_server_error');
    expect(errors.map((f) => [f.operationId, f.received, f.confirmation, f.sequence])).toEqual([['getBook', '500 Internal Server Error: author of book not found', 'a 5xx once: the same read sent once more answered 200', undefined]]);
    expect(report.flaky).toEqual([]);
    // Read once more, and deleted by the clean-up: nothing is left.
    expect(report.leftBehind).toEqual([]);
  });
});
