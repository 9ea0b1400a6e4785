/**
 * prepareDocument, the steps of loading common to Node and the browser: which checks run where.
 */
import { describe, expect, it } from 'vitest';
import { DocumentLoadError, prepareDocument } from './document.js';
import type { DocumentObject, JsonObject } from './objects.js';

const minimal = (): DocumentObject => ({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} });

describe('prepareDocument', () => {
  it('asks the dereferencing step to check the meta-schema only when no precompiled check ran', async () => {
    const asked: boolean[] = [];
    const dereference = async (document: JsonObject, { checkSchema }: { checkSchema: boolean }) => (asked.push(checkSchema), document as DocumentObject);
    await prepareDocument(minimal(), { name: 'a', dereference, metaSchema: () => undefined }); // checked, valid
    await prepareDocument(minimal(), { name: 'b', dereference, metaSchema: () => 'unavailable' }); // no precompiled validators
    await prepareDocument(minimal(), { name: 'c', dereference }); // none given (the browser)
    expect(asked).toEqual([false, true, true]);
  });

  it('refuses what the meta-schema check found, naming the document', async () => {
    const dereference = async (document: JsonObject) => document as DocumentObject;
    await expect(prepareDocument(minimal(), { name: 'mine.yaml', dereference, metaSchema: () => "#/info must have required property 'title'" })).rejects.toThrow(
      new DocumentLoadError("mine.yaml is not a valid OpenAPI 3.0.3 document: #/info must have required property 'title'."),
    );
  });

  it('refuses Swagger 2.0 where no converter is given', async () => {
    await expect(prepareDocument({ swagger: '2.0', info: {}, paths: {} }, { name: 'old.json', dereference: async (d) => d as DocumentObject })).rejects.toThrow(/Swagger 2\.0 document; convert it to OpenAPI 3 first/);
  });
});
