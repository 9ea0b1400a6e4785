/**
 * One compiled document per process: the mock, the contract suite, the proxy (its mock, inspector
 * and recorder) and the banner use the one they are given, and build no validators of their own:
 * they use its parts (spied on here), and no module but this one sets the parts up (read from the
 * source, as the architecture test reads imports; unit files share a module cache, so Ajv
 * instances cannot be counted by mocking a module).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../../mock/app.js';
import { tryCommand } from '../../cli/banner.js';
import { checkRegistry } from '../../contract/checks/index.js';
import { ContractContext } from '../../contract/context.js';
import { loadContractParts } from '../../contract/plugin.js';
import { runContract } from '../../contract/run-contract.js';
import { inferCollections } from '../operations/infer-collections.js';
import { buildOperations } from '../operations/build-operations.js';
import { DEFAULT_PLUGINS } from '../../plugins/index.js';
import { buildProxy } from '../../proxy/proxy.js';
import { createRecorder } from '../../proxy/record.js';
import { AUTH, FIXTURES, petstoreDocument } from '../../test-support/petstore.js';
import { SRC, sourceFiles } from '../../test-support/source-files.js';
import { compileDocument, type CompiledDocument } from './compiled-document.js';

/** Counts the uses of a compiled document's parts, by part. */
function spied(compiled: CompiledDocument) {
  // The validators are getters of function values: spied as properties.
  const parts = compiled as unknown as Record<'checkResponse' | 'responseValidator' | 'requestValidator', unknown>;
  return {
    ajv: vi.spyOn(compiled, 'ajv', 'get'),
    collections: vi.spyOn(compiled, 'collections', 'get'),
    checkResponse: vi.spyOn(parts, 'checkResponse', 'get'),
    responseValidator: vi.spyOn(parts, 'responseValidator', 'get'),
    requestValidator: vi.spyOn(parts, 'requestValidator', 'get'),
    requestJudge: vi.spyOn(compiled, 'requestJudge'),
    requestValidators: vi.spyOn(compiled, 'requestValidators'),
  };
}

/** The setups of a document's validators: each module outside the compiled document that calls one builds its own. */
const SETUPS = /\bcreateAjv\(|new SchemaConverter\(|\bschemaCompiler\(|\binferCollections\(/;

const inProcess = (app: { fetch: (request: Request) => Response | Promise<Response> }) => async (url: string | URL | Request, init?: RequestInit) => app.fetch(new Request(url, init));

describe('one compiled document', () => {
  it('builds each part once, the same for every caller', async () => {
    const compiled = compileDocument(await petstoreDocument());
    const pet = compiled.document.api.components!.schemas!.Pet;
    expect(compiled.operations).toBe(compiled.operations);
    expect(compiled.collections).toBe(compiled.collections);
    expect(compiled.ajv).toBe(compiled.ajv);
    expect(compiled.converter).toBe(compiled.converter);
    expect(compiled.requestValidator(pet)).toBe(compiled.requestValidator(pet));
    const reading = { maxBodyBytes: 1024 };
    expect(compiled.requestValidators(reading)(compiled.operations[0])).toBe(compiled.requestValidators({ maxBodyBytes: 1024 })(compiled.operations[0]));
  });

  it('is the one the mock and the suite of `contract --dry-run` share, and its validators serve both', async () => {
    const document = await petstoreDocument();
    const compiled = compileDocument(document);
    const used = spied(compiled);
    const mock = buildMock(document, { compiled, fixtures: FIXTURES, plugins: DEFAULT_PLUGINS });
    expect(mock.compiled).toBe(compiled);
    expect(mock.operations).toBe(compiled.operations);
    expect(used.ajv).toHaveBeenCalled();
    expect(used.requestValidators).toHaveBeenCalled();
    const judged = used.requestJudge.mock.calls.length;
    const report = await runContract({ document, compiled, baseUrl: 'http://mock.test', token: DEMO_API_KEY, explore: false, only: ['status_code_conformance', 'response_schema_conformance'], fetch: inProcess(mock.app) });
    expect(report.failures).toEqual([]);
    expect(report.requests).toBeGreaterThan(0);
    // The suite's confirmation judges with the compiled document's validators, its checks read its response checker.
    expect(used.requestJudge.mock.calls.length).toBe(judged + 1);
    expect(used.checkResponse).toHaveBeenCalled();
    const ctx = new ContractContext({ document, compiled, baseUrl: 'http://mock.test' }, checkRegistry([]));
    expect(ctx.compiled).toBe(compiled);
    expect(ctx.requestValidator).toBe(compiled.requestValidator);
  });

  it("keeps the mock's collections as inferred when the suite leaves out those it cannot address", async () => {
    const document = await petstoreDocument();
    const compiled = compileDocument(document);
    const before = JSON.stringify(inferCollections(buildOperations(document.api)).collections.map((c) => [c.name, c.children, c.references]));
    const ctx = new ContractContext({ document, compiled, baseUrl: 'http://mock.test' }, checkRegistry([]));
    expect(ctx.collections.length).toBeGreaterThan(0);
    expect(JSON.stringify(compiled.collections.map((c) => [c.name, c.children, c.references]))).toBe(before);
  });

  it('is the one the proxy, its mock, its inspector and its recorder share, and its parts serve all', async () => {
    const document = await petstoreDocument();
    const upstream = buildMock(document, { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS, seed: 3 });
    const dir = mkdtempSync(join(tmpdir(), 'compiled-document-'));
    try {
      const compiled = compileDocument(document);
      const used = spied(compiled);
      const recorder = createRecorder({ dir, document, compiled });
      const proxy = buildProxy(document, { compiled, upstream: 'http://upstream.test', fetch: inProcess(upstream.app), contractPlugins: await loadContractParts(DEFAULT_PLUGINS), mock: { plugins: DEFAULT_PLUGINS, fixtures: FIXTURES }, onAnswer: (answer) => recorder.observe(answer) });
      expect(proxy.compiled).toBe(compiled);
      expect(proxy.mock.compiled).toBe(compiled);
      const listed = await proxy.fetch(new Request('http://127.0.0.1:4010/pets?limit=2', { headers: AUTH }));
      expect(listed.status).toBe(200);
      const refused = await proxy.fetch(new Request('http://127.0.0.1:4010/pets?limit=5000', { headers: AUTH }));
      expect(refused.status).toBe(400);
      expect(proxy.violations.counts().total).toBeGreaterThan(0);
      expect(recorder.close().records).toBeGreaterThan(0);
      // The recorder's collections and record checks, the inspector's request judge and response checks.
      expect(used.collections).toHaveBeenCalled();
      expect(used.responseValidator).toHaveBeenCalled();
      expect(used.requestJudge).toHaveBeenCalledWith({ maxBodyBytes: 65536 });
      expect(used.checkResponse).toHaveBeenCalled();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("builds one of its own for a proxy given none, and hands it to the proxy's mock", async () => {
    const document = await petstoreDocument();
    const upstream = buildMock(document, { fixtures: FIXTURES, plugins: DEFAULT_PLUGINS });
    const proxy = buildProxy(document, { upstream: 'http://upstream.test', fetch: inProcess(upstream.app), mock: { plugins: DEFAULT_PLUGINS, fixtures: FIXTURES } });
    expect(proxy.mock.compiled).toBe(proxy.compiled);
    expect((await proxy.fetch(new Request('http://127.0.0.1:4010/pets/1', { headers: AUTH }))).status).toBe(200);
  });

  it("checks the banner's generated values with the mock's compiled document", async () => {
    const document = await petstoreDocument();
    const mock = buildMock(document, { plugins: DEFAULT_PLUGINS });
    // A request body the banner generates (its example removed) is checked with the mock's request validators.
    const used = spied(mock.compiled);
    const bodyless = { ...mock, operations: mock.operations.filter((op) => op.method === 'post' && op.path === '/pets').map((op) => ({ ...op, requestBody: { ...op.requestBody!, content: { 'application/json': { schema: op.requestBody!.content['application/json'].schema } } } })) };
    const command = tryCommand({ url: 'http://127.0.0.1:3000', mock: bodyless, document, args: { host: '127.0.0.1', watch: false } });
    expect(command).toContain('-d ');
    expect(used.requestValidator).toHaveBeenCalled();
  });

  it('is the only module of src/ that sets up a document\'s validators or collections', () => {
    // Comments and JSDoc examples name the calls too: only code counts.
    const setups = sourceFiles().filter((file) => SETUPS.test(readFileSync(join(SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')));
    // Besides the compiled document: where the setups are defined (a default argument of the response checker).
    expect(setups).toEqual(['openapi/operations/infer-collections.ts', 'openapi/validation/ajv-instance.ts', 'openapi/validation/compile-schema.ts', 'openapi/validation/compiled-document.ts', 'openapi/validation/validate-response.ts']);
  });
});
