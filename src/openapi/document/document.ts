/**
 * A loaded OpenAPI document, and the steps of loading common to Node and the browser: the version
 * check, the meta-schema check, then validation and dereferencing by the step given (on Node,
 * swagger-parser; in a browser, local references only). Node's reader (load-document.ts) and the
 * browser's entry both end here.
 */
import { boundPassed } from './document-bounds.js';
import type { DocumentObject, JsonObject } from './objects.js';

export { resolveRef } from './resolve-ref.js';

/** A document that cannot be served. `message` is one sentence meant for the terminal. */
export class DocumentLoadError extends Error {
  override readonly name = 'DocumentLoadError';
}

export interface LoadedDocument {
  /** The absolute path or URL the document was read from (for a document given as an object, a name for it). */
  file: string;
  /** `3.0` or `3.1`: decides the JSON Schema dialect of its schemas. */
  dialect: '3.0' | '3.1';
  /** The dereferenced document. Circular references stay as `$ref` strings (see `resolveRef`). */
  api: DocumentObject;
  /** The document as served before dereferencing (for Swagger 2.0, as converted), used to resolve circular `$ref`s. */
  raw: JsonObject;
  /** Set when the file was a Swagger 2.0 document, converted to OpenAPI 3.0 on load. */
  convertedFrom?: '2.0';
}

export interface PrepareSteps {
  /** How the document is named in messages (its path or URL). */
  name: string;
  /** Where relative `$ref`s resolve from: a path or URL (none: only local references). */
  file?: string;
  /** The text it was parsed from, when there was one (saves the Swagger 2.0 converter writing it again). */
  text?: string;
  /** The meta-schema check: undefined when valid, 'unavailable' to let swagger-parser check it, else its problem in words. */
  metaSchema?: (document: unknown, dialect: '3.0' | '3.1') => string | undefined | 'unavailable';
  /**
   * Validates and dereferences the document (a copy it may change), circular references left as
   * `$ref`s; `checkSchema` asks it to check the meta-schema too. Throws the problem it found.
   */
  dereference: (document: JsonObject, options: { file?: string; name: string; checkSchema: boolean }) => Promise<DocumentObject>;
  /** Converts a Swagger 2.0 document to OpenAPI 3.0 (none: Swagger 2.0 is refused). */
  convertSwagger2?: (name: string, file: string, swagger: JsonObject, text?: string) => Promise<JsonObject>;
}

/** @throws DocumentLoadError when the parsed document cannot be served: its version, the meta-schema, a broken `$ref`. */
export async function prepareDocument(parsed: unknown, steps: PrepareSteps): Promise<LoadedDocument> {
  const { name } = steps;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new DocumentLoadError(`${name} does not contain an OpenAPI document (expected a YAML or JSON object).`);
  }
  let raw = parsed as JsonObject;
  // Before anything walks it: converting, checking and dereferencing all follow what it holds.
  refuseUnbounded(name, raw);
  const version = detectVersion(name, raw);
  const convertedFrom = version === '2.0' ? '2.0' : undefined;
  if (convertedFrom) {
    if (!steps.convertSwagger2) throw new DocumentLoadError(`${name} is a Swagger 2.0 document; convert it to OpenAPI 3 first (swagger2openapi), or serve it on Node, which converts it.`);
    raw = await steps.convertSwagger2(name, steps.file ?? name, raw, steps.text);
    refuseUnbounded(name, raw);
  }
  const dialect = version === '3.1' ? '3.1' : '3.0';
  const what = convertedFrom ? 'Swagger 2.0 document (converted to OpenAPI 3.0)' : `OpenAPI ${String(raw.openapi)} document`;
  // The meta-schema check runs on the build's precompiled validators when they exist.
  const meta = steps.metaSchema ? steps.metaSchema(raw, dialect) : 'unavailable';
  if (meta !== undefined && meta !== 'unavailable') throw new DocumentLoadError(`${name} is not a valid ${what}: ${meta}${/[.?]$/.test(meta) ? '' : '.'}`);
  let api: DocumentObject;
  try {
    api = await steps.dereference(structuredClone(raw), { file: steps.file, name, checkSchema: meta === 'unavailable' });
  } catch (error) {
    if (error instanceof DocumentLoadError) throw error; // a reference that could not be fetched, said already
    throw new DocumentLoadError(`${name} is not a valid ${what}: ${firstProblem(error)}.`);
  }
  const file = steps.file ?? name;
  return convertedFrom ? { file, dialect, api, raw, convertedFrom } : { file, dialect, api, raw };
}

/** @throws DocumentLoadError when the document expands past a bound (document-bounds.ts). */
export function refuseUnbounded(name: string, document: JsonObject): void {
  const passed = boundPassed(document);
  if (passed !== undefined) throw new DocumentLoadError(`${name} is refused: ${passed}.`);
}

/** `2.0` for a Swagger 2.0 document (converted on load), else the OpenAPI dialect. */
function detectVersion(path: string, raw: JsonObject): '2.0' | '3.0' | '3.1' {
  if (raw.swagger === '2.0') return '2.0';
  if (raw.swagger !== undefined) {
    throw new DocumentLoadError(`${path} declares swagger ${String(raw.swagger)}; only Swagger "2.0", OpenAPI 3.0.x and 3.1.x are supported.`);
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

/** The first line of a swagger-parser validation error, without its heading. */
export function firstProblem(error: unknown): string {
  const lines = String((error as Error)?.message ?? error)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/schema validation failed/i.test(line));
  const first = (lines[0] ?? 'unknown problem').replace(/\.$/, '');
  // swagger-parser's sentence for a reference to nothing, as the local walk says it (dereference-local.ts).
  return first.replace(/^Missing \$ref pointer "([^"]*)"\. Token "[^"]*" does not exist$/, 'Missing $ref pointer "$1": it names nothing in the document').slice(0, 300);
}
