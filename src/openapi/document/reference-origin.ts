/**
 * References stay where the document came from: a document read from a URL may refer only to URLs
 * of its own origin, never to a local file (`$ref: 'file:///home/u/.config/gh/hosts.yml'` would
 * otherwise be read and served to any web page through CORS); a local document refers to local
 * files, and to URLs only when its remote references are allowed (`--allow-remote-refs`). Checked before anything is resolved,
 * with a sentence naming the reference, and enforced again in swagger-parser's resolvers for the
 * documents those references bring in.
 */
import { walkObjects } from '../../core/walk-objects.js';

/** The first `$ref` of a document read from `url` that leads off its origin (a file, another host, port or scheme), or undefined. */
export function foreignReference(document: unknown, url: string): string | undefined {
  return firstReference(document, (ref) => !sameOrigin(ref, url));
}

/** The first `$ref` of a document to anything outside it (another file, a URL, an `$id`). */
export function externalReference(document: unknown): string | undefined {
  return firstReference(document, () => true);
}

/**
 * The first external `$ref` of a document (not `#...`) that `matches`, walked without recursion
 * (documents nest deep), each object once (a YAML alias shares one among many places).
 */
function firstReference(document: unknown, matches: (ref: string) => boolean): string | undefined {
  let found: string | undefined;
  walkObjects(document, (node) => {
    const ref = node.$ref;
    if (found === undefined && typeof ref === 'string' && !ref.startsWith('#') && matches(ref)) found = ref;
    return found === undefined;
  });
  return found;
}

/**
 * The first `$ref` of a local document that names a URL (`https://example.com/schemas.yaml`), or
 * undefined: a local document refers to local files only, unless its remote references are allowed.
 */
export function remoteReference(document: unknown): string | undefined {
  return firstReference(document, (ref) => /^[a-z][a-z\d+.-]+:/i.test(ref) && !/^file:/i.test(ref));
}

/** swagger-parser's resolvers for a local document whose remote references are not allowed: files only. */
export const LOCAL_ONLY_RESOLVERS = { http: false } as const;

/** True when `ref`, read relative to `base`, is on `base`'s origin. */
export function sameOrigin(ref: string, base: string): boolean {
  try {
    return new URL(ref, base).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

/**
 * swagger-parser's resolvers for a document read from `url`: no file at all, and http only on the
 * document's own origin (loopback included: it is where the document came from).
 */
export function sameOriginResolvers<Read>(url: string, read: Read): { file: false; http: { safeUrlResolver: false; canRead: (file: { url: string }) => boolean; read: Read } } {
  return { file: false, http: { safeUrlResolver: false, canRead: (file) => /^https?:\/\//i.test(file.url) && sameOrigin(file.url, url), read } };
}
