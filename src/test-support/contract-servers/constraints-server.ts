/**
 * A server for constraints-api.yaml that holds rules its document does not state, as a database
 * does: `CHECK (priority BETWEEN 1 AND 3)` and unique slugs and author e-mails, each refused with
 * 422 and a message naming the field. A summary not given is stored as null (the document allows
 * it: nullable beside a oneOf). A DELETE answers with a body where the document declares none
 * (it promises nothing about it). `broken: true` breaks a promise: every summary answered is 42.
 * Written without the mock's code.
 */
type Row = Record<string, unknown>;

export interface ConstraintsServer {
  fetch: (request: Request) => Promise<Response>;
  articles: Row[];
  /** `PUT /articles/3 -> 200`, one per request; a refusal with its message: `POST /articles -> 422 slug must be unique`. */
  calls: string[];
}

const INPUT: Record<string, 'string' | 'integer'> = { title: 'string', slug: 'string', authorEmail: 'string', priority: 'integer' };
const LONGEST: Record<string, number> = { title: 80, slug: 60, summary: 200 };

export function constraintsServer(seed: Row[] = [], { broken = false } = {}): ConstraintsServer {
  const articles = structuredClone(seed);
  const calls: string[] = [];
  let lastId = Math.max(0, ...articles.map((a) => Number(a.id)));
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const error = (status: number, code: string, message: string) => json(status, { code, message });
  const shown = (row: Row) => (broken ? { ...row, summary: 42 } : row);

  /** What the framework's validation refuses (the document's schema, roughly), or undefined. */
  function invalid(body: unknown): string | undefined {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the body must be an object';
    const row = body as Row;
    for (const name of ['title', 'slug', 'priority']) if (row[name] === undefined) return `${name} is required`;
    for (const [name, type] of Object.entries(INPUT)) {
      const value = row[name];
      if (value !== undefined && (type === 'integer' ? !Number.isInteger(value) : typeof value !== 'string')) return `${name} must be ${type}`;
    }
    for (const [name, max] of Object.entries(LONGEST)) if (typeof row[name] === 'string' && ((row[name] as string).length > max || row[name] === '')) return `${name} must have 1 to ${max} characters`;
    const summary = row.summary;
    if (summary !== undefined && summary !== null && typeof summary !== 'string' && (typeof summary !== 'object' || typeof (summary as Row).text !== 'string')) return 'summary must be a string, an object with text, or null';
    return undefined;
  }

  /** What the database refuses, naming the field, or undefined. */
  function violation(row: Row, self?: Row): string | undefined {
    if (Number(row.priority) < 1 || Number(row.priority) > 3) return 'priority must be between 1 and 3';
    for (const name of ['slug', 'authorEmail']) {
      if (row[name] !== undefined && articles.some((a) => a !== self && a[name] === row[name])) return `${name} must be unique`;
    }
    return undefined;
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const writes = ['POST', 'PUT'].includes(request.method);
    if (writes && !/^application\/json\b/.test(request.headers.get('content-type') ?? '')) return error(415, 'UNSUPPORTED_MEDIA_TYPE', 'send application/json');
    const body = writes ? await request.json().catch(() => undefined) : undefined;
    if (url.pathname === '/articles') {
      if (request.method === 'GET') return json(200, articles.map(shown));
      if (request.method !== 'POST') return error(405, 'METHOD_NOT_ALLOWED', 'not allowed');
      const problem = invalid(body);
      if (problem) return error(400, 'INVALID', problem);
      const { title, slug, authorEmail, priority, summary = null } = body as Row;
      const row: Row = { id: lastId + 1, title, slug, ...(authorEmail === undefined ? {} : { authorEmail }), priority, summary };
      const refused = violation(row);
      if (refused) return error(422, 'CONSTRAINT', refused);
      lastId++;
      articles.push(row);
      return json(201, shown(row));
    }
    const match = /^\/articles\/(-?\d+)$/.exec(url.pathname);
    const index = match ? articles.findIndex((a) => a.id === Number(match[1])) : -1;
    if (index < 0) return error(404, 'NOT_FOUND', 'no such article');
    const row = articles[index];
    if (request.method === 'GET') return json(200, shown(row));
    if (request.method === 'DELETE') {
      articles.splice(index, 1);
      return json(200, { deleted: row.id });
    }
    if (request.method !== 'PUT') return error(405, 'METHOD_NOT_ALLOWED', 'not allowed');
    const problem = invalid(body);
    if (problem) return error(400, 'INVALID', problem);
    const { title, slug, authorEmail, priority, summary = null } = body as Row;
    const updated: Row = { id: row.id, title, slug, ...(authorEmail === undefined ? {} : { authorEmail }), priority, summary };
    const refused = violation(updated, row);
    if (refused) return error(422, 'CONSTRAINT', refused);
    articles[index] = updated;
    return json(200, shown(updated));
  }

  return {
    articles,
    calls,
    fetch: async (request) => {
      const response = await handle(request);
      const refused = response.status === 422 ? ` ${String(((await response.clone().json()) as Row).message)}` : '';
      calls.push(`${request.method} ${new URL(request.url).pathname} -> ${response.status}${refused}`);
      return response;
    },
  };
}
