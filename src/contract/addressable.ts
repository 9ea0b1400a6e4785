/**
 * The collections the suite can work on: those whose records have an item path. A list and a
 * create on one path, or a create nothing lists, make records the suite could not delete again,
 * so it treats their operations as operations no collection explains.
 */
import type { Collection, CrudBinding } from '../openapi/operations/collection.js';

/**
 * The collections whose records have an item path, and the bindings to them: copies, so the
 * compiled document a mock shares in the same process keeps its own.
 *
 * @example const { collections, bindings } = addressable(compileDocument(document));
 */
export function addressable({ collections, bindings }: { collections: readonly Collection[]; bindings: ReadonlyMap<string, CrudBinding> }): { collections: Collection[]; bindings: Map<string, CrudBinding> } {
  const known = new Set(collections.filter((c) => c.itemPath !== '').map((c) => c.name));
  const kept = new Map(
    collections
      .filter((c) => known.has(c.name))
      .map((c) => [c, { ...c, children: c.children.filter((name) => known.has(name)), references: c.references.filter((r) => known.has(r.collection)) }]),
  );
  const keptBindings = new Map<string, CrudBinding>();
  for (const [id, binding] of bindings) {
    const collection = kept.get(binding.collection);
    if (collection) keptBindings.set(id, { ...binding, collection });
  }
  return { collections: [...kept.values()], bindings: keptBindings };
}
