/**
 * JSON objects from strangers (documents, request bodies, upstream answers): a value is one only
 * when it is a non-null, non-array object. Readers narrow with `isJsonObject` before they read a
 * field, and fall back to `objectOr` where a missing or malformed object means "none".
 */

/** A JSON object as parsed, before anything is known of its fields. */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The object itself, or an empty one in place of a missing or malformed one. */
export function objectOr<T extends object>(value: T | undefined): T {
  return isJsonObject(value) ? value : ({} as T);
}
