import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from '../../mock/app.js';
import { CORPUS, ROOT, SPEC } from '../../test-support/petstore.js';
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
    expect(doc.api.paths!['/pets'].post!.requestBody!.content!['application/json'].schema!.required).toEqual(['name', 'categoryId']);
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
    expect(message).toMatch(/bad\.yaml is not valid YAML or JSON: implicit keys need to be on a single line \(2:15\)\.$/);
    expect(message).not.toMatch(/\n/);
  });

  it('refuses an unknown OpenAPI version', async () => {
    expect(await failure(file('v4.yaml', 'openapi: 4.0.0\ninfo: {title: x, version: "1"}\npaths: {}\n'))).toMatch(/declares openapi 4\.0\.0; only OpenAPI 3\.0\.x and 3\.1\.x/);
  });

  it('names the first problem of an invalid document', async () => {
    const message = await failure(file('invalid.yaml', 'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responses: {}\n      parameters: [{name: q}]\n'));
    expect(message).toMatch(/^.*invalid\.yaml is not a valid OpenAPI 3\.0\.3 document: #\/paths\/~1a\/get\/parameters\/0 lacks the required field `schema`\.$/);
  });

  it('names an unknown field, where it is, the fields allowed there and the one meant', async () => {
    const at = (name: string, text: string) => failure(file(name, text)).then((message) => message.slice(message.indexOf(' is not a valid ')));
    expect(await at('foo.yaml', 'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths: {}\nfoo: 1\n')).toBe(
      ' is not a valid OpenAPI 3.0.3 document: unknown field `foo` at the top level (allowed: openapi, info, externalDocs, servers, security, tags, paths, components and x- extensions).',
    );
    expect(await at('contakt.yaml', 'openapi: 3.1.0\ninfo: {title: x, version: "1", contakt: {}}\npaths: {}\n')).toBe(
      ' is not a valid OpenAPI 3.1.0 document: unknown field `contakt` at #/info (allowed: title, summary, description, termsOfService, contact, license, version and x- extensions); did you mean `contact`?',
    );
    const operation = await at('responsez.yaml', 'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responsez: {}\n');
    expect(operation).toMatch(/^ is not a valid OpenAPI 3\.0\.3 document: unknown field `responsez` at #\/paths\/~1a\/get \(allowed: tags, summary, .*, responses, .* and x- extensions\); did you mean `responses`\?$/);
  });

  it('names a type that is none, where it is written, and the type meant', async () => {
    const schema = (type: string) => `openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    X: {type: object, properties: {name: {type: ${type}}}}\n`;
    expect(await failure(file('strin.yaml', schema('strin')))).toMatch(/strin\.yaml is not a valid OpenAPI 3\.0\.3 document: `strin` is not a type at #\/components\/schemas\/X\/properties\/name\/type; did you mean `string`\?$/);
    expect(await failure(file('date.yaml', schema('date')))).toMatch(
      /date\.yaml is not a valid OpenAPI 3\.0\.3 document: `date` is not a type at #\/components\/schemas\/X\/properties\/name\/type \(the types are array, boolean, integer, number, object, string\)\.$/,
    );
    // Another value not allowed: what is allowed, and the one meant.
    const parameter = 'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      parameters: [{name: q, in: qeury, schema: {type: string}}]\n      responses: {"200": {description: ok}}\n';
    expect(await failure(file('in.yaml', parameter))).toMatch(/`qeury` is not allowed at #\/paths\/~1a\/get\/parameters\/0\/in; did you mean `query`\?$/);
  });

  it('refuses a file that holds no object', async () => {
    expect(await failure(file('list.yaml', '- 1\n- 2\n'))).toMatch(/does not contain an OpenAPI document/);
  });
});

describe('loadDocument of a Swagger 2.0 document', () => {
  it('converts it to OpenAPI 3.0 on load and says so', async () => {
    const doc = await loadDocument(`${CORPUS}/oai-swagger2-uber.yaml`);
    expect([doc.dialect, doc.convertedFrom, doc.raw.openapi, doc.raw.swagger]).toEqual(['3.0', '2.0', '3.0.0', undefined]);
    expect(Object.keys(doc.api.paths!)).toEqual(['/products', '/estimates/price', '/estimates/time', '/me', '/history']);
    // host, basePath and schemes became a server; a query parameter's type became its schema.
    expect(doc.api.servers).toEqual([{ url: 'https://api.uber.com/v1' }]);
    expect(doc.api.paths!['/products'].get!.parameters![0]).toMatchObject({ name: 'latitude', in: 'query', required: true, schema: { type: 'number', format: 'double' } });
    expect(doc.api.paths!['/products'].get!.responses!['200'].content!['application/json'].schema!.items!.properties!.product_id.type).toBe('string');
    expect(doc.api.components!.securitySchemes!.apikey).toEqual({ type: 'apiKey', name: 'server_token', in: 'query' });
    expect((await loadDocument(SPEC)).convertedFrom).toBeUndefined();
  });

  it('serves it statefully: create, read, list, delete, and 401 without the key', async () => {
    const { app } = buildMock(await loadDocument(`${ROOT}test/documents/swagger2-notes.yaml`));
    const key = { 'X-API-Key': DEMO_API_KEY };
    const created = await app.request('/v1/notes', { method: 'POST', headers: { ...key, 'Content-Type': 'application/json' }, body: '{"text":"from a 2.0 body parameter"}' });
    expect(created.status).toBe(201);
    const note = (await created.json()) as { id: number; text: string };
    expect(note.text).toBe('from a 2.0 body parameter');
    expect(created.headers.get('Location')).toBe(`/v1/notes/${note.id}`);
    expect(await (await app.request(`/v1/notes/${note.id}`, { headers: key })).json()).toEqual(note);
    expect(await (await app.request('/v1/notes', { headers: key })).json()).toContainEqual(note);
    expect((await app.request(`/v1/notes/${note.id}`, { method: 'DELETE', headers: key })).status).toBe(204);
    expect((await app.request(`/v1/notes/${note.id}`, { headers: key })).status).toBe(404);
    expect((await app.request('/v1/notes')).status).toBe(401);
    // The body parameter's schema is enforced as a request body.
    expect((await app.request('/v1/notes', { method: 'POST', headers: { ...key, 'Content-Type': 'application/json' }, body: '{"text":12}' })).status).toBe(400);
  });

  it('resolves its external $refs against its file, and converts what they bring in', async () => {
    file('defs.yaml', 'Note:\n  type: object\n  properties:\n    tag: {type: string, x-nullable: true}\n');
    file('common.yaml', 'limit: {name: limit, in: query, type: integer, minimum: 1}\n');
    const main = file(
      'external.yaml',
      "swagger: '2.0'\ninfo: {title: x, version: '1'}\nproduces: [application/json]\npaths:\n  /notes:\n    get:\n      parameters: [{$ref: 'common.yaml#/limit'}]\n      responses:\n        '200': {description: ok, schema: {$ref: 'defs.yaml#/Note'}}\n",
    );
    const get = (await loadDocument(main)).api.paths!['/notes'].get!;
    expect(get.parameters![0]).toEqual({ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } });
    expect(get.responses!['200'].content!['application/json'].schema!.properties!.tag).toEqual({ type: 'string', nullable: true });
  });

  it('says in one sentence why a broken one cannot be served', async () => {
    const head = "swagger: '2.0'\ninfo: {title: x, version: '1'}\n";
    expect(await failure(file('info.yaml', "swagger: '2.0'\ninfo: x\npaths: {}\n"))).toMatch(
      /^.*info\.yaml is a Swagger 2\.0 document that cannot be converted to OpenAPI 3\.0: info must be an object\.$/,
    );
    const missing = await failure(file('ref.yaml', `${head}paths:\n  /a:\n    get:\n      responses:\n        '200': {description: ok, schema: {$ref: '#/definitions/Gone'}}\n`));
    expect(missing).toMatch(/^.*ref\.yaml is not a valid Swagger 2\.0 document \(converted to OpenAPI 3\.0\): Missing \$ref pointer "#\/components\/schemas\/Gone": it names nothing in the document\.$/);
    expect(await failure(file('file.yaml', `${head}paths:\n  /a:\n    get:\n      responses:\n        '200': {description: ok, schema: {$ref: 'gone.yaml#/Note'}}\n`))).toMatch(
      /^.*file\.yaml is not a valid Swagger 2\.0 document: Error opening file .*gone\.yaml: ENOENT/,
    );
    expect(await failure(file('v12.yaml', "swagger: '1.2'\n"))).toMatch(/v12\.yaml declares swagger 1\.2; only Swagger "2\.0", OpenAPI 3\.0\.x and 3\.1\.x are supported\.$/);
    expect(missing).not.toMatch(/\n/);
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
    const { freePort } = await import('../../test-support/processes.js');
    const nobody = `http://127.0.0.1:${await freePort()}/openapi.yaml`;
    expect(await failure(nobody)).toBe(`Cannot fetch the OpenAPI document ${nobody}: ECONNREFUSED.`);
  });
});

describe("loadDocument from a stranger's server", () => {
  /** A server answering each path its own way, on loopback, closed (connections too) after the test. */
  async function serving(answer: (path: string, response: import('node:http').ServerResponse) => void) {
    const { createServer } = await import('node:http');
    const server = createServer((request, response) => answer(request.url ?? '/', response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    return { base, close: () => (server.closeAllConnections(), new Promise((resolve) => server.close(resolve))) };
  }
  /** Answers with a YAML body that never ends, as fast as the client reads it. */
  const pourForever = (response: import('node:http').ServerResponse) => {
    const chunk = Buffer.alloc(1024 * 1024, ' ');
    response.writeHead(200, { 'Content-Type': 'application/yaml' });
    const pour = () => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once('drain', pour);
    };
    pour();
  };
  const loadFails = (url: string, options: Parameters<typeof loadDocument>[1] = {}) =>
    loadDocument(url, options).then(
      () => 'loaded',
      (error: Error) => (error instanceof DocumentLoadError ? error.message : `not a DocumentLoadError: ${error.stack}`),
    );

  it('stops a body that never ends at 32 MiB, one whose Content-Length says more at once, and says so', async () => {
    const { base, close } = await serving((path, response) => {
      if (path === '/declared.yaml') return void response.writeHead(200, { 'Content-Length': String(40 * 1024 * 1024) }).flushHeaders(); // and nothing more
      pourForever(response);
    });
    try {
      expect(await loadFails(`${base}/endless.yaml`)).toBe(`Cannot fetch the OpenAPI document ${base}/endless.yaml: more than the 32 MiB a document read from a URL may weigh arrived.`);
      // Refused on its word, not after waiting for the body (which never comes: the time limit would say so instead).
      expect(await loadFails(`${base}/declared.yaml`)).toBe(`Cannot fetch the OpenAPI document ${base}/declared.yaml: it is 40.0 MiB (Content-Length), more than the 32 MiB a document read from a URL may weigh.`);
    } finally {
      await close();
    }
  });

  it('gives up on a server that sends its headers and then nothing, within the time limit', async () => {
    const { base, close } = await serving((_, response) => void response.writeHead(200, { 'Content-Type': 'application/yaml' }).write('openapi: 3.0.3\n'));
    try {
      expect(await loadFails(`${base}/stalled.yaml`, { fetchTimeoutMs: 300 })).toBe(`Cannot fetch the OpenAPI document ${base}/stalled.yaml: it did not arrive whole within 0.3 s.`);
    } finally {
      await close();
    }
  });

  it('follows a few redirects, and refuses a loop and a redirect to a file, each in a sentence', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(SPEC, 'utf8');
    const { base, close } = await serving((path, response) => {
      if (path === '/loop.yaml') return void response.writeHead(302, { Location: '/loop.yaml' }).end();
      if (path === '/to-file.yaml') return void response.writeHead(301, { Location: 'file:///etc/passwd' }).end();
      if (path === '/moved.yaml') return void response.writeHead(308, { Location: '/openapi.yaml' }).end();
      response.writeHead(200, { 'Content-Type': 'application/yaml' }).end(text);
    });
    try {
      expect((await loadDocument(`${base}/moved.yaml`)).api.info.title).toBe('Petstore');
      expect(await loadFails(`${base}/loop.yaml`)).toBe(`Cannot fetch the OpenAPI document ${base}/loop.yaml: it redirected more than 5 times (a loop?), last to ${base}/loop.yaml.`);
      expect(await loadFails(`${base}/to-file.yaml`)).toBe(`Cannot fetch the OpenAPI document ${base}/to-file.yaml: it redirected to file:///etc/passwd, which is not an http(s) URL.`);
    } finally {
      await close();
    }
  });

  it("bounds the documents its references bring in the same way (a same-origin reference that never ends)", async () => {
    const root = { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: 'schemas.yaml#/A' } } } } } } } } };
    const { base, close } = await serving((path, response) => {
      if (path === '/openapi.json') return void response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(root));
      pourForever(response);
    });
    try {
      expect(await loadFails(`${base}/openapi.json`)).toContain(`Cannot fetch the document referred to ${base}/schemas.yaml: more than the 32 MiB a document read from a URL may weigh arrived.`);
    } finally {
      await close();
    }
  });
});
