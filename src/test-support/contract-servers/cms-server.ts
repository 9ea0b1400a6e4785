/**
 * A hand-written server for cms-api.yaml, of a headless CMS's shape: every record wrapped in
 * `{"data": ...}`, 403 for an id no record has, a text key the client chooses (optional in the
 * document, required here), item paths of collections ending with a slash, a role create that
 * takes an array and makes a role of each. `blankWithoutContentType` ignores a body sent without
 * `Content-Type` and makes a blank role, as the CMS does; `keylessAnswers` answers a role create
 * without the role's id (a broken server: the suite then has no key to use).
 */
export interface CmsRole {
  id: number;
  name: string | null;
  description: string | null;
}

export interface CmsCollection {
  collection: string;
  note: string | null;
  singleton: boolean;
}

export interface CmsServer {
  fetch: (request: Request) => Promise<Response>;
  roles: Map<number, CmsRole>;
  collections: Map<string, CmsCollection>;
  /** Every request's method and path, as received. */
  seen: string[];
  /** How many role creates carried an array. */
  arrayCreates: number;
  /** The `collection` key of every collection create whose body was a JSON object (undefined where it had none). */
  collectionKeys: unknown[];
}

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

export function cmsServer(options: { blankWithoutContentType?: boolean; keylessAnswers?: boolean } = {}): CmsServer {
  const roles = new Map<number, CmsRole>([[1, { id: 1, name: 'Administrator', description: 'theirs' }]]);
  const collections = new Map<string, CmsCollection>([['authors', { collection: 'authors', note: 'theirs', singleton: false }]]);
  let nextId = 2;
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const error = (status: number, message: string) => json(status, { errors: [{ message }] });
  const forbidden = () => error(403, "You don't have permission to access this.");
  const server: CmsServer = { fetch: handle, roles, collections, seen: [], arrayCreates: 0, collectionKeys: [] };

  /** The JSON body, `blank` when it came without Content-Type and the server ignores it, undefined when it is no JSON. */
  async function body(request: Request): Promise<unknown> {
    if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) return options.blankWithoutContentType ? 'blank' : undefined;
    try {
      return JSON.parse(await request.text());
    } catch {
      return undefined;
    }
  }

  const text = (value: unknown, max: number, min = 0) => typeof value === 'string' && value.length >= min && value.length <= max;
  const onlyKeys = (value: Record<string, unknown>, keys: string[]) => Object.keys(value).every((k) => keys.includes(k));
  const isObject = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === 'object' && !Array.isArray(value);
  const validRole = (value: unknown, create: boolean) =>
    isObject(value) && onlyKeys(value, ['name', 'description']) && (value.name === undefined ? !create : text(value.name, 60, 1)) && (value.description === undefined || text(value.description, 200));

  async function rolesPath(request: Request, url: URL): Promise<Response> {
    if (request.method === 'GET') {
      const limit = url.searchParams.get('limit');
      const offset = url.searchParams.get('offset');
      const name = url.searchParams.get('name');
      if ((limit !== null && !/^\d+$/.test(limit)) || (offset !== null && !/^\d+$/.test(offset)) || Number(limit) > 100 || limit === '0' || (name !== null && name.length > 60)) return error(400, 'Invalid query.');
      const all = [...roles.values()].filter((r) => name === null || r.name === name);
      const start = Number(offset ?? 0);
      return json(200, { data: all.slice(start, limit === null ? undefined : start + Number(limit)) });
    }
    if (request.method !== 'POST') return error(405, 'Method not allowed.');
    const input = await body(request);
    if (input === 'blank') {
      const role = { id: nextId++, name: null, description: null };
      roles.set(role.id, role);
      return json(200, { data: role });
    }
    if (Array.isArray(input)) {
      if (input.length < 1 || input.length > 3 || !input.every((r) => validRole(r, true))) return error(400, 'Invalid payload.');
      server.arrayCreates++;
      const made = input.map((r: Record<string, unknown>) => ({ id: nextId++, name: r.name as string, description: (r.description as string | undefined) ?? null }));
      for (const role of made) roles.set(role.id, role);
      return json(200, { data: made });
    }
    if (!validRole(input, true)) return error(400, 'Invalid payload.');
    const r = input as Record<string, unknown>;
    const role = { id: nextId++, name: r.name as string, description: (r.description as string | undefined) ?? null };
    roles.set(role.id, role);
    return json(200, { data: options.keylessAnswers ? { name: role.name, description: role.description } : role });
  }

  async function rolePath(request: Request, raw: string): Promise<Response> {
    if (!/^\d+$/.test(raw) || Number(raw) < 1) return error(400, 'Invalid id.');
    const role = roles.get(Number(raw));
    if (!role) return forbidden();
    if (request.method === 'GET') return json(200, { data: role });
    if (request.method === 'DELETE') return roles.delete(role.id), new Response(null, { status: 204 });
    if (request.method !== 'PATCH') return error(405, 'Method not allowed.');
    const input = await body(request);
    if (!validRole(input, false)) return error(400, 'Invalid payload.');
    Object.assign(role, input);
    return json(200, { data: role });
  }

  async function collectionsPath(request: Request): Promise<Response> {
    if (request.method === 'GET') return json(200, { data: [...collections.values()] });
    if (request.method !== 'POST') return error(405, 'Method not allowed.');
    const input = await body(request);
    if (isObject(input)) server.collectionKeys.push(input.collection);
    if (!isObject(input) || !onlyKeys(input, ['collection', 'note', 'singleton'])) return error(400, 'Invalid payload.');
    // Optional in the document, required here (as the CMS does).
    if (typeof input.collection !== 'string') return error(400, '"collection" is required.');
    if (!NAME.test(input.collection) || (input.note !== undefined && !text(input.note, 100)) || (input.singleton !== undefined && typeof input.singleton !== 'boolean')) return error(400, 'Invalid payload.');
    if (collections.has(input.collection)) return error(400, `Collection "${input.collection}" already exists.`);
    const made = { collection: input.collection, note: (input.note as string | undefined) ?? null, singleton: (input.singleton as boolean | undefined) ?? false };
    collections.set(made.collection, made);
    return json(200, { data: made });
  }

  async function collectionPath(request: Request, name: string): Promise<Response> {
    const found = collections.get(name);
    if (!found) return forbidden();
    if (request.method === 'GET') return json(200, { data: found });
    if (request.method === 'DELETE') return collections.delete(name), new Response(null, { status: 204 });
    if (request.method !== 'PATCH') return error(405, 'Method not allowed.');
    const input = await body(request);
    if (!isObject(input) || !onlyKeys(input, ['note', 'singleton']) || (input.note !== undefined && !text(input.note, 100)) || (input.singleton !== undefined && typeof input.singleton !== 'boolean')) return error(400, 'Invalid payload.');
    Object.assign(found, input);
    return json(200, { data: found });
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    server.seen.push(`${request.method} ${path}${url.search}`);
    if (path === '/roles') return rolesPath(request, url);
    if (path === '/collections') return collectionsPath(request);
    const role = /^\/roles\/([^/]*)$/.exec(path);
    if (role) return rolePath(request, decodeURIComponent(role[1]));
    const collection = /^\/collections\/([^/]*)\/?$/.exec(path);
    if (collection) return collectionPath(request, decodeURIComponent(collection[1]));
    return forbidden();
  }

  return server;
}
