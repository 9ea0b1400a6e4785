import type { LoadedDocument } from '../openapi/document/load-document.js';
import { createAjv } from '../openapi/validation/ajv-instance.js';
import { SchemaConverter } from '../openapi/validation/to-json-schema.js';
import { createResponseChecker } from '../openapi/validation/validate-response.js';

/** A response checker for a document, with its own Ajv. */
export function responseCheckerFor(document: LoadedDocument) {
  const ajv = createAjv(document.dialect);
  return createResponseChecker(ajv, new SchemaConverter(document.api, ajv, document.dialect));
}
