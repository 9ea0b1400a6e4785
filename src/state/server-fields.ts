/**
 * What a server fills in a record it stores: a create's missing required fields, the fields the
 * client could not send (every property its request does not declare: Twilio's `status`, `price`,
 * `uri`), and the timestamps it keeps. A timestamp (`createdAt`, `updated_at`, `lastModified`, an event's `at`...)
 * comes from the mock's clock; a declared `default` is used as declared; anything else is generated
 * from its schema. A property the client could have sent but did not is null where its schema
 * allows null (as Twilio answers), else stays out unless required: nothing is made up for it. For
 * a choice of records (`oneOf` with a discriminator) the fields are those of the record's own
 * branch. So an answer keeps to its schema whatever the client left out, and a created record is as
 * full as a seeded one in what the server owns.
 */
import type { SchemaObject } from '../document/schema.js';
import { branchFor, mergedProperties, requiredSet } from '../operations/infer-collections.js';
import type { StoredRecord } from './state-store.js';

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
  for (const { name, property, stamp, nullable } of fields) {
    if (stamp === 'updated' || (stamp === 'created' && change === 'create' && record[name] === undefined)) {
      record[name] = clockValue(property, options.now());
      continue;
    }
    if (record[name] !== undefined) continue;
    const owned = change === 'create' && clientFields !== undefined && !clientFields.has(name);
    if (!owned && !required.has(name) && !(property.readOnly && property.default !== undefined)) {
      // The client's to send and not sent: null where the schema says it may be (as Twilio answers), else left out.
      if (change === 'create' && clientFields !== undefined && nullable && property.default === undefined) record[name] = null;
      continue;
    }
    if (property.default !== undefined) record[name] = structuredClone(property.default);
    else if (stamp) record[name] = clockValue(property, options.now());
    else {
      generated ??= options.generate(branch);
      if (generated[name] !== undefined) record[name] = generated[name];
    }
  }
}

interface Plan {
  fields: Array<{ name: string; property: SchemaObject; stamp: 'created' | 'updated' | undefined; nullable: boolean }>;
  required: ReadonlySet<string>;
}
/** What a schema's fields are, worked out once per schema rather than on every create. */
const plans = new WeakMap<SchemaObject, Plan>();
function planOf(schema: SchemaObject): Plan {
  let plan = plans.get(schema);
  if (!plan) {
    const fields = Object.entries(mergedProperties(schema)).map(([name, property]) => ({ name, property, stamp: timestampOf(name, property), nullable: isNullable(property) }));
    plans.set(schema, (plan = { fields, required: requiredSet(schema) }));
  }
  return plan;
}

/** Whether a property is a timestamp the server keeps: a date or date-time named like one. */
function timestampOf(name: string, property: SchemaObject): 'created' | 'updated' | undefined {
  if (property?.format !== 'date-time' && property?.format !== 'date') return undefined;
  if (CREATED.test(name)) return 'created';
  return UPDATED.test(name) ? 'updated' : undefined;
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
