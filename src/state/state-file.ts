/**
 * Persistence for demos (`--state-file`): the state is read at start and written atomically
 * (a temporary file, then a rename) after changes, debounced, and on shutdown. A `kill -9` loses
 * at most the last debounce interval. A file that cannot be read as a state of this document stops
 * the start and is never overwritten.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { StateSnapshot } from './snapshot.js';

export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

/** Debounce of the writes after a change (the most a kill -9 can lose). */
export const STATE_DEBOUNCE_MS = 200;

/**
 * @returns the checked state, or undefined when the file does not exist yet.
 * @throws StateFileError when it exists but is not a valid state of this document.
 */
export function readStateFile(file: string, check: (data: unknown) => StateSnapshot | string): StateSnapshot | undefined {
  if (!existsSync(file)) return undefined;
  const untouched = 'it was left untouched; fix it or remove it to start from the seed';
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new StateFileError(`The state file ${file} is not valid JSON (${(error as Error).message.split('\n')[0]}); ${untouched}.`);
  }
  const checked = check(data);
  if (typeof checked === 'string') throw new StateFileError(`The state file ${file} does not fit the document: ${checked}; ${untouched}.`);
  return checked;
}

export interface StateWriter {
  /** The state changed: write it within the debounce interval. */
  changed: () => void;
  /** Write now if anything changed (at shutdown). */
  flush: () => void;
}

export function createStateWriter(file: string, snapshot: () => StateSnapshot, onError: (message: string) => void, debounceMs = STATE_DEBOUNCE_MS): StateWriter {
  let timer: NodeJS.Timeout | undefined;
  let dirty = false;
  const write = () => {
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify(snapshot())}\n`);
      renameSync(temporary, file); // atomic: a reader sees the old file or the new one, never half of one
    } catch (error) {
      rmSync(temporary, { force: true });
      onError(`Cannot write the state file ${file}: ${(error as Error).message}`);
    }
  };
  return {
    changed() {
      dirty = true;
      timer ??= setTimeout(write, debounceMs);
    },
    flush() {
      if (timer) clearTimeout(timer);
      write();
    },
  };
}
