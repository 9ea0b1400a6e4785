/**
 * The suite is driven by the document, not by the Petstore: pointed at the mock serving
 * third-party documents, it passes where the document is consistent, and where it is not, it
 * reports exactly the document's own gap.
 */
import { describe, expect, it } from 'vitest';
import { createMock } from '../src/app.js';
import { loadDocument } from '../src/document/load-document.js';
import { serverBasePath } from '../src/routing/server-base-path.js';
import { CORPUS } from '../src/test-support/petstore.js';
import { describeFailure } from './case.js';
import { runContract } from './run-contract.js';

async function contractOf(file: string) {
  const document = await loadDocument(`${CORPUS}/${file}`);
  const mock = createMock(document, { counts: { default: 5 } });
  return runContract({
    document,
    baseUrl: `http://mock.test${serverBasePath(document.api)}`,
    token: 'petstore-demo-key',
    fetch: async (url, init) => mock.app.fetch(new Request(url, init)),
  });
}

describe('the contract suite on third-party documents, against the mock', () => {
  for (const file of ['oai-petstore.yaml', 'oai-petstore-expanded.yaml', 'bump-train-travel.yaml', 'swagger-petstore3.yaml']) {
    it(`passes for ${file}`, async () => {
      const report = await contractOf(file);
      expect(report.failures.map(describeFailure)).toEqual([]);
      expect(report.requests).toBeGreaterThan(4);
    });
  }

  it('reports only the gap of redocly-museum: a secured API that declares no 401', async () => {
    const report = await contractOf('redocly-museum.yaml');
    expect(report.failures.length).toBeGreaterThan(0);
    expect(new Set(report.failures.map((f) => `${f.check}: received ${f.received}`))).toEqual(new Set(['status_code_conformance: received 401']));
  });

  it('reports only the gap of 1password-connect: bounded parameters without a declared 400', async () => {
    const report = await contractOf('apisguru-1password-connect.yaml');
    expect(report.failures.map((f) => `${f.check} ${f.operation} ${f.received}`)).toEqual([
      'status_code_conformance GET /activity 400',
      'status_code_conformance GET /activity 400',
    ]);
  });
});
