/**
 * Stage 1 of the pipeline: read an OpenAPI document from disk, convert a Swagger 2.0 one to
 * OpenAPI 3.0, refuse what the mock cannot serve (with one clear sentence), validate it and
 * dereference it once.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import yaml from 'js-yaml';
import { dereferenceOptions } from './dereference-options.js';
import { parseJson } from './parse-json.js';
import { validateMetaSchema } from './meta-schema/validate-meta-schema.js';
import type { SchemaObject } from './schema.js';

/** A document that cannot be served. `message` is one sentence meant for the terminal. */
export class DocumentLoadError extends Error {
  override readonly name = 'DocumentLoadError';
}

export interface LoadedDocument {
  /** The absolute path the document was read from. */
  file: string;
  /** `3.0` or `3.1`: decides the JSON Schema dialect of its schemas. */
  dialect: '3.0' | '3.1';
  /** The dereferenced document. Circular references stay as `$ref` strings (see `resolveRef`). */
  api: SchemaObject;
  /** The document as served before dereferencing (for Swagger 2.0, as converted), used to resolve circular `$ref`s. */
  raw: SchemaObject;
  /** Set when the file was a Swagger 2.0 document, converted to OpenAPI 3.0 on load. */
  convertedFrom?: '2.0';
}

/**
 * Loads, validates and dereferences an OpenAPI 3.0.x or 3.1.x document, or a Swagger 2.0 one
 * converted to OpenAPI 3.0 (swagger2openapi).
 *
 * @example
 * const doc = await loadDocument('spec/openapi.yaml');
 * doc.api.paths['/pets'].get.operationId // 'listPets'
 * @throws DocumentLoadError for a missing file or URL, bad YAML/JSON, an unknown version, a Swagger 2.0 document that cannot be converted or an invalid document.
 */
export async function loadDocument(path: string): Promise<LoadedDocument> {
  const url = /^https?:\/\//i.test(path);
  const file = url ? path : resolve(path);
  let text = url ? await fetchDocument(path) : undefined;
  let raw: SchemaObject;
  try {
    text ??= await readFile(file, 'utf8');
    // YAML is a superset of JSON: one parser reads both (js-yaml: swagger-parser's own parser); JSON.parse is faster at JSON.
    raw = (parseJson(text) ?? yaml.load(text, { filename: path })) as SchemaObject;
  } catch (error) {
    throw new DocumentLoadError(describeParseFailure(path, error));
  }
  const version = detectVersion(path, raw);
  const convertedFrom = version === '2.0' ? '2.0' : undefined;
  if (convertedFrom) raw = await convertSwagger2(path, file, raw, text);
  const dialect = version === '3.1' ? '3.1' : '3.0';
  const what = convertedFrom ? 'Swagger 2.0 document (converted to OpenAPI 3.0)' : `OpenAPI ${raw.openapi} document`;
  // The meta-schema check runs on the build's precompiled validators when they exist.
  const meta = validateMetaSchema(raw, dialect);
  if (meta !== undefined && meta !== 'unavailable') throw new DocumentLoadError(`${path} is not a valid ${what}: ${meta}.`);
  let api: SchemaObject;
  try {
    // The parsed document is handed over (no second read or parse); the path resolves external refs.
    const options = { dereference: dereferenceOptions(raw), validate: { schema: meta === 'unavailable', spec: true } };
    api = (await SwaggerParser.validate(file, structuredClone(raw) as never, options as never)) as unknown as SchemaObject;
  } catch (error) {
    throw new DocumentLoadError(`${path} is not a valid ${what}: ${firstProblem(error)}.`);
  }
  return convertedFrom ? { file, dialect, api, raw, convertedFrom } : { file, dialect, api, raw };
}

/**
 * Converts a Swagger 2.0 document to OpenAPI 3.0 with swagger2openapi and Redoc's options: what
 * the converter can patch is patched, what it cannot convert losslessly is converted as it can.
 */
async function convertSwagger2(path: string, file: string, swagger: SchemaObject, text: string): Promise<SchemaObject> {
  let whole = swagger;
  // The converter leaves external `$ref`s alone (its own resolver prints its failures), so
  // swagger-parser brings them in first, relative to the file as for 3.x, for them to be converted too.
  if (/"\$ref":"(?!#)/.test(JSON.stringify(swagger))) {
    try {
      whole = (await SwaggerParser.bundle(file, swagger as never)) as unknown as SchemaObject;
    } catch (error) {
      throw new DocumentLoadError(`${path} is not a valid Swagger 2.0 document: ${firstProblem(error)}.`);
    }
  }
  try {
    // Loaded only here, so a 3.x document does not pay for the converter at start-up.
    const { default: swagger2openapi } = await import('swagger2openapi');
    // The text only saves the converter from writing the document out as YAML again.
    const { openapi } = await swagger2openapi.convertObj(whole, { patch: true, warnOnly: true, anchors: true, text });
    return openapi as SchemaObject;
  } catch (error) {
    throw new DocumentLoadError(`${path} is a Swagger 2.0 document that cannot be converted to OpenAPI 3.0: ${firstProblem(error)}.`);
  }
}

/** How long a document given by URL may take to arrive. */
const FETCH_TIMEOUT_MS = 30_000;

/** The text of a document given by URL (`--spec https://.../openapi.yaml`); its relative `$ref`s resolve against that URL. */
async function fetchDocument(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { Accept: 'application/yaml, application/json, text/yaml, */*' } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new DocumentLoadError(`Cannot fetch the OpenAPI document ${url}: ${cause === 'TimeoutError' ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s` : cause}.`);
  }
  if (!response.ok) throw new DocumentLoadError(`Cannot fetch the OpenAPI document ${url}: it answered ${response.status}.`);
  return response.text();
}

/** `2.0` for a Swagger 2.0 document (converted on load), else the OpenAPI dialect. */
function detectVersion(path: string, raw: SchemaObject): '2.0' | '3.0' | '3.1' {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new DocumentLoadError(`${path} does not contain an OpenAPI document (expected a YAML or JSON object).`);
  }
  if (raw.swagger === '2.0') return '2.0';
  if (raw.swagger !== undefined) {
    throw new DocumentLoadError(`${path} declares swagger ${raw.swagger}; only Swagger "2.0", OpenAPI 3.0.x and 3.1.x are supported.`);
  }
  const version = String(raw.openapi ?? '');
  if (/^3\.0\.\d+$/.test(version)) return '3.0';
  if (/^3\.1\.\d+$/.test(version)) return '3.1';
  throw new DocumentLoadError(
    version
      ? `${path} declares openapi ${version}; only OpenAPI 3.0.x and 3.1.x are supported.`
      : `${path} has no "openapi" version field, so it is not an OpenAPI 3 document.`,
  );
}

function describeParseFailure(path: string, error: unknown): string {
  const err = error as { code?: string; message?: string };
  const message = String(err.message ?? error);
  if (/ENOENT/.test(message)) return `Cannot read the OpenAPI document ${path}: the file does not exist.`;
  if (/EISDIR/.test(message)) return `Cannot read the OpenAPI document ${path}: it is a directory.`;
  if (/EACCES/.test(message)) return `Cannot read the OpenAPI document ${path}: permission denied.`;
  // js-yaml: "bad indentation of a mapping entry (3:10)" (line:column), then an excerpt.
  const reason = message.split('\n')[0].replace(/^YAMLException: /, '').replace(/[.:]$/, '');
  return `${path} is not valid YAML or JSON: ${reason}.`;
}

/** The first line of a swagger-parser validation error, without its heading. */
function firstProblem(error: unknown): string {
  const lines = String((error as Error)?.message ?? error)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/schema validation failed/i.test(line));
  return (lines[0] ?? 'unknown problem').replace(/\.$/, '').slice(0, 300);
}

/**
 * Follows a local `$ref` (`#/components/schemas/Node`) inside the dereferenced document: only
 * circular references are left as `$ref` after loading.
 */
export function resolveRef(api: SchemaObject, ref: string): SchemaObject | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = api;
  for (const part of ref.slice(2).split('/')) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as SchemaObject)[key];
  }
  return node as SchemaObject | undefined;
}
