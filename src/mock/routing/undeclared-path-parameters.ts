/**
 * The path parameters a template names that its operations do not declare (`/pets/{petId}` with
 * no parameter `in: path` named `petId`): the document is wrong, and the mock takes any value for
 * them, unchecked. Said once at start, per path and parameter, with the methods that lack it.
 */
import type { Operation } from '../../openapi/operations/operation.js';
import { segmentParameters } from '../../openapi/operations/path-template.js';

/** @example undeclaredPathParameters(operations) // ['GET /pets/{petId} does not declare the path parameter petId (...); ...'] */
export function undeclaredPathParameters(operations: readonly Operation[]): string[] {
  const lacking = new Map<string, { path: string; name: string; methods: string[] }>();
  for (const operation of operations) {
    const declared = new Set(operation.parameters.filter((p) => p.in === 'path').map((p) => p.name));
    for (const name of new Set(operation.path.split('/').flatMap(segmentParameters))) {
      if (declared.has(name)) continue;
      const key = `${operation.path}\u0000${name}`;
      const entry = lacking.get(key) ?? { path: operation.path, name, methods: [] };
      entry.methods.push(operation.method.toUpperCase());
      lacking.set(key, entry);
    }
  }
  return [...lacking.values()].map(({ path, name, methods }) => {
    const who = methods.length < 2 ? `${methods[0]} ${path} does not` : `${methods.slice(0, -1).join(', ')} and ${methods.at(-1)} ${path} do not`;
    return `${who} declare the path parameter ${name} (a parameter with in: path and that name, on the operation or its path item); the mock takes any value for it, unchecked.`;
  });
}
