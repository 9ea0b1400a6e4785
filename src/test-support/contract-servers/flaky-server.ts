/**
 * A small books API whose server refuses a valid create once, then accepts the same request (a
 * lock held for a moment, a rate limit): a refusal that does not reproduce, which the suite must
 * report as flaky rather than as a failure. With `refuse: 'always'` it refuses every create, a
 * refusal that does; with `refuse: 'then-500'` the create sent again fails with a 500 (and the
 * ones after it are accepted).
 */
const book = { 'application/json': { schema: { $ref: '#/components/schemas/Book' } } };
const problem = { description: 'refused', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

export const FLAKY_BOOKS = {
  openapi: '3.0.3',
  info: { title: 'flaky books', version: '1' },
  components: {
    schemas: {
      Book: { type: 'object', required: ['title'], properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string', minLength: 1, maxLength: 80 } } },
      Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
  },
  paths: {
    '/books': {
      get: { operationId: 'listBooks', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Book' } } } } } } },
      post: { operationId: 'createBook', requestBody: { required: true, content: book }, responses: { '201': { description: 'created', content: book }, '400': problem } },
    },
    '/books/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { operationId: 'getBook', responses: { '200': { description: 'ok', content: book }, '404': problem } },
      delete: { operationId: 'deleteBook', responses: { '204': { description: 'gone' }, '404': problem } },
    },
  },
};

/** The server, in-process; `books` holds its records, `calls` every request as `METHOD /path body`. */
export function flakyServer({ refuse = 'once' }: { refuse?: 'once' | 'always' | 'then-500' } = {}) {
  const books = new Map<number, { id: number; title: string }>([[1, { id: 1, title: 'Dune' }]]);
  const calls: string[] = [];
  let next = 2;
  let refused = 0;
  const answer = (status: number, body?: unknown) =>
    body === undefined ? new Response(null, { status }) : new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const fetch = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const text = await request.text();
    calls.push(`${request.method} ${pathname} ${text}`.trim());
    if (pathname === '/books') {
      if (request.method === 'GET') return answer(200, [...books.values()]);
      if (!request.headers.get('content-type')?.startsWith('application/json')) return answer(400, { message: 'a JSON body is required' });
      const body = (() => {
        try {
          return JSON.parse(text) as { title?: unknown };
        } catch {
          return undefined;
        }
      })();
      if (typeof body?.title !== 'string' || body.title.length === 0 || body.title.length > 80) return answer(400, { message: 'title is required' });
      if (refuse === 'always' || refused++ === 0) return answer(400, { message: 'the shelf is being reorganised, try again' });
      if (refuse === 'then-500' && refused === 2) return new Response('upstream timed out', { status: 500 });
      const made = { id: next++, title: body.title };
      books.set(made.id, made);
      return answer(201, made);
    }
    const id = Number(/^\/books\/(\d+)$/.exec(pathname)?.[1]);
    if (!books.has(id)) return answer(404, { message: `no book ${pathname.slice(7)}` });
    if (request.method === 'GET') return answer(200, books.get(id));
    books.delete(id);
    return answer(204);
  };
  return { fetch, books, calls };
}
