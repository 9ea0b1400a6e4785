/**
 * A request's fields matched to the properties of a record (or of an answer) by name, whatever
 * their case and separators: Twilio's form field `FriendlyName` is the record's `friendly_name`,
 * `To` its `to`, `StatusCallback` its `status_callback`. A property spelled exactly like a field
 * takes that field alone; otherwise every field spelled like it (ignoring case, `_`, `-` and spaces).
 */
import { bare } from './names.js';

export class FieldNames {
  /** Declared field -> the properties it sets. */
  private readonly declared = new Map<string, string[]>();
  /** Bare name -> the properties spelled so (for fields the request does not declare). */
  private readonly byBare = new Map<string, string[]>();
  /** The properties some declared field sets. */
  readonly reached: ReadonlySet<string>;

  /**
   * @param fields the fields the request declares (none: it may send any, and each sets the properties spelled like it)
   * @param properties the properties of the record or answer (none: a field is kept as named)
   */
  constructor(
    readonly fields: readonly string[],
    readonly properties: readonly string[],
  ) {
    for (const property of properties) {
      const key = bare(property);
      this.byBare.set(key, [...(this.byBare.get(key) ?? []), property]);
    }
    for (const field of fields) {
      const targets = properties.length === 0 ? [field] : (this.byBare.get(bare(field)) ?? []).filter((property) => property === field || !fields.includes(property));
      if (targets.length) this.declared.set(field, targets);
    }
    this.reached = new Set([...this.declared.values()].flat());
  }

  /** The properties a field of a body sets; undefined when it sets none (it is not kept). */
  targets(field: string): readonly string[] | undefined {
    if (this.fields.length) return this.declared.get(field);
    return this.properties.length ? this.byBare.get(bare(field)) : [field];
  }

  /** The properties a body sets, with their values, in the body's order. */
  map(body: unknown): Array<[string, unknown]> {
    if (!body || typeof body !== 'object' || Array.isArray(body) || ArrayBuffer.isView(body)) return [];
    const out: Array<[string, unknown]> = [];
    const fields = body as Record<string, unknown>;
    for (const field in fields) {
      const targets = this.targets(field);
      if (targets) for (const property of targets) out.push([property, fields[field]]);
    }
    return out;
  }
}
