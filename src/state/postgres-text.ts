/**
 * How the PostgreSQL store (postgres-store.ts) writes text PostgreSQL cannot hold as it is. Its
 * `text` columns and its JSON functions refuse the NUL character, and no UTF-8 text holds a lone
 * surrogate (half of a UTF-16 pair), yet a JavaScript string may hold both, and the in-memory store
 * and the state file keep them. So that every store keeps what the others keep:
 * - a record holding either goes to the log and to its row as its JSON text (`raw`), where both are
 *   escapes (`\u0000`, `\ud800`), instead of as JSON the database parses (`r`, kept as jsonb);
 * - a key or a scope (a parent's key) holding either, or beginning with U+0001, is written in its
 *   column as U+0001 followed by its JSON text, and read back from it (`fromColumn`). Any other key is
 *   written as it is, so the rows of ordinary keys read as before, in SQL too.
 * What this gives, past 1 KiB, is indexed by a digest that begins with U+0001 and "#" (`mock_key` in
 * postgres-store.ts): a form no key written here has, as any that begins with U+0001 is a JSON text.
 */
import { holdsLoneSurrogate } from '../core/unicode.js';
import type { JournalEntry } from './observe-store.js';
import type { StoredRecord } from './state-store.js';

/** Entries of the journal's format (observe-store.ts), as the database's log holds them. */
export interface Entry extends JournalEntry {
  /** Instead of `r`: the record's JSON text (see the file comment). */
  raw?: string;
}

/** What begins a key or a scope written as its JSON text. */
const MARK = '\u0001';

/**
 * In an entry's JSON text, the escapes that may need the careful form: NUL, U+0001 and surrogates.
 * JSON.stringify writes a lone surrogate as an escape and a whole pair as the character, so an entry
 * without any of these (nearly all) is sent as it is; one with an escaped backslash before such text
 * (`\\u0000`, a backslash and "u0000") is only sent in the careful form without needing it.
 */
const CAREFUL = /\\u(?:000[01]|d[89a-f])/;


/** Entries (JSON texts, as observe-store.ts emits them) as one unit of the database's log: a JSON array. */
export function unitOf(entries: readonly string[]): string {
  return `[${entries.map((entry) => (CAREFUL.test(entry) ? careful(entry) : entry)).join(',')}]`;
}

/** A unit of the database's log read back: the entries as they were emitted. */
export function entriesOf(unit: string): JournalEntry[] {
  return (JSON.parse(unit) as Entry[]).map((entry) => {
    const { raw, ...rest } = entry;
    if (raw !== undefined) rest.r = JSON.parse(raw) as StoredRecord;
    if (typeof rest.k === 'string') rest.k = fromColumn(rest.k);
    if (rest.s !== undefined) rest.s = fromColumn(rest.s);
    return rest;
  });
}

/** A key or a scope as its column holds it, read back (see the file comment). */
export function fromColumn(text: string): string {
  if (!text.startsWith(MARK)) return text;
  try {
    const value: unknown = JSON.parse(text.slice(1));
    return typeof value === 'string' ? value : text;
  } catch {
    return text; // not written by this module: a key that began with U+0001 before it existed
  }
}

/** A key or a scope as its column holds it. */
function toColumn(text: string): string {
  return text.includes('\u0000') || text.startsWith(MARK) || holdsLoneSurrogate(text) ? MARK + JSON.stringify(text) : text;
}

function careful(text: string): string {
  const { r, ...entry } = JSON.parse(text) as Entry;
  if (typeof entry.k === 'string') entry.k = toColumn(entry.k);
  if (entry.s !== undefined) entry.s = toColumn(entry.s);
  return JSON.stringify(r === undefined ? entry : { ...entry, raw: JSON.stringify(r) });
}
