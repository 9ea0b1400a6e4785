/**
 * A small books API whose `apiKey` scheme is named `Authorization` in a header (the shape of a
 * headless CMS's generated document), and an in-process server for it (the suite's `fetch`), with
 * one option per way a real server surprised a CI user: it wants `Bearer <token>` where the
 * document says the bare key; it answers every path 404, or the same HTML page, at a wrong base
 * URL; it refuses the DELETE of what the suite created; its create answers without the key.
 */
export const SHELF_TOKEN = 'shelf-key-1234';

const json = { 'application/json': { schema: { $ref: '#/components/schemas/Book' } } };
const problem = { description: 'refused', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

export const SHELF = {
  openapi: '3.0.3',
  info: { title: 'shelf', version: '1' },
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    schemas: {
      Book: {
        type: 'object',
        required: ['title'],
        properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string', minLength: 1, maxLength: 80 } },
      },
      Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
  },
  security: [{ key: [] }],
  paths: {
    '/books': {
      get: { operationId: 'listBooks', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Book' } } } } }, '401': problem } },
      post: {
        operationId: 'createBook',
        requestBody: { required: true, content: json },
        responses: { '201': { description: 'created', content: json }, '400': problem, '401': problem },
      },
    },
    '/books/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { operationId: 'getBook', responses: { '200': { description: 'ok', content: json }, '401': problem, '404': problem } },
      delete: { operationId: 'deleteBook', responses: { '204': { description: 'gone' }, '401': problem, '404': problem, '409': problem } },
    },
  },
};

export interface ShelfOptions {
  /** How the key must come: as it stands (what the document says) or after `Bearer ` (what the server reads). */
  auth?: 'raw' | 'bearer';
  /** A wrong base URL: every path answers 404, or the same HTML page with 200. */
  everything?: 'not-found' | 'page';
  /** Every DELETE is refused with 409: what the suite created stays. */
  refuseDelete?: boolean;
  /** A create stores its record and answers 201 without its id or a Location; the list shows only the books it had before (new ones await review). */
  createWithoutKey?: boolean;
}

/** The shelf's server, in-process; `books` holds its records, `calls` every request as `METHOD /path`. */
export function shelfServer(options: ShelfOptions = {}) {
  const books = new Map<number, { id: number; title: string }>([[1, { id: 1, title: 'Dune' }]]);
  const calls: string[] = [];
  let next = 2;
  const answer = (status: number, body?: unknown) =>
    body === undefined ? new Response(null, { status }) : new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const fetch = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    calls.push(`${request.method} ${pathname}`);
    if (options.everything === 'not-found') return answer(404, { message: 'Not Found' });
    if (options.everything === 'page') return new Response('<!doctype html><title>Welcome</title><p>Our shop', { status: 200, headers: { 'Content-Type': 'text/html' } });
    const wanted = options.auth === 'bearer' ? `Bearer ${SHELF_TOKEN}` : SHELF_TOKEN;
    if (request.headers.get('authorization') !== wanted) return answer(401, { message: 'Invalid user credentials.' });
    if (pathname === '/books') {
      if (request.method === 'GET') return answer(200, [...books.values()].filter((book) => !options.createWithoutKey || book.id === 1));
      if (request.method !== 'POST') return answer(405, { message: 'not allowed' });
      if (!request.headers.get('content-type')?.startsWith('application/json')) return answer(400, { message: 'a JSON body is required' });
      const body = (await request.json().catch(() => undefined)) as { title?: unknown } | undefined;
      if (typeof body?.title !== 'string' || body.title.length === 0 || body.title.length > 80) return answer(400, { message: 'title is required' });
      const book = { id: next++, title: body.title };
      books.set(book.id, book);
      return answer(201, options.createWithoutKey ? { title: book.title } : book);
    }
    const id = Number(/^\/books\/(\d+)$/.exec(pathname)?.[1]);
    if (!books.has(id)) return answer(404, { message: `no book ${pathname.slice(7)}` });
    if (request.method === 'GET') return answer(200, books.get(id));
    if (request.method === 'DELETE') {
      if (options.refuseDelete) return answer(409, { message: 'books are kept' });
      books.delete(id);
      return answer(204);
    }
    return answer(405, { message: 'not allowed' });
  };
  return { fetch, books, calls };
}
