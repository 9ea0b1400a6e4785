import type { LoadedDocument } from '../document/load-document.js';
import { createAjv } from '../validation/ajv-instance.js';
import { SchemaConverter } from '../validation/to-json-schema.js';
import { createResponseChecker } from '../validation/validate-response.js';

/** A response checker for a document, with its own Ajv. */
export function responseCheckerFor(document: LoadedDocument) {
  const ajv = createAjv(document.dialect);
  return createResponseChecker(ajv, new SchemaConverter(document.api, ajv, document.dialect));
}
