/**
 * The request headers a document's operations use: the names of its `apiKey` security schemes
 * sent in a header, and its declared header parameters. Computed once from the operations, for
 * the CORS preflight's `Access-Control-Allow-Headers`, so a page on another origin can send them.
 */
import type { Operation } from '../../openapi/operations/operation.js';

/** An HTTP field name (RFC 9110 token): anything else could not be sent, nor listed in a header. */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The header names the operations read, each once (compared without case, the first spelling
 * kept), in the order the document gives them; names that are no valid field name are left out.
 *
 * @example requestHeaderNames(buildOperations(api)) // ['X-Api-Key', 'X-Request-Id']
 */
export function requestHeaderNames(operations: readonly Operation[]): string[] {
  const names = new Map<string, string>();
  const add = (name: unknown) => {
    if (typeof name !== 'string' || !FIELD_NAME.test(name)) return;
    const key = name.toLowerCase();
    if (!names.has(key)) names.set(key, name);
  };
  for (const op of operations) {
    for (const alternative of op.security) for (const { scheme } of alternative) if (scheme.type === 'apiKey' && scheme.in === 'header') add(scheme.name);
    for (const parameter of op.parameters) if (parameter.in === 'header') add(parameter.name);
  }
  return [...names.values()];
}
