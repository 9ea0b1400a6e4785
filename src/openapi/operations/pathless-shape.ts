/**
 * Collections without an item path (`/members/{memberId}/loans`): a path whose GET lists records
 * and POST creates them, whose POST answers `201 Created` with a record, or whose GET lists records
 * no other collection holds; and, for the paths that are none of these, why.
 */
import type { SchemaObject } from '../document/schema.js';
import { arrayShape } from './array-shape.js';
import { parentOf, type Collection, type CrudBinding } from './collection.js';
import { bare, singular, stripSuffix } from './names.js';
import type { Operation } from './operation.js';
import { isObjectSchema, mergedProperties, propertyNames } from './schema-properties.js';
import { successSchema } from './success-schema.js';

/** A collection with no item path, and the operations that list and create its records. */
export interface Pathless {
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
export function pathlessShape(path: string, ops: ReadonlyMap<string, Operation>, bindings: ReadonlyMap<string, CrudBinding>, collections: Collection[]): Pathless | { reasons: Partial<Record<string, string>> } {
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
