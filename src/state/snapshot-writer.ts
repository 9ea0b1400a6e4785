/**
 * Writes the whole state as a snapshot file without stalling the server: the text is built a
 * slice at a time (a few milliseconds of work, then the event loop serves what waits), from the
 * JSON the store already keeps for each record, and written with asynchronous writes as it grows.
 * The file appears whole or not at all: a temporary file, synced, then renamed over the old one,
 * and the directory synced.
 *
 * Changes go on while the slices are built, so the snapshot is "fuzzy": each record is as it was
 * when its slice was built. It is exact once the journal written from the moment it began is
 * replayed on it (state-file.ts), and the journal is kept until the snapshot is in place.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { SNAPSHOT_FORMAT } from './snapshot.js';
import type { StateStore } from './state-store.js';
import { recordJson } from './speedups.js';

export interface SnapshotSource {
  store: StateStore;
  names: readonly string[];
  nextInteger: (name: string) => number;
  /** Each scope's next key, for collections whose keys are counted per parent. */
  sequences?: (name: string) => Record<string, number> | undefined;
}

export interface SliceOptions {
  /** Work done between two turns of the event loop, at most (about). */
  sliceMs: number;
  /** Text gathered before it is written. */
  chunkBytes?: number;
}

const CHUNK_BYTES = 1 << 20;

/** @returns the size of the file written, in bytes. */
export async function writeSnapshotFile(file: string, source: SnapshotSource, generation: number, options: SliceOptions): Promise<number> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  let handle: FileHandle | undefined;
  try {
    handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    const size = await writeSlices(handle, source, generation, options);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temporary, file); // atomic: a reader sees the old file or the new one, never half of one
    await syncDirectory(dirname(resolve(file)));
    return size;
  } catch (error) {
    // Clean-up is best effort and never throws: the error worth reporting is the first one.
    await handle?.close().catch(() => undefined);
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Makes a rename or a new file in the directory durable (where the platform allows it). */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, constants.O_RDONLY);
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM') throw error; // some systems cannot sync a directory
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

async function writeSlices(handle: FileHandle, { store, names, nextInteger, sequences }: SnapshotSource, generation: number, { sliceMs, chunkBytes = CHUNK_BYTES }: SliceOptions): Promise<number> {
  // The text is encoded straight into one of two buffers, written in turn (one fills while the
  // other is written): no string of the state, or of a chunk of it, is built, so a snapshot of
  // 45 MB leaves next to nothing for the garbage collector.
  let current: Buffer = Buffer.allocUnsafe(chunkBytes);
  let other: Buffer = Buffer.allocUnsafe(chunkBytes);
  let used = 0;
  let written = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const flush = async () => {
    await inFlight; // `other` is free again
    const full = current;
    const length = used;
    current = other;
    other = full;
    used = 0;
    written += length;
    inFlight = writeFully(handle, full, length);
    inFlight.catch(() => undefined); // handled when next awaited: a failed write must not go unhandled meanwhile
  };
  /** Room for a text: a UTF-8 character takes at most 3 bytes per UTF-16 unit. */
  const add = async (text: string) => {
    if (used + text.length * 3 > current.length) {
      await flush();
      if (text.length * 3 > current.length) {
        await inFlight;
        const big = Buffer.from(text);
        written += big.length;
        inFlight = writeFully(handle, big, big.length);
        inFlight.catch(() => undefined);
        return;
      }
    }
    used += current.write(text, used);
  };
  let sliceStart = performance.now();
  let count = 0;

  await add(`{"format":${JSON.stringify(SNAPSHOT_FORMAT)},"journal":{"generation":${generation}},"collections":{`);
  for (const [i, name] of names.entries()) {
    const collection = store.collection(name);
    await add(`${i ? ',' : ''}${JSON.stringify(name)}:{"scopes":{`);
    // Scopes made after this point are in the journal; an iterator over a Map sees the records
    // added while it runs, and skips those deleted before it reaches them.
    const scopes = collection.scopes();
    if (!scopes.includes('')) scopes.unshift('');
    for (const [j, scope] of scopes.entries()) {
      await add(`${j ? ',' : ''}${JSON.stringify(scope)}:[`);
      let first = true;
      for (const record of collection.records(scope).values()) {
        const text = recordJson(collection, record);
        // Written without an await unless the buffer is full: a record costs an encoding, no more.
        if (used + text.length * 3 + 1 > current.length) await add(first ? text : `,${text}`);
        else {
          if (!first) current[used++] = 0x2c; // ,
          used += current.write(text, used);
        }
        first = false;
        // Every 64 records a look at the clock; past the slice, the event loop gets a turn.
        if ((++count & 63) === 0 && performance.now() - sliceStart >= sliceMs) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
      await add(']');
    }
    // Read last: the sequences as they stand once every record above was read.
    const perScope = sequences?.(name);
    await add(`},"nextInteger":${nextInteger(name)}${perScope ? `,"sequences":${JSON.stringify(perScope)}` : ''}}`);
  }
  await add('}}\n');
  await flush();
  await inFlight;
  return written;
}

async function writeFully(handle: FileHandle, buffer: Buffer, length: number): Promise<void> {
  for (let offset = 0; offset < length; ) offset += (await handle.write(buffer, offset, length - offset)).bytesWritten;
}
