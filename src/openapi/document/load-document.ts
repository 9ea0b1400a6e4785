/// <reference path="./swagger2openapi.d.ts" />
/**
 * Stage 1 of the pipeline on Node: read an OpenAPI document from disk or a URL, convert a
 * Swagger 2.0 one to OpenAPI 3.0, refuse what the mock cannot serve (with one clear sentence),
 * validate it and dereference it once (document.ts).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { dereferenceLocal } from './dereference-local.js';
import { dereferenceOptions } from './dereference-options.js';
import { externalReference, foreignReference, LOCAL_ONLY_RESOLVERS, remoteReference, sameOriginResolvers } from './reference-origin.js';
import { DocumentLoadError, firstProblem, prepareDocument, refuseUnbounded, type LoadedDocument } from './document.js';
import { fetchDocument } from './fetch-document.js';
import { parseText } from './parse-text.js';
import { validateMetaSchema } from './meta-schema/validate-meta-schema.js';
import type { DocumentObject, JsonObject } from './objects.js';

export { DocumentLoadError, resolveRef, type LoadedDocument } from './document.js';

/**
 * Loads, validates and dereferences an OpenAPI 3.0.x or 3.1.x document, or a Swagger 2.0 one
 * converted to OpenAPI 3.0 (swagger2openapi): from a file, an http(s) URL, or the document itself
 * (an object already parsed; its relative `$ref`s resolve against the working directory).
 *
 * @example
 * const doc = await loadDocument('spec/openapi.yaml');
 * doc.api.paths['/pets'].get.operationId // 'listPets'
 * @throws DocumentLoadError for a missing file or URL, bad YAML/JSON, an unknown version, a Swagger 2.0 document that cannot be converted or an invalid document.
 */
export interface LoadOptions {
  /** A local document (a file, or the document given as an object) may refer to URLs (`$ref: https://...`); default false. */
  allowRemoteRefs?: boolean;
  /** How long a document given by URL may take to arrive whole, in milliseconds (default 30,000). */
  fetchTimeoutMs?: number;
}

export async function loadDocument(source: string | object, options: LoadOptions = {}): Promise<LoadedDocument> {
  const steps = { ...NODE_STEPS, dereference: dereferenceWith(options), convertSwagger2: convertWith(options) };
  if (typeof source === 'object') {
    const given = structuredClone(source) as JsonObject;
    refuseRemote(given, 'given', options);
    return prepareDocument(given, { name: 'the document given', ...steps });
  }
  const path = source;
  const url = /^https?:\/\//i.test(path);
  const file = url ? path : resolve(path);
  let text = url ? await fetchDocument(path, { timeoutMs: options.fetchTimeoutMs }) : undefined;
  try {
    text ??= await readFile(file, 'utf8');
  } catch (error) {
    throw new DocumentLoadError(describeReadFailure(path, error));
  }
  const raw = parseText(path, text);
  const foreign = url ? foreignReference(raw, path) : undefined;
  if (foreign !== undefined) {
    throw new DocumentLoadError(`The OpenAPI document ${path} refers to ${foreign}, off its own origin (${new URL(path).origin}): a document read from a URL may refer only to URLs of its own origin, never to a file.`);
  }
  if (!url) refuseRemote(raw, path, options);
  return prepareDocument(raw, { name: path, file, text, ...steps });
}

/** A local document's reference to a URL stops the load, in one sentence, unless remote references are allowed. */
function refuseRemote(raw: unknown, name: string, { allowRemoteRefs = false }: LoadOptions): void {
  const remote = allowRemoteRefs ? undefined : remoteReference(raw);
  if (remote !== undefined) throw new DocumentLoadError(`The OpenAPI document ${name} refers to ${remote}: a local document refers to local files only, unless --allow-remote-refs (allowRemoteRefs) is given.`);
}

/**
 * swagger-parser's resolvers for a document: its own origin for one read from a URL; files, and
 * URLs only when allowed, for a local one. swagger-parser drops the reason a resolver gives
 * ("Error reading file"), so `rethrow` puts back the first fetch's own sentence.
 */
function resolversFor(file: string | undefined, { allowRemoteRefs = false }: LoadOptions): { options: object; rethrow: (error: unknown) => never; rethrowFetched: (error: unknown) => void } {
  let failure: unknown;
  // Every URL is read as the document itself is: bounded in time and size (fetch-document.ts).
  const read = (ref: { url: string }) => fetchDocument(ref.url, { what: 'the document referred to' }).catch((error: unknown) => Promise.reject((failure ??= error)));
  // Every file or URL referred to is parsed as the document itself is: its YAML aliases bounded (parse-yaml.ts).
  const parse = { yaml: { ...YAML_PARSER, parse: (file: { url: string; data: unknown }) => parseReferred(file, (error) => (failure ??= error)) } };
  const rethrowFetched = (_error: unknown): void => {
    if (failure !== undefined) throw failure;
  };
  const rethrow = (error: unknown): never => {
    throw failure ?? error;
  };
  if (file && /^https?:\/\//i.test(file)) return { options: { parse, resolve: sameOriginResolvers(file, read) }, rethrow, rethrowFetched };
  // Allowed by the one who gave the document: any URL, internal ones too (swagger-parser's guard against them is lifted).
  return { options: { parse, resolve: allowRemoteRefs ? { http: { safeUrlResolver: false, read } } : LOCAL_ONLY_RESOLVERS }, rethrow, rethrowFetched };
}

/** When swagger-parser tries its YAML parser: its own order and file extensions (JSON is YAML). */
const YAML_PARSER = { order: 200, allowEmpty: true, canParse: ['.yaml', '.yml', '.json'] };

/** A document referred to, parsed as the one referring to it (swagger-parser keeps only the message of what a parser throws, so `failed` is told the error). */
function parseReferred(file: { url: string; data: unknown }, failed: (error: DocumentLoadError) => void): unknown {
  const data = file.data instanceof Uint8Array ? new TextDecoder().decode(file.data) : file.data;
  if (typeof data !== 'string') return data;
  try {
    return parseText(file.url, data);
  } catch (error) {
    if (error instanceof DocumentLoadError) failed(error);
    throw error;
  }
}

/** On Node: the build's precompiled meta-schema validators, swagger-parser, and the Swagger 2.0 converter. */
const NODE_STEPS = { metaSchema: validateMetaSchema };
const dereferenceWith = (load: LoadOptions) => (document: JsonObject, options: { file?: string; name: string; checkSchema: boolean }) => validateAndDereference(document, options, load);
const convertWith = (load: LoadOptions) => (path: string, file: string, swagger: JsonObject, text?: string) => convertSwagger2(path, file, swagger, text, load);

/**
 * swagger-parser: the rules of the specification, external `$ref`s (relative to `file`), then the
 * dereferenced document. A document whose references are all inside it, already checked against
 * the meta-schema, is dereferenced by the walk the browser uses (dereference-local.ts): the same
 * document, in a third of the time (0.3 s and 0.15 s for 2,000 operations).
 *
 * One that refers to other files or URLs has them brought in first (swagger-parser's bundle, which
 * follows each reference once), so that the whole is held to the bounds (document-bounds.ts)
 * before swagger-parser dereferences it: its walk follows a `$ref` each time it meets one, and
 * would never end on references fanning out across files.
 */
async function validateAndDereference(document: JsonObject, { file, name, checkSchema }: { file?: string; name: string; checkSchema: boolean }, load: LoadOptions): Promise<DocumentObject> {
  const external = externalReference(document) !== undefined;
  if (!checkSchema && !external) return dereferenceLocal(document);
  // The parsed document is handed over (no second read or parse); the path resolves external refs.
  // References stay where the document came from (see reference-origin.ts).
  const refs = resolversFor(file, load);
  try {
    let whole = document;
    if (external) {
      const bundled = file ? SwaggerParser.bundle(file, document as never, refs.options as never) : SwaggerParser.bundle(document as never, refs.options as never);
      whole = (await bundled) as unknown as JsonObject;
      refuseUnbounded(name, whole);
    }
    const options = { dereference: dereferenceOptions(whole), validate: { schema: checkSchema, spec: true }, ...refs.options };
    // Bundled, it refers only to itself: no path to resolve from.
    const api = file && !external ? SwaggerParser.validate(file, whole as never, options as never) : SwaggerParser.validate(whole as never, options as never);
    return (await api) as unknown as DocumentObject;
  } catch (error) {
    if (error instanceof DocumentLoadError) throw error;
    return refs.rethrow(error);
  }
}

/**
 * Converts a Swagger 2.0 document to OpenAPI 3.0 with swagger2openapi and Redoc's options: what
 * the converter can patch is patched, what it cannot convert losslessly is converted as it can.
 */
async function convertSwagger2(path: string, file: string, swagger: JsonObject, text: string | undefined, load: LoadOptions): Promise<JsonObject> {
  let whole = swagger;
  // The converter leaves external `$ref`s alone (its own resolver prints its failures), so
  // swagger-parser brings them in first, relative to the file as for 3.x, for them to be converted too.
  if (/"\$ref":"(?!#)/.test(JSON.stringify(swagger))) {
    const refs = resolversFor(file, load);
    try {
      whole = (await SwaggerParser.bundle(file, swagger as never, refs.options as never)) as unknown as JsonObject;
    } catch (error) {
      refs.rethrowFetched(error);
      throw new DocumentLoadError(`${path} is not a valid Swagger 2.0 document: ${firstProblem(error)}.`);
    }
  }
  try {
    // Loaded only here, so a 3.x document does not pay for the converter at start-up.
    const { default: swagger2openapi } = await import('swagger2openapi');
    // The text only saves the converter from writing the document out as YAML again.
    const { openapi } = await swagger2openapi.convertObj(whole, { patch: true, warnOnly: true, anchors: true, text });
    return openapi as JsonObject;
  } catch (error) {
    throw new DocumentLoadError(`${path} is a Swagger 2.0 document that cannot be converted to OpenAPI 3.0: ${firstProblem(error)}.`);
  }
}

function describeReadFailure(path: string, error: unknown): string {
  const message = String((error as Error).message ?? error);
  if (/ENOENT/.test(message)) return `Cannot read the OpenAPI document ${path}: the file does not exist.`;
  if (/EISDIR/.test(message)) return `Cannot read the OpenAPI document ${path}: it is a directory.`;
  if (/EACCES/.test(message)) return `Cannot read the OpenAPI document ${path}: permission denied.`;
  return `Cannot read the OpenAPI document ${path}: ${message.split('\n')[0].replace(/[.:]$/, '')}.`;
}

