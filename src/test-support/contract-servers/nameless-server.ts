/**
 * A server that breaks one promise everywhere: every record it answers with lacks its required
 * `name` (stored, never sent back), on several collections alike. Its findings are many and their
 * causes few, which is what the report's grouping by cause is for.
 */
const problem = { description: 'refused', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const item = { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } };

/** The document: one `/{name}` and `/{name}/{id}` pair per collection, all of the same `Item`. */
export function namelessDocument(collections: string[]) {
  const paths: Record<string, unknown> = {};
  for (const name of collections) {
    paths[`/${name}`] = {
      get: { operationId: `list_${name}`, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } } } } },
      post: { operationId: `create_${name}`, requestBody: { required: true, content: item }, responses: { '201': { description: 'created', content: item }, '400': problem } },
    };
    paths[`/${name}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { operationId: `get_${name}`, responses: { '200': { description: 'ok', content: item }, '404': problem } },
      put: { operationId: `replace_${name}`, requestBody: { required: true, content: item }, responses: { '200': { description: 'ok', content: item }, '400': problem, '404': problem } },
      delete: { operationId: `delete_${name}`, responses: { '204': { description: 'gone' }, '404': problem } },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'nameless', version: '1' },
    components: {
      schemas: {
        Item: { type: 'object', required: ['name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', minLength: 1, maxLength: 60 }, size: { type: 'integer', minimum: 1, maximum: 10 } } },
        Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
      },
    },
    paths,
  };
}

type Item = { id: number; name: string; size?: number };

/** The server, in-process: it keeps what it is sent and answers every record without `name`. */
export function namelessServer(collections: string[]) {
  const stores = new Map(collections.map((name) => [name, new Map<number, Item>()]));
  let next = 1;
  const answer = (status: number, body?: unknown) =>
    body === undefined ? new Response(null, { status }) : new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const shown = ({ name: _name, ...rest }: Item) => rest;
  const valid = (body: unknown): body is Item => {
    const b = body as Partial<Item> | undefined;
    return typeof b?.name === 'string' && b.name.length >= 1 && b.name.length <= 60 && (b.size === undefined || (Number.isInteger(b.size) && b.size >= 1 && b.size <= 10));
  };
  const fetch = async (request: Request): Promise<Response> => {
    const [, name, id] = new URL(request.url).pathname.split('/');
    const store = stores.get(name);
    if (!store) return answer(404, { message: 'no such path' });
    const read = async () => (request.headers.get('content-type')?.startsWith('application/json') ? request.json().catch(() => undefined) : undefined);
    if (id === undefined) {
      if (request.method === 'GET') return answer(200, [...store.values()].map(shown));
      const body = await read();
      if (!valid(body)) return answer(400, { message: 'not an item' });
      const made = { ...body, id: next++ };
      store.set(made.id, made);
      return answer(201, shown(made));
    }
    const record = store.get(Number(id));
    if (!/^\d+$/.test(id) || !record) return answer(404, { message: `no ${name} ${id}` });
    if (request.method === 'GET') return answer(200, shown(record));
    if (request.method === 'DELETE') {
      store.delete(record.id);
      return answer(204);
    }
    const body = await read();
    if (!valid(body)) return answer(400, { message: 'not an item' });
    const replaced = { ...body, id: record.id };
    store.set(record.id, replaced);
    return answer(200, shown(replaced));
  };
  return { fetch, stores };
}
