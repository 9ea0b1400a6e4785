/**
 * Keys that come from outside (a request body, a query, a header, a document) meeting plain
 * objects. Writing: plain assignment is several times faster than defineProperty; only
 * `__proto__` needs defineProperty, so that it becomes an ordinary own property instead of
 * replacing the prototype. Reading: a name from a request is looked up among the object's own
 * properties only, so `constructor`, `__proto__` or `toString` never find what every object inherits.
 */
export function setOwn<T>(target: object, key: string, value: T): T {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
  return value;
}

/** The object's own property of that name, or undefined (never an inherited one). */
export function ownValue<T>(target: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return target !== undefined && Object.hasOwn(target, key) ? target[key] : undefined;
}
