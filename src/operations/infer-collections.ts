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
import type { Operation } from './operation.js';
import { countsRecords, recordSelector } from './bulk-writes.js';
import { isPaginationParam } from './pagination.js';

export type CrudAction = 'list' | 'create' | 'read' | 'replace' | 'merge' | 'delete';

export interface Reference {
  /** The property holding another record's key: `categoryId`. */
  property: string;
  /** The collection it points into: `categories`. */
  collection: string;
}

export interface Collection {
  /** `pets`: used for fixture file names and `--count pets=N`. */
  name: string;
  /** The collection path template: `/pets`, `/users/{userId}/posts`. */
  path: string;
  /** The item path template: `/pets/{petId}`; `''` when the document has none (the records are listed and created only). */
  itemPath: string;
  /** The item path's own parameter: `petId`; `''` without an item path. */
  keyParam: string;
  /**
   * The record property that holds the key: the parameter's name if the schema has it, else `id`;
   * without an item path, the record's own id (`id`, `sid`, `uuid`, `loanId`...). `''` for records
   * that have none (`keyless`).
   */
  keyProperty: string;
  /** The key's schema (integer keys are allocated in sequence, others generated). */
  keySchema: SchemaObject;
  /**
   * No property of the record is its key (a collection without an item path whose records have no
   * id): the store numbers them by their place in their scope, and they are never addressed one by one.
   */
  keyless?: boolean;
  /**
   * Integer keys are counted per parent record, from 1 (an issue's `number` in its project), not
   * across the collection: the key is a nested collection's, and is not named like an id (or its
   * description ties it to the parent).
   */
  keyPerParent?: boolean;
  /** True when some operation lists or reads the records (false for a create that nothing reads back: it is not seeded). */
  listed: boolean;
  /** Parameters of the collection path (`userId` in `/users/{userId}/posts`): records are scoped by them. */
  scopeParams: string[];
  /** The schema of one stored record, as responses show it. */
  schema: SchemaObject;
  /**
   * When one record is answered wrapped in a single-property object (`{"data": {...}}`, a headless
   * CMS's style; JSON:API's `data`), that property: `schema` is the record inside it.
   */
  envelope?: string;
  /** When the list is wrapped (`{items: [...], total: 3, next_cursor: 'x'}`), the array, total and next-cursor property names. */
  listWrapper?: { items: string; total?: string; cursor?: string; cursorNullable?: boolean };
  /** Properties that reference other collections' keys. */
  references: Reference[];
  /** True when the document offers a way to create records (a POST on the collection path). */
  creatable: boolean;
  /** True when a missing item is answered 404; false when the document declares no 404 for it. */
  notFoundDeclared: boolean;
  /** Properties the list filters on, and references: the store indexes them. */
  indexed: string[];
  /**
   * The collection whose item path this one's path extends (`projects` for
   * `/projects/{projectKey}/issues`): a record lives under one parent record, is not found under
   * another, and goes when its parent goes.
   */
  parent?: string;
  /** The record property holding the parent's key (`projectKey`, `account_sid`), set from the path. */
  parentProperty?: string;
  /** The collections nested under this one's records. */
  children: string[];
}

export interface CrudBinding {
  action: CrudAction;
  collection: Collection;
  /** The record is named by its key in the body, not in the path (`PUT /pet` with the pet). */
  keyFromBody?: boolean;
}

const JSON_MEDIA = /^application\/(.+\+)?json\b/i;

/** The schema of the first JSON media type of the first 2xx response, if any. */
export function successSchema(op: Operation | undefined): SchemaObject | undefined {
  const response = op?.responses.find((r) => /^2/.test(r.status));
  if (!response) return undefined;
  const media = Object.keys(response.content).find((type) => JSON_MEDIA.test(type));
  return media ? response.content[media].schema : undefined;
}

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

/** True when a path lies below a record's item path (`/books/{id}/reviews` below `/books/{id}` or `/books/{id}/`). */
export function isBelow(path: string, itemPath: string): boolean {
  const base = itemPath.replace(/\/$/, '');
  return base !== '' && path.length > base.length + 1 && path.startsWith(`${base}/`);
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

/** The property a parameter names, whatever the case and separators (`AccountSid` → `account_sid`). */
export function propertyNamed(param: string, properties: string[]): string | undefined {
  return properties.find((name) => bare(name) === bare(param));
}

/**
 * Why no collection explains an operation (it is then answered from its examples or generated
 * data, and the contract suite sends it valid requests only). With the document's operations and
 * bindings, a GET or POST on a path with no item path says why it is no list or create of records.
 */
export function unmappedReason(op: Operation, collections: Collection[], document?: { operations: Operation[]; bindings: ReadonlyMap<string, CrudBinding> }): string {
  const method = op.method.toUpperCase();
  const item = collections.find((c) => c.itemPath === op.path);
  if (item) return `${method} on one ${item.name} record is no create, read, update or delete`;
  const collection = collections.find((c) => c.path === op.path);
  if (collection) return `${method} on the ${collection.name} collection is no list or create (or it declares no success response)`;
  // The deepest record the path is below (`files` for `/vaults/{v}/items/{i}/files/{f}/content`).
  const below = collections.filter((c) => c.itemPath && isBelow(op.path, c.itemPath)).sort((a, b) => b.itemPath.length - a.itemPath.length)[0];
  if (document && (op.method === 'get' || op.method === 'post')) {
    const ops = operationsAt(document.operations).get(op.path) ?? new Map();
    const shape = pathlessShape(op.path, ops, document.bindings, collections);
    const reason = 'reasons' in shape ? shape.reasons[op.method] : undefined;
    if (reason) return below ? `a path below one ${below.name} record, and ${reason}` : reason;
  }
  if (below) return `a path below one ${below.name} record, not a collection of its own`;
  return 'no collection path with an item path (`/things` and `/things/{id}`) explains it';
}

/** The operations of each path, by method: worked out once per list of operations (every unmapped operation asks). */
const byPathOf = new WeakMap<readonly Operation[], Map<string, Map<string, Operation>>>();
function operationsAt(operations: readonly Operation[]): Map<string, Map<string, Operation>> {
  let byPath = byPathOf.get(operations);
  if (!byPath) {
    byPathOf.set(operations, (byPath = new Map()));
    for (const op of operations) {
      if (!byPath.has(op.path)) byPath.set(op.path, new Map());
      byPath.get(op.path)!.set(op.method, op);
    }
  }
  return byPath;
}

/** A collection with no item path, and the operations that list and create its records. */
interface Pathless {
  collection: Collection;
  list?: Operation;
  create?: Operation;
}

/**
 * The collection a path with no item path holds, or why its GET is no list and its POST no create
 * of records. A path is such a collection when (first that applies):
 * - its GET lists records and its POST answers one of the same records (`/members/{memberId}/loans`);
 * - its POST answers `201 Created` with a record (a create that nothing lists: still stored);
 * - its GET lists records that no other collection holds, at the top or under a parent record
 *   (then seeded, and dealt to the parents).
 */
function pathlessShape(path: string, ops: ReadonlyMap<string, Operation>, bindings: ReadonlyMap<string, CrudBinding>, collections: Collection[]): Pathless | { reasons: Partial<Record<string, string>> } {
  const reasons: Partial<Record<string, string>> = {};
  if (collections.some((c) => c.path === path || c.itemPath === path)) return { reasons };
  if (/\}(\.[A-Za-z0-9]+)?$/.test(path)) {
    const lookup = 'a path that names one record, of no collection (no list or create beside it): a lookup';
    return { reasons: { get: lookup, post: lookup } };
  }
  const free = (method: string) => {
    const op = ops.get(method);
    if (!op || bindings.has(op.id)) return undefined;
    if (op.responses.some((r) => /^2/.test(r.status))) return op;
    reasons[method] = `${method.toUpperCase()} declares no success response`;
    return undefined;
  };
  const list = free('get');
  const create = free('post');
  const listShape = list ? arrayShape(successSchema(list)) : undefined;
  const records = listShape && isObjectSchema(listShape.items);
  const paged = listShape && (!listShape.wrapper || pageLike(path, listShape.wrapper.items, successSchema(list)!));
  const listed = records && paged ? listShape : undefined;
  if (list && !listed) {
    reasons.get = !listShape
      ? 'its answer is no list of records (an array of objects, or an object wrapping one)'
      : !records
        ? 'its answer is no list of records: the array it holds is of values, not objects'
        : 'its answer wraps one array among fields that are no page (a total, a cursor, page links): taken for one record, not a list';
  }
  const answered = create ? successSchema(create) : undefined;
  const record = answered && isObjectSchema(answered) ? answered : undefined;
  if (create && !record) reasons.post = 'its answer is no record (a JSON object) to keep';
  const parent = parentOf(path, collections);
  const scoped = /\{/.test(path);

  let schema: SchemaObject | undefined;
  let wrapper: Collection['listWrapper'];
  let creates = false;
  let lists = false;
  if (listed && record && sameRecord(listed.items, record)) {
    [schema, wrapper, creates, lists] = [record, listed.wrapper, true, true];
  } else if (record && create!.responses.some((r) => r.status === '201')) {
    [schema, creates] = [record, true];
    if (listed) reasons.get = 'its records are not those the POST beside it creates';
  } else {
    if (create && record) reasons.post = listed ? 'its answer is not one of the records the GET beside it lists' : 'a POST that answers no `201 Created`, with no list of its records beside it: an action, not a create';
    if (listed) {
      const holder = collections.find((c) => c.schema === listed.items && (c.itemPath !== '' || c.creatable));
      const required = list!.parameters.filter((p) => p.required && p.in === 'query').map((p) => `\`${p.name}\``);
      if (holder) reasons.get = `it lists records of ${holder.name} on a path of its own: answered from the document (the state of ${holder.name} does not say which belong here)`;
      else if (required.length) reasons.get = `a list that requires ${required.join(', ')} is a search, with no create beside it: answered from the document`;
      else if (scoped && !parent) reasons.get = `a list under ${path.match(/\{[^}]+\}/g)!.join(', ')}, which name no record of a collection, and no create beside it: nothing to list from state`;
      else [schema, wrapper, lists] = [listed.items, listed.wrapper, true];
    }
  }
  if (!schema) return { reasons };
  const keyProperty = recordKeyOf(schema, path);
  const collection: Collection = {
    name: '',
    path,
    itemPath: '',
    keyParam: '',
    keyProperty: keyProperty ?? '',
    keySchema: (keyProperty && mergedProperties(schema)[keyProperty]) || { type: 'string' },
    ...(keyProperty ? {} : { keyless: true }),
    scopeParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
    schema,
    listWrapper: wrapper,
    references: [],
    creatable: creates,
    listed: lists,
    indexed: [],
    children: [],
    notFoundDeclared: false,
  };
  return { collection, ...(lists ? { list } : {}), ...(creates ? { create } : {}) };
}

/** The same records: one schema, or two that declare the same properties. */
function sameRecord(a: SchemaObject, b: SchemaObject): boolean {
  if (a === b) return true;
  const names = (schema: SchemaObject) => propertyNames(schema).sort().join('\u0000');
  return propertyNames(a).length > 0 && names(a) === names(b);
}

/**
 * An object that wraps one array is a page of a list when something beside the array says so (a
 * total, a cursor, a page, links), or the array is named as lists are (`data`, `items`, the path's
 * last word: `incoming_phone_numbers` of `/IncomingPhoneNumbers.json`); otherwise it is taken for
 * one record that has a list in it (`{name, roles: [...]}`).
 */
function pageLike(path: string, items: string, schema: SchemaObject): boolean {
  const others = propertyNames(schema).filter((name) => name !== items).map(bare);
  if (others.some((name) => /^(total|count|size|page|pages|pagesize|perpage|limit|offset|start|end|cursor|next|prev|previous|first|last|links|meta|hasmore|more|uri|url)/.test(name) || /(cursor|token|page|uri|url|count|total)$/.test(name))) return true;
  const word = bare(stripSuffix(path).split('/').filter((s) => s && !s.includes('{')).at(-1) ?? '');
  return ['data', 'items', 'results', 'records', 'entries', 'values', 'list', 'elements', 'objects', word].includes(bare(items));
}

/** Case and separators ignored: `AccountSid`, `account_sid` and `account-sid` are one name. */
export function bare(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The property that is a record's own key when no path names it: its id (`id`, `sid`, `uuid`,
 * `loanId` in `/loans`), else `key`, else an integer `number`; undefined when it has none.
 */
function recordKeyOf(schema: SchemaObject, path: string): string | undefined {
  const properties = mergedProperties(schema);
  const typeOf = (name: string) => {
    const type = properties[name]?.type;
    return Array.isArray(type) ? type.filter((t) => t !== 'null') : [type];
  };
  const scalar = (name: string) => typeOf(name).some((t) => t === 'string' || t === 'integer');
  const noun = bare(singular(stripSuffix(path).split('/').filter((s) => s && !s.includes('{')).at(-1) ?? ''));
  const names = Object.keys(properties).filter(scalar);
  for (const wanted of ['id', 'sid', 'uuid', 'guid', `${noun}id`, `${noun}sid`, `${noun}uuid`, 'key', `${noun}key`, 'number']) {
    const found = names.find((name) => bare(name) === wanted);
    if (found && (wanted !== 'number' || typeOf(found).includes('integer'))) return found;
  }
  return undefined;
}

/**
 * The collection whose records a path lives under: the one whose item path is the path up to its
 * last parameter (`/Accounts/{Sid}.json` for `/Accounts/{AccountSid}/IncomingPhoneNumbers/Local.json`;
 * parameter names and format suffixes may differ).
 */
function parentOf(path: string, collections: Collection[]): Collection | undefined {
  const end = path.lastIndexOf('}');
  if (end < 0) return undefined;
  const shape = (template: string) => stripSuffix(template.replace(/\/$/, '')).replace(/\{[^}]+\}/g, '{}');
  const wanted = shape(path.slice(0, end + 1));
  return collections.find((c) => c.itemPath !== '' && shape(c.itemPath) === wanted);
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

/** The item schema of a list response: a bare array, or an object wrapping one array. */
function arrayShape(schema: SchemaObject | undefined): { items: SchemaObject; wrapper?: Collection['listWrapper'] } | undefined {
  if (!schema) return undefined;
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) {
    return schema.items && typeof schema.items === 'object' ? { items: schema.items } : undefined;
  }
  const properties = mergedProperties(schema);
  const arrays = Object.entries(properties).flatMap(([name, s]) => (s?.type === 'array' && s.items ? [{ name, items: s.items }] : []));
  if (arrays.length !== 1) return undefined;
  const [{ name: itemsName, items }] = arrays;
  const total = Object.keys(properties).find((name) => /^(total|totalCount|total_count|count)$/.test(name));
  const cursor = Object.keys(properties).find((name) => /^(next_?cursor|nextCursor|next_?page_?token|nextPageToken|next_?token|nextToken|cursor)$/i.test(name));
  const nullable = cursor !== undefined && (properties[cursor].nullable === true || (Array.isArray(properties[cursor].type) && properties[cursor].type.includes('null')));
  return { items, wrapper: { items: itemsName, total, ...(cursor ? { cursor, cursorNullable: nullable } : {}) } };
}

function isComposite(schema: SchemaObject): boolean {
  return Array.isArray(schema.allOf) || Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf) || schema.$ref !== undefined;
}

/** A schema that admits no property it does not name, or only properties of another schema (a map). */
function closed(schema: SchemaObject): boolean {
  const restricts = (part: SchemaObject) => part?.additionalProperties !== undefined && part.additionalProperties !== true;
  return restricts(schema) || (Array.isArray(schema.allOf) && schema.allOf.some(restricts));
}

/** An object, or a choice between objects (`oneOf`/`anyOf` of records: a book or an audiobook). */
function isObjectSchema(schema: SchemaObject): boolean {
  if (schema.type === 'object' || schema.properties || Array.isArray(schema.allOf)) return true;
  const branches = branchesOf(schema);
  return branches.length > 0 && branches.every((branch) => isObjectSchema(branch));
}

/** The branches of a `oneOf` or `anyOf` (none for other schemas). */
export function branchesOf(schema: SchemaObject): SchemaObject[] {
  const branches = schema?.oneOf ?? schema?.anyOf;
  return Array.isArray(branches) ? branches.filter((b: unknown) => b && typeof b === 'object') : [];
}

/**
 * Properties of a schema, including those brought in by `allOf`, and for a choice of records
 * (`oneOf`/`anyOf`) those of every branch: a property any kind of record may have.
 */
export function mergedProperties(schema: SchemaObject, seen = new Set<SchemaObject>()): Record<string, SchemaObject> {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return {};
  seen.add(schema);
  const merged: Record<string, SchemaObject> = {};
  for (const branch of branchesOf(schema)) for (const [name, property] of Object.entries(mergedProperties(branch, seen))) merged[name] ??= property;
  for (const part of schema.allOf ?? []) Object.assign(merged, mergedProperties(part, seen));
  return Object.assign(merged, schema.properties ?? {});
}

/**
 * The branch of a choice of records a record is of: the one its discriminator names (by mapping,
 * or by the branch's own enum or const of the property), else the first whose required
 * properties it has. The schema itself when it is no choice.
 */
export function branchFor(schema: SchemaObject, record: Record<string, unknown>): SchemaObject {
  const branches = branchesOf(schema);
  if (branches.length === 0) return schema;
  const property = schema.discriminator?.propertyName;
  if (typeof property === 'string' && record[property] !== undefined) {
    const value = record[property];
    const named = branches.find((branch) => {
      const own = ownPropertyOf(branch, property);
      return (Array.isArray(own?.enum) && own.enum.includes(value)) || own?.const === value || branch.title === value;
    });
    if (named) return named;
  }
  return branches.find((branch) => [...requiredSet(branch)].every((name) => record[name] !== undefined)) ?? branches[0];
}

/** A branch's schema of the discriminator property, found once per branch (branchFor runs on every write). */
const discriminatorProperties = new WeakMap<SchemaObject, SchemaObject | undefined>();
function ownPropertyOf(branch: SchemaObject, property: string): SchemaObject | undefined {
  if (!discriminatorProperties.has(branch)) discriminatorProperties.set(branch, mergedProperties(branch)[property]);
  return discriminatorProperties.get(branch);
}

/** The required properties of a schema as a set, worked out once per schema (read on writes and in seeding). */
const requiredSets = new WeakMap<SchemaObject, ReadonlySet<string>>();
export function requiredSet(schema: SchemaObject): ReadonlySet<string> {
  let set = requiredSets.get(schema);
  if (!set) requiredSets.set(schema, (set = new Set(requiredProperties(schema))));
  return set;
}

/** The required properties of a schema, including those `allOf` brings in. */
export function requiredProperties(schema: SchemaObject, seen = new Set<SchemaObject>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  return [...new Set<string>([...(Array.isArray(schema.required) ? schema.required : []), ...(schema.allOf ?? []).flatMap((part: SchemaObject) => requiredProperties(part, seen))])];
}

export function propertyNames(schema: SchemaObject): string[] {
  return Object.keys(mergedProperties(schema));
}

/** `/Accounts/{Sid}.json` → `/Accounts/{Sid}`: a format suffix is no part of a resource's name. */
function stripSuffix(path: string): string {
  return path.replace(/(\}|[A-Za-z0-9_-])\.(json|xml|csv|yaml)$/i, '$1');
}

/** `pets` from `/pets`, `orders` from `/store/orders`, `Calls` from `/Calls.json`; the full path when two would clash. */
function nameCollections(collections: Collection[]): void {
  const literal = (path: string) => stripSuffix(path).split('/').filter((s) => s && !s.includes('{'));
  const last = (c: Collection) => literal(c.path).at(-1) ?? (literal(c.itemPath).at(-1) || 'items');
  const counts = new Map<string, number>();
  for (const c of collections) counts.set(last(c), (counts.get(last(c)) ?? 0) + 1);
  for (const c of collections) c.name = counts.get(last(c))! > 1 ? literal(c.path).join('-') || last(c) : last(c);
}

/** Integer keys are allocated in sequence; others are generated from their schema. */
export function isIntegerKey(collection: Collection): boolean {
  const type = collection.keySchema.type;
  return type === 'integer' || type === 'number' || (Array.isArray(type) && type.includes('integer'));
}

/** `categories` -> `category`, `boxes` -> `box`, `pets` -> `pet`. */
export function singular(word: string): string {
  if (/ies$/i.test(word)) return word.slice(0, -3) + 'y';
  if (/(s|x|z|ch|sh)es$/i.test(word)) return word.slice(0, -2);
  if (/[^s]s$/i.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * The properties of a record that hold another record's key, and the collection they point into:
 * - by the `<singular>Id` convention (`categoryId`, `category_id` into `categories`);
 * - by the name of the collection's record itself (`role` into `roles`, `folder` into `folders`),
 *   and `parent` (`parentId`) into the record's own collection;
 * - by the path parameter of another collection's records (`projectKey` into `/projects/{projectKey}`);
 * - by a link the document declares (`$response.body#/role` given to `getRole`'s parameter).
 * Except for `<singular>Id` and links, the property must hold a value of the key's type (a `role`
 * that is an object or a `folder` that is an integer where folders have text keys points nowhere),
 * and a format both state must agree (`uuid`).
 */
function findReferences(collection: Collection, all: Collection[], operations: Operation[] = []): Reference[] {
  return referencesIn(collection.schema, collection, all, linkedProperties(collection, all, operations));
}

/**
 * The references of any record-shaped schema (a record, or a request body that writes one) of
 * `self`'s collection, found as findReferences finds them; `linked`: properties a declared link
 * ties to a collection.
 */
export function referencesIn(schema: SchemaObject, self: Collection | undefined, all: Collection[], linked: Map<string, Collection> = new Map()): Reference[] {
  const references: Reference[] = [];
  const properties = mergedProperties(schema);
  for (const property of Object.keys(properties)) {
    const match = /^(.+?)_?[iI]d$/.exec(property);
    const fits = (c: Collection) => keyTypeFits(properties[property], c.keySchema);
    const target =
      linked.get(property) ||
      (match && all.find((c) => singular(c.name).toLowerCase() === match[1].toLowerCase())) ||
      all.find((c) => c.keyParam === property && c.keyProperty !== property) ||
      all.find((c) => c !== self && bare(singular(c.name)) === bare(property) && fits(c)) ||
      (self && /^parent(_?id)?$/i.test(property) && fits(self) ? self : undefined);
    if (target && (target !== self || property !== self.keyProperty)) references.push({ property, collection: target.name });
  }
  return references;
}

/** A property can hold the key: a scalar of the key's type (string or integer), and the same format where both state one. */
function keyTypeFits(property: SchemaObject | undefined, key: SchemaObject): boolean {
  if (!property || typeof property !== 'object') return false;
  const types = (s: SchemaObject): string[] => (Array.isArray(s.type) ? s.type : [s.type]).filter((t: unknown): t is string => typeof t === 'string' && t !== 'null').map((t: string) => (t === 'number' ? 'integer' : t));
  const [mine, theirs] = [types(property), types(key)];
  if (mine.length === 0 || !mine.every((t: string) => t === 'string' || t === 'integer')) return false;
  if (theirs.length > 0 && !mine.some((t: string) => theirs.includes(t))) return false;
  return !(property.format && key.format && property.format !== key.format);
}

/**
 * Properties of a collection's records that a declared link gives to the key parameter of another
 * collection's item operation (`links: {role: {operationId: getRole, parameters: {id: '$response.body#/role'}}}`).
 */
function linkedProperties(collection: Collection, all: Collection[], operations: Operation[]): Map<string, Collection> {
  const linked = new Map<string, Collection>();
  const own = operations.filter((op) => op.path === collection.path || op.path === collection.itemPath);
  for (const op of own) {
    for (const response of Object.values((op.source?.responses ?? {}) as Record<string, { links?: Record<string, unknown> }>)) {
      for (const link of Object.values(response?.links ?? {})) {
        if (!link || typeof link !== 'object') continue;
        const { operationId, parameters } = link as { operationId?: unknown; parameters?: Record<string, unknown> };
        const target = operations.find((o) => o.id === operationId);
        const into = target && all.find((c) => c.itemPath === target.path);
        if (!into || into === collection || !parameters || typeof parameters !== 'object') continue;
        const expression = parameters[into.keyParam];
        const property = typeof expression === 'string' ? /^\$response\.body#\/([^/]+)$/.exec(expression)?.[1] : undefined;
        if (property) linked.set(property.replace(/~1/g, '/').replace(/~0/g, '~'), into);
      }
    }
  }
  return linked;
}
