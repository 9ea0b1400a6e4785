/**
 * A local `$ref` followed, in the document as written (the page's copy keeps its references).
 */
import { resolveRef } from '../../openapi/document/document.js';

/**
 * What a local `$ref` (`#/components/responses/NotFound`) names, through chains of them, `{}` for
 * one that names nothing; anything else (an external reference too) as given. The document was
 * checked against its meta-schema, so a reference where a `T` stands names a `T`.
 *
 * @example followRef(doc, { $ref: '#/components/schemas/Id' }) // { type: 'integer', format: 'int64', ... }
 */
export function followRef<T extends object>(doc: object, value: T | undefined): Partial<T> {
  let current: { $ref?: unknown } | undefined = value;
  for (let hops = 0; hops < 20 && typeof current?.$ref === 'string' && current.$ref.startsWith('#/'); hops++) current = resolveRef(doc, current.$ref) ?? {};
  return (current ?? {}) as Partial<T>;
}
