/**
 * Lone surrogates in a decoded request body: half of a UTF-16 surrogate pair, which JSON text can
 * carry as an escape (`"\ud800"`) but which is not Unicode text. It cannot be encoded as UTF-8, a
 * URL cannot name it, and a database's text cannot hold it, so a request that holds one is refused
 * (400, naming the field) before it reaches the state, whatever the document and whatever the body's
 * media type decoded it. A whole pair (an emoji written as two escapes) is one character and passes.
 */
import type { Problem } from '../../core/problem.js';
import { holdsLoneSurrogate, LONE_SURROGATES } from '../../core/unicode.js';

/** At most this many are named in one answer. */
const MAX_PROBLEMS = 20;


/**
 * The problems of a value's strings and property names that hold a lone surrogate, under `root`
 * (`body.name`, `body.tags.0`); none for a value without one. Walks without recursion: a decoder
 * registered for another media type may nest deeper than JSON bodies are allowed to.
 * @example loneSurrogates({ name: '\ud800' }, 'body') // [{ path: 'body.name', rule: 'unicode', ... }]
 */
export function loneSurrogates(value: unknown, root: string): Problem[] {
  const problems: Problem[] = [];
  // Values still to look at, last first; a property name found holding one waits its turn, so problems come in the body's order.
  const pending: Array<[unknown, string] | Problem> = [[value, root]];
  while (pending.length > 0 && problems.length < MAX_PROBLEMS) {
    const next = pending.pop()!;
    if (!Array.isArray(next)) {
      problems.push(next);
      continue;
    }
    const [item, path] = next;
    if (typeof item === 'string') {
      if (holdsLoneSurrogate(item)) problems.push(problemAt(path, item));
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) pending.push([item[i], `${path}.${i}`]);
    } else if (item !== null && typeof item === 'object' && !ArrayBuffer.isView(item)) {
      const names = Object.keys(item);
      for (let i = names.length - 1; i >= 0; i--) {
        const name = names[i];
        const at = `${path}.${shown(name)}`;
        if (holdsLoneSurrogate(name)) pending.push({ path: at, rule: 'unicode', message: `is a property name holding a lone surrogate (${escapes(name)}), which is not Unicode text` });
        else pending.push([(item as Record<string, unknown>)[name], at]);
      }
    }
  }
  return problems;
}

function problemAt(path: string, text: string): Problem {
  return {
    path,
    rule: 'unicode',
    message: `holds a lone surrogate (${escapes(text)}), which is not Unicode text: send a whole character (both halves of a surrogate pair) or none`,
  };
}

/** The lone surrogates of a text as their JSON escapes, for a message that is itself Unicode text. */
function escapes(text: string): string {
  return [...new Set(text.match(LONE_SURROGATES) ?? [])]
    .slice(0, 3)
    .map((unit) => `\\u${unit.charCodeAt(0).toString(16)}`)
    .join(', ');
}

/** A property name as a path shows it: its lone surrogates written as escapes. */
function shown(name: string): string {
  return name.replace(LONE_SURROGATES, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`);
}
