/**
 * Stage 6 for operations bound to a collection: list, create, read, replace, merge, delete.
 * One generic implementation; the document decides which operation does what.
 */
import type { SchemaObject } from '../../openapi/document/schema.js';
import { isIntegerKey, type Collection, type CrudBinding } from '../../openapi/operations/collection.js';
import { singular } from '../../openapi/operations/names.js';
import { branchFor, mergedProperties, requiredProperties, requiredSet } from '../../openapi/operations/schema-properties.js';
import { successSchema } from '../../openapi/operations/success-schema.js';
import type { Operation } from '../../openapi/operations/operation.js';
import { ApiError, errors } from '../../core/api-error.js';
import type { RecordCollection, StateStore, StoredRecord } from '../../state/state-store.js';
import type { OperationRule, RuleContext } from './action.js';
import { clientPath, clientUrl, type Action, type ActionInput, type ActionResult } from '../pipeline/exchange.js';
import type { RecordLinks } from '../../openapi/operations/record-links.js';
import { compileListQuery } from './list-query.js';
import { FieldNames } from '../../openapi/operations/field-names.js';
import { requestBodySchema } from '../../openapi/operations/build-operations.js';
import { setOwn } from '../../core/own-property.js';
import { applyPatch, patchKindOf } from './patch.js';
import { recordJson } from '../../state/speedups.js';

export interface CrudOptions {
  /** Prefix of every route (the path of the document's first server): `''` or `/v1`. */
  basePath: string;
  /** Makes a key for a new record of a collection whose keys are not integers; undefined when every key its schema allows is taken. */
  newKey: (collection: Collection, store: StateStore) => unknown;
  /**
   * Fills what a server owns (src/state/server-fields.ts): on a create, the required properties the
   * client did not set, the timestamps, and every property the request could not send
   * (`clientFields`: the record's properties the request declares); on an update, the updated timestamp.
   */
  complete?: (collection: Collection, record: StoredRecord, store: StateStore, change: 'create' | 'update', clientFields?: ReadonlySet<string>) => void;
  /** The links a collection's records hold to themselves (`uri`, `links.self`): written on every change, answered at the client's URL. */
  links?: (collection: Collection) => RecordLinks | undefined;
  /** Makes a record for an item the document offers no way to create (read-only collections), or undefined if the key cannot be one. */
  materialise: (collection: Collection, key: unknown, store: StateStore) => StoredRecord | undefined;
  rule?: OperationRule;
  /** Generates a value of a schema (the fields a list's envelope requires beyond its items). */
  generate?: (schema: SchemaObject) => unknown;
  /** The clock the rules read (milliseconds since the epoch). */
  now?: () => number;
  /**
   * For an operation whose declared answer at `status` is not the record's schema: what it answers
   * for a record (the record when it is valid there, else a body valid for the declared schema:
   * `{}` for an empty one). Undefined when the record is the answer as it is.
   */
  conform?: (operation: Operation, status: number, record: SchemaObject) => ((record: StoredRecord) => unknown) | undefined;
  /** Told once per operation of what it cannot do as declared (a list's query parameters that filter nothing). */
  warn?: (message: string) => void;
}

/** @example const act = compileCrudAction(operation, binding, options); act(input) // { status: 201, body: {...} } */
export function compileCrudAction(operation: Operation, binding: CrudBinding, options: CrudOptions): Action {
  const { collection } = binding;
  const stateOf = (input: ActionInput) => input.store.collection(collection.name);
  const success = successStatus(operation, binding.action);
  const hasBody = success !== 204 && declaresContent(operation, success);
  const request = requestBodySchema(operation);
  const fields = fieldNames(collection.schema, request);
  const keep = writableProperties(collection.schema, request, fields);
  // The record's properties a client may send: the server fills the others on a create.
  const clientFields = new Set([...fields.reached].filter((name) => !requestProperty(request, fields, name)?.readOnly));
  // A record answered in its envelope (`{"data": {...}}`) is stored as the record inside it: the envelope is the answer's, made here.
  const { envelope } = collection;
  const conform = envelope
    ? (record: StoredRecord) => ({ [envelope]: record })
    : hasBody && binding.action !== 'list' && binding.action !== 'read'
      ? options.conform?.(operation, success, collection.schema)
      : undefined;
  const scopeOf = collection.scopeParams.length === 0 ? () => '' : (input: ActionInput) => collection.scopeParams.map((p) => String(input.params.path[p])).join('/');
  const keyProperty = collection.keyProperty;
  const now = options.now ?? Date.now;
  const context = (input: ActionInput, current?: StoredRecord): RuleContext => ({ operation, input, store: input.store, current, record: undefined, now });
  const rule = options.rule ?? {};
  const parentMissing = parentCheck(collection, options);
  const { parentProperty } = collection;
  const links = options.links?.(collection);
  /** A record as answered: its links to itself at the URL the client used (the stored record itself when it has none). */
  const present = links ? (input: ActionInput, record: StoredRecord) => links.present(record, (path, absolute) => clientUrl(input, path, absolute)) : undefined;

  if (binding.action === 'list') {
    const query = compileListQuery(operation, collection, options.warn);
    const envelope = collection.listWrapper ? envelopeOf(operation, collection.listWrapper, options) : {};
    return (input) => {
      const missing = parentMissing(input);
      if (missing) return missing;
      const vetoed = rule.before?.(context(input));
      if (vetoed) return vetoed;
      const state = stateOf(input);
      const page = query(state, scopeOf(input), input);
      if (page instanceof ApiError) return page;
      if (!hasBody) return { status: success, headers: page.headers };
      if (present) page.items = page.items.map((record) => present(input, record));
      if (collection.listWrapper) {
        const { items, total, cursor } = collection.listWrapper;
        const body: StoredRecord = { ...envelope, [items]: page.items };
        if (total) body[total] = page.total;
        // The next page's cursor; on the last page null where the schema allows it, else the field is left out.
        if (cursor && page.next !== undefined && (page.next !== null || collection.listWrapper.cursorNullable)) body[cursor] = page.next;
        return { status: success, body, headers: page.headers };
      }
      if (present) return { status: success, body: page.items, headers: page.headers };
      return { status: success, body: page.items, json: `[${page.items.map((record) => recordJson(state, record)).join(',')}]`, headers: page.headers };
    };
  }

  if (binding.action === 'create') {
    // The item path with the new key: `/items/7` (from `/items/` too), `/Calls/CA12.json`.
    // A key the client may write (declared by the request, not readOnly) is the one the record gets.
    const clientKey = Boolean(request && !collection.keyless && keep?.has(keyProperty) && !requestProperty(request, fields, keyProperty)?.readOnly);
    return (input) => {
      const missing = parentMissing(input);
      if (missing) return missing;
      const ctx = context(input);
      const vetoed = rule.before?.(ctx);
      if (vetoed) return vetoed;
      const scope = scopeOf(input);
      const state = stateOf(input);
      // A session's store also makes room for the copy its first write of the collection makes.
      const full = input.store.reserve ? input.store.reserve(collection.name, 1) : input.store.full();
      if (full) return new ApiError(507, 'STORAGE_FULL', `No ${describe(collection)} can be created: ${full}. Delete records, or reset the mock (POST /__admin/reset).`);
      const record = pick(input.body, fields);
      let key: unknown;
      if (!collection.keyless) {
        const chosen = clientKey ? record[keyProperty] : undefined;
        if (chosen !== undefined && state.get(chosen, scope)) return new ApiError(409, 'KEY_TAKEN', `A ${describe(collection)} with ${keyProperty} ${String(chosen)} already exists.`);
        key = chosen ?? (isIntegerKey(collection) ? state.allocateInteger(scope) : options.newKey(collection, input.store));
        if (key === undefined) {
          return new ApiError(
            409,
            'NO_FREE_KEY',
            isIntegerKey(collection)
              ? `No ${collection.keyProperty} is left for a new ${describe(collection)}: a ${collection.keyProperty} is never given twice, and the next would pass 2^53 - 1, where integers stop being exact. Reset the mock (POST /__admin/reset).`
              : `Every ${collection.keyProperty} the document allows is taken: delete a ${describe(collection)} first.`,
          );
        }
        record[keyProperty] = key;
      }
      if (parentProperty) record[parentProperty] = input.params.path[collection.scopeParams.at(-1)!];
      options.complete?.(collection, record, input.store, 'create', clientFields);
      links?.fill(record, scope);
      // The item path with the new key, where there is one: made before the record is stored, so a create that cannot answer stores nothing.
      const headers = success === 201 && collection.itemPath ? { Location: clientPath(input, `${options.basePath}${fill(collection.itemPath, input, { [collection.keyParam]: key })}`) } : undefined;
      state.put(record, scope);
      if (rule.after) {
        ctx.record = record;
        rule.after(ctx);
      }
      const answered = present ? present(input, record) : record;
      return { status: success, body: hasBody ? (conform ? conform(answered) : answered) : undefined, headers };
    };
  }

  // Item operations: find the record first (404), then let the rules look at it.
  return (input) => {
    const missing = parentMissing(input);
    if (missing) return missing;
    const scope = scopeOf(input);
    const state = stateOf(input);
    const key = binding.keyFromBody ? (input.body as StoredRecord | undefined)?.[keyProperty] : input.params.path[collection.keyParam];
    if (key === undefined) return errors.validation([{ path: `body.${keyProperty}`, rule: 'required', message: `is required: it names the ${describe(collection)} to change` }]);
    let current = state.get(key, scope);
    if (!current && !collection.notFoundDeclared && !collection.creatable && binding.action !== 'delete') {
      const made = options.materialise(collection, key, input.store);
      if (made) links?.fill(made, scope);
      if (made) current = state.put(made, scope);
    }
    if (!current) return errors.notFound(describe(collection), `${collection.keyProperty} ${String(key)}`);
    const ctx = context(input, current);
    const vetoed = rule.before?.(ctx);
    if (vetoed) return vetoed;
    // A session's first change of a collection copies it: refused (507) when the session alone would pass its share.
    const full = binding.action === 'read' ? undefined : input.store.reserve?.(collection.name, 0);
    if (full) return new ApiError(507, 'STORAGE_FULL', `No ${describe(collection)} can be changed in this session: ${full}. Reset the session (POST /__admin/reset with its X-Mock-Session).`);
    const result = perform(binding.action, state, current, input, { keep, fields }, collection, scope, success, options.complete, links);
    if (result instanceof ApiError) return result;
    if (rule.after) {
      ctx.record = result.body as StoredRecord | undefined;
      rule.after(ctx);
    }
    if (!hasBody) return { ...result, body: undefined, json: undefined };
    const body = present && result.body !== undefined ? present(input, result.body as StoredRecord) : result.body;
    // An answer whose declared schema cannot hold the record (`{}` for an empty object) is made to fit it; a record in its envelope is wrapped.
    if (conform && body !== undefined) return { status: result.status, headers: result.headers, body: conform(body as StoredRecord) };
    return body === result.body ? result : { status: result.status, headers: result.headers, body };
  };
}

/**
 * For a nested collection, a check that the parent record the path names exists (404 if not); a
 * parent of a read-only collection that answers any key is made as a read would make it.
 */
function parentCheck(collection: Collection, options: CrudOptions): (input: ActionInput) => ApiError | undefined {
  if (!collection.parent) return () => undefined;
  const name = collection.parent;
  // The parent's key is the last parameter of this collection's path, its scope the ones before.
  const keyParam = collection.scopeParams.at(-1)!;
  const scopeParams = collection.scopeParams.slice(0, -1);
  return (input) => {
    const parents = input.store.collection(name);
    const parent = parents.collection;
    const key = input.params.path[keyParam];
    const scope = scopeParams.map((p) => String(input.params.path[p])).join('/');
    if (parents.get(key, scope)) return undefined;
    if (!parent.creatable && !parent.notFoundDeclared) {
      const made = options.materialise(parent, key, input.store);
      if (made) {
        parents.put(made, scope);
        return undefined;
      }
    }
    return errors.notFound(describe(parent), `${parent.keyProperty} ${String(key)}`);
  };
}

/** A deleted record's children (and theirs) go with it: the scopes under `prefix` are dropped. */
function dropChildren(store: StateStore, collection: Collection, prefix: string): void {
  for (const name of collection.children) {
    const child = store.collection(name);
    // Its own scope even when empty: keys counted in it start again from 1 under a new parent.
    if (child.collection.keyPerParent && child.records(prefix).size === 0) child.dropScope(prefix);
    for (const scope of child.scopes()) {
      if (scope === prefix || scope.startsWith(`${prefix}/`)) {
        for (const record of child.records(scope).values()) dropChildren(store, child.collection, `${scope}/${String(record[child.collection.keyProperty])}`);
        child.dropScope(scope);
      }
    }
  }
}

function perform(
  action: CrudBinding['action'],
  state: RecordCollection,
  current: StoredRecord,
  input: ActionInput,
  { keep, fields }: { keep: Set<string> | undefined; fields: FieldNames },
  collection: Collection,
  scope: string,
  success: number,
  complete: CrudOptions['complete'],
  links: RecordLinks | undefined,
): ActionResult | ApiError {
  const key = current[collection.keyProperty];
  switch (action) {
    case 'read':
      return { status: success, body: current, json: recordJson(state, current) };
    case 'replace': {
      // What the client cannot write (readOnly fields, a nested record's parent key, its creation time) stays as the server set it.
      const record = pick(input.body, fields);
      for (const [name, value] of Object.entries(serverOwned(current, keep))) if (record[name] === undefined) setOwn(record, name, value);
      record[collection.keyProperty] = key;
      complete?.(collection, record, input.store, 'update');
      links?.fill(record, scope);
      return { status: success, body: state.put(record, scope) };
    }
    case 'merge': {
      const kind = patchKindOf(input.mediaType);
      // Fields spelled otherwise than the record's properties (`Status` for `status`) are renamed first; a JSON Patch names the record's own.
      const record = applyPatch(kind, current, kind === 'json-patch' ? input.body : renamed(input.body, fields), keep);
      if (record instanceof ApiError) return record;
      // A patch may remove a field (a merge-patch null), but not one every record must have.
      const removed = [...requiredSet(branchFor(collection.schema, record))].filter((name) => current[name] !== undefined && record[name] === undefined);
      if (removed.length) return errors.validation(removed.map((name) => ({ path: `body.${name}`, rule: 'required', message: 'cannot be removed: every record has it' })));
      record[collection.keyProperty] = key;
      complete?.(collection, record, input.store, 'update');
      links?.fill(record, scope);
      return { status: success, body: state.put(record, scope) };
    }
    default:
      state.delete(key, scope);
      dropChildren(input.store, collection, scope ? `${scope}/${String(key)}` : String(key));
      return success === 204 ? { status: 204 } : { status: success, body: current };
  }
}

/**
 * The fields a list's envelope requires besides its items, total and cursor (Twilio's `page`,
 * `page_size`, `uri`...): generated once from the list's schema, so every page keeps to it.
 */
function envelopeOf(operation: Operation, wrapper: NonNullable<Collection['listWrapper']>, options: CrudOptions): StoredRecord {
  const schema = successSchema(operation);
  const generated = schema && options.generate?.(schema);
  if (!generated || typeof generated !== 'object' || Array.isArray(generated)) return {};
  const own = new Set([wrapper.items, wrapper.total, wrapper.cursor]);
  const envelope: StoredRecord = {};
  for (const name of requiredProperties(schema)) if (!own.has(name) && (generated as StoredRecord)[name] !== undefined) envelope[name] = (generated as StoredRecord)[name];
  return envelope;
}

/** The declared success status: the lowest 2xx, or the conventional one when none is declared. */
function successStatus(operation: Operation, action: CrudBinding['action']): number {
  const declared = operation.responses.map((r) => Number(r.status)).filter((s) => s >= 200 && s < 300).sort((a, b) => a - b);
  return declared[0] ?? (action === 'create' ? 201 : action === 'delete' ? 204 : 200);
}

function declaresContent(operation: Operation, status: number): boolean {
  const response = operation.responses.find((r) => r.status === String(status)) ?? operation.responses.find((r) => /^2/.test(r.status));
  return Object.keys(response?.content ?? {}).length > 0;
}

/**
 * How a request's fields name the record's properties: by name, case and separators ignored
 * (`FriendlyName` sets `friendly_name`). A field the record does not have is ignored.
 */
function fieldNames(record: SchemaObject, request: SchemaObject | undefined): FieldNames {
  return new FieldNames(request ? Object.keys(mergedProperties(request)) : [], Object.keys(mergedProperties(record)));
}

/**
 * What a request may write: the record's properties its body's declared fields name. A field the
 * operation does not declare is ignored, even when the record has it (an order's PATCH may change
 * its status, not its pet or quantity). With no declared properties on either side, everything is kept.
 */
function writableProperties(record: SchemaObject, request: SchemaObject | undefined, fields: FieldNames): Set<string> | undefined {
  const stored = Object.keys(mergedProperties(record));
  if (fields.fields.length === 0) return stored.length ? new Set(stored) : undefined;
  return new Set(stored.length ? fields.reached : fields.fields);
}

/** The request's declaration of the field that sets a record property. */
function requestProperty(request: SchemaObject | undefined, fields: FieldNames, property: string): SchemaObject | undefined {
  if (!request) return undefined;
  const declared = mergedProperties(request);
  const field = fields.fields.find((name) => fields.targets(name)?.includes(property));
  return field === undefined ? undefined : declared[field];
}


/** The fields of a record no request may write. */
function serverOwned(current: StoredRecord, keep: Set<string> | undefined): StoredRecord {
  const out: StoredRecord = {};
  if (!keep) return out;
  for (const name in current) if (!keep.has(name)) setOwn(out, name, current[name]);
  return out;
}

/** The fields of a body a request may write, under the record's names (a new record). */
function pick(body: unknown, names: FieldNames): StoredRecord {
  const out: StoredRecord = {};
  if (!body || typeof body !== 'object' || Array.isArray(body) || ArrayBuffer.isView(body)) return out;
  const fields = body as Record<string, unknown>;
  for (const name in fields) {
    const targets = names.targets(name);
    if (targets) for (const property of targets) setOwn(out, property, fields[name]);
  }
  return out;
}

/** A patch's fields under the record's names (a merge-patch's nulls kept: they remove). */
function renamed(body: unknown, names: FieldNames): unknown {
  return body && typeof body === 'object' && !Array.isArray(body) && !ArrayBuffer.isView(body) ? pick(body, names) : body;
}

/** `/users/{userId}/posts/{postId}` with the request's `userId` (and `extra` values). */
function fill(template: string, input: ActionInput, extra: Record<string, unknown> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(name in extra ? extra[name] : input.params.path[name])));
}

/** `pet` for `pets`, `inventory item` for `inventory`: used in messages. */
function describe(collection: Collection): string {
  const name = singular(collection.name);
  return name === collection.name ? `${name} item` : name;
}
