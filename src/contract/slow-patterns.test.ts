/**
 * The suite judges a server's answers with the document's patterns in linear time (issue 26): a
 * body `aaa…a!` against `^(a+)+$` is a failure found at once (RegExp would backtrack for ever and
 * hold the run), and a pattern RE2 cannot run is in the report as not enforced.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { createAjv } from '../openapi/validation/ajv-instance.js';
import { linearRegExp } from '../core/regex-engine.js';
import { formatReport } from './report/console.js';
import { runContract } from './run-contract.js';

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.closeAllConnections?.() ?? s.close()));

const document = await loadDocument({
  openapi: '3.0.3',
  info: { title: 'Words', version: '1' },
  paths: {
    '/words': {
      get: {
        operationId: 'listWords',
        responses: {
          200: {
            description: 'The words',
            content: { 'application/json': { schema: { type: 'array', items: { type: 'object', properties: { text: { type: 'string', pattern: '^(a+)+$' }, code: { type: 'string', pattern: '^(?=[A-Z])\\w+$' } } } } } },
          },
        },
      },
    },
  },
});

describe('a server whose answer backtracks for ever in RegExp', () => {
  it('is judged at once: a response_schema_conformance failure; the lookahead is reported as not enforced', async () => {
    // Checked first: with RegExp instead, the run below would hold this test for ever rather than fail.
    expect(createAjv('3.0').opts.code.regExp).toBe(linearRegExp);
    const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify([{ text: `${'a'.repeat(5000)}!`, code: 'lower' }])));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const report = await runContract({ document, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, readOnly: true });

    const schema = report.failures.filter((f) => f.check === 'response_schema_conformance');
    expect(schema.length).toBeGreaterThan(0);
    expect(new Set(schema.map((f) => f.documented))).toEqual(new Set(['body.0.text must match pattern "^(a+)+$"']));
    // `lower` breaks the lookahead, which is not enforced: no finding names it.
    expect(JSON.stringify(report.failures)).not.toContain('(?=');
    expect(report.unenforcedPatterns).toEqual([
      { pattern: '^(?=[A-Z])\\w+$', where: '#/paths/~1words/get/responses/200/content/application~1json/schema/items/properties/code/pattern', more: 0, reason: 'it has a lookahead' },
    ]);
    expect(formatReport(report)).toContain(
      'Patterns not enforced (a linear-time engine cannot run them; every string passes them):\n  · "^(?=[A-Z])\\\\w+$" at #/paths/~1words/get/responses/200/content/application~1json/schema/items/properties/code/pattern: it has a lookahead\n',
    );
  });
});
