/**
 * What a server fills in a record it stores: a create's missing required fields, the fields the
 * client could not send (every property its request does not declare: Twilio's `status`, `price`,
 * `uri`), and the timestamps it keeps. A timestamp (`createdAt`, `updated_at`, `lastModified`, an event's `at`...)
 * comes from the mock's clock (a date or date-time; a string of no format whose values are dates in
 * another shape, written in it: Twilio's `date_created`, RFC 2822 in its examples; a number of
 * seconds since 1970, Stripe's `created`, milliseconds where the values are); a declared `default` is used as declared; anything else is generated
 * from its schema. A property the client could have sent but did not is null where its schema
 * allows null (as Twilio answers), else stays out unless required: nothing is made up for it. For
 * a choice of records (`oneOf` with a discriminator) the fields are those of the record's own
 * branch. So an answer keeps to its schema whatever the client left out, and a created record is as
 * full as a seeded one in what the server owns.
 */
import type { SchemaObject } from '../openapi/document/schema.js';
import { branchFor, mergedProperties, requiredSet } from '../openapi/operations/schema-properties.js';
import type { StoredRecord } from './state-store.js';
import { dateShapeOf, formatDate } from '../openapi/generate/shapes.js';

const CREATED = /^(created|inserted|creation|logged|recorded|issued)(_?(at|on|date|time|timestamp))?$|^date_?created$|^(at|timestamp)$/i;
const UPDATED = /^(updated|modified|last_?modified|last_?updated|changed)(_?(at|on|date|time|timestamp))?$|^date_?(updated|modified)$/i;

export interface ServerFieldOptions {
  /** The mock's clock, in milliseconds. */
  now: () => number;
  /** A generated record of the branch's schema, for required fields that are neither timestamps nor defaulted (made once, when first needed). */
  generate: (schema: SchemaObject) => StoredRecord;
}

/**
 * Fills `record` in place. `change`: a create sets both timestamps, an update refreshes the updated
 * one. `clientFields`: the properties the create's request declares (the client's to send or not);
 * on a create every other property is the server's, and filled.
 */
export function fillServerFields(schema: SchemaObject, record: StoredRecord, change: 'create' | 'update', options: ServerFieldOptions, clientFields?: ReadonlySet<string>): void {
  const branch = branchFor(schema, record);
  const { fields, required } = planOf(branch);
  let generated: StoredRecord | undefined;
  for (const { name, property, stamp, shaped, nullable } of fields) {
    if (stamp === 'updated' || (stamp === 'created' && change === 'create' && record[name] === undefined)) {
      if (!shaped) {
        record[name] = clockValue(property, options.now());
        continue;
      }
      // The shape of the value the record has, or else of one generated for it (from the document's examples).
      const value = shapedClock(record[name] ?? (generated ??= options.generate(branch))[name], options.now());
      if (value !== undefined) {
        record[name] = value;
        continue;
      }
    }
    if (record[name] !== undefined) continue;
    const owned = change === 'create' && clientFields !== undefined && !clientFields.has(name);
    if (!owned && !required.has(name) && !(property.readOnly && property.default !== undefined)) {
      // The client's to send and not sent: null where the schema says it may be (as Twilio answers), else left out.
      if (change === 'create' && clientFields !== undefined && nullable && property.default === undefined) record[name] = null;
      continue;
    }
    if (property.default !== undefined) record[name] = structuredClone(property.default);
    else if (stamp && !shaped) record[name] = clockValue(property, options.now());
    else {
      generated ??= options.generate(branch);
      if (generated[name] !== undefined) record[name] = generated[name];
    }
  }
}

interface Plan {
  /** `shaped`: a timestamp whose shape is read from its values (a string without a date format, a number), not from its format. */
  fields: Array<{ name: string; property: SchemaObject; stamp: 'created' | 'updated' | undefined; shaped: boolean; nullable: boolean }>;
  required: ReadonlySet<string>;
}
/** What a schema's fields are, worked out once per schema rather than on every create. */
const plans = new WeakMap<SchemaObject, Plan>();
function planOf(schema: SchemaObject): Plan {
  let plan = plans.get(schema);
  if (!plan) {
    const fields = Object.entries(mergedProperties(schema)).map(([name, property]) => {
      const stamp = timestampOf(name, property);
      return { name, property, stamp, shaped: stamp !== undefined && property.format !== 'date-time' && property.format !== 'date', nullable: isNullable(property) };
    });
    plans.set(schema, (plan = { fields, required: requiredSet(schema) }));
  }
  return plan;
}

/**
 * Whether a property is a timestamp the server keeps, named like one: a date or date-time; a
 * string of no format or another date format (`date-time-rfc-2822`), or a number, which the clock
 * writes only where its values turn out to be dates (`shapedClock`). Never one held to an enum, a
 * const or a pattern.
 */
function timestampOf(name: string, property: SchemaObject): 'created' | 'updated' | undefined {
  if (!property || typeof property !== 'object') return undefined;
  const format = property.format;
  const dated = format === 'date-time' || format === 'date';
  const types = Array.isArray(property.type) ? property.type : [property.type];
  const open = property.enum === undefined && property.const === undefined && property.pattern === undefined;
  const textual = types.includes('string') && (format === undefined || /date|time/i.test(String(format)));
  const numeric = (types.includes('integer') || types.includes('number')) && format === undefined;
  if (!dated && !(open && (textual || numeric))) return undefined;
  if (CREATED.test(name)) return 'created';
  return UPDATED.test(name) ? 'updated' : undefined;
}

/**
 * The clock written as `sample` is: a date string in its shape (RFC 2822, ISO 8601, a date), a
 * number of seconds since 1970 (milliseconds where `sample` has 13 digits); undefined when the
 * sample is no date (a `created` that is a count or a word).
 */
function shapedClock(sample: unknown, ms: number): string | number | undefined {
  if (typeof sample === 'string') {
    const shape = dateShapeOf(sample);
    return shape && formatDate(new Date(ms), shape);
  }
  if (typeof sample !== 'number' || !Number.isInteger(sample)) return undefined;
  if (sample >= 1e11 && sample < 1e14) return ms;
  return sample >= 1e8 && sample < 1e11 ? Math.floor(ms / 1000) : undefined;
}

/** `nullable: true` (3.0), or `null` among the types (3.1), and no enum or const that leaves null out. */
function isNullable(property: SchemaObject): boolean {
  const declared = property?.nullable === true || (Array.isArray(property?.type) && property.type.includes('null'));
  return declared && (!Array.isArray(property.enum) || property.enum.includes(null)) && (property.const === undefined || property.const === null);
}

function clockValue(property: SchemaObject, ms: number): string {
  const iso = new Date(ms).toISOString();
  return property.format === 'date' ? iso.slice(0, 10) : iso;
}
