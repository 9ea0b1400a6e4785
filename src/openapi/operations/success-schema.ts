/**
 * The schema of what an operation answers on success, where collections, the mock and the
 * contract suite read a record's shape from.
 */
import type { SchemaObject } from '../document/schema.js';
import type { Operation } from './operation.js';

const JSON_MEDIA = /^application\/(.+\+)?json\b/i;

/** The schema of the first JSON media type of the first 2xx response, if any. */
export function successSchema(op: Operation | undefined): SchemaObject | undefined {
  const response = op?.responses.find((r) => /^2/.test(r.status));
  if (!response) return undefined;
  const media = Object.keys(response.content).find((type) => JSON_MEDIA.test(type));
  return media ? response.content[media].schema : undefined;
}
