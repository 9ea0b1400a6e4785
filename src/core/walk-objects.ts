/**
 * Visits every object and array of a JSON-like value once each, without recursion (documents and
 * schemas nest as deep as they like; a YAML alias shares one object among many places).
 */

/**
 * Calls `visit` on each object (arrays are walked, not visited); `visit` returns false to skip
 * what is inside that object.
 * @example walkObjects({ a: { $ref: '#/x' } }, (node) => { console.log(node); return true; })
 */
export function walkObjects(root: unknown, visit: (node: Record<string, unknown>) => boolean): void {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node) && !visit(node as Record<string, unknown>)) continue;
    for (const value of Object.values(node)) if (value !== null && typeof value === 'object') stack.push(value);
  }
}
