/**
 * Stage 2b: find the collections a document describes, from its paths and methods alone.
 *
 * A collection path (`/pets`) and its item path (`/pets/{petId}`) form one collection. On the
 * collection path GET lists and POST creates; on the item path GET reads, PUT replaces, PATCH
 * merges and DELETE removes. A path with no item path beside it is a collection too when it lists
 * and creates the same records (`/members/{memberId}/loans`), when its POST answers 201 Created
 * with a record, or when its GET lists records no other collection holds. Nothing here knows about
 * the Petstore.
 */
import type { SchemaObject } from '../document/schema.js';
import { arrayShape } from './array-shape.js';
import { countsRecords, recordSelector } from './bulk-writes.js';
import { isIntegerKey, parentOf, type Collection, type CrudAction, type CrudBinding } from './collection.js';
import { bare, propertyNamed, singular, stripSuffix } from './names.js';
import type { Operation } from './operation.js';
import { isPaginationParam } from './pagination.js';
import { pathlessShape } from './pathless-shape.js';
import { findReferences } from './record-references.js';
import { branchesOf, isObjectSchema, mergedProperties, propertyNames } from './schema-properties.js';
import { successSchema } from './success-schema.js';

/**
 * @example
 * const { collections, bindings } = inferCollections(operations);
 * bindings.get('createPet') // { action: 'create', collection: { name: 'pets', ... } }
 */
export function inferCollections(operations: Operation[]): {
  collections: Collection[];
  bindings: Map<string, CrudBinding>;
} {
  const byPath = new Map<string, Map<string, Operation>>();
  for (const op of operations) {
    if (!byPath.has(op.path)) byPath.set(op.path, new Map());
    byPath.get(op.path)!.set(op.method, op);
  }

  const collections: Collection[] = [];
  const bindings = new Map<string, CrudBinding>();
  for (const [itemPath, itemOps] of byPath) {
    // `/calls/{sid}`, with a format suffix (`/Calls/{Sid}.json` beside `/Calls.json`, Twilio's style), or a trailing slash (`/books/{id}/`, Django REST framework's).
    const match = /^(.*)\/\{([^}/]+)\}(\.[A-Za-z0-9]+)?\/?$/.exec(itemPath);
    if (!match) continue;
    if (itemPath.endsWith('/') && byPath.has(itemPath.slice(0, -1))) continue; // both spellings: the one without the slash is the item path
    const [, bare, keyParam, suffix = ''] = match;
    if (bare === '') continue; // `/{provider}.json`: a lookup at the root, no collection
    // A collection path may be written with a trailing slash (`/items/` beside `/items/{id}`).
    const path = [`${bare}${suffix}`, bare, `${bare}/`].find((candidate) => byPath.has(candidate)) ?? bare;
    const listOps = byPath.get(path) ?? new Map<string, Operation>();
    const list = listOps.get('get');
    const create = listOps.get('post');
    const listShape = list ? arrayShape(successSchema(list)) : undefined;
    const answered =
      successSchema(itemOps.get('get')) ??
      successSchema(itemOps.get('put')) ??
      successSchema(itemOps.get('patch')) ??
      successSchema(create) ??
      listShape?.items;
    if (!answered || !isObjectSchema(answered)) continue;
    const envelope = envelopeOf(answered, [...itemOps.values()], listShape?.wrapper?.items);
    const schema = envelope ? mergedProperties(answered)[envelope] : answered;

    const keyOp = [...itemOps.values()][0];
    const keyProperty = keyPropertyOf(keyParam, path, propertyNames(schema));
    // A record that has no property for its key and admits no other (`additionalProperties: false`)
    // cannot be stored under one: the path is a lookup (`/specs/{provider}/{api}.json`), answered from the document.
    if (!propertyNames(schema).includes(keyProperty) && closed(schema)) continue;
    // The record's own key property decides the key's type; the path parameter is only its spelling.
    // A server-chosen key must fit the path too: the path parameter's constraints fill what the property leaves open (`minimum: 1`, a pattern).
    const paramSchema = keyOp.parameters.find((p) => p.in === 'path' && p.name === keyParam)?.schema;
    const propertySchema = mergedProperties(schema)[keyProperty];
    const keySchema = propertySchema && paramSchema && !isComposite(propertySchema) ? { ...paramSchema, ...propertySchema } : (propertySchema ?? paramSchema ?? { type: 'string' });
    const collection: Collection = {
      name: '',
      path,
      itemPath,
      keyParam,
      keyProperty,
      keySchema,
      scopeParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
      schema,
      ...(envelope ? { envelope } : {}),
      listWrapper: listShape?.wrapper,
      references: [],
      creatable: Boolean(create),
      listed: true,
      indexed: [],
      children: [],
      notFoundDeclared: [...itemOps.values()].some((op) => op.responses.some((r) => r.status === '404')),
    };
    collections.push(collection);

    // An operation that declares no success response is left to the static responder.
    const bind = (op: Operation | undefined, action: CrudAction) =>
      op && op.responses.some((r) => /^2/.test(r.status)) && bindings.set(op.id, { action, collection });
    if (listShape) bind(list, 'list');
    bind(create, 'create');
    bind(itemOps.get('get'), 'read');
    bind(itemOps.get('put'), 'replace');
    bind(itemOps.get('patch'), 'merge');
    // A POST on one record updates it where nothing else does (Stripe's and Twilio's style).
    if (!itemOps.has('patch') && !itemOps.has('put') && itemOps.get('post')?.requestBody) bind(itemOps.get('post'), 'merge');
    bind(itemOps.get('delete'), 'delete');
  }
  bindByShape(collections, byPath, bindings);
  for (const [path, ops] of byPath) {
    const shape = pathlessShape(path, ops, bindings, collections);
    if ('reasons' in shape) continue;
    collections.push(shape.collection);
    if (shape.list) bindings.set(shape.list.id, { action: 'list', collection: shape.collection });
    if (shape.create) bindings.set(shape.create.id, { action: 'create', collection: shape.collection });
  }
  nameCollections(collections);
  for (const collection of collections) {
    const parent = parentOf(collection.path, collections.filter((c) => c !== collection));
    if (parent) {
      collection.parent = parent.name;
      parent.children.push(collection.name);
    }
  }
  for (const collection of collections) {
    collection.references = findReferences(collection, collections, operations);
    if (collection.parent) {
      collection.parentProperty =
        propertyNamed(collection.scopeParams.at(-1)!, propertyNames(collection.schema)) ?? collection.references.find((r) => r.collection === collection.parent)?.property;
    }
    if (collection.scopeParams.length > 0 && !collection.keyless && isIntegerKey(collection) && countedPerParent(collection, operations)) collection.keyPerParent = true;
    const list = operations.find((op) => bindings.get(op.id)?.collection === collection && bindings.get(op.id)?.action === 'list');
    collection.indexed = [...new Set([...filterProperties(list, collection), ...collection.references.map((r) => r.property)])].filter((p) => p !== collection.keyProperty);
  }
  return { collections, bindings };
}

/**
 * Operations bound by what they carry rather than by their path alone: a PUT or PATCH on the
 * collection path whose body names the record's key (`PUT /pet` with the pet, Swagger's Petstore)
 * replaces or merges that record; a GET below the collection path that lists its records
 * (`GET /pet/findByStatus?status=sold`) is a list, filtered by its query.
 */
function bindByShape(collections: Collection[], byPath: Map<string, Map<string, Operation>>, bindings: Map<string, CrudBinding>): void {
  for (const collection of collections) {
    const listOps = byPath.get(collection.path);
    for (const [method, action] of [['put', 'replace'], ['patch', 'merge']] as const) {
      const op = listOps?.get(method);
      const body = op?.requestBody && Object.values(op.requestBody.content)[0]?.schema;
      // A write that selects many records (`where`) or answers with a count is a bulk update, not this (`PATCH /todos` of LoopBack).
      const bulk = op && (recordSelector(op) !== undefined || countsRecords(op));
      if (op && !bulk && !bindings.has(op.id) && body && propertyNames(body).includes(collection.keyProperty) && op.responses.some((r) => /^2/.test(r.status))) {
        bindings.set(op.id, { action, collection, keyFromBody: true });
      }
    }
    const prefix = `${collection.path.replace(/\/$/, '')}/`;
    for (const [path, ops] of byPath) {
      const rest = path.startsWith(prefix) ? path.slice(prefix.length) : '';
      const op = rest && !/[/{]/.test(rest) ? ops.get('get') : undefined;
      const shape = op && arrayShape(successSchema(op));
      if (op && shape && !shape.wrapper && shape.items === collection.schema && !bindings.has(op.id)) bindings.set(op.id, { action: 'list', collection });
    }
  }
}

/** Names a wrapper of one record goes by (besides the list's own array, `{"data": [...]}` beside `{"data": {...}}`). */
const ENVELOPES = new Set(['data', 'item', 'items', 'result', 'results', 'record', 'resource', 'entity', 'object']);

/**
 * The property a record is wrapped in, when the answers about one record are an object of that one
 * property holding a record (`{"data": {...}}`), named as envelopes are or as the list's array is
 * (`{"data": [...]}` beside it), and no item response holds the record bare; undefined otherwise.
 */
function envelopeOf(answered: SchemaObject, itemOps: Operation[], listItemsName: string | undefined): string | undefined {
  const names = propertyNames(answered);
  if (names.length !== 1 || branchesOf(answered).length > 0) return undefined;
  const [name] = names;
  const inner = mergedProperties(answered)[name];
  if (!inner || !isObjectSchema(inner)) return undefined;
  if (!ENVELOPES.has(bare(name)) && name !== listItemsName) return undefined;
  // Every item answer that has a body must be the same wrapper (a record that merely has one field is no envelope).
  const shared = itemOps.map(successSchema).filter((s): s is SchemaObject => s !== undefined);
  return shared.every((s) => propertyNames(s).length === 1 && propertyNames(s)[0] === name) ? name : undefined;
}

/**
 * The record property a path parameter names: the parameter's own name if the record has it
 * (`petId`), else that name without the collection's singular (`projectKey` -> `key`,
 * `issueNumber` -> `number`, `petId` -> `id`), else `id`.
 */
export function keyPropertyOf(keyParam: string, collectionPath: string, properties: string[]): string {
  if (properties.includes(keyParam)) return keyParam;
  const spelled = propertyNamed(keyParam, properties); // `Sid` for `sid`, `account_id` for `accountId`
  if (spelled) return spelled;
  const noun = singular(collectionPath.split('/').filter((s) => s && !s.includes('{')).at(-1) ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  const lower = keyParam.toLowerCase();
  if (noun && lower.startsWith(noun) && keyParam.length > noun.length) {
    const rest = keyParam.slice(noun.length).replace(/^[-_]/, '');
    const candidate = rest.charAt(0).toLowerCase() + rest.slice(1);
    if (properties.includes(candidate)) return candidate;
  }
  return 'id';
}

/**
 * Whether a nested collection's integer key is counted in its parent (an issue's number in its
 * project, from 1) rather than across the collection. Its description decides when it says so
 * ("the next number in the project", "per project"; "global", "across all"); otherwise its name: a
 * key named like an id (`id`, `commentId`) is the record's own global id, any other (`number`,
 * `position`) a count in the parent.
 */
function countedPerParent(collection: Collection, operations: Operation[]): boolean {
  const segments = collection.path.split('/');
  const last = segments.findLastIndex((s) => s.includes('{'));
  const parentNoun = singular(segments.slice(0, last).filter((s) => s && !s.includes('{')).at(-1) ?? 'parent');
  const parameter = operations.find((op) => op.path === collection.itemPath)?.parameters.find((p) => p.in === 'path' && p.name === collection.keyParam);
  const descriptions = [mergedProperties(collection.schema)[collection.keyProperty]?.description, parameter?.schema?.description].filter((d): d is string => typeof d === 'string');
  if (descriptions.some((d) => /\bglobal(ly)?\b|\bacross (all|every|the whole)\b/i.test(d))) return false;
  const noun = parentNoun.replace(/[^A-Za-z0-9]/g, '');
  const tied = new RegExp(`\\b(in|within|per|of|for|inside|under)\\s+((the|its|each|this|that|a|one|every)\\s+)?(${noun}|parent)\\b`, 'i');
  if (descriptions.some((d) => tied.test(d))) return true;
  return !bare(collection.keyProperty).endsWith('id');
}

/** Query parameters of a list that are named like a record property: the list filters on them. */
export function filterProperties(list: Operation | undefined, collection: Collection): string[] {
  const properties = mergedProperties(collection.schema);
  return (list?.parameters ?? []).filter((p) => p.in === 'query' && !isPaginationParam(p.name) && properties[p.name]).map((p) => p.name);
}

function isComposite(schema: SchemaObject): boolean {
  return Array.isArray(schema.allOf) || Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf) || schema.$ref !== undefined;
}

/** A schema that admits no property it does not name, or only properties of another schema (a map). */
function closed(schema: SchemaObject): boolean {
  const restricts = (part: SchemaObject) => part?.additionalProperties !== undefined && part.additionalProperties !== true;
  return restricts(schema) || (Array.isArray(schema.allOf) && schema.allOf.some(restricts));
}

/** `pets` from `/pets`, `orders` from `/store/orders`, `Calls` from `/Calls.json`; the full path when two would clash. */
function nameCollections(collections: Collection[]): void {
  const literal = (path: string) => stripSuffix(path).split('/').filter((s) => s && !s.includes('{'));
  const last = (c: Collection) => literal(c.path).at(-1) ?? (literal(c.itemPath).at(-1) || 'items');
  const counts = new Map<string, number>();
  for (const c of collections) counts.set(last(c), (counts.get(last(c)) ?? 0) + 1);
  for (const c of collections) c.name = counts.get(last(c))! > 1 ? literal(c.path).join('-') || last(c) : last(c);
}
