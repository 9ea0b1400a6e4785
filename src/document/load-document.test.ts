import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, SPEC } from '../test-support/petstore.js';
import { DocumentLoadError, loadDocument } from './load-document.js';

const dir = mkdtempSync(join(tmpdir(), 'load-document-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function failure(path: string): Promise<string> {
  const error = await loadDocument(path).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(DocumentLoadError);
  return (error as Error).message;
}

describe('loadDocument', () => {
  it('loads, validates and dereferences the Petstore document', async () => {
    const doc = await loadDocument(SPEC);
    expect(doc.dialect).toBe('3.0');
    expect(doc.api.paths['/pets'].post.requestBody.content['application/json'].schema.required).toEqual(['name', 'categoryId']);
  });

  it('accepts a 3.0.4 document and a 3.1 document', async () => {
    expect((await loadDocument(`${CORPUS}/swagger-petstore3.yaml`)).dialect).toBe('3.0');
    expect((await loadDocument(`${CORPUS}/redocly-museum.yaml`)).dialect).toBe('3.1');
  });

  it('keeps circular references as $ref instead of an endless object graph', async () => {
    const doc = await loadDocument(`${CORPUS}/readme31-schema-types.yaml`);
    expect(JSON.stringify(doc.api).length).toBeGreaterThan(1000); // would throw on a cycle
  });

  it('says in one sentence that a file does not exist', async () => {
    expect(await failure(join(dir, 'missing.yaml'))).toMatch(/^Cannot read the OpenAPI document .*missing\.yaml: the file does not exist\.$/);
  });

  it('names the YAML problem of a malformed file', async () => {
    const message = await failure(file('bad.yaml', 'openapi: 3.0.3\ninfo: {title: x\n  version: 1'));
    expect(message).toMatch(/bad\.yaml is not valid YAML or JSON: missed comma between flow collection entries in ".*bad\.yaml" \(3:10\)\.$/);
    expect(message).not.toMatch(/\n/);
  });

  it('refuses Swagger 2.0 and says how to move on', async () => {
    expect(await failure(`${CORPUS}/oai-swagger2-uber.yaml`)).toMatch(/is a Swagger 2\.0 document; only OpenAPI 3\.0 and 3\.1 are supported \(convert it first/);
  });

  it('refuses an unknown OpenAPI version', async () => {
    expect(await failure(file('v4.yaml', 'openapi: 4.0.0\ninfo: {title: x, version: "1"}\npaths: {}\n'))).toMatch(/declares openapi 4\.0\.0; only OpenAPI 3\.0\.x and 3\.1\.x/);
  });

  it('names the first problem of an invalid document', async () => {
    const message = await failure(file('invalid.yaml', 'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responses: {}\n      parameters: [{name: q}]\n'));
    expect(message).toMatch(/^.*invalid\.yaml is not a valid OpenAPI 3\.0\.3 document: .*parameters\/0 must have required property 'schema'\.$/);
  });

  it('refuses a file that holds no object', async () => {
    expect(await failure(file('list.yaml', '- 1\n- 2\n'))).toMatch(/does not contain an OpenAPI document/);
  });
});

describe('loadDocument from a URL', () => {
  it('fetches the document, and says why when it cannot (an error status, nobody listening)', async () => {
    const { createServer } = await import('node:http');
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(SPEC, 'utf8');
    const server = createServer((req, res) => (req.url === '/openapi.yaml' ? res.writeHead(200, { 'Content-Type': 'application/yaml' }).end(text) : res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const doc = await loadDocument(`${base}/openapi.yaml`);
      expect(doc.api.info.title).toBe('Petstore');
      expect(doc.file).toBe(`${base}/openapi.yaml`);
      expect(await failure(`${base}/missing.yaml`)).toBe(`Cannot fetch the OpenAPI document ${base}/missing.yaml: it answered 404.`);
    } finally {
      server.close();
    }
    const { freePort } = await import('../test-support/processes.js');
    const nobody = `http://127.0.0.1:${await freePort()}/openapi.yaml`;
    expect(await failure(nobody)).toBe(`Cannot fetch the OpenAPI document ${nobody}: ECONNREFUSED.`);
  });
});
