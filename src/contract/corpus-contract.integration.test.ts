/**
 * The suite is driven by the document, not by the Petstore: pointed at the mock serving
 * third-party documents, it passes where the document is consistent, and where it is not, it
 * reports exactly the document's own gap.
 */
import { describe, expect, it } from 'vitest';
import { buildMock } from '../mock/app.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { serverBasePath } from '../openapi/operations/server-base-path.js';
import { CORPUS } from '../test-support/petstore.js';
import { describeFinding, type Exchange } from './case.js';
import { judgedCounts } from '../test-support/contract-servers/judged-counts.js';
import { runContract } from './run-contract.js';

/** Every exchange of the last run, for the confirmation counts. */
let sent: Exchange[] = [];

/** The mock is a disposable server here: every write is vouched for (`allowWrites: ['all']`) unless said otherwise. */
async function contractOf(file: string, options: { allowWrites?: string[]; allowLeftovers?: boolean; seed?: number } = { allowWrites: ['all'] }) {
  const document = await loadDocument(`${CORPUS}/${file}`);
  const mock = buildMock(document, { counts: { default: 5 } });
  sent = [];
  return runContract({
    document,
    baseUrl: `http://mock.test${serverBasePath(document.api)}`,
    token: 'petstore-demo-key',
    fetch: async (url, init) => mock.app.fetch(new Request(url, init)),
    onExchange: (exchange) => sent.push(exchange),
    ...options,
  });
}

/**
 * Operations of each document that got a successful answer to a valid request (of all its
 * operations), so a pass is not a pass over nothing. The documents whose schemas allow no value
 * for some bodies (openfigi's overlapping oneOf, the readme examples) reach fewer, and the report
 * says why for each operation it skipped (a discriminated `oneOf` is checked by the branch its value
 * chooses, issue 40: readme-discriminators' bodies went from 1 operation reached to 8, and
 * readme-polymorphism's from 5 to 6). 1password's GetItemFiles names its vault and item with
 * `format: uuid`, which no vault id (`^[\da-z]{26}$` elsewhere in the document) can match: the mock
 * scopes items and files under their parents, so that path has no record to answer for (404).
 * Deletes count once stateful exploration deletes a record of its own with a plain valid request.
 */
const REACHED: Record<string, [number, number]> = {
  'apisguru-1password-connect.yaml': [13, 15],
  'apisguru-apis-guru.yaml': [7, 7],
  'apisguru-dvla-vehicle-enquiry.yaml': [1, 1],
  'apisguru-openfigi.yaml': [0, 2],
  'apisguru-remove-bg.yaml': [3, 3],
  'apisguru-twilio-bulkexports.yaml': [5, 9],
  'bump-train-travel.yaml': [7, 7],
  'oai-api-with-examples.yaml': [2, 2],
  'oai-callback-example.yaml': [1, 1],
  'oai-link-example.yaml': [3, 6],
  'oai-petstore-expanded.yaml': [4, 4],
  'oai-petstore.yaml': [2, 3],
  'oai-swagger2-uber.yaml': [5, 5],
  'oai-uspto.yaml': [3, 3],
  'oai31-non-oauth-scopes.json': [1, 1],
  'readme-discriminators.yaml': [8, 10],
  'readme-polymorphism.yaml': [6, 13],
  'readme31-schema-types.yaml': [16, 22],
  'redocly-museum.yaml': [8, 8],
  'swagger-petstore3.yaml': [19, 19],
};

/**
 * Faults of a body for which no case could be built that the document's validator finds breaking
 * the rule, so none was sent: a `oneOf`/`anyOf` whose other branch does not hold the rule (an enum
 * or a type only one branch states; the branches of readme-polymorphism's Cat and Dog overlap).
 */
const NOT_CONFIRMED: Record<string, number> = {
  'readme-discriminators.yaml': 1,
  'readme-polymorphism.yaml': 3,
};

describe('the contract suite on third-party documents, against the mock (the reference implementation)', () => {
  for (const [file, [reached, operations]] of Object.entries(REACHED)) {
    it(`passes ${file}, ${reached} of its ${operations} operations answered a valid request with success`, async () => {
      const report = await contractOf(file);
      expect(report.failures.map(describeFinding)).toEqual([]);
      const accepted = new Set(report.outcomes.filter((o) => o.check === 'positive_data_acceptance' && o.passed > 0).map((o) => o.operationId));
      expect([accepted.size, new Set(report.outcomes.map((o) => o.operationId)).size]).toEqual([reached, operations]);
    });

    it(`judges every case of ${file} with the document's validator before sending it: each valid one found valid, each invalid one breaking its rule`, async () => {
      const report = await contractOf(file);
      expect(report.confirmed).toEqual({ ...judgedCounts(sent), unconfirmed: report.unconfirmed.length });
      // What was not sent is a fault no case could be confirmed for (the rule does not hold where the suite broke it), never a valid request.
      expect(report.unconfirmed.filter((n) => !/^no case of .* that the document's validator confirms/.test(n.reason))).toEqual([]);
      expect(report.unconfirmed.length).toBe(NOT_CONFIRMED[file] ?? 0);
    });
  }

  // Exploration draws other inputs and sequences at every seed: the reference implementation keeps every promise at each.
  it('passes every document at seeds 2 to 6 too, exploration included', async () => {
    const failing: string[] = [];
    let explored = 0;
    for (const file of Object.keys(REACHED)) {
      for (let seed = 2; seed <= 6; seed++) {
        const report = await contractOf(file, { allowWrites: ['all'], seed });
        failing.push(...report.failures.map((f) => `${file} seed ${seed}: ${describeFinding(f)}`));
        explored += report.exploration && 'requests' in report.exploration ? report.exploration.requests : 0;
      }
    }
    expect(failing).toEqual([]);
    // Not a pass over nothing: exploration sent its requests (a document of parameterless reads has none to draw).
    expect(explored).toBeGreaterThan(10_000);
  }, 300_000);

  it('refuses to pass a document with no operation to check (only webhooks)', async () => {
    await expect(contractOf('oai31-webhook-example.yaml')).rejects.toThrow('has no operation to check');
  });

  it('passes redocly-museum, and reports its gap apart: a secured API that declares no 401', async () => {
    const report = await contractOf('redocly-museum.yaml');
    expect(report.failures.map(describeFinding)).toEqual([]);
    expect(new Set(report.gaps.map((f) => `${f.check}: received ${f.received}`))).toEqual(new Set(['status_code_conformance: received 401']));
    // The tickets it buys have no path to delete them by: left behind, which fails the run unless allowed.
    expect(report.leftBehind).toHaveLength(1);
    expect(report.conforms).toBe(false);
    expect((await contractOf('redocly-museum.yaml', { allowWrites: ['all'], allowLeftovers: true })).conforms).toBe(true);
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

describe('the contract suite on third-party documents, as it runs on a server it must not harm (no --allow-write)', () => {
  /** Per document: the operations never sent (they could change records of others), and what the run says it left. */
  const NEVER_SENT: Record<string, { notSent: string[]; left: RegExp[] }> = {
    // Vaults cannot be created through the API: an item added to one would change a vault the suite did not create, so it has no item of its own to change.
    'apisguru-1password-connect.yaml': { notSent: ['POST /vaults/{vaultUuid}/items', 'PUT /vaults/{vaultUuid}/items/{itemUuid}', 'DELETE /vaults/{vaultUuid}/items/{itemUuid}', 'PATCH /vaults/{vaultUuid}/items/{itemUuid}'], left: [] },
    'apisguru-dvla-vehicle-enquiry.yaml': { notSent: ['POST /v1/vehicles'], left: [] },
    'apisguru-openfigi.yaml': { notSent: ['POST /mapping'], left: [] },
    // Exports cannot be created: a configuration or job under one would change an export of others.
    'apisguru-twilio-bulkexports.yaml': { notSent: ['POST /v1/Exports/{ResourceType}/Configuration', 'POST /v1/Exports/{ResourceType}/Jobs'], left: [] },
    'apisguru-remove-bg.yaml': { notSent: ['POST /improve', 'POST /removebg'], left: [] },
    'oai-callback-example.yaml': { notSent: [], left: [/^POST \/streams\?callbackUrl=.+ answered 201, no key shown: it created a record the suite cannot find to delete \(no collection of the document lists it\)$/] },
    'oai-link-example.yaml': { notSent: ['POST /2.0/repositories/{username}/{slug}/pullrequests/{pid}/merge'], left: [] },
    'oai-petstore.yaml': { notSent: [], left: [/^POST \/pets answered 201, key \d+: not deleted, the document has no DELETE for it$/, /^POST \/pets answered 201, key \d+: not deleted, the document has no DELETE for it$/] },
    'oai-uspto.yaml': { notSent: ['POST /{dataset}/{version}/records'], left: [] },
    'redocly-museum.yaml': { notSent: [], left: [/^POST \/tickets answered 201, no key shown: it created a record the suite cannot find to delete \(no collection of the document lists it\)$/] },
    'swagger-petstore3.yaml': { notSent: ['PUT /pet', 'POST /user/createWithList'], left: [] },
  };

  it('passes every document, sends no write it cannot prove its own, and says what it left', async () => {
    for (const file of Object.keys(REACHED)) {
      const report = await contractOf(file, {});
      expect(report.failures.map(describeFinding), file).toEqual([]);
      const expected = NEVER_SENT[file] ?? { notSent: [], left: [] };
      // The readme documents show schema shapes through writes on paths that name no record: every one of them is never sent.
      if (file.startsWith('readme')) expect(report.notSent.length, file).toBe(REACHED[file][1]);
      else expect(report.notSent.map((n) => n.operation), file).toEqual(expected.notSent);
      if (file === 'apisguru-1password-connect.yaml') expect(report.notSent[0].reason).toMatch(/^its path parameter `vaultUuid` = ".+" names no vaults record the suite created$/);
      expect(report.leftBehind, file).toHaveLength(expected.left.length);
      report.leftBehind.forEach((line, i) => expect(line, file).toMatch(expected.left[i]));
      expect(report.harm ?? [], file).toEqual([]);
    }
  });
});
