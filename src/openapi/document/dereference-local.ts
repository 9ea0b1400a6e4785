/**
 * Dereferencing of a document whose references are all inside it: in the browser, where
 * swagger-parser needs Node's `path` and `util`, and on Node, where it is three times faster than
 * swagger-parser (which then only serves documents that refer to other files or URLs). The local
 * `$ref`s of a document (`#/components/schemas/Pet`) are replaced in place, as swagger-parser does
 * with `circular: 'ignore'`. Each reference becomes the one object it names, shared by every place
 * that uses it; a reference to an object still being walked (a cycle) stays a `$ref` (`resolveRef`
 * follows it). A `$ref` with sibling keys becomes a copy of its target with them.
 * External references are refused here: swagger-parser reads them, on Node.
 */
import { resolveRef } from './document.js';
import type { DocumentObject, JsonObject } from './objects.js';

/** @throws Error naming the first `$ref` that points outside the document or at nothing. */
export async function dereferenceLocal(document: JsonObject): Promise<DocumentObject> {
  /** Objects being walked (and references being followed): meeting one again is a cycle. */
  const open = new Set<object>();
  const walked = new WeakSet<object>();
  const visit = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith('#')) throw new Error(`$ref ${ref} points outside the document; bundle the document into one file to serve it in a browser`);
      const target = ref === '#' ? document : resolveRef(document, ref);
      if (target === undefined) throw new Error(`Missing $ref pointer "${ref}": it names nothing in the document`);
      if (open.has(target) || open.has(node)) return node;
      open.add(node);
      const value = visit(target);
      open.delete(node);
      const siblings = Object.keys(node).filter((key) => key !== '$ref');
      if (siblings.length === 0 || value === null || typeof value !== 'object') return value;
      const merged: Record<string, unknown> = { ...(value as object) };
      for (const key of siblings) merged[key] = visit((node as Record<string, unknown>)[key]);
      return merged;
    }
    if (walked.has(node)) return node;
    walked.add(node);
    open.add(node);
    const entries = node as Record<string, unknown>;
    for (const key of Object.keys(entries)) entries[key] = visit(entries[key]);
    open.delete(node);
    return node;
  };
  // Checked against the meta-schema before it came here (document.ts).
  return visit(document) as DocumentObject;
}
