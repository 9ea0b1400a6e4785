/**
 * OpenAPI schemas are not quite JSON Schema. This converts them, once, into what Ajv checks:
 * 3.0 `nullable` becomes a `null` type, boolean `exclusiveMinimum` becomes a number, and
 * `readOnly` properties stop being required in requests (`writeOnly` ones in responses).
 *
 * The document's named schemas (`components.schemas`, one shared object per `$ref` after loading)
 * and the targets of circular `$ref`s become schemas registered in Ajv under their own id, and are
 * referenced by it: each is converted and compiled once per direction, however many operations
 * use it. Inlined, 2,000 operations over `$ref` chains of 50 compiled each chain again per
 * operation (a minute and 2 GB), and a chain of 500 nested Ajv's compiler past the stack.
 *
 * A registered schema used for a value inside another (a property, an item) is compiled the first
 * time a value reaches it (lazy-reference.ts), not with the schema using it: a record whose `next`
 * is a chain of 500 schemas costs the compiling of the links its values reach. One applied in
 * place (`allOf`, `not`, `if`, or a schema that is a `$ref`) stays a `$ref` Ajv compiles with
 * its user, so what it evaluates counts for `unevaluatedProperties` (3.1).
 */
import { resolveRef } from '../document/document.js';
import type { DocumentObject } from '../document/objects.js';
import type { SchemaObject } from '../document/schema.js';
import { allowFormat, type AjvCore } from './ajv-instance.js';
import { LAZY_REF, registerLazyReference } from './lazy-reference.js';
import { chooseByDiscriminator, convert30Keywords, dropInvisibleRequired, type Direction } from './openapi-keywords.js';
import { eachSubschema, hasInPlaceReference, hasReference, hidesRequired, reaches, sharedObjects, SUBSCHEMA_LISTS, SUBSCHEMA_MAPS, SUBSCHEMAS, walk } from './schema-walks.js';

/** The keywords whose subschemas apply to the value itself, rather than to a value inside it. */
const IN_PLACE = new Set(['dependentSchemas', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']);
const DROPPED = ['discriminator', 'xml', 'externalDocs', 'example', 'nullable', 'deprecated'];

/** Where a subschema applies: to the value the schema checks, or to a value inside it. */
type Place = 'in place' | 'inside';

/**
 * A schema registered under its own id. `reference` (`{ $ref: id }`) stands for it where it
 * applies in place, `lazy` (`{ x-lazy-ref: id }`, or a `$ref` too when it references nothing) where
 * it applies to a value inside another.
 */
interface Shared {
  id: string;
  direction: Direction;
  source: SchemaObject;
  reference: SchemaObject;
  lazy: SchemaObject;
  /** Handed out as `reference`: compiled with the schemas using it, so compiled first (settle). */
  inPlace?: boolean;
  body?: SchemaObject;
}

/** Tells converters apart when several share one Ajv instance: their ids must not collide. */
let converters = 0;

export class SchemaConverter {
  private readonly memo = { request: new WeakMap<object, SchemaObject>(), response: new WeakMap<object, SchemaObject>() };
  private readonly shared = { request: new WeakMap<object, Shared>(), response: new WeakMap<object, Shared>(), both: new WeakMap<object, Shared>() };
  /** The named schemas, by object, with the name that goes into their id. */
  private readonly names = new Map<SchemaObject, string>();
  /** The named schemas converted differently for requests and responses; the others are registered once for both. */
  private readonly oneWay: Set<object>;
  /** Registered schemas found but not yet converted: converted one after another, never nested. */
  private readonly pending: Shared[] = [];
  /** Registered schemas handed out as `reference` since the last settle: compiled then, deepest first. */
  private readonly inPlacePending: Shared[] = [];
  private readonly followed = new WeakMap<object, Shared | undefined>();
  private readonly byId = new Map<string, Shared>();
  private readonly prefix = `/${++converters}/`;

  /** @param warn told once of a schema that fails to compile when a value first reaches it (it then accepts anything). */
  constructor(
    private readonly api: DocumentObject,
    private readonly ajv: AjvCore,
    private readonly dialect: '3.0' | '3.1',
    private readonly warn?: (message: string) => void,
  ) {
    const schemas = api?.components?.schemas;
    if (schemas && typeof schemas === 'object') {
      for (const [name, schema] of Object.entries(schemas)) {
        // A named schema that is only a `$ref` (an alias) is converted as what it points at.
        if (schema && typeof schema === 'object' && typeof schema.$ref !== 'string') this.names.set(schema, name);
      }
    }
    // Any other object the document uses in more than one place (a `$ref` to `#/x-defs/L1`, a YAML
    // alias) is registered as a named schema is, so Ajv compiles it once rather than at every
    // place: ten places naming ten places, six deep, took 21 s and then overflowed Ajv's stack.
    for (const shared of sharedObjects(api)) {
      if (!this.names.has(shared) && typeof shared.$ref !== 'string') this.names.set(shared, 'shared');
    }
    this.oneWay = this.directional();
  }

  /** The JSON Schema Ajv should check for an OpenAPI schema read in one direction. */
  convert(schema: SchemaObject | boolean | undefined, direction: Direction): SchemaObject | boolean {
    const out = this.node(schema, direction, 'in place');
    this.settle();
    return out;
  }

  private node(schema: SchemaObject | boolean | undefined, direction: Direction, place: Place): SchemaObject | boolean {
    if (schema === undefined) return {};
    if (typeof schema === 'boolean' || schema === null || typeof schema !== 'object') return schema as boolean;
    if (this.names.has(schema)) return this.refer(this.share(schema, direction), place);
    const cached = this.memo[direction].get(schema);
    if (cached) return cached;
    if (typeof schema.$ref === 'string') {
      // A `$ref` left by the loader (a circular one, or in a named schema nothing else uses): the
      // schema it names, registered; an unresolvable one accepts anything.
      if (!this.followed.has(schema)) {
        const target = this.follow(schema);
        this.followed.set(schema, target ? this.share(target, direction) : undefined);
      }
      const entry = this.followed.get(schema);
      if (!entry) return {};
      // `nullable: true` beside a `$ref` (3.0): null, or what the `$ref` names.
      if (this.dialect === '3.0' && schema.nullable === true) return { anyOf: [{ type: 'null' }, this.refer(entry, 'in place')] };
      return this.refer(entry, place);
    }
    return this.inline(schema, direction);
  }

  /** What stands for a registered schema where it applies. */
  private refer(entry: Shared, place: Place): SchemaObject {
    if (place === 'inside') return entry.lazy;
    if (!entry.inPlace) {
      entry.inPlace = true;
      this.inPlacePending.push(entry);
    }
    return entry.reference;
  }

  private inline(schema: SchemaObject, direction: Direction): SchemaObject {
    const out: SchemaObject = {};
    this.memo[direction].set(schema, out); // set before recursing: a shared subschema is converted once
    for (const [key, value] of Object.entries(schema)) {
      if (key.startsWith('x-') || DROPPED.includes(key)) continue;
      const place: Place = IN_PLACE.has(key) ? 'in place' : 'inside';
      if (SUBSCHEMA_MAPS.includes(key) && value && typeof value === 'object') {
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.node(v as SchemaObject, direction, place)]));
      } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) {
        out[key] = value.map((v) => this.node(v, direction, place));
      } else if (SUBSCHEMAS.includes(key)) {
        // A keyword that holds a subschema (or a list of them, as draft-04's `items` may).
        out[key] = Array.isArray(value) ? value.map((v) => this.node(v, direction, place)) : this.node(value as SchemaObject | boolean | undefined, direction, place);
      } else {
        out[key] = value;
      }
    }
    if (typeof out.format === 'string') allowFormat(this.ajv, out.format);
    chooseByDiscriminator(this.api, schema, out);
    dropInvisibleRequired(schema, out, direction);
    if (this.dialect === '3.0') convert30Keywords(schema, out); // last: it may wrap the rest in an `anyOf`
    return out;
  }

  /** The schema a `$ref` names, through aliases (named schemas that are only a `$ref`). */
  private follow(reference: SchemaObject): SchemaObject | undefined {
    const seen = new Set<SchemaObject>([reference]);
    let target: SchemaObject | undefined = reference;
    while (target && typeof target.$ref === 'string') {
      const next = resolveRef(this.api, target.$ref);
      target = next && typeof next === 'object' && !seen.has(next) ? next : undefined;
      if (target) seen.add(target);
    }
    return target;
  }

  /** The registered form of a schema: its id now, its conversion when the outermost convert() ends. */
  private share(source: SchemaObject, direction: Direction): Shared {
    const way = this.names.has(source) && !this.oneWay.has(source) ? 'both' : direction;
    let entry = this.shared[way].get(source);
    if (!entry) {
      // An absolute id: Ajv resolves a relative one against the id of the schema it is read in.
      const name = (this.names.get(source) ?? 'ref').replace(/[^\w.-]/g, '_');
      const id = `openapi-${way}:${this.prefix}${this.byId.size}-${name}`;
      entry = { id, direction, source, reference: { $ref: id }, lazy: { [LAZY_REF]: id } };
      registerLazyReference(this.ajv, id, this.warn);
      this.shared[way].set(source, entry);
      this.byId.set(id, entry);
      this.pending.push(entry);
    }
    return entry;
  }

  /**
   * The named schemas whose conversion depends on the direction: those with a required property
   * that is readOnly or writeOnly, those using a schema that is not named, and those that use them.
   */
  private directional(): Set<object> {
    const users = new Map<object, object[]>();
    const found = new Set<object>();
    for (const schema of this.names.keys()) {
      eachSubschema(schema, (node) => {
        if (node !== schema && (typeof node.$ref === 'string' || this.names.has(node))) {
          // Another registered schema: it decides for the schemas that use it. One that is not
          // named is registered once per direction, so its users are too.
          const target = typeof node.$ref === 'string' ? this.follow(node) : node;
          if (target === undefined) return false; // accepts anything either way
          if (!this.names.has(target)) found.add(schema);
          else if (users.has(target)) users.get(target)!.push(schema);
          else users.set(target, [schema]);
          return false;
        }
        if (hidesRequired(node)) found.add(schema);
        return true;
      });
    }
    const queue = [...found];
    while (queue.length > 0) {
      for (const user of users.get(queue.pop()!) ?? []) {
        if (!found.has(user)) {
          found.add(user);
          queue.push(user);
        }
      }
    }
    return found;
  }

  /**
   * Converts the schemas found since the last call and registers them. Then compiles, deepest
   * first, those handed out to apply in place: Ajv compiles a `$ref` it meets uncompiled inside the
   * schema that uses it, so an `allOf` chain of 500 compiled from its head nests 500 compilers. The
   * others are compiled when a value first reaches them.
   */
  private settle(): void {
    if (this.pending.length === 0 && this.inPlacePending.length === 0) return;
    // Converting one may find more: they join the batch, converted in turn rather than nested.
    for (let i = 0; i < this.pending.length; i++) {
      const entry = this.pending[i];
      entry.body = this.inline(entry.source, entry.direction);
    }
    const batch = this.pending.splice(0);
    for (const entry of batch) {
      // One that references nothing Ajv copies into the schemas using it: cheaper than a call.
      if (!hasReference(entry.body!)) {
        delete entry.lazy[LAZY_REF];
        entry.lazy.$ref = entry.id;
      }
    }
    // Deepest first: one Ajv refuses is put back inline before the schemas using it are checked.
    for (const entry of this.deepestFirst(new Set(batch), 'any')) this.register(entry);
    for (const entry of this.deepestFirst(new Set(this.inPlacePending.splice(0)), 'in place')) {
      if (entry.reference.$ref === undefined) continue; // put back inline (see register)
      // One whose only references are lazy ones is compiled on its own when it is first used.
      if (!hasInPlaceReference(entry.body!)) continue;
      try {
        this.ajv.getSchema(entry.id);
      } catch {
        // The schemas that use it report it when they are compiled.
      }
    }
  }

  /**
   * Adds a converted schema to Ajv. One Ajv refuses is put back inline wherever it is referenced,
   * so whatever uses it fails to compile with Ajv's own message, as it did before it was shared;
   * if it contains itself it accepts anything instead (inline, it would never end).
   */
  private register(entry: Shared): void {
    const body = entry.body!;
    const schema = { ...body, $id: entry.id };
    if (this.ajv.validateSchema(schema) === true) {
      this.ajv.addSchema(schema, undefined, undefined, false);
      return;
    }
    const standIns = [entry.reference, entry.lazy];
    for (const standIn of standIns) {
      delete standIn.$ref;
      delete standIn[LAZY_REF];
    }
    if (!standIns.some((standIn) => reaches(body, standIn))) for (const standIn of standIns) Object.assign(standIn, body);
  }

  /** The batch in an order where each schema comes after the schemas of the batch it references (`any` way, or only in place). */
  private deepestFirst(batch: Set<Shared>, how: 'any' | 'in place'): Shared[] {
    const order: Shared[] = [];
    const visited = new Set<Shared>();
    for (const root of batch) {
      if (visited.has(root)) continue;
      visited.add(root);
      // An explicit stack rather than recursion: chains are as long as documents make them.
      const stack = [{ entry: root, next: this.referencedBy(root, batch, how) }];
      while (stack.length > 0) {
        const top = stack[stack.length - 1];
        const child = top.next.pop();
        if (child === undefined) {
          stack.pop();
          order.push(top.entry);
        } else if (!visited.has(child)) {
          // One already visited is done, or is a cycle: Ajv compiles those through the schema being compiled.
          visited.add(child);
          stack.push({ entry: child, next: this.referencedBy(child, batch, how) });
        }
      }
    }
    return order;
  }

  /** The schemas of the batch that a schema of the batch references (`any` way, or only in place: as `reference`). */
  private referencedBy(entry: Shared, batch: Set<Shared>, how: 'any' | 'in place'): Shared[] {
    const out: Shared[] = [];
    walk(entry.body ?? {}, (node) => {
      const id = node.$ref ?? node[LAZY_REF];
      const target = typeof id === 'string' ? this.byId.get(id) : undefined;
      if (target === undefined || (node !== target.reference && (how === 'in place' || node !== target.lazy))) return true;
      if (batch.has(target)) out.push(target);
      return false;
    });
    return out.reverse();
  }
}
