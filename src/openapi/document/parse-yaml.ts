/**
 * YAML documents from strangers, read with `yaml` (eemeli/yaml): YAML 1.2's core schema, merge
 * keys (`<<`) as js-yaml read them, unique keys, and aliases bounded by the parser's own count
 * (`maxAliasCount`), so a billion-laughs document of 700 bytes is refused while it is read, never
 * expanded. Every problem is said with its line and column.
 */
import { LineCounter, parseDocument, visit, type Alias, type Node } from 'yaml';

/**
 * The most alias uses a document may make, as `yaml` counts them: each use of an anchor, times
 * the uses inside what it names (one anchor used 10,000 times, or nine used nine times each,
 * nested four deep). An alias bomb passes it within a few levels; no real document comes near.
 */
export const MAX_ALIAS_COUNT = 10_000;

/** Why a text is not a document: a YAML error, or YAML that is `refused` (aliases past the bound, or an alias inside what it names). */
export interface YamlProblem {
  problem: string;
  refused?: true;
}

/**
 * @example
 * parseYaml('openapi: 3.0.3\n') // { value: { openapi: '3.0.3' } }
 * parseYaml('a: [1,\n') // { problem: 'Flow sequence in block collection must be sufficiently indented and end with a ] (2:1)' }
 */
export function parseYaml(text: string): { value: unknown } | YamlProblem {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, merge: true, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number): string => {
    const { line, col } = lines.linePos(offset);
    return `${line}:${col}`;
  };
  const [error] = document.errors;
  if (error) return { problem: `${error.message} (${at(error.pos[0])})` };
  // The aliases being resolved, innermost last: `yaml` says that its count was passed, not where.
  const resolving: Alias[] = [];
  const anchors = new Map<string, Node>();
  let problem: string | undefined;
  visit(document, {
    Node(_key, node) {
      if (node.anchor) anchors.set(node.anchor, node);
    },
    Alias(_key, alias) {
      // An alias inside the node it names would make the document hold itself: no JSON is that.
      const target = anchors.get(alias.source);
      const inside = target?.range && alias.range && alias.range[0] >= target.range[0] && alias.range[0] < target.range[2];
      if (inside) problem ??= `the alias *${alias.source} (${at(alias.range![0])}) is inside the node it names, so the document would hold itself`;
      const toJSON = alias.toJSON.bind(alias);
      alias.toJSON = (arg, context) => {
        resolving.push(alias);
        const value = toJSON(arg, context);
        resolving.pop();
        return value;
      };
      // The anchor it names is set before it, and `yaml` resolves it the same way.
      return undefined;
    },
  });
  if (problem) return { problem, refused: true };
  try {
    return { value: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (thrown) {
    const alias = resolving.at(-1);
    const where = alias?.range ? `*${alias.source} (${at(alias.range[0])})` : 'an alias';
    const message = String((thrown as Error).message);
    if (/Excessive alias count/.test(message)) {
      return { problem: `its YAML aliases expand past the bound of ${MAX_ALIAS_COUNT.toLocaleString('en-US')} alias uses (each counted with the aliases inside what it names), at ${where}`, refused: true };
    }
    if (/Unresolved alias/.test(message)) return { problem: `the alias ${where} names no anchor set before it` };
    return { problem: `${message.split('\n')[0]} (${where})` };
  }
}
