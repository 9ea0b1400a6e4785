/**
 * A 5xx the suite's own requests provoked for every later caller: a read that answered 2xx before
 * answers 5xx after a write the suite sent in between succeeded (deleting a record another one
 * still refers to, then every read of the other answering 500). The cause taken is the latest
 * successful write before the first 5xx of that read.
 */
import type { Exchange } from './case.js';

const READS = new Set(['GET', 'HEAD']);
const ok = (status: number) => status >= 200 && status < 300;

/** The requests that led to a read's 5xx: the same read answering 2xx, then the write; undefined when none did. */
export function provokedBy(history: readonly Exchange[], failing: Exchange): { before: Exchange; write: Exchange } | undefined {
  if (failing.status < 500 || !READS.has(failing.case.method)) return undefined;
  const same = (ex: Exchange) => ex.case.method === failing.case.method && ex.case.path === failing.case.path;
  const at = history.lastIndexOf(failing);
  const end = at === -1 ? history.length : at;
  let before = -1;
  for (let i = end - 1; i >= 0 && before < 0; i--) if (same(history[i]) && ok(history[i].status)) before = i;
  if (before < 0) return undefined;
  // The first 5xx of that read since it last answered 2xx: the write that caused it came before it.
  let first = end;
  for (let i = before + 1; i < end; i++) {
    if (same(history[i]) && history[i].status >= 500) {
      first = i;
      break;
    }
  }
  for (let i = first - 1; i > before; i--) {
    if (!READS.has(history[i].case.method) && ok(history[i].status)) return { before: history[before], write: history[i] };
  }
  return undefined;
}
