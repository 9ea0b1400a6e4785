/**
 * On Node, after the build (its precompiled meta-schema validators check the document first), a
 * document whose references are all inside it is dereferenced by the local walk; swagger-parser
 * reads only documents that refer to other files. Before a build, swagger-parser checks the
 * meta-schema itself, and dereferences every document.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadDocument } from './load-document.js';
import { validateMetaSchema } from './meta-schema/validate-meta-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'dereference-local-dist-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('loadDocument after the build', () => {
  it('dereferences a document that refers only to itself without swagger-parser, and one that refers to another file with it', async () => {
    expect(validateMetaSchema({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} }, '3.0')).toBeUndefined(); // the build's validators are there
    const document = (ref: string) => ({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/things': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: ref } } } } } } } }, components: { schemas: { Thing: { type: 'string' } } } });
    writeFileSync(join(dir, 'local.json'), JSON.stringify(document('#/components/schemas/Thing')));
    writeFileSync(join(dir, 'external.json'), JSON.stringify(document('other.json#/Other')));
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ Other: { type: 'integer' } }));
    const swaggerParser = vi.spyOn(SwaggerParser, 'validate');
    const local = await loadDocument(join(dir, 'local.json'));
    expect(swaggerParser).not.toHaveBeenCalled();
    expect(local.api.paths!['/things'].get!.responses!['200'].content!['application/json'].schema).toBe(local.api.components!.schemas!.Thing);
    const external = await loadDocument(join(dir, 'external.json'));
    expect(swaggerParser).toHaveBeenCalledTimes(1);
    expect(external.api.paths!['/things'].get!.responses!['200'].content!['application/json'].schema).toEqual({ type: 'integer' });
  });
});
