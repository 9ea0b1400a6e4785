/**
 * The journal's files (journal.ts): one opened for appending, with what identifies it on the disk (a
 * file removed or replaced is seen by the next check), a buffer written whole, the checks made on
 * the files every `syncMs`, and a failed file operation said in a few words.
 */
import { access, close, constants, fdatasync, fstat, open, stat, write } from 'node:fs';

/** A journal file open for appending, and the device and inode it had when opened. */
export interface OpenJournal {
  fd: number;
  path: string;
  dev: number;
  ino: number;
}

/** Opens a journal for appending (made if missing), with its device and inode. */
export function openJournal(path: string): Promise<OpenJournal> {
  return new Promise((resolve, reject) =>
    open(path, 'a', 0o644, (error, fd) => {
      if (error) return reject(error);
      fstat(fd, (statError, stats) => {
        if (statError) return close(fd, () => reject(statError));
        resolve({ fd, path, dev: stats.dev, ino: stats.ino });
      });
    }),
  );
}

/** Writes the whole buffer (a write may take only part of it). */
export function writeAll(fd: number, buffer: Buffer, done: (error?: NodeJS.ErrnoException) => void, offset = 0): void {
  write(fd, buffer, offset, buffer.length - offset, null, (error, bytes) => {
    if (error) return done(error);
    if (offset + bytes < buffer.length) return writeAll(fd, buffer, done, offset + bytes);
    done();
  });
}

/** A failed file operation in a few words: its code and its message's first line. */
export function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e?.code ? `${e.code} (${e.message.replace(/^[A-Z]+: /, '').split('\n')[0]})` : String(e?.message ?? e);
}

/** What `read` gives, or undefined when it throws. */
export function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * The journal synced to the disk (when `sync`), and its location checked: the first problem found
 * (the journal or the state file removed or replaced, the directory no longer writable), or
 * undefined; all of them are made, and the first in this order is told.
 */
export async function fileProblem(journal: OpenJournal, file: string, directory: string, sync: boolean): Promise<string | undefined> {
  const checks: Array<Promise<string | undefined>> = [
    sync ? new Promise((done) => fdatasync(journal.fd, (error) => done(error ? `Cannot sync the journal ${journal.path}: ${describe(error)}` : undefined))) : Promise.resolve(undefined),
    new Promise((done) =>
      stat(journal.path, (error, stats) =>
        done(error || stats.ino !== journal.ino || stats.dev !== journal.dev ? `The journal ${journal.path} was removed or replaced while the mock ran${error ? ` (${error.code})` : ''}` : undefined),
      ),
    ),
    new Promise((done) => stat(file, (error, stats) => done(error || !stats.isFile() ? `The state file ${file} was removed or replaced while the mock ran${error ? ` (${error.code})` : ''}` : undefined))),
    new Promise((done) => access(directory, constants.W_OK | constants.X_OK, (error) => done(error ? `The directory ${directory} is not writable any more (${error.code})` : undefined))),
  ];
  return (await Promise.all(checks)).find(Boolean);
}
