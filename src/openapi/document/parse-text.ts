/**
 * The text of a document, parsed: JSON with JSON.parse where it reads the same (parse-json.ts),
 * else YAML, a superset of JSON, with its aliases bounded (parse-yaml.ts). On Node and in a browser.
 */
import { DocumentLoadError } from './document.js';
import { parseJson } from './parse-json.js';
import { parseYaml } from './parse-yaml.js';

/**
 * @example parseText('spec/openapi.yaml', 'openapi: 3.0.3\n') // { openapi: '3.0.3' }
 * @throws DocumentLoadError naming `name`: the YAML or JSON problem and where it is, or the bound passed.
 */
export function parseText(name: string, text: string): unknown {
  const json = parseJson(text);
  if (json !== undefined) return json;
  const parsed = parseYaml(text);
  if ('value' in parsed) return parsed.value;
  throw new DocumentLoadError(parsed.refused ? `${name} is refused: ${parsed.problem}.` : `${name} is not valid YAML or JSON: ${sentenceCase(parsed.problem)}.`);
}

/** `Map keys must be unique (2:1)` reads on after a colon as `map keys must be unique (2:1)`. */
function sentenceCase(problem: string): string {
  return /^[A-Z][a-z]/.test(problem) ? problem[0].toLowerCase() + problem.slice(1) : problem;
}
