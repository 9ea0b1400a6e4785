/**
 * Content-Type parsing and matching against the media types an operation declares
 * (`application/json`, `application/*`, `*\/*`, `application/vnd.api+json`).
 */

export interface ParsedMediaType {
  /** `application/json`, lower case, without parameters. */
  essence: string;
  charset?: string;
}

export function parseMediaType(header: string | undefined | null): ParsedMediaType | undefined {
  if (!header) return undefined;
  const [essence, ...params] = header.split(';');
  const charset = params
    .map((p) => p.trim().split('='))
    .find(([k]) => k.toLowerCase() === 'charset')?.[1]
    ?.replace(/"/g, '')
    .toLowerCase();
  return { essence: essence.trim().toLowerCase(), charset };
}

export function isJsonMediaType(essence: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json$/.test(essence) || essence === '*/*' || essence === 'application/*';
}

/** The declared media type that accepts a received one: exact, then `type/*`, then `*\/*`. */
export function matchMediaType(declared: string[], received: string): string | undefined {
  const lower = declared.map((d) => d.toLowerCase().split(';')[0].trim());
  const exact = lower.indexOf(received);
  if (exact >= 0) return declared[exact];
  const range = lower.indexOf(`${received.split('/')[0]}/*`);
  if (range >= 0) return declared[range];
  const any = lower.indexOf('*/*');
  return any >= 0 ? declared[any] : undefined;
}

/**
 * The declared media type a JSON body is sent as: `application/json` when the operation takes it,
 * else the first JSON type it declares (`application/merge-patch+json`); undefined when none is.
 */
export function jsonMediaType(declared: string[]): string | undefined {
  const essences = declared.map((d) => parseMediaType(d)?.essence ?? '');
  const index = [essences.indexOf('application/json'), essences.findIndex((e) => /^application\/(?:[\w.+-]+\+)?json$/.test(e)), essences.findIndex((e) => /json/.test(e))].find((i) => i >= 0);
  return index === undefined ? undefined : declared[index];
}
