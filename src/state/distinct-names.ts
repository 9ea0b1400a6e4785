/**
 * Seeded names distinct within a collection: a record whose `name` (`title`, `passenger_name`,
 * `username`, `email`...) one seeded before it already has draws it again, a few times, from the
 * same seeded Faker, so the same seed gives the same names. Once a property's draws keep meeting
 * names already given (42 pet names for 60 pets), or it has 10,000 names, it is left to repeat.
 */
import type { SchemaObject } from '../document/schema.js';
import { mergedProperties } from '../operations/infer-collections.js';
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

export class DistinctNames {
  private readonly seen = new Map<string, Set<string>>();
  private readonly misses = new Map<string, number>();

  private constructor(private readonly properties: ReadonlyArray<[string, SchemaObject]>) {}

  /** The naming properties of a record schema: free strings (no enum, const or pattern); undefined when it has none. */
  static of(schema: SchemaObject): DistinctNames | undefined {
    const properties = Object.entries(mergedProperties(schema)).filter(([name, property]) => {
      const bare = name.toLowerCase().replace(/[_\s-]/g, '');
      if (!NAMES.test(bare) || COMMON_PARTS.test(bare) || !property || typeof property !== 'object') return false;
      const types = Array.isArray(property.type) ? property.type : [property.type];
      return types.includes('string') && property.enum === undefined && property.const === undefined && property.pattern === undefined;
    });
    return properties.length ? new DistinctNames(properties) : undefined;
  }

  /** Draws again (with `draw`) each name of `record` an earlier record has, while the generator still finds others. */
  settle(record: StoredRecord, draw: (name: string, schema: SchemaObject) => unknown): void {
    for (const [name, schema] of this.properties) {
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
  }

  /** Notes the names of a record kept. */
  remember(record: StoredRecord): void {
    for (const [name] of this.properties) {
      const value = record[name];
      if (typeof value !== 'string') continue;
      let seen = this.seen.get(name);
      if (!seen) this.seen.set(name, (seen = new Set()));
      if (seen.size < REMEMBERED) seen.add(value);
      else this.misses.set(name, GIVE_UP);
    }
  }
}
