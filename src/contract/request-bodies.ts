/**
 * The request bodies the suite sends as valid: generated from the operation's JSON request schema
 * (or one branch of a `oneOf`/`anyOf`), made safe (no `readOnly` field, no key the suite did not
 * choose, references pointing at records that exist, the run's marker in a free text field of a
 * create) and confirmed by the schema's validator; and, when the server refused one for a rule the
 * document does not state, other valid bodies (other values for the fields its answer names, the
 * document's examples, typical and small values, optional properties left out, nulls where
 * allowed, other draws: see variations.ts), the kind that worked kept for the rest of the run.
 * Values that may have to be unique (slugs, e-mails, names) are fresh in every body: an example
 * is never sent as it stands, nor a value sent before.
 */
import type { ValidateFunction } from 'ajv';
import type { SchemaObject } from '../openapi/document/schema.js';
import type { CrudBinding } from '../openapi/operations/collection.js';
import { branchesOf, mergedProperties, requiredProperties } from '../openapi/operations/schema-properties.js';
import type { Operation } from '../openapi/operations/operation.js';
import { jsonMediaType } from '../core/media-type.js';
import type { RunMarker } from './marker.js';
import { freshVariant, mayBeUnique, namedProperties, typicalValues } from './variations.js';
import type { ChosenKeys } from './chosen-keys.js';

type Row = Record<string, unknown>;

export interface BodyMaking {
  generate: (schema: SchemaObject, hints?: { propertyName?: string; collection?: string }) => unknown;
  /** The validator of a request schema (compiled once per schema), or undefined when Ajv refuses it. */
  validator: (schema: SchemaObject) => ValidateFunction | undefined;
  binding: (op: Operation) => CrudBinding | undefined;
  marker: RunMarker;
  /** Fresh keys for a create whose body carries a key the client must choose. */
  keys?: ChosenKeys;
}

export class RequestBodies {
  constructor(private readonly deps: BodyMaking) {}

  /** A body that satisfies the operation's JSON request schema, references pointing at `refs`; drawn from one branch of a `oneOf`/`anyOf` body when given. */
  valid(op: Operation, refs: Row = {}, overrides: Row = {}, branch?: SchemaObject): Row | undefined {
    const schema = requestSchema(op);
    if (!schema) return undefined;
    const from = branch ? { ...schema, [Array.isArray(schema.oneOf) ? 'oneOf' : 'anyOf']: [branch] } : schema;
    const sample = this.deps.generate(from, { collection: this.deps.binding(op)?.collection.name });
    // A body that is not an object (a JSON Patch array, a string) is sent as generated.
    if (!sample || typeof sample !== 'object' || Array.isArray(sample)) {
      if (branch) return undefined;
      const validate = this.deps.validator(schema);
      if (!validate || !validate(sample)) this.invalid.add(op);
      return sample as Row;
    }
    // Once the server refused generated bodies and took another kind (its example, priority = 1), the suite keeps to that kind.
    const recipe = branch ? undefined : this.recipes.get(op);
    if (recipe?.patch) {
      const patched = this.validObject(op, schema, refs, { ...recipe.patch, ...overrides }, { from });
      if (this.isValid(op, patched)) return patched;
    }
    const preferred = recipe && !recipe.patch && this.others(op, refs, overrides, { kind: recipe.kind })[0];
    return preferred ? preferred.body : this.validObject(op, schema, refs, overrides, { from });
  }

  /**
   * A body drawn elsewhere (exploration's arbitraries) made safe as `valid` makes its own: no
   * `readOnly` field, references pointing at `refs`, a fresh chosen key, the run's marker in a
   * create, values that may be unique kept fresh. Undefined when the result is not valid.
   */
  made(op: Operation, drawn: unknown, refs: Row = {}): unknown {
    const schema = requestSchema(op);
    if (!schema) return undefined;
    if (!drawn || typeof drawn !== 'object' || Array.isArray(drawn)) return this.deps.validator(schema)?.(drawn) ? drawn : undefined;
    const body = this.validObject(op, schema, refs, {}, { base: drawn as Row });
    return this.invalidBodies.has(body) ? undefined : body;
  }

  /**
   * A valid body of several records, for a create whose body may be an array of them (a `oneOf`
   * of a record and an array of records, as a CMS's create): two records (or the array's
   * bounds), each made safe as a single one (its own marker, a fresh key where the client
   * chooses it); undefined when the body allows no array of records, or none is confirmed valid.
   */
  validArray(op: Operation): Row[] | undefined {
    const schema = requestSchema(op);
    const validate = schema && this.deps.validator(schema);
    const branch = schema && [schema, ...branchesOf(schema)].find((s) => s?.type === 'array' && s.items && typeof s.items === 'object' && !Array.isArray(s.items));
    if (!branch || !validate) return undefined;
    const count = Math.max(typeof branch.minItems === 'number' ? branch.minItems : 0, Math.min(2, typeof branch.maxItems === 'number' ? branch.maxItems : 2));
    if (count < 1 || count > 10) return undefined;
    const items = Array.from({ length: count }, () => this.validObject(op, branch.items as SchemaObject, {}, {}));
    return validate(items) ? items : undefined;
  }

  /** Notes the kind of body (see others) the server accepted after it refused a generated one. */
  prefer(op: Operation, variant: Pick<Variant, 'kind' | 'patch'>): void {
    this.recipes.set(op, { kind: variant.kind, patch: variant.patch });
  }

  /** The kind of body each operation's server accepted after refusing a generated one (with the values that made it, for a field the server named). */
  private readonly recipes = new Map<Operation, Pick<Variant, 'kind' | 'patch'>>();

  /** Values of unique-looking properties already put in a body, per operation and property: never sent again. */
  private readonly used = new Map<string, Set<unknown>>();
  private fresh = 0;

  /**
   * Operations for which no body could be built that its schema is known to accept: the schema may
   * allow none (`oneOf` branches that overlap...), or not compile at all (`type: str`), so that no
   * body can be confirmed.
   */
  private readonly invalid = new WeakSet<Operation>();

  /** False when a body built for the operation is not known to be valid (a request carrying it would not be a valid one). */
  isValid(op: Operation, body: unknown): boolean {
    return body === undefined || (!this.invalid.has(op) && !(body !== null && typeof body === 'object' && this.invalidBodies.has(body)));
  }

  private readonly invalidBodies = new WeakSet<object>();

  /** False when no body the schema accepts could be built for the operation: its "valid" requests would not be. */
  canBuildValid(op: Operation): boolean {
    return !op.requestBody || this.isValid(op, this.valid(op));
  }

  /**
   * Never a value the suite did not choose safely: `readOnly` properties are left out, and so is
   * the record's key unless the schema requires it or the client must choose it (a text key of a
   * create: a fresh one, checked free by ContractContext.request before it is sent; an update's
   * is the key of the record it targets).
   */
  private validObject(op: Operation, schema: SchemaObject, refs: Row, overrides: Row, source: { from?: SchemaObject; base?: Row } = {}): Row {
    const { from = schema, base } = source;
    const validate = this.deps.validator(schema);
    const properties = mergedProperties(schema);
    const required = new Set(requiredProperties(schema));
    const collection = this.deps.binding(op)?.collection;
    // A key the client must choose (a text key of a create) gets a fresh one, optional in the document or not: the server may require it.
    const chosen = collection && this.deps.binding(op)?.action === 'create' && !(collection.keyProperty in refs) && !(collection.keyProperty in overrides) && this.deps.keys?.chosenBy(op, collection, schema) ? properties[collection.keyProperty] : undefined;
    // A key given in refs was chosen safely by the caller (the suite's own record, for a body that names it).
    const unsafe = Object.keys(properties).filter((name) => !(name in refs) && (properties[name]?.readOnly || (name === collection?.keyProperty && !required.has(name) && !chosen)));
    const marked = this.markerField(op, schema, refs, overrides);
    if (marked) overrides = { ...overrides, [marked]: this.deps.marker.next() };
    let body: Row = {};
    for (let attempt = 0; attempt < (base ? 1 : 10); attempt++) {
      body = { ...((base ?? this.deps.generate(from, { collection: collection?.name })) as Row) };
      for (const name of unsafe) delete body[name];
      for (const [property, value] of Object.entries(refs)) if (property in body || property === collection?.keyProperty || attempt > 4 || base) body[property] = value;
      for (const [property, value] of Object.entries(refs)) if (value === undefined) delete body[property];
      Object.assign(body, overrides);
      for (const [property, value] of Object.entries(body)) if (value === undefined) delete body[property];
      if (chosen) body[collection!.keyProperty] = this.deps.keys!.fresh(collection!, chosen);
      this.freshen(op, schema, body, new Set([...Object.keys(refs), ...Object.keys(overrides), ...(collection ? [collection.keyProperty] : [])]));
      if (!validate) break;
      if (validate(body)) return body;
    }
    if (!validate) this.invalid.add(op);
    this.invalidBodies.add(body);
    return body;
  }

  /**
   * Other valid bodies for an operation, for when the server refused the first (a rule the document
   * does not state), at most MAX_VARIANTS, most likely first: other values the document allows for
   * each property the server's answer names (`answer`: its text), the document's examples, each
   * property's typical value (example, default, small numbers), only the required properties with
   * small values, nulls where allowed, another draw. Each is made safe as valid's (references, no
   * `readOnly` field, the run's marker, fresh unique values) and confirmed by the validator; those
   * it does not confirm are left out. `kind`: only the bodies of that kind (the one a server took before).
   */
  others(op: Operation, refs: Row = {}, overrides: Row = {}, { kind, answer = '' }: { kind?: string; answer?: string } = {}): Variant[] {
    const media = jsonMediaType(Object.keys(op.requestBody?.content ?? {}));
    const content = media ? op.requestBody!.content[media] : undefined;
    if (!content?.schema) return [];
    const schema: SchemaObject = content.schema;
    const properties = mergedProperties(schema);
    const required = new Set(requiredProperties(schema));
    const objects = (values: unknown[]) => values.filter((v): v is Row => Boolean(v) && typeof v === 'object' && !Array.isArray(v));
    const draw = () => objects([this.deps.generate(schema, { collection: this.deps.binding(op)?.collection.name })])[0] ?? {};
    const generated = draw();
    const candidates: Variant[] = [];
    // The server's answer names the field its rule is about: other values of that field first.
    for (const name of namedProperties(answer, Object.keys(properties))) {
      if (name in refs || name in overrides || properties[name]?.readOnly) continue;
      for (const value of typicalValues(properties[name])) candidates.push({ kind: 'named', why: `${name} = ${JSON.stringify(value)}, the field the server's answer names`, patch: { [name]: value }, body: { ...generated, [name]: value } });
      if (!required.has(name)) candidates.push({ kind: 'named', why: `without ${name}, the field the server's answer names`, patch: { [name]: undefined }, body: { ...generated, [name]: undefined } });
    }
    const examples = objects([content.example, ...Object.values(content.examples ?? {}).map((e) => e?.value), schema.example, ...(Array.isArray(schema.examples) ? schema.examples : [])]);
    candidates.push(...examples.map((body) => ({ kind: 'example', why: 'the document\'s example', body })));
    const typical = (names: string[]) => Object.fromEntries(names.map((name) => [name, typicalValues(properties[name]).find((v) => v !== null)]).filter(([, v]) => v !== undefined));
    candidates.push({ kind: 'typical', why: 'each property\'s example, default or a small value', body: { ...generated, ...typical(Object.keys(properties)) } });
    const requiredOnly = Object.fromEntries(Object.entries(generated).filter(([name]) => required.has(name)));
    candidates.push({ kind: 'required', why: 'only the required properties, with typical values', body: { ...requiredOnly, ...typical([...required]) } });
    const nullable = Object.keys(properties).filter((name) => typicalValues(properties[name]).includes(null));
    if (nullable.length) candidates.push({ kind: 'nulls', why: 'null where the document allows it', body: { ...generated, ...Object.fromEntries(nullable.map((name) => [name, null])) } });
    candidates.push({ kind: 'draw', why: 'another draw', body: draw() });
    return candidates
      .filter((candidate) => kind === undefined || candidate.kind === kind)
      .map((candidate) => ({ ...candidate, body: this.validObject(op, schema, refs, overrides, { base: candidate.body }) }))
      .filter(({ body }) => this.isValid(op, body))
      .slice(0, MAX_VARIANTS);
  }

  /**
   * Gives each unique-looking property of a body (see mayBeUnique) not in `keep` a value never put
   * in a body of the operation before, and never one of the document's examples as it stands.
   */
  private freshen(op: Operation, schema: SchemaObject, body: Row, keep: Set<string>): void {
    const properties = mergedProperties(schema);
    for (const [name, value] of Object.entries(body)) {
      const property = properties[name];
      if (keep.has(name) || typeof value !== 'string' || !mayBeUnique(name, property)) continue;
      const key = `${op.id}\u0000${name}`;
      const used = this.used.get(key) ?? new Set(exampleValues(op, name));
      this.used.set(key, used);
      if (!used.has(value)) {
        used.add(value);
        continue;
      }
      const validate = this.deps.validator(property);
      let fresh = freshVariant(value, property, `${this.deps.marker.prefix.slice(-8)}${++this.fresh}`);
      // A pattern or format the variant does not fit: a few draws of the schema's own that were never used.
      for (let draw = 0; draw < 5 && (used.has(fresh) || validate?.(fresh) === false); draw++) fresh = String(this.deps.generate(property, { propertyName: name }));
      used.add(fresh);
      body[name] = fresh;
    }
  }

  /** The field of a create's body that carries the run's marker (none for other operations, or when no field can hold it). */
  private markerField(op: Operation, schema: SchemaObject, refs: Row, overrides: Row): string | undefined {
    const binding = this.deps.binding(op);
    if (binding?.action !== 'create') return undefined;
    if (!this.markerFields.has(op)) {
      const exclude = new Set([binding.collection.keyProperty, ...binding.collection.references.map((r) => r.property)]);
      this.markerFields.set(op, this.deps.marker.field(schema, exclude, (property, value) => this.deps.validator(property)?.(value) !== false));
    }
    const field = this.markerFields.get(op);
    return field && !(field in refs) && !(field in overrides) ? field : undefined;
  }

  private readonly markerFields = new Map<Operation, string | undefined>();
}

/** A valid body to try after a refusal: its kind (kept for the rest of the run once it worked), why it was chosen, and for a field the server named, the values set. */
export interface Variant {
  kind: string;
  why: string;
  body: Row;
  patch?: Row;
}

/** At most this many other bodies after a refused create or update. */
export const MAX_VARIANTS = 8;

/** The values the document gives as examples or defaults of a property of an operation's body (the body's examples' included). */
function exampleValues(op: Operation, name: string): unknown[] {
  const media = jsonMediaType(Object.keys(op.requestBody?.content ?? {}));
  const content = media ? op.requestBody!.content[media] : undefined;
  const schema: SchemaObject | undefined = content?.schema;
  const property = schema ? mergedProperties(schema)[name] : undefined;
  const bodies = [content?.example, ...Object.values(content?.examples ?? {}).map((e) => e?.value), schema?.example, ...(Array.isArray(schema?.examples) ? schema.examples : [])];
  return [...bodies.map((b) => (b && typeof b === 'object' ? (b as Row)[name] : undefined)), property?.example, ...(Array.isArray(property?.examples) ? property.examples : []), property?.default].filter((v) => v !== undefined);
}

/** The schema of an operation's JSON request body, in the media type a JSON body is sent as. */
export function requestSchema(op: Operation): SchemaObject | undefined {
  const media = jsonMediaType(Object.keys(op.requestBody?.content ?? {}));
  return media ? op.requestBody!.content[media]?.schema : undefined;
}
