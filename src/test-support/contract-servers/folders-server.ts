/**
 * A hand-written server for folders-api.yaml, shaped like the headless CMS of issue 38: a folder
 * names its role and its parent folder by key (refused with 400 when either names nothing),
 * `fields` and `sort` must name fields of the folders (400 otherwise), roles come in numbered
 * pages (404 past the last, as Django REST framework's), fields live under a
 * collection named in the path, and a comment counts itself in the item it names. Its own roles,
 * folders, collections and items must survive a contract run; every request is logged.
 */
import { randomUUID } from 'node:crypto';

type Row = Record<string, unknown>;

export interface FoldersServer {
  fetch: (request: Request) => Promise<Response>;
  roles: Map<string, Row>;
  folders: Map<string, Row>;
  /** Collections by name, each with its fields and its items (an item's `comments` counts the comments on it). */
  collections: Map<string, { collection: string; note?: string; fields: Map<string, Row>; items: Map<string, Row> }>;
  comments: Map<string, Row>;
  /** Every request received: method, path (with query) and body. */
  calls: Array<{ method: string; path: string; body?: Row }>;
}

const FOLDER_FIELDS = ['id', 'name', 'role', 'parent'];
const NAME = /^[a-z][a-z_]{2,20}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `roleOptional`: a folder may be made without a role (as a document that does not require one says). */
export function foldersServer({ roleOptional = false } = {}): FoldersServer {
  const server: FoldersServer = { fetch: handle, roles: new Map(), folders: new Map(), collections: new Map(), comments: new Map(), calls: [] };
  const role = { id: randomUUID(), name: 'Administrator' };
  server.roles.set(role.id, role);
  const root = { id: randomUUID(), name: 'Theirs', role: role.id, parent: null };
  server.folders.set(root.id, root);
  server.collections.set('authors', { collection: 'authors', note: 'theirs', fields: new Map([['author_name', { field: 'author_name', type: 'string' }]]), items: new Map([['4', { id: '4', author_name: 'Ada', comments: 0 }]]) });
  server.collections.set('books', { collection: 'books', fields: new Map([['title', { field: 'title', type: 'string' }]]), items: new Map() });

  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const empty = (status: number) => new Response(null, { status });
  const text = (v: unknown, max: number, min = 1) => typeof v === 'string' && v.length >= min && v.length <= max;
  const collectionOut = (c: { collection: string; note?: string }) => (c.note === undefined ? { collection: c.collection } : { collection: c.collection, note: c.note });

  /** A folder body: 400 for a role or a parent that names no record (the CMS's foreign keys). */
  function folderProblem(b: Row, whole: boolean): boolean {
    if (whole ? !text(b.name, 60) : b.name !== undefined && !text(b.name, 60)) return true;
    if ((whole && !roleOptional) || b.role !== undefined) if (typeof b.role !== 'string' || !server.roles.has(b.role)) return true;
    return b.parent !== undefined && b.parent !== null && (typeof b.parent !== 'string' || !server.folders.has(b.parent));
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const method = request.method;
    let b: Row | undefined;
    if (/^application\/json\b/.test(request.headers.get('content-type') ?? '')) {
      try {
        const parsed = JSON.parse(await request.text());
        b = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
      } catch {
        return empty(400);
      }
    }
    server.calls.push({ method, path: `${url.pathname}${url.search}`, ...(b ? { body: b } : {}) });
    const needBody = method === 'POST' || method === 'PATCH';
    if (needBody && !b) return empty(400);
    const [top, first, second] = parts;
    if (top === 'roles') {
      if (parts.length === 1 && method === 'GET') {
        // Page numbers as Django REST framework's: a page past the last (or not a page number) is a 404.
        const page = Number(url.searchParams.get('page') ?? 1);
        const size = Number(url.searchParams.get('page_size') ?? 10);
        const all = [...server.roles.values()];
        if (!Number.isInteger(page) || page < 1 || !Number.isInteger(size) || size < 1 || size > 50 || (page > 1 && (page - 1) * size >= all.length)) return empty(404);
        return json(200, all.slice((page - 1) * size, page * size));
      }
      if (parts.length === 1 && method === 'POST') {
        if (!text(b!.name, 60)) return empty(400);
        const made = { id: randomUUID(), name: b!.name };
        server.roles.set(made.id, made);
        return json(201, made);
      }
      const found = parts.length === 2 ? server.roles.get(first) : undefined;
      if (!found) return empty(404);
      if (method === 'GET') return json(200, found);
      if (method === 'DELETE') return server.roles.delete(first), empty(204);
      return empty(405);
    }
    if (top === 'folders') {
      if (parts.length === 1 && method === 'GET') {
        const fields = url.searchParams.get('fields');
        const sort = url.searchParams.get('sort');
        const wanted = fields === null ? FOLDER_FIELDS : fields.split(',');
        // The CMS refuses a field the collection does not have, in either parameter.
        if (wanted.some((f) => !FOLDER_FIELDS.includes(f)) || (sort !== null && !FOLDER_FIELDS.includes(sort.replace(/^-/, '')))) return empty(400);
        const byRole = url.searchParams.get('role');
        // django-filter's way: a reference to no record is refused.
        if (byRole !== null && (!UUID.test(byRole) || !server.roles.has(byRole))) return empty(400);
        const rows = [...server.folders.values()].filter((f) => byRole === null || f.role === byRole);
        // Asked for fewer fields, it still answers whole folders here: the document requires name and role.
        return json(200, rows);
      }
      if (parts.length === 1 && method === 'POST') {
        if (folderProblem(b!, true)) return empty(400);
        const made = { id: randomUUID(), name: b!.name, ...(b!.role === undefined ? {} : { role: b!.role }), parent: b!.parent ?? null };
        server.folders.set(made.id, made);
        return json(201, made);
      }
      const found = parts.length === 2 ? server.folders.get(first) : undefined;
      if (!found) return empty(404);
      if (method === 'GET') return json(200, found);
      if (method === 'DELETE') return server.folders.delete(first), empty(204);
      if (method === 'PATCH') {
        if (folderProblem(b!, false)) return empty(400);
        for (const name of ['name', 'role', 'parent']) if (b![name] !== undefined) found[name] = b![name];
        return json(200, found);
      }
      return empty(405);
    }
    if (top === 'collections') {
      if (parts.length === 1 && method === 'GET') return json(200, [...server.collections.values()].map(collectionOut));
      if (parts.length === 1 && method === 'POST') {
        if (typeof b!.collection !== 'string' || !NAME.test(b!.collection) || (b!.note !== undefined && !text(b!.note, 200, 0))) return empty(400);
        if (server.collections.has(b!.collection)) return empty(409);
        const made = { collection: b!.collection, ...(b!.note !== undefined ? { note: b!.note as string } : {}), fields: new Map(), items: new Map() };
        server.collections.set(made.collection, made);
        return json(201, collectionOut(made));
      }
      const found = parts.length === 2 ? server.collections.get(first) : undefined;
      if (!found) return empty(404);
      if (method === 'GET') return json(200, collectionOut(found));
      if (method === 'DELETE') return server.collections.delete(first), empty(204);
      return empty(405);
    }
    if (top === 'fields' && first !== undefined) {
      const owner = server.collections.get(first);
      if (!owner) return empty(404);
      if (parts.length === 2 && method === 'GET') {
        const sort = url.searchParams.get('sort');
        if (sort !== null && !['field', 'type'].includes(sort.replace(/^-/, ''))) return empty(400);
        return json(200, [...owner.fields.values()]);
      }
      if (parts.length === 2 && method === 'POST') {
        if (typeof b!.field !== 'string' || !NAME.test(b!.field) || !['string', 'integer', 'boolean'].includes(b!.type as string)) return empty(400);
        if (owner.fields.has(b!.field)) return empty(409);
        const made = { field: b!.field, type: b!.type };
        owner.fields.set(made.field, made);
        return json(201, made);
      }
      const found = parts.length === 3 ? owner.fields.get(second) : undefined;
      if (!found) return empty(404);
      if (method === 'GET') return json(200, found);
      if (method === 'DELETE') return owner.fields.delete(second), empty(204);
      return empty(405);
    }
    if (top === 'comments') {
      if (parts.length === 1 && method === 'POST') {
        const target = typeof b!.collection === 'string' ? server.collections.get(b!.collection) : undefined;
        if (!target || !text(b!.item, 100) || !text(b!.comment, 500)) return empty(400);
        // The action writes into the item it names: the CMS counts its comments.
        const item = target.items.get(b!.item as string);
        if (item) item.comments = Number(item.comments) + 1;
        const made = { id: randomUUID(), collection: b!.collection, item: b!.item, comment: b!.comment };
        server.comments.set(made.id, made);
        return json(201, made);
      }
      const found = parts.length === 2 ? server.comments.get(first) : undefined;
      if (!found) return empty(404);
      if (method === 'GET') return json(200, found);
      if (method === 'DELETE') return server.comments.delete(first), empty(204);
      return empty(405);
    }
    return empty(404);
  }

  return server;
}
