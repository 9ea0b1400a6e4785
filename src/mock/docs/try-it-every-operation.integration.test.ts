/**
 * Issue 40, point 3: Try it out works for every operation of every document. For each document of
 * the corpus (test/corpus/), the Petstore as the CLI serves it, and the issue trackers of
 * test/documents/ (tracker-api.yaml: a discriminated `oneOf` body with a mapping, one without on
 * `allOf` branches, one without a discriminator), every operation's default request is sent to a
 * fresh mock and must be accepted: a 2xx, or, for an operation that declares none, a status it
 * declares.
 *
 * The default requests come by the code path the page takes: the mock's GET /__docs (its settings,
 * with the values and bodies the mock confirmed), its /__spec.json, and `documentForDocs`, the
 * function the page's script runs on them; then each request is read from that copy as Swagger
 * UI reads its starting values (src/test-support/try-it-defaults.ts). The browser test
 * (docs-page.browser.test.ts) drives a sample of these through Swagger UI in Chromium and checks
 * that it sends these very requests.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../app.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import type { OperationObject } from '../../openapi/document/objects.js';
import { DEFAULT_PLUGINS } from '../../plugins/index.js';
import { SAMPLE_PRECONDITIONS } from '../../test-support/code-samples.js';
import { caller, CORPUS, FIXTURES, ROOT } from '../../test-support/petstore.js';
import { defaultRequests, pageOf } from '../../test-support/try-it-defaults.js';
import type { DocsAssets } from './docs-endpoint.js';

/** The page needs no asset here: its HTML carries the settings. */
const NO_ASSETS: DocsAssets = { get: () => undefined };

const DOCUMENTS = [
  ...readdirSync(CORPUS).filter((file) => /\.(ya?ml|json)$/.test(file)).map((file) => join(CORPUS, file)),
  join(ROOT, 'spec/openapi.yaml'),
  join(ROOT, 'test/documents/tracker-api.yaml'),
  join(ROOT, 'test/documents/issues-api.yaml'),
];

/**
 * The operations whose default request the mock refuses, each for a reason the page states in the
 * operation's description (checked): what the document says twice, or what only the user can give.
 */
const NOTED: Record<string, string> = {
  // Their vault and item ids are `format: uuid` in the path, `^[\da-z]{26}$` in the records.
  'test/corpus/apisguru-1password-connect.yaml GET /vaults/{vaultUuid}/items/{itemUuid}/files': "no key of the mock's records is valid here",
  'test/corpus/apisguru-1password-connect.yaml GET /vaults/{vaultUuid}/items/{itemUuid}/files/{fileUuid}': "no key of the mock's records is valid here",
  'test/corpus/apisguru-1password-connect.yaml GET /vaults/{vaultUuid}/items/{itemUuid}/files/{fileUuid}/content': "no key of the mock's records is valid here",
  // Jobs are kept per resource type (`POST /v1/Exports/{ResourceType}/Jobs`); this path names none, so it reaches none.
  'test/corpus/apisguru-twilio-bulkexports.yaml DELETE /v1/Exports/Jobs/{JobSid}': 'the mock holds no v1-Exports-Jobs record',
  // Nothing seeds a repository (so no pull request): a list under a user the document answers from its examples.
  'test/corpus/oai-link-example.yaml GET /2.0/repositories/{username}/{slug}/pullrequests/{pid}': 'the mock holds no pullrequests record',
  // Two branches of a oneOf that differ only inside a nested object: no body built here fits exactly one.
  'test/corpus/readme-polymorphism.yaml POST /one-of-complex': 'no body built from the document was accepted',
  // `allOf: [{type: string}, {type: integer}]`: no value is both.
  'test/corpus/readme31-schema-types.yaml PUT /anything/quirks/polymorphism': 'no body built from the document was accepted',
  'test/corpus/readme31-schema-types.yaml PATCH /anything/quirks/polymorphism': 'no body built from the document was accepted',
  // A file: only the user can choose one.
  'test/corpus/swagger-petstore3.yaml POST /pet/{petId}/uploadImage': 'a application/octet-stream body is not made here',
};

/** Whether the status is what try-it should get: a 2xx, or, for an operation that declares no 2xx, a status it declares. */
function accepted(operation: OperationObject, status: number): boolean {
  if (status >= 200 && status < 300) return true;
  const declared = Object.keys(operation.responses ?? {});
  return !declared.some((code) => /^2/.test(code)) && (declared.includes(String(status)) || declared.some((code) => code.toUpperCase() === `${String(status)[0]}XX`));
}

describe('every operation\'s default try-it request, across the corpus', () => {
  for (const file of DOCUMENTS) {
    const name = file.slice(ROOT.length);
    it(`is accepted by a fresh mock of ${name}`, async () => {
      const document = await loadDocument(file);
      const petstore = file.endsWith('spec/openapi.yaml');
      const options = { docs: NO_ASSETS, ...(petstore ? { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS } : {}) };
      const { page, config } = await pageOf(buildMock(document, options));
      const refused: string[] = [];
      const noted: string[] = [];
      for (const request of defaultRequests(page, DEMO_API_KEY)) {
        const where = `${request.method.toUpperCase()} ${request.template}`;
        // A fresh mock for each: one operation's request (a delete) does not change another's state.
        const mock = buildMock(document, options);
        // The one operation of the Petstore that needs a state the seed lacks, as its code sample does (docs/docs-page.md).
        await (petstore ? SAMPLE_PRECONDITIONS[String(request.operation.operationId)] : undefined)?.(caller(mock));
        // The page served by that mock, on that state, as a user opens it before trying.
        const served = await pageOf(mock);
        const sent = defaultRequests(served.page, DEMO_API_KEY).find((r) => r.method === request.method && r.template === request.template)!;
        const note = served.config.values?.unconfirmed?.[`${request.method} ${request.template}`];
        let outcome: string | undefined;
        if (sent.missing.length > 0) outcome = `nothing sent, no value for ${sent.missing.join(', ')}`;
        else if (sent.ownSample) outcome = 'no body given: Swagger UI would send a sample of its own';
        else {
          const response = await mock.app.request(`${config.basePath}${sent.url}`, { method: request.method.toUpperCase(), headers: sent.headers, body: sent.body });
          if (!accepted(request.operation, response.status)) outcome = `${response.status} ${(await response.text()).slice(0, 200)}`;
        }
        const known = NOTED[`${name} ${where}`];
        if (outcome === undefined) expect(known, `${where} is accepted now: drop it from NOTED`).toBeUndefined();
        else if (known !== undefined) noted.push(`${where}: ${note}`);
        else refused.push(`${where}: ${outcome}${note ? ` (the page says: ${note})` : ''}`);
      }
      expect(refused).toEqual([]);
      // Each operation known to be refused says why on the page.
      const expected = Object.entries(NOTED).filter(([key]) => key.startsWith(`${name} `)).map(([key, why]) => `${key.slice(name.length + 1)}: ${why}`);
      expect(noted.map((line, i) => line.slice(0, expected[i]?.length ?? 0))).toEqual(expected);
    });
  }
});
