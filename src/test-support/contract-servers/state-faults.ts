/**
 * Implementations that break a promise of the Petstore document only after some sequence of
 * requests: thin wrappers of the mock, each with the check that must catch it and the length of
 * the shortest sequence that shows it. The fixed script of the suite passes every one; stateful
 * exploration must not.
 */
import type { Mock } from '../../mock/app.js';
import type { CheckId } from '../../contract/case.js';
import type { Handler } from './faults.js';

export interface StateFault {
  name: string;
  breaks: string;
  caughtBy: CheckId;
  /** The steps of the shortest sequence that shows it (the last one sees the broken promise). */
  shortest: number;
  wrap: (mock: Mock) => Handler;
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const petKey = (request: Request) => /^\/pets\/(\d+)$/.exec(new URL(request.url).pathname)?.[1];
const isPetList = (request: Request) => request.method === 'GET' && new URL(request.url).pathname === '/pets';

/** Deleted pets as they were just before their delete, by id. */
function remembersDeleted(mock: Mock) {
  const deleted = new Map<string, Json>();
  return {
    deleted,
    async fetch(request: Request): Promise<Response> {
      const key = petKey(request);
      if (request.method === 'DELETE' && key) {
        const before = await mock.app.fetch(new Request(request.url, { headers: request.headers }));
        const response = await mock.app.fetch(request);
        if (response.status < 300 && before.status === 200) deleted.set(key, await before.json());
        return response;
      }
      return mock.app.fetch(request);
    },
  };
}

export const STATE_FAULTS: StateFault[] = [
  {
    name: 'deleted-listed-by-status',
    breaks: 'a deleted pet is still listed in lists filtered by its status',
    caughtBy: 'use_after_delete',
    shortest: 3,
    wrap: (mock) => {
      const server = remembersDeleted(mock);
      return async (request) => {
        const url = new URL(request.url);
        const statuses = url.searchParams.getAll('status');
        if (!isPetList(request) || !statuses.length) return server.fetch(request);
        // The deleted pets stay in the status index: merged into the whole filtered list, which is then paged as the mock pages it.
        const limit = Number(url.searchParams.get('limit') ?? 20);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const all = new URL(url);
        all.searchParams.set('limit', '100');
        all.searchParams.set('offset', '0');
        const response = await server.fetch(new Request(all, request));
        if (response.status !== 200) return server.fetch(request);
        const categoryId = url.searchParams.get('categoryId');
        const ghosts = [...server.deleted.values()].filter((pet) => statuses.includes(pet.status) && (categoryId === null || String(pet.categoryId) === categoryId));
        const merged = [...((await response.json()) as Json[]), ...ghosts].sort((a, b) => a.id - b.id);
        const headers = new Headers({ 'Content-Type': 'application/json', 'X-Total-Count': String(merged.length) });
        return new Response(JSON.stringify(merged.slice(offset, offset + limit)), { status: 200, headers });
      };
    },
  },
  {
    name: 'deleted-back-after-create',
    breaks: 'a deleted pet reads 200 again after the next create of a pet',
    caughtBy: 'use_after_delete',
    shortest: 4,
    wrap: (mock) => {
      const server = remembersDeleted(mock);
      const back = new Set<string>();
      return async (request) => {
        const url = new URL(request.url);
        const response = await server.fetch(request);
        if (request.method === 'POST' && url.pathname === '/pets' && response.status < 300) for (const key of server.deleted.keys()) back.add(key);
        const key = petKey(request);
        if (request.method === 'GET' && key && back.has(key) && response.status === 404) {
          return new Response(JSON.stringify(server.deleted.get(key)), { status: 200, headers: { 'Content-Type': 'application/json' } });
        }
        return response;
      };
    },
  },
  {
    name: 'category-ignored-with-status',
    breaks: 'categoryId is ignored when status is given too (filters combine with AND)',
    caughtBy: 'filter_conformance',
    shortest: 2,
    wrap: (mock) => async (request) => {
      const url = new URL(request.url);
      if (isPetList(request) && url.searchParams.has('status')) url.searchParams.delete('categoryId');
      return mock.app.fetch(new Request(url, request));
    },
  },
];
