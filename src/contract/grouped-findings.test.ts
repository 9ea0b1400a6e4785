/**
 * A red in a size a person can read: findings grouped by cause, one line per check and
 * received-versus-documented, with the operations and counts under it and one example. A server
 * that breaks one promise on every answer of 8 collections gives more than 300 findings and the
 * same few causes as on 2 collections: the report grows with causes, not with findings.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { namelessDocument, namelessServer } from '../test-support/contract-servers/nameless-server.js';
import { formatReport } from './report/console.js';
import { runContract } from './run-contract.js';

const inProcess = (handler: (request: Request) => Promise<Response>) => (url: string, init: RequestInit) => handler(new Request(url, init));

async function run(collections: string[]) {
  const server = namelessServer(collections);
  return runContract({ document: await loadDocument(namelessDocument(collections)), baseUrl: 'http://nameless.test', fetch: inProcess(server.fetch) });
}

describe('findings grouped by cause', () => {
  const many = ['shelves', 'lamps', 'chairs', 'desks', 'rugs', 'stools', 'mirrors', 'clocks'];

  it('one missing required field on every answer of 8 collections: one cause with its 24 operations, the whole red in a screen', async () => {
    const report = await run(many);
    expect(report.failures.length).toBeGreaterThan(300);
    const [top] = report.causes.failures;
    expect(top.check).toBe('response_schema_conformance');
    expect(top.text).toBe('received 200, 201 without body.name, documented 200, 201 requires field `name`');
    // Every create, read and replace of every collection: 3 x 8 operations under one line.
    expect(top.operations.map((o) => o.operationId).sort()).toEqual(many.flatMap((name) => [`create_${name}`, `get_${name}`, `replace_${name}`]).sort());
    expect(top.count).toBe(top.operations.reduce((sum, o) => sum + o.count, 0));
    // Every failure is in exactly one cause.
    expect(report.causes.failures.reduce((sum, c) => sum + c.count, 0)).toBe(report.failures.length);
    const text = formatReport(report);
    const section = text.slice(text.indexOf('Failures:'), text.indexOf('\nSkipped')).split('\n');
    expect(section[0]).toBe(`Failures: ${report.failures.length} finding(s) of ${report.causes.failures.length} cause(s)`);
    expect(section.length).toBeLessThanOrEqual(1 + 5 * report.causes.failures.length);
    expect(section.length).toBeLessThan(30);
    expect(section[1]).toBe('✗ [response_schema_conformance] received 200, 201 without body.name, documented 200, 201 requires field `name`');
    expect(section[2]).toMatch(/^ {4}\d+ time\(s\) on 24 operation\(s\): GET \/\w+\/\{id\} \(get_\w+\) \d+, .*, and 16 more$/);
    expect(section[3]).toMatch(/^ {4}e\.g\. POST \/shelves: case: create a shelves record; request: POST \/shelves; response: 201 \{/);
    expect(section[4]).toMatch(/^ {4}repro: curl -sS -i -X POST 'http:\/\/nameless\.test\/shelves' /);
  });

  it('the causes do not grow with the operations: the same on 2 collections as on 8', async () => {
    const few = await run(many.slice(0, 2));
    const all = await run(many);
    expect(all.failures.length).toBeGreaterThan(3 * few.failures.length);
    const causes = (report: typeof few) => report.causes.failures.map((c) => `[${c.check}] ${c.text.replace(/"[^"]*"/g, '"…"')}`).sort();
    expect(causes(all)).toEqual(causes(few));
    // The items of a list are one cause, whatever their index (the values quoted are the first example's, so not compared).
    expect(causes(all)).toContain('[response_schema_conformance] received 200 without body.*.name, documented 200 requires field `name`');
  });
});
