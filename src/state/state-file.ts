/**
 * The state file on disk (`--state-file FILE`): FILE holds a snapshot of the whole state, and
 * `FILE.<generation>.journal` the changes made since (see src/state/journal.ts for how and when
 * they are written). This module checks the location at start and reads the state back:
 * the snapshot, then the journals it names, replayed in order. A state that cannot be read, or that
 * is not a whole state of this document, stops the start and is never overwritten.
 */
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { StateSnapshot } from './snapshot.js';
import type { JournalEntry } from './observe-store.js';
import type { CollectionSnapshot, StoredRecord } from './state-store.js';

export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

export interface JournalFile {
  generation: number;
  path: string;
}

export function journalPath(file: string, generation: number): string {
  return `${file}.${generation}.journal`;
}

/** The journals next to the state file, oldest first. */
export function listJournals(file: string): JournalFile[] {
  const prefix = `${basename(file)}.`;
  const journals: JournalFile[] = [];
  for (const name of readdirSync(dirname(resolve(file)))) {
    const generation = name.startsWith(prefix) && name.endsWith('.journal') ? Number(name.slice(prefix.length, -'.journal'.length)) : NaN;
    if (Number.isSafeInteger(generation) && generation >= 0) journals.push({ generation, path: join(dirname(file), name) });
  }
  return journals.sort((a, b) => a.generation - b.generation);
}

/**
 * Why the state file's directory cannot hold it (missing, not a directory, not writable or not
 * searchable), as one sentence; undefined when it can. The file itself, if there, must be readable.
 */
export function stateLocationProblem(file: string): string | undefined {
  const directory = dirname(resolve(file));
  const cannot = `Cannot keep the state in ${file}:`;
  try {
    if (!statSync(directory).isDirectory()) return `${cannot} ${directory} is not a directory.`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `${cannot} the directory ${directory} does not exist.`;
    if (code === 'ENOTDIR') return `${cannot} a part of ${directory} is not a directory.`;
    return `${cannot} the directory ${directory} cannot be read (${code ?? (error as Error).message}).`;
  }
  for (const [mode, what] of [
    [constants.X_OK, 'searchable (x permission)'],
    [constants.W_OK, 'writable'],
    [constants.R_OK, 'readable'],
  ] as const) {
    try {
      accessSync(directory, mode);
    } catch {
      return `${cannot} the directory ${directory} is not ${what} by this process.`;
    }
  }
  try {
    if (existsSync(file) && !statSync(file).isFile()) return `${cannot} it is not a regular file.`;
  } catch (error) {
    return `${cannot} ${(error as Error).message}.`;
  }
  return undefined;
}

export interface ReadState {
  /** The state (checked), or undefined when there is no state file yet. */
  state?: StateSnapshot;
  /** The generation the next journal takes: past every one on disk. */
  generation: number;
  /** Things worth saying that did not stop the start (journals left without their state file). */
  notes: string[];
}

/** What recovery needs to know of a collection: its name and how its records are keyed. */
export interface KeyedCollection {
  name: string;
  keyProperty: string;
  /** Records with no key property, keyed by their place in their scope. */
  keyless?: boolean;
  /** Integer keys counted per scope (each scope's next key is kept). */
  keyPerParent?: boolean;
}

/**
 * Reads the state back: the snapshot, then every journal from its generation on.
 * @param check the document's judgement of the result: the snapshot, or what is wrong with it.
 * @throws StateFileError for an unusable location, an unreadable snapshot or journal, or a state
 *   that does not fit the document (a collection missing, an unknown one, a record that does not fit).
 */
export function readStateFile(file: string, collections: readonly KeyedCollection[], check: (data: unknown) => StateSnapshot | string): ReadState {
  const problem = stateLocationProblem(file);
  if (problem) throw new StateFileError(problem);
  const journals = listJournals(file);
  const generation = Math.max(0, ...journals.map((j) => j.generation)) + 1;
  if (!existsSync(file)) {
    const notes = journals.length ? [`${journals.length} journal file(s) next to ${file} have no state file (it was removed): ignored, and replaced once the new state is written.`] : [];
    return { generation, notes };
  }
  const untouched = 'it was left untouched; fix it or remove it to start from the seed';
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new StateFileError(`The state file ${file} is not valid JSON (${(error as Error).message.split('\n')[0]}); ${untouched}.`);
  }
  const base = (data as { journal?: { generation?: unknown } } | null)?.journal?.generation ?? 0;
  if (!Number.isSafeInteger(base)) throw new StateFileError(`The state file ${file} has a "journal.generation" that is not an integer; ${untouched}.`);
  const replay = journals.filter((j) => j.generation >= (base as number));
  if (replay.length) {
    const problem = replayJournals(data, replay, collections);
    if (problem) throw new StateFileError(`${problem}; the state file and its journals were left untouched; fix them or remove them to start from the seed.`);
  }
  const checked = check(data);
  if (typeof checked === 'string') throw new StateFileError(`The state file ${file}${replay.length ? ' (with its journal)' : ''} does not fit the document: ${checked}; ${untouched}.`);
  return { state: checked, generation, notes: [] };
}

/** Records by key, by scope, of one collection while the journal is replayed. */
interface Replaying {
  keyPerParent: boolean;
  nextInteger: number;
  scopes: Map<string, Map<string, StoredRecord>>;
  /** Each scope's next key, for keys counted per parent. */
  sequences: Map<string, number>;
}

type Entry = JournalEntry;

/**
 * Applies the journals to the snapshot (in place), the way the store applied the changes. The
 * snapshot may have been written while changes went on (see journal.ts): a record may already
 * hold a change the journal replays; every entry sets a record whole (or removes it), so replaying
 * it again gives the same result.
 *
 * A line is a unit: a JSON array of the entries written together (every change of the requests
 * of one write, see journal.ts), applied whole; or, in journals written before units, one entry.
 * A last line without its newline is a write cut short by a crash or a full disk: ignored whole,
 * so none of a request is read back without the rest of it (and its answer was never sent).
 * Anything else unreadable is refused, with the file and line.
 * @returns what is wrong, or undefined.
 */
function replayJournals(data: unknown, journals: JournalFile[], collections: readonly KeyedCollection[]): string | undefined {
  const state = data as { collections?: Record<string, CollectionSnapshot> };
  // A snapshot of the wrong shape is left to the document's check, which says what is wrong.
  if (!state || typeof state !== 'object' || !state.collections || typeof state.collections !== 'object') return undefined;
  for (const given of Object.values(state.collections)) {
    if (!given || typeof given !== 'object' || !given.scopes || typeof given.scopes !== 'object' || !Object.values(given.scopes).every(Array.isArray)) return undefined;
  }
  const working = new Map<string, Replaying>();
  const open = (name: string): Replaying | undefined => {
    let replaying = working.get(name);
    if (replaying) return replaying;
    const collection = collections.find((c) => c.name === name);
    if (collection === undefined) return undefined;
    const given = state.collections![name];
    const sequences = given?.sequences && typeof given.sequences === 'object' ? Object.entries(given.sequences).filter(([, n]) => Number.isSafeInteger(n)) : [];
    replaying = { keyPerParent: Boolean(collection.keyPerParent), nextInteger: Number.isSafeInteger(given?.nextInteger) ? given.nextInteger : 1, scopes: new Map(), sequences: new Map(sequences) };
    // A keyless record's key is its place in its scope, as the store numbers it (and journals it).
    const keyOf = (record: unknown, index: number) => (collection.keyless ? String(index + 1) : String((record as StoredRecord)?.[collection.keyProperty]));
    for (const [scope, records] of Object.entries(given?.scopes ?? {})) {
      replaying.scopes.set(scope, new Map(records.map((record, index) => [keyOf(record, index), record])));
    }
    working.set(name, replaying);
    return replaying;
  };
  const apply = (entry: Entry, where: string): string | undefined => {
    const collection = typeof entry?.c === 'string' ? open(entry.c) : undefined;
    if (!collection) return `${where} names ${typeof entry?.c === 'string' ? `collection "${entry.c}", which is not in the document (it has: ${collections.map((c) => c.name).join(', ')})` : 'no collection'}`;
    const scope = typeof entry.s === 'string' ? entry.s : '';
    switch (entry.op) {
      case 'put': {
        if (!entry.r || typeof entry.r !== 'object') return `${where} has no record`;
        let records = collection.scopes.get(scope);
        if (!records) collection.scopes.set(scope, (records = new Map()));
        records.set(String(entry.k), entry.r);
        if (typeof entry.k === 'number' && entry.k >= collection.nextInteger) collection.nextInteger = entry.k + 1;
        if (collection.keyPerParent && typeof entry.k === 'number' && entry.k >= (collection.sequences.get(scope) ?? 1)) collection.sequences.set(scope, entry.k + 1);
        return undefined;
      }
      case 'del':
        collection.scopes.get(scope)?.delete(String(entry.k));
        return undefined;
      case 'drop':
        collection.scopes.delete(scope);
        collection.sequences.delete(scope);
        return undefined;
      case 'clear':
        collection.scopes.clear();
        collection.sequences.clear();
        collection.nextInteger = 1;
        return undefined;
      case 'next':
        if (!Number.isSafeInteger(entry.n)) return undefined;
        if (typeof entry.s === 'string') collection.sequences.set(entry.s, Math.max(collection.sequences.get(entry.s) ?? 1, entry.n!));
        else collection.nextInteger = Math.max(collection.nextInteger, entry.n!);
        return undefined;
      default:
        return `${where} has an unknown "op"`;
    }
  };
  for (const journal of journals) {
    const text = readFileSync(journal.path, 'utf8');
    const lines = text.split('\n');
    // What follows the last newline is empty, or a write cut short: a unit without its newline, dropped whole.
    for (let i = 0; i < lines.length - 1; i++) {
      const where = `The journal ${journal.path}, line ${i + 1},`;
      let unit: unknown;
      try {
        unit = JSON.parse(lines[i]);
      } catch {
        return `${where} is not valid JSON`;
      }
      if (!Array.isArray(unit)) {
        const problem = apply(unit as Entry, where);
        if (problem) return problem;
        continue;
      }
      for (let j = 0; j < unit.length; j++) {
        const problem = apply(unit[j] as Entry, unit.length > 1 ? `${where} change ${j + 1},` : where);
        if (problem) return problem;
      }
    }
  }
  for (const [name, replaying] of working) {
    state.collections[name] = {
      nextInteger: replaying.nextInteger,
      scopes: Object.fromEntries([...replaying.scopes].filter(([scope, records]) => scope === '' || records.size > 0).map(([scope, records]) => [scope, [...records.values()]])),
      ...(replaying.keyPerParent ? { sequences: Object.fromEntries(replaying.sequences) } : {}),
    };
  }
  return undefined;
}
