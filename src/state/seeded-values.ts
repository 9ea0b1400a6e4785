/**
 * What makes a collection's seeded records read like the document: the properties' own examples
 * first (the first seeded record takes each property's `example`, the next its second of
 * `examples`...), where the property's schema accepts them; and names distinct within the
 * collection. A record whose `name` (`title`, `passenger_name`, `username`, `email`...) one seeded
 * before it already has draws it again, a few times, from the same seeded Faker, so the same seed
 * gives the same records. Once a property's draws keep meeting names already given (42 pet names
 * for 60 pets), or it has 10,000 names, it is left to repeat.
 */
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../openapi/document/schema.js';
import type { Collection } from '../openapi/operations/collection.js';
import { mergedProperties } from '../openapi/operations/schema-properties.js';
import { selfLinkSlots } from '../openapi/operations/record-links.js';
import type { StoredRecord } from './state-store.js';

/** Properties that name a record, compared lower case without separators; first and last names repeat in life, and are left. */
const NAMES = /^(name|title|username|login|email|emailaddress|slug|handle|nickname)$|name$/;
const COMMON_PARTS = /^(first|last|given|family|middle|sur)name$/;
/** Draws of a name before it is left as it is. */
const DRAWS = 8;
/** Records in a row whose name could not be made distinct before a property is left to repeat. */
const GIVE_UP = 3;
/** Names remembered per property at most: far more than a page shows, and a seed of millions of records holds no set of millions. */
const REMEMBERED = 10_000;

export class SeededValues {
  private readonly seen = new Map<string, Set<string>>();
  private readonly misses = new Map<string, number>();
  /** Records kept so far: the next one takes the examples at this place. */
  private kept = 0;

  private constructor(
    private readonly names: ReadonlyArray<[string, SchemaObject]>,
    private readonly examples: ReadonlyArray<[string, unknown[]]>,
  ) {}

  /**
   * The examples and naming properties of a collection's records; undefined when it has neither.
   * Examples are the properties' own (`example`, `examples`) that `validatorOf` accepts, but never
   * for the key, a reference to another record, the parent's key or a link to the record itself.
   */
  static of(collection: Collection, validatorOf?: (schema: SchemaObject) => ValidateFunction | undefined): SeededValues | undefined {
    const properties = Object.entries(mergedProperties(collection.schema)).filter(([, property]) => property && typeof property === 'object');
    const names = properties.filter(([name, property]) => {
      const bare = name.toLowerCase().replace(/[_\s-]/g, '');
      return NAMES.test(bare) && !COMMON_PARTS.test(bare) && freeString(property);
    });
    const owned = new Set([collection.keyProperty, collection.parentProperty, ...collection.references.map((r) => r.property), ...selfLinkSlots(collection.schema).map((slot) => slot.path[0])]);
    const examples = validatorOf
      ? properties
          .filter(([name]) => !owned.has(name))
          .map(([name, property]): [string, unknown[]] => {
            const validate = validatorOf(property);
            const given = [...('example' in property ? [property.example] : []), ...(Array.isArray(property.examples) ? property.examples : [])];
            const accepted = given.filter((value, i) => value !== undefined && given.findIndex((other) => JSON.stringify(other) === JSON.stringify(value)) === i && (!validate || validate(value)));
            return [name, accepted];
          })
          .filter(([, accepted]) => accepted.length > 0)
      : [];
    return names.length || examples.length ? new SeededValues(names, examples) : undefined;
  }

  /**
   * Makes a generated record read like the document: the examples due at its place, then each
   * name an earlier record has drawn again (with `draw`). Returns how to take the examples back
   * out (to the generated values) should the record then fail its schema.
   */
  settle(record: StoredRecord, draw: (name: string, schema: SchemaObject) => unknown): () => void {
    const generated: Array<[string, unknown]> = [];
    for (const [name, values] of this.examples) {
      if (this.kept >= values.length) continue;
      generated.push([name, record[name]]);
      record[name] = structuredClone(values[this.kept]);
    }
    for (const [name, schema] of this.names) {
      const seen = this.seen.get(name);
      const value = record[name];
      if (!seen || typeof value !== 'string' || !seen.has(value) || (this.misses.get(name) ?? 0) >= GIVE_UP) continue;
      let found = false;
      for (let i = 0; i < DRAWS && !found; i++) {
        const candidate = draw(name, schema);
        if (typeof candidate === 'string' && !seen.has(candidate)) {
          record[name] = candidate;
          found = true;
        }
      }
      this.misses.set(name, found ? 0 : (this.misses.get(name) ?? 0) + 1);
    }
    return () => {
      for (const [name, value] of generated) {
        if (value === undefined) delete record[name];
        else record[name] = value;
      }
    };
  }

  /** Notes a record kept: its names, and its place (the next record takes the next examples). Fixtures are remembered too, without a place. */
  remember(record: StoredRecord, placed = true): void {
    if (placed) this.kept++;
    for (const [name] of this.names) {
      const value = record[name];
      if (typeof value !== 'string') continue;
      let seen = this.seen.get(name);
      if (!seen) this.seen.set(name, (seen = new Set()));
      if (seen.size < REMEMBERED) seen.add(value);
      else this.misses.set(name, GIVE_UP);
    }
  }
}

/** A string free to be anything: no enum, const or pattern. */
function freeString(property: SchemaObject): boolean {
  const types = Array.isArray(property.type) ? property.type : [property.type];
  return types.includes('string') && property.enum === undefined && property.const === undefined && property.pattern === undefined;
}
