/**
 * The collection model: a document's records as collections (`/pets` and `/pets/{petId}`), the
 * CRUD action each operation performs on one, the references between records, and small helpers
 * on them. How collections are found from operations is in infer-collections.ts.
 */
import type { SchemaObject } from '../document/schema.js';
import { stripSuffix } from './names.js';

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

/** Integer keys are allocated in sequence; others are generated from their schema. */
export function isIntegerKey(collection: Collection): boolean {
  const type = collection.keySchema.type;
  return type === 'integer' || type === 'number' || (Array.isArray(type) && type.includes('integer'));
}

/** True when a path lies below a record's item path (`/books/{id}/reviews` below `/books/{id}` or `/books/{id}/`). */
export function isBelow(path: string, itemPath: string): boolean {
  const base = itemPath.replace(/\/$/, '');
  return base !== '' && path.length > base.length + 1 && path.startsWith(`${base}/`);
}

/**
 * The collection whose records a path lives under: the one whose item path is the path up to its
 * last parameter (`/Accounts/{Sid}.json` for `/Accounts/{AccountSid}/IncomingPhoneNumbers/Local.json`;
 * parameter names and format suffixes may differ).
 */
export function parentOf(path: string, collections: Collection[]): Collection | undefined {
  const end = path.lastIndexOf('}');
  if (end < 0) return undefined;
  const shape = (template: string) => stripSuffix(template.replace(/\/$/, '')).replace(/\{[^}]+\}/g, '{}');
  const wanted = shape(path.slice(0, end + 1));
  return collections.find((c) => c.itemPath !== '' && shape(c.itemPath) === wanted);
}
