/**
 * How swagger-parser dereferences a document for the mock. Circular references stay `$ref`s
 * (`circular: 'ignore'`), and every other `$ref` becomes the one object it names, shared by all
 * the places that use it.
 *
 * With `circular: 'ignore'` swagger-parser crawls an object again each time it meets it. Its walk
 * of `components.schemas`, after the paths had dereferenced them, crawled every named schema again
 * down the whole chain of schemas it references: quadratic in the chain's length (8.8 s of a start
 * for one chain of 500). The walk now skips the named schemas that a `$ref` names: they are
 * dereferenced where they are used. The others are walked as before, so a broken `$ref` in a
 * schema nothing uses still stops the load.
 */
import { walkObjects } from '../../core/walk-objects.js';

/** `#/components/schemas/Pet` itself, reached by walking the document rather than through a `$ref`. */
const NAMED_SCHEMA = /^#\/components\/schemas\/([^/]+)$/;

/** A fresh object each time: swagger-parser writes into the options it is given. */
export function dereferenceOptions(document: unknown): { circular: 'ignore'; excludedPathMatcher: (path: string) => boolean } {
  const referenced = referencedSchemas(document);
  return {
    circular: 'ignore',
    // Called for every place of the document: most are told apart by their start.
    excludedPathMatcher: (path) => {
      const name = path.startsWith('#/components/schemas/') ? NAMED_SCHEMA.exec(path)?.[1] : undefined;
      return name !== undefined && referenced.has(unescape(name));
    },
  };
}

/** The names of the schemas that a local `$ref` of the document names whole. */
function referencedSchemas(document: unknown): Set<string> {
  const names = new Set<string>();
  walkObjects(document, (node) => {
    const ref = node.$ref;
    const name = typeof ref === 'string' ? NAMED_SCHEMA.exec(ref)?.[1] : undefined;
    if (name !== undefined) names.add(unescape(name));
    return true;
  });
  return names;
}

/** A JSON Pointer token as written in a URI fragment, back to the key it names. */
function unescape(token: string): string {
  let key = token;
  try {
    key = decodeURIComponent(token);
  } catch {
    // not percent-encoded after all
  }
  return key.replace(/~1/g, '/').replace(/~0/g, '~');
}
