/**
 * The size of a value as JSON, estimated without serialising it: what the in-memory store counts a
 * record as in the state budget (budget.ts).
 */

/** About the length of a value as JSON (strings without their escapes, numbers as 8 characters), without serialising it. */
export function jsonSize(value: unknown, depth = 0): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object' || depth > 64) return 8;
  let size = 2;
  if (Array.isArray(value)) {
    for (const item of value) size += jsonSize(item, depth + 1) + 1;
    return size;
  }
  for (const key in value) size += key.length + 4 + jsonSize((value as Record<string, unknown>)[key], depth + 1);
  return size;
}
