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
import { describeFinding } from './case.js';
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
      expect(report.failures.map(describeFinding)).toEqual([]);
      expect(report.requests).toBeGreaterThan(4);
    });
  }

  it('passes redocly-museum, and reports its gap apart: a secured API that declares no 401', async () => {
    const report = await contractOf('redocly-museum.yaml');
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(new Set(report.gaps.map((f) => `${f.check}: received ${f.received}`))).toEqual(new Set(['status_code_conformance: received 401']));
    expect(report.conforms).toBe(true);
  });

  it('passes 1password-connect, and reports its gaps apart: bad input refused with a 400 it does not declare', async () => {
    const report = await contractOf('apisguru-1password-connect.yaml');
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(report.gaps.map((f) => `${f.check} ${f.operation} ${f.received} (${f.label})`)).toEqual([
      'status_code_conformance GET /activity 400 (query.limit of the wrong type)',
      'status_code_conformance GET /activity 400 (query.offset of the wrong type)',
      'status_code_conformance PATCH /vaults/{vaultUuid}/items/{itemUuid} 400 (a body that is not JSON)',
      'status_code_conformance PATCH /vaults/{vaultUuid}/items/{itemUuid} 400 (a body without Content-Type)',
    ]);
  });
});
