/**
 * Authors and their books, on a server without a foreign key that breaks on what it let happen:
 * it deletes an author whose books still point at it, and from then on every read of such a book
 * answers 500 (it joins the author and finds none), as does the DELETE of the book (a clean-up
 * request). The suite's own requests provoke the 5xx; it must report them, with the sequence.
 * With `crash: 'once'` only the first request to such a book fails (a cache warmed by the failure),
 * and the book reads and deletes normally after it.
 */
const problem = { description: 'refused', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const schemaOf = (name: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } });
const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }];

function collection(plural: string, name: string) {
  return {
    [`/${plural}`]: {
      get: { operationId: `list${name}s`, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${name}` } } } } } } },
      post: { operationId: `create${name}`, requestBody: { required: true, content: schemaOf(name) }, responses: { '201': { description: 'created', content: schemaOf(name) }, '400': problem, '422': problem } },
    },
    [`/${plural}/{id}`]: {
      parameters: id,
      get: { operationId: `get${name}`, responses: { '200': { description: 'ok', content: schemaOf(name) }, '404': problem } },
      delete: { operationId: `delete${name}`, responses: { '204': { description: 'gone' }, '404': problem } },
    },
  };
}

export const ORPHANS = {
  openapi: '3.0.3',
  info: { title: 'orphans', version: '1' },
  components: {
    schemas: {
      Author: { type: 'object', required: ['name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', minLength: 1, maxLength: 60 } } },
      Book: { type: 'object', required: ['title', 'authorId'], properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string', minLength: 1, maxLength: 60 }, authorId: { type: 'integer' } } },
      Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
  },
  paths: { ...collection('authors', 'Author'), ...collection('books', 'Book') },
};

type Row = { id: number } & Record<string, unknown>;

/** The server, in-process; `authors` and `books` hold its records, `calls` every request as `METHOD /path status`. */
export function orphansServer({ crash = 'always' }: { crash?: 'always' | 'once' } = {}) {
  const crashed = new Set<number>();
  const authors = new Map<number, Row>([[1, { id: 1, name: 'Le Guin' }]]);
  const books = new Map<number, Row>([[1, { id: 1, title: 'The Dispossessed', authorId: 1 }]]);
  const calls: string[] = [];
  let next = 100;
  const answer = (status: number, body?: unknown) =>
    body === undefined ? new Response(null, { status }) : new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const fail = () => new Response('Internal Server Error: author of book not found', { status: 500, headers: { 'Content-Type': 'text/plain' } });
  const handle = async (request: Request): Promise<Response> => {
    const [, plural, key] = new URL(request.url).pathname.split('/');
    const store = plural === 'authors' ? authors : plural === 'books' ? books : undefined;
    if (!store) return answer(404, { message: 'no such path' });
    if (key === undefined) {
      if (request.method === 'GET') return answer(200, [...store.values()]);
      if (!request.headers.get('content-type')?.startsWith('application/json')) return answer(400, { message: 'JSON only' });
      const body = (await request.json().catch(() => undefined)) as Record<string, unknown> | undefined;
      const text = (value: unknown) => typeof value === 'string' && value.length >= 1 && value.length <= 60;
      if (plural === 'authors' && !text(body?.name)) return answer(400, { message: 'name is required' });
      if (plural === 'books' && (!text(body?.title) || !Number.isInteger(body?.authorId))) return answer(400, { message: 'title and authorId are required' });
      if (plural === 'books' && !authors.has(body!.authorId as number)) return answer(422, { message: 'no such author' });
      const row = { ...body, id: next++ };
      store.set(row.id, row);
      return answer(201, row);
    }
    const row = store.get(Number(key));
    if (!/^\d+$/.test(key) || !row) return answer(404, { message: `no ${plural} ${key}` });
    const orphan = plural === 'books' && !authors.has(row.authorId as number);
    if (orphan && (crash === 'always' || !crashed.has(row.id))) {
      crashed.add(row.id);
      return fail();
    }
    if (request.method === 'GET') return answer(200, row);
    store.delete(row.id);
    return answer(204);
  };
  const fetch = async (request: Request): Promise<Response> => {
    const response = await handle(request);
    calls.push(`${request.method} ${new URL(request.url).pathname} ${response.status}`);
    return response;
  };
  return { fetch, authors, books, calls };
}
