/**
 * A small notes API and an in-process server for it (the suite's `fetch`): notes 1 and 2 exist,
 * every request is written down with its credentials. For the unit tests of the contract
 * suite's parts (context, phases, checks).
 */
export const NOTES = {
  openapi: '3.0.3',
  info: { title: 'notes', version: '1' },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Note: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer' }, text: { type: 'string' } } },
      Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
  },
  security: [{ bearer: [] }],
  paths: {
    '/notes': {
      get: { operationId: 'listNotes', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Note' } } } } } } },
    },
    '/notes/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        operationId: 'getNote',
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
          '404': { description: 'none', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
      delete: { operationId: 'deleteNote', responses: { '204': { description: 'gone' }, '404': { description: 'none' } } },
    },
  },
};

/** A notes server, in-process; `answer` gives a note's body in place of its own. */
export function notesServer(answer: (id: number) => unknown = (id) => ({ id, text: `note ${id}` })) {
  const seen: string[] = [];
  const notes = new Set([1, 2]);
  const fetch = async (url: string, init: RequestInit = {}) => {
    const request = new Request(url, init);
    const { pathname } = new URL(request.url);
    seen.push(`${request.method} ${pathname} ${request.headers.get('authorization') ?? '-'}`);
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (pathname === '/notes') return json(200, [...notes].map(answer));
    const id = Number(/^\/notes\/(\d+)$/.exec(pathname)?.[1]);
    if (request.method === 'GET') return notes.has(id) ? json(200, answer(id)) : json(404, { message: `no note ${id}` });
    if (request.method === 'DELETE') return notes.delete(id) ? new Response(null, { status: 204 }) : json(404, { message: `no note ${id}` });
    return json(405, { message: `${request.method} is not allowed here` });
  };
  return { fetch, seen };
}
