/**
 * Did-you-mean: the known words a mistyped one was probably meant to be, and words as a sentence
 * lists them. For the CLI's flags and commands, and the document's fields and types.
 */

/**
 * The known words a mistyped one was probably meant to be: those at the smallest edit distance
 * (at most 2, or 1 for a word of 3 letters or fewer; a swap of neighbours counts 1), else those
 * it begins, if no more than three.
 *
 * @example closest('prot', ['port', 'host', 'spec']) // ['port']
 * @example closest('allow', ['allowed-host', 'api-key']) // ['allowed-host']
 */
export function closest(word: string, known: readonly string[]): string[] {
  const typed = word.toLowerCase();
  const limit = typed.length <= 3 ? 1 : 2;
  const scored = known.map((candidate) => ({ candidate, distance: editDistance(typed, candidate.toLowerCase()) }));
  const best = Math.min(...scored.map((s) => s.distance));
  if (best <= limit) return scored.filter((s) => s.distance === best).map((s) => s.candidate);
  const prefixed = typed.length >= 2 ? known.filter((candidate) => candidate.toLowerCase().startsWith(typed)) : [];
  return prefixed.length <= 3 ? prefixed : [];
}

/**
 * Words as a sentence lists them.
 *
 * @example orList(['silent', 'error', 'info', 'debug']) // 'silent, error, info or debug'
 */
export function orList(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost 1. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
