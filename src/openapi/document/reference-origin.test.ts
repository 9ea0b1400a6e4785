/**
 * A document read from a URL refers only to its own origin: no local file, no other host or port
 * (a loopback server in the test serves the documents), checked before anything is resolved and
 * again for the documents its references bring in. A local document reads local files as before.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument, type LoadedDocument } from './load-document.js';

/**
 * A document whose one response example's value is `$ref: ref`: an Example object before and after
 * the reference is resolved, so the document is valid to both meta-schema checks, the build's
 * (on the document as written) and swagger-parser's when running from source (on the resolved one).
 */
const documentReferring = (ref: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'refs', version: '1' },
    paths: { '/secret': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' }, examples: { leak: { value: { $ref: ref } } } } } } } } } },
  });

/** The value of the example `leak` once the document `documentReferring` made is loaded. */
const leaked = (loaded: LoadedDocument) => loaded.api.paths!['/secret'].get!.responses!['200'].content!['application/json'].examples!.leak.value;

const secretDir = mkdtempSync(join(tmpdir(), 'reference-origin-'));
const secretFile = join(secretDir, 'hosts.yml');
writeFileSync(secretFile, 'github.com:\n  oauth_token: gho_not_for_you\n');
const servers: Server[] = [];
const origins: string[] = [];

/** A server on loopback that answers every path with the text `answer` gives. */
async function serve(answer: (path: string) => string): Promise<string> {
  const server = createServer((request, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(answer(request.url ?? '/')));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  // The other origin: another port of the same machine.
  origins.push(await serve(() => JSON.stringify({ value: { msg: 'from another origin' } })));
});

afterAll(() => {
  servers.forEach((s) => s.close());
  rmSync(secretDir, { recursive: true, force: true });
});

describe('references of a document read from a URL', () => {
  it('never reads a local file: refused in one sentence naming the reference, before anything is read', async () => {
    const ref = `file://${secretFile}#/github.com/oauth_token`;
    const url = await serve(() => documentReferring(ref));
    await expect(loadDocument(`${url}/openapi.json`)).rejects.toThrow(
      `The OpenAPI document ${url}/openapi.json refers to ${ref}, off its own origin (${url}): a document read from a URL may refer only to URLs of its own origin, never to a file.`,
    );
    await expect(loadDocument(`${url}/etc.json`)).rejects.toThrow(/^The OpenAPI document .* refers to file:\/\/.*, off its own origin/);
  });

  it('refuses a URL of another origin (another port of the same machine)', async () => {
    const ref = `${origins[0]}/example.json#/value`;
    const url = await serve(() => documentReferring(ref));
    await expect(loadDocument(`${url}/openapi.json`)).rejects.toThrow(`refers to ${ref}, off its own origin (${url})`);
  });

  it('refuses a file reached through a document of its own origin (the resolvers allow its origin only)', async () => {
    const url = await serve((path) => (path === '/openapi.json' ? documentReferring('./example.json#/value') : JSON.stringify({ value: { $ref: `file://${secretFile}` } })));
    const error = await loadDocument(`${url}/openapi.json`).then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/openapi\.json is not a valid OpenAPI 3\.0\.3 document: .*file:\/\//);
    expect(error?.message).not.toContain('gho_not_for_you');
  });

  it('reads a reference on its own origin, relative or absolute, loopback included', async () => {
    const url = await serve((path) => (path === '/openapi.json' ? documentReferring('./example.json#/value') : JSON.stringify({ value: { msg: 'same origin' } })));
    const loaded = await loadDocument(`${url}/openapi.json`);
    expect(leaked(loaded)).toEqual({ msg: 'same origin' });
  });
});

describe('references of a local document', () => {
  it('read local files, as before', async () => {
    const file = join(secretDir, 'openapi.json');
    writeFileSync(file, documentReferring('./hosts.yml#/github.com'));
    const loaded = await loadDocument(file);
    expect(leaked(loaded)).toEqual({ oauth_token: 'gho_not_for_you' });
  });

  it('refer to URLs only when allowed (--allow-remote-refs): refused otherwise in one sentence, and for a document given as an object too', async () => {
    const ref = `${origins[0]}/example.json#/value`;
    const file = join(secretDir, 'remote.json');
    writeFileSync(file, documentReferring(ref));
    const refusal = `refers to ${ref}: a local document refers to local files only, unless --allow-remote-refs (allowRemoteRefs) is given.`;
    await expect(loadDocument(file)).rejects.toThrow(`The OpenAPI document ${file} ${refusal}`);
    await expect(loadDocument(JSON.parse(documentReferring(ref)))).rejects.toThrow(`The OpenAPI document given ${refusal}`);
    const loaded = await loadDocument(file, { allowRemoteRefs: true });
    expect(leaked(loaded)).toEqual({ msg: 'from another origin' });
  });
});
