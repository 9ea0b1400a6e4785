/**
 * The document's patterns the validators do not enforce because RE2 cannot run them in linear time
 * (regex-engine.ts says the rule), each with where it is: for the mock's start warnings and the
 * contract suite's report. The verdict is the validators' own (`linearPattern`), not a second opinion.
 */
import { linearPattern } from '../../core/regex-engine.js';

export interface UnenforcedPattern {
  pattern: string;
  /** A JSON pointer to the first place the document has it (`#/components/schemas/User/properties/password/pattern`). */
  where: string;
  /** How many other places have it. */
  more: number;
  /** Why RE2 cannot run it: `it has a lookahead`. */
  reason: string;
}

// Values, not schemas: a `pattern` key in an example is data.
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const', 'value']);
// Maps whose keys are names (a property called `default` is a schema).
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'schemas', 'parameters', 'responses', 'headers', 'requestBodies', 'content', 'paths', 'callbacks', 'webhooks', 'pathItems', 'encoding']);
const pointerPart = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every `pattern` and `patternProperties` key of the document that every string passes, with why. */
export function unenforcedPatterns(api: unknown): UnenforcedPattern[] {
  const found = new Map<string, UnenforcedPattern>();
  const seen = new WeakSet<object>();
  const check = (pattern: string, where: string) => {
    let reason: string | undefined;
    try {
      reason = linearPattern(pattern).unenforced;
    } catch {
      return; // Not valid JavaScript: its schema is refused (and warned about) as before.
    }
    if (reason === undefined) return;
    const entry = found.get(pattern);
    if (entry) entry.more++;
    else found.set(pattern, { pattern, where, more: 0, reason });
  };
  const walk = (node: unknown, where: string, names = false): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${where}/${index}`));
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (!names && (DATA_KEYS.has(key) || key.startsWith('x-'))) continue;
      const at = `${where}/${pointerPart(key)}`;
      if (!names && key === 'pattern' && typeof value === 'string') check(value, at);
      if (!names && key === 'patternProperties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        for (const pattern of Object.keys(value)) check(pattern, `${at}/${pointerPart(pattern)}`);
      }
      walk(value, at, !names && NAME_MAPS.has(key));
    }
  };
  walk(api, '#');
  return [...found.values()];
}

/** The warning for one: what it is, where, why, and what the mock and the suite do with it. */
export function describeUnenforced({ pattern, where, more, reason }: UnenforcedPattern): string {
  const others = more ? ` (and ${more} other place${more === 1 ? '' : 's'})` : '';
  return `The pattern ${JSON.stringify(pattern)} at ${where}${others} is not enforced: ${reason}, which a linear-time engine cannot run, and a backtracking one never runs on what clients send; every string passes it.`;
}
