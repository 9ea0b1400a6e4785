/**
 * Writing a key that comes from outside (a request body, a query, a document) onto a plain object.
 * Plain assignment is several times faster than defineProperty; only `__proto__` needs
 * defineProperty, so that it becomes an ordinary own property instead of replacing the prototype.
 */
export function setOwn<T>(target: object, key: string, value: T): T {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
  return value;
}
