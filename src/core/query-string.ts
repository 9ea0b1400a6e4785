/**
 * A request's query string, parsed once (on first use) and read by every stage that needs it:
 * the scenario's `__code` fallbacks, an API key sent as a query parameter, the parameter parser.
 */

/** Decoded name → raw (still encoded) values, in order of appearance. */
export type Multimap = Map<string, string[]>;

export class QueryString {
  private parsed?: Multimap;

  /** `raw`: the query without `?`, not decoded (may be ''). */
  constructor(readonly raw: string) {}

  static readonly EMPTY = new QueryString('');

  /**
   * Names (decoded) with their raw values. A name that cannot be decoded cannot be a declared
   * one, so it is skipped like any undeclared parameter.
   */
  entries(): Multimap {
    if (this.parsed) return this.parsed;
    const map: Multimap = new Map();
    if (this.raw !== '') {
      for (const pair of this.raw.split('&')) {
        if (pair === '') continue;
        const eq = pair.indexOf('=');
        const name = decodeQueryComponent(eq === -1 ? pair : pair.slice(0, eq));
        if (name !== undefined) append(map, name, eq === -1 ? '' : pair.slice(eq + 1));
      }
    }
    return (this.parsed = map);
  }

  /** The first value of a name, decoded; undefined when absent (or, for the value, malformed: then as sent). */
  first(name: string): string | undefined {
    const raw = this.entries().get(name)?.[0];
    return raw === undefined ? undefined : (decodeQueryComponent(raw) ?? raw);
  }
}

export function append(map: Multimap, name: string, value: string): void {
  const values = map.get(name);
  if (values === undefined) map.set(name, [value]);
  else values.push(value);
}

/** Percent-decodes, or returns undefined for a malformed escape or invalid UTF-8 instead of throwing. */
export function decodeComponent(text: string): string | undefined {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** As decodeComponent, with `+` meaning a space (application/x-www-form-urlencoded). */
export function decodeQueryComponent(text: string): string | undefined {
  return decodeComponent(text.includes('+') ? text.replaceAll('+', ' ') : text);
}
