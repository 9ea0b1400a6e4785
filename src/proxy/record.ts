/**
 * Recording: what an upstream server answered, written as fixtures the mock loads with
 * `--fixtures DIR` (one `DIR/<collection>.json` per collection, an array of records; see
 * src/state/load-fixtures.ts). The proxy hands each upstream answer to `observe`; which collection
 * an answer feeds, and how, is the mock's own inference (`inferCollections`): a list's items, the
 * record a read, create, replace or merge answers, a delete's key. A record is taken only where it
 * validates against its collection's record schema with the response validators (the check the
 * fixtures get at load), is kept once under its key (the latest answer wins), and loses its secrets
 * before it is kept: only bodies are recorded, never headers.
 *
 * Files are written whole, each to a temporary file in DIR then renamed over the old one, at most
 * about once a second after a change (an unref'd timer: a proxy killed outright loses at most that
 * second) and on `close()`.
 *
 * A nested collection's record is written carrying its parent's key where its schema has a place
 * for it (`parentProperty`, which the mock sets on a create too): the loader puts it under that
 * parent. One whose schema has no such place cannot say its parent: it loads at the top of its
 * collection, one per key, and the recorder says so.
 */
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import type { LoadedDocument } from '../openapi/document/document.js';
import type { SchemaObject } from '../openapi/document/schema.js';
import { formatProblem } from '../core/problem.js';
import { isJsonObject } from '../core/json-object.js';
import { isIntegerKey, type Collection, type CrudBinding } from '../openapi/operations/collection.js';
import { mergedProperties } from '../openapi/operations/schema-properties.js';
import type { Operation } from '../openapi/operations/operation.js';
import type { StoredRecord } from '../state/state-store.js';
import { toProblems } from '../openapi/validation/ajv-problems.js';
import { compileDocument, type CompiledDocument } from '../openapi/validation/compiled-document.js';
import { listItems } from '../contract/list-items.js';
import { hidesIn, secretScrubber } from './scrub-secrets.js';

export interface RecordedExchange {
  /** The operation of the document the request matched. */
  operation: Operation;
  /** Its path parameters, decoded (`{ projectKey: 'WEB', number: '7' }`). */
  params: Record<string, string>;
  /** The upstream's status. */
  status: number;
  /** The upstream's body, parsed; undefined when it was not JSON (or there was none). */
  json: unknown;
  /** The exchange's secrets masked (the client's credentials, secret-named values: exchange-mask.ts); a value it changes is not recorded as it was. */
  mask?: { text: (text: string) => string };
}

export interface RecordingSummary {
  /** The fixture files this recorder has written in DIR (paths), by collection name. */
  files: string[];
  /** The records those files hold, all together. */
  records: number;
}

export interface Recorder {
  /** Takes one upstream answer: ignored unless it is a 2xx of an operation that acts on a collection. */
  observe(exchange: RecordedExchange): void;
  /** Writes the collections changed since the last write, now. */
  flush(): RecordingSummary;
  /** Stops the timer and writes what is left; `observe` ignores answers after it. */
  close(): RecordingSummary;
}

export interface RecorderOptions {
  /** Where the fixture files go; made if missing. */
  dir: string;
  document: LoadedDocument;
  /** Told once per cause what is not recorded, and why (a default: nothing said). */
  warn?: (message: string) => void;
  /** The document compiled once, shared with the proxy's mock and inspector; default: one compiled here. */
  compiled?: CompiledDocument;
}

/** At most this many passes over a record to find the values whose masking its schema refuses. */
const MAX_STRICT_ROUNDS = 8;

/** At most one write of the files per this many milliseconds after a change. */
const WRITE_EVERY_MS = 1000;

/** One recorded record, where the mock would hold it. */
interface Entry {
  /** The parent's scope, as the mock joins it (`''` at the top, `WEB` under project WEB). */
  scope: string;
  /** `String(key)`; the record's JSON text for a keyless collection (twins are one record). */
  key: string;
  record: StoredRecord;
  /** When it was seen: the latest wins where the file can hold one record only. */
  seen: number;
}

/**
 * @example
 * const recorder = createRecorder({ dir: 'recorded', document, warn: console.error });
 * recorder.observe({ operation: getPet, params: { petId: '7' }, status: 200, json: { id: 7, name: 'Rex' } });
 * recorder.close(); // { files: ['recorded/pets.json'], records: 1 }
 * @throws Error when DIR exists and is not a directory, or cannot be made.
 */
export function createRecorder(options: RecorderOptions): Recorder {
  const { dir, document } = options;
  prepareDir(dir);
  const once = warnOnce(options.warn ?? (() => undefined));
  const compiled = options.compiled ?? compileDocument(document, { warn: once });
  const { collections, bindings } = compiled;
  const byName = new Map(collections.map((collection) => [collection.name, collection]));
  const validatorOf = compiled.responseValidator;
  const scrub = secretScrubber(document);

  const recorded = new Map<string, Map<string, Entry>>();
  const written = new Map<string, number>();
  const dirty = new Set<string>();
  let seen = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const entriesOf = (name: string) => {
    let entries = recorded.get(name);
    if (!entries) recorded.set(name, (entries = new Map()));
    return entries;
  };
  const changed = (name: string) => {
    dirty.add(name);
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      try {
        flush();
      } catch (error) {
        once(`The recording could not be written: ${(error as Error).message}`);
      }
    }, WRITE_EVERY_MS);
    timer.unref?.();
  };

  /** A record the answer holds, checked, with its parent's key and without its secrets; undefined (said once) when it is none. */
  const take = (collection: Collection, operation: Operation, status: number, value: unknown, params: Record<string, string>, mask?: (text: string) => string): StoredRecord | undefined => {
    const validate = validatorOf(collection.schema);
    // Said once per operation and cause, not once per item of a list or per problem found.
    const notOne = (cause: string, why: string) => void once(`${operation.id}: a ${status} answer ${why}; it is not recorded.`, `${operation.id} ${cause}`);
    if (!isJsonObject(value)) return notOne('shape', `is not a ${collection.name} record (not an object)`);
    const problem = failure(validate, value);
    if (problem) return notOne('shape', `is not a ${collection.name} record (${problem})`);
    if (!collection.keyless && value[collection.keyProperty] === undefined) return notOne('key', `has no ${collection.keyProperty}, the key of ${collection.name}`);
    // The mock addresses a record by its key: one that is a secret of the exchange cannot be masked, so the record is left out.
    if (!collection.keyless && mask && hidesIn(mask, String(value[collection.keyProperty]))) return notOne('secret key', `has a secret of the request or answer as its ${collection.keyProperty}`);
    const { parentProperty } = collection;
    const parentKey = collection.scopeParams.length ? params[collection.scopeParams.at(-1)!] : undefined;
    const cleaned = (strict: string[]) => {
      const record = structuredClone(value) as StoredRecord;
      if (parentProperty && record[parentProperty] === undefined && parentKey !== undefined) record[parentProperty] = typedLike(mergedProperties(collection.schema)[parentProperty], parentKey);
      scrub(collection, record, mask, strict);
      return record;
    };
    // A secret inside a value is masked (`***`); where the schema then refuses the value, it is treated as a secret-named one's.
    const strict: string[] = [];
    let record = cleaned(strict);
    for (let round = 0; mask && round < MAX_STRICT_ROUNDS; round++) {
      const paths = failingPaths(validate, record).filter((path) => !strict.includes(path));
      if (paths.length === 0) break;
      strict.push(...paths);
      record = cleaned(strict);
    }
    const after = failure(validate, record);
    if (after) return notOne('secrets', `no longer fits the ${collection.name} record schema once its secrets are left out (${after})`);
    return record;
  };

  const put = (collection: Collection, scope: string, record: StoredRecord) => {
    const key = collection.keyless ? JSON.stringify(record) : String(record[collection.keyProperty]);
    entriesOf(collection.name).set(`${scope}\u0000${key}`, { scope, key, record, seen: ++seen });
    if (collection.parent && !collection.parentProperty) {
      once(`${collection.name}: its records have no property for their parent's key (of ${collection.parent}), so the mock loads the recorded ${collection.name} at the top of the collection, not under their ${collection.parent} (${collection.path} does not list them).`);
    }
    changed(collection.name);
  };

  /** The record and, as the mock does, its children (and theirs) go. */
  const remove = (collection: Collection, scope: string, key: string) => {
    const entries = recorded.get(collection.name);
    if (entries?.delete(`${scope}\u0000${key}`)) changed(collection.name);
    const prefix = scope ? `${scope}/${key}` : key;
    for (const name of collection.children) {
      const child = byName.get(name)!;
      for (const [id, entry] of recorded.get(name) ?? []) {
        if (entry.scope !== prefix && !entry.scope.startsWith(`${prefix}/`)) continue;
        recorded.get(name)!.delete(id);
        changed(name);
        if (!child.keyless) remove(child, entry.scope, entry.key);
      }
    }
  };

  const observe = ({ operation, params, status, json, mask }: RecordedExchange) => {
    const masking = mask && ((text: string) => mask.text(text));
    if (closed || status < 200 || status > 299) return;
    const binding: CrudBinding | undefined = bindings.get(operation.id);
    if (!binding) return;
    const { collection, action } = binding;
    const values = collection.scopeParams.map((name) => params[name]);
    if (values.some((value) => value === undefined)) return void once(`${operation.id}: its answers are not recorded: the path parameters ${collection.scopeParams.join(', ')} were not all given.`);
    const scope = values.join('/');
    if (action === 'delete') {
      const key = params[collection.keyParam];
      if (key !== undefined) remove(collection, scope, key);
      return;
    }
    if (json === undefined) return;
    if (action === 'list') {
      if (!Array.isArray(collection.listWrapper ? (isJsonObject(json) ? json[collection.listWrapper.items] : undefined) : json)) {
        return void once(`${operation.id}: a ${status} answer holds no list of ${collection.name} records; it is not recorded.`);
      }
      for (const item of listItems(collection, json)) {
        const record = take(collection, operation, status, item, params, masking);
        if (record) put(collection, scope, record);
      }
      return;
    }
    const record = take(collection, operation, status, json, params, masking);
    if (record) put(collection, scope, record);
  };

  const flush = (): RecordingSummary => {
    for (const name of [...dirty].sort()) {
      const collection = byName.get(name)!;
      const records = fileRecords(collection, [...(recorded.get(name)?.values() ?? [])], once);
      writeAtomically(join(dir, `${name}.json`), `${JSON.stringify(records, null, 2)}\n`);
      written.set(name, records.length);
      dirty.delete(name);
    }
    return summary();
  };
  const summary = (): RecordingSummary => ({
    files: [...written.keys()].sort().map((name) => join(dir, `${name}.json`)),
    records: [...written.values()].reduce((sum, count) => sum + count, 0),
  });

  return {
    observe,
    flush,
    close: () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      closed = true;
      return flush();
    },
  };
}

/** DIR, made if missing. */
function prepareDir(dir: string): void {
  let isDirectory: boolean | undefined;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    // missing: made below
  }
  if (isDirectory === false) throw new Error(`The recording directory ${dir} exists and is not a directory.`);
  if (isDirectory) return;
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new Error(`The recording directory ${dir} cannot be made: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
}

/**
 * What one collection's file holds: its records in the order the mock seeds them (by key; a keyless
 * collection's as seen). Records that carry their parent's key are told apart by it; a file of
 * records that cannot holds one per key, so where records under different parents share a key (an
 * issue number counted per project) the latest seen is kept, and that is said once.
 */
function fileRecords(collection: Collection, entries: Entry[], warn: (message: string) => void): StoredRecord[] {
  if (collection.keyless) return entries.map((entry) => entry.record);
  const latest = new Map<string, Entry>();
  for (const entry of entries) {
    const key = collection.parentProperty ? `${entry.scope}\u0000${entry.key}` : entry.key;
    const kept = latest.get(key);
    if (!kept || kept.seen < entry.seen) latest.set(key, entry);
  }
  if (latest.size < entries.length) {
    warn(`${collection.name}: records under different ${collection.parent ?? 'parents'} share a ${collection.keyProperty}, and a fixture file holds one record per ${collection.keyProperty}: the latest seen of each is kept.`);
  }
  const integer = isIntegerKey(collection);
  return [...latest.values()]
    .sort((a, b) => compareKeys(a.record[collection.keyProperty], b.record[collection.keyProperty], integer))
    .map((entry) => entry.record);
}

/** The seed's order (src/state/seed.ts): numbers by value, anything else as text. */
function compareKeys(a: unknown, b: unknown, integer: boolean): number {
  return integer && typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}

/** Written whole or not at all: a temporary file beside it (not `.json`, so never loaded), then renamed over it. */
let temporaries = 0;
function writeAtomically(file: string, text: string): void {
  const temporary = join(file, '..', `.${basename(file)}.${process.pid}.${++temporaries}.tmp`);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The first problem a validator finds, as a sentence; undefined when the value passes (or nothing can check it). */
function failure(validate: ValidateFunction | undefined, value: unknown): string | undefined {
  if (!validate || validate(value)) return undefined;
  const problem = toProblems(validate.errors, '')[0];
  return problem ? formatProblem(problem) : 'it does not match the schema';
}

/** A path parameter (a string) typed as the property it fills: `7` for an integer. */
function typedLike(schema: SchemaObject | undefined, value: string): unknown {
  const type = schema?.type;
  const numeric = type === 'integer' || type === 'number' || (Array.isArray(type) && (type.includes('integer') || type.includes('number')));
  return numeric && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

/** Each cause said once (`cause`: what makes two messages the same one; the message itself by default). */
function warnOnce(warn: (message: string) => void): (message: string, cause?: string) => void {
  const said = new Set<string>();
  return (message, cause = message) => {
    if (said.has(cause)) return;
    said.add(cause);
    warn(message);
  };
}

/** Where a value breaks its schema (JSON pointers, as Ajv gives them); none when it passes. */
function failingPaths(validate: ValidateFunction | undefined, value: unknown): string[] {
  if (!validate || validate(value)) return [];
  return [...new Set((validate.errors ?? []).map((error) => error.instancePath))];
}
