/**
 * A record's links to itself: the properties whose value is the record's own URL on the API
 * (Twilio's `uri`, a `self` or `href`, JSON:API's `links.self`, HAL's `_links.self.href`). The mock
 * stores there the record's item path (`/2010-04-01/Accounts/AC.../Messages/SM....json`), absolute
 * on the document's server where the schema asks for a URI, and answers it at the URL the client
 * reached the mock under: following it reads the record, never a generated domain.
 */
import type { SchemaObject } from '../document/schema.js';
import type { Collection } from './collection.js';
import { mergedProperties } from './schema-properties.js';

/** Where a link to the record sits: the property names from the record down, and whether it is an absolute URI. */
export interface LinkSlot {
  path: readonly string[];
  absolute: boolean;
}

/** Names of a record's own link, compared lower case without `_` or `-`. */
const SELF_NAMES = new Set(['self', 'href', 'uri', 'selflink', 'selfurl', 'selfuri', 'selfhref']);
/** Objects of links (`links`, HAL's `_links`), whose `self` is the record's. */
const LINK_OBJECTS = new Set(['links', 'link']);
/** In a link object (`self: { href }`), the property holding its URL. */
const URL_NAMES = new Set(['href', 'uri', 'url']);
/** Formats that want an absolute URI (RFC 3986 `URI`, not a reference). */
const ABSOLUTE_FORMATS = new Set(['uri', 'iri', 'url']);

const bare = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/** A string property a URL can be written to: no enum, const or pattern to keep to, room for a URL. */
function urlSlot(schema: SchemaObject | undefined, path: readonly string[]): LinkSlot | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.includes('string') && !(schema.type === undefined && typeof schema.format === 'string')) return undefined;
  if (schema.enum !== undefined || schema.const !== undefined || schema.pattern !== undefined) return undefined;
  if (typeof schema.maxLength === 'number' && schema.maxLength < 256) return undefined;
  return { path, absolute: ABSOLUTE_FORMATS.has(String(schema.format)) };
}

const slotsBySchema = new WeakMap<SchemaObject, LinkSlot[]>();

/** Where a record of `schema` links to itself, worked out once per schema. */
export function selfLinkSlots(schema: SchemaObject): LinkSlot[] {
  let slots = slotsBySchema.get(schema);
  if (slots) return slots;
  slots = [];
  for (const [name, property] of Object.entries(mergedProperties(schema))) {
    const bareName = bare(name);
    if (SELF_NAMES.has(bareName)) {
      const slot = urlSlot(property, [name]);
      if (slot) slots.push(slot);
    } else if (LINK_OBJECTS.has(bareName) && property && typeof property === 'object') {
      for (const [inner, link] of Object.entries(mergedProperties(property))) {
        if (bare(inner) !== 'self') continue;
        const direct = urlSlot(link, [name, inner]);
        if (direct) slots.push(direct);
        else if (link && typeof link === 'object') {
          const [field, value] = Object.entries(mergedProperties(link)).find(([n]) => URL_NAMES.has(bare(n))) ?? [];
          const nested = field === undefined ? undefined : urlSlot(value, [name, inner, field]);
          if (nested) slots.push(nested);
        }
      }
    }
  }
  slotsBySchema.set(schema, slots);
  return slots;
}

/** The server the document names, which stored links are written against. */
export interface LinkServer {
  /** `https://api.example.com`; `http://localhost` for a document whose server is a path or absent. */
  origin: string;
  /** `/v1`, or `''`. */
  basePath: string;
}

/** How a stored link is answered: a path of the mock, as the client's path or (absolute) its whole URL. */
export type ToClient = (mockPath: string, absolute: boolean) => string;

/** The links of one collection's records to themselves. */
export class RecordLinks {
  private readonly absolutePrefix: string;

  constructor(
    private readonly collection: Collection,
    readonly slots: readonly LinkSlot[],
    private readonly server: LinkServer,
  ) {
    this.absolutePrefix = `${server.origin}${server.basePath}`;
  }

  /**
   * Writes the record's own URL in each slot (`scope`: the keys of its parents, `/`-joined, as the
   * store scopes it). Nothing is written when the item path names a parameter the record cannot fill.
   */
  fill(record: Record<string, unknown>, scope = ''): void {
    const path = this.itemPath(record, scope);
    if (path === undefined) return;
    for (const slot of this.slots) setAt(record, slot.path, slot.absolute ? `${this.absolutePrefix}${path}` : `${this.server.basePath}${path}`);
  }

  /** The record as answered: each stored link to a path of the mock turned into the client's URL (a copy; the record itself when there is none). */
  present(record: Record<string, unknown>, toClient: ToClient): Record<string, unknown> {
    let out = record;
    for (const slot of this.slots) {
      const value = getAt(record, slot.path);
      if (typeof value !== 'string') continue;
      const answered = this.answered(value, toClient);
      if (answered === value) continue;
      if (out === record) out = { ...record };
      setAt(out, slot.path, answered, true);
    }
    return out;
  }

  /** A stored link as the client gets it; other values (a URL elsewhere) as they are. */
  private answered(value: string, toClient: ToClient): string {
    const { absolutePrefix } = this;
    if (value.startsWith(absolutePrefix) && (value.length === absolutePrefix.length || value[absolutePrefix.length] === '/' || value[absolutePrefix.length] === '?')) {
      return toClient(value.slice(this.server.origin.length), true);
    }
    const { basePath } = this.server;
    if (value[0] === '/' && value[1] !== '/' && value.startsWith(basePath) && (value.length === basePath.length || value[basePath.length] === '/')) return toClient(value, false);
    return value;
  }

  /** `/Accounts/AC1/Messages/SM2.json` for a record, from its key and its scope's keys. */
  private itemPath(record: Record<string, unknown>, scope: string): string | undefined {
    const { collection } = this;
    const key = record[collection.keyProperty];
    if (key === undefined || key === null) return undefined;
    const parents = scope === '' ? [] : scope.split('/');
    let missing = false;
    const path = collection.itemPath.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (name === collection.keyParam) return encodeURIComponent(String(key));
      const at = collection.scopeParams.indexOf(name);
      if (at < 0 || parents[at] === undefined) missing = true;
      return encodeURIComponent(parents[at] ?? '');
    });
    return missing ? undefined : path;
  }
}

/** The links a collection's records hold to themselves, or undefined when they have none (or no item path to name). */
export function recordLinksOf(collection: Collection, server: LinkServer): RecordLinks | undefined {
  if (!collection.itemPath || collection.keyless) return undefined;
  const slots = selfLinkSlots(collection.schema);
  return slots.length ? new RecordLinks(collection, slots, server) : undefined;
}

function getAt(record: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = record;
  for (const name of path) {
    if (!value || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, name)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

/**
 * Sets a value at a path whose objects are there (a record without its `links` object is left
 * without: the object may require more than its `self`); `copy` copies them on the way, so that a
 * stored record is not changed.
 */
function setAt(record: Record<string, unknown>, path: readonly string[], value: string, copy = false): void {
  let target = record;
  for (const name of path.slice(0, -1)) {
    const next = Object.hasOwn(target, name) ? target[name] : undefined;
    if (!next || typeof next !== 'object' || Array.isArray(next)) return;
    const object = copy ? { ...(next as Record<string, unknown>) } : (next as Record<string, unknown>);
    if (copy) define(target, name, object);
    target = object;
  }
  define(target, path[path.length - 1], value);
}

/** An own property, whatever its name (`__proto__` too). */
function define(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}
