/**
 * A registry of named parts. The mock registers its built-ins first; an extension registers more,
 * or replaces one by registering under the same name. Names are case-insensitive (media types,
 * `Prefer` directives and HTTP scheme names all are).
 *
 * @example
 * const directives = new Registry<PreferDirective>('Prefer directive');
 * directives.register('delay', { parse: parseDelay });
 * directives.get('Delay') // the same part
 */
export class Registry<T> {
  private readonly parts = new Map<string, T>();

  /** `kind` names the parts in messages: "security scheme", "Prefer directive". */
  constructor(readonly kind: string) {}

  /** Adds a part, or replaces the one registered under the same name. */
  register(name: string, part: T): this {
    this.parts.set(name.toLowerCase(), part);
    return this;
  }

  get(name: string): T | undefined {
    return this.parts.get(name.toLowerCase());
  }

  has(name: string): boolean {
    return this.parts.has(name.toLowerCase());
  }

  /** Registered names, in registration order (lower case). */
  names(): string[] {
    return [...this.parts.keys()];
  }

  entries(): IterableIterator<[string, T]> {
    return this.parts.entries();
  }
}
