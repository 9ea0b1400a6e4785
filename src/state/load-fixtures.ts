/**
 * Fixtures: hand-written records, one JSON file per collection (`fixtures/pets.json` holds an
 * array of pets). Every record is checked against the collection's schema at load; a bad one
 * stops the start with the file, the record and the field.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Collection } from '../openapi/operations/collection.js';
import { formatProblem } from '../core/problem.js';
import { toProblems } from '../openapi/validation/ajv-problems.js';
import type { StoredRecord } from './state-store.js';
import type { ValidateFunction } from 'ajv';

export class FixtureError extends Error {
  override readonly name = 'FixtureError';
}

/**
 * @param validatorFor the response-direction validator of a collection's record schema.
 * @returns records by collection name, each list in the order of the file.
 * @example loadFixtures('fixtures', collections, validatorFor) // { categories: [{ id: 1, name: 'Dogs' }, ...] }
 */
export function loadFixtures(
  dir: string,
  collections: Collection[],
  validatorFor: (collection: Collection) => ValidateFunction | undefined,
): Record<string, StoredRecord[]> {
  let files: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new FixtureError(`The fixtures path ${dir} is not a directory.`);
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch (error) {
    if (error instanceof FixtureError) throw error;
    throw new FixtureError(`Cannot read the fixtures directory ${dir}: it does not exist or is not readable.`);
  }
  const result: Record<string, StoredRecord[]> = {};
  for (const file of files) {
    const where = join(dir, file);
    const name = file.slice(0, -'.json'.length);
    const collection = collections.find((c) => c.name === name);
    if (!collection) {
      throw new FixtureError(`${where}: the document has no collection named "${name}" (it has: ${collections.map((c) => c.name).join(', ') || 'none'}).`);
    }
    result[name] = checkRecords(where, readJson(where), collection, validatorFor(collection));
  }
  return result;
}

function readJson(where: string): unknown {
  try {
    return JSON.parse(readFileSync(where, 'utf8'));
  } catch (error) {
    throw new FixtureError(`${where} is not valid JSON: ${(error as Error).message}.`);
  }
}

function checkRecords(where: string, data: unknown, collection: Collection, validate: ValidateFunction | undefined): StoredRecord[] {
  if (!Array.isArray(data)) throw new FixtureError(`${where} must contain a JSON array of ${collection.name} records.`);
  const seen = new Set<string>();
  return data.map((record, index) => {
    // Keyless records (no id: a collection with no item path) are told apart by their place.
    const key = collection.keyless ? undefined : (record as StoredRecord)?.[collection.keyProperty];
    const label = `record ${index + 1}${key === undefined ? '' : ` (${collection.keyProperty} ${JSON.stringify(key)})`}`;
    if (!record || typeof record !== 'object' || Array.isArray(record)) throw new FixtureError(`${where}: ${label} is not an object.`);
    if (!collection.keyless) {
      if (key === undefined) throw new FixtureError(`${where}: ${label} has no "${collection.keyProperty}".`);
      // A nested record is one of its parent's: keys counted per parent repeat under other parents.
      const parent = collection.parentProperty === undefined ? undefined : (record as StoredRecord)[collection.parentProperty];
      const unique = parent === undefined ? String(key) : `${JSON.stringify(parent)} ${String(key)}`;
      if (seen.has(unique)) throw new FixtureError(`${where}: ${label} repeats ${collection.keyProperty} ${JSON.stringify(key)}${parent === undefined ? '' : ` under ${collection.parentProperty} ${JSON.stringify(parent)}`}.`);
      seen.add(unique);
    }
    if (validate && !validate(record)) {
      const problem = toProblems(validate.errors, '')[0];
      throw new FixtureError(`${where}: ${label} does not match the schema: ${formatProblem(problem)}.`);
    }
    return record as StoredRecord;
  });
}
