/**
 * Deliberately broken implementations: thin wrappers around the mock, each breaking one thing,
 * each with the check that must catch it. The suite proves its strength by failing on every one
 * (and passing on the unbroken mock).
 */
import type { Mock } from '../../mock/app.js';
import type { CheckId } from '../../contract/case.js';

export type Handler = (request: Request) => Promise<Response>;

export interface Fault {
  name: string;
  breaks: string;
  caughtBy: CheckId;
  wrap: (mock: Mock) => Handler;
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A response with its JSON body edited (status and headers kept, unless changed). */
async function editJson(response: Response, edit: (body: Json) => Json, status = response.status): Promise<Response> {
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  if (!text) return new Response(null, { status, headers });
  return new Response(JSON.stringify(edit(JSON.parse(text))), { status, headers });
}

function withHeaders(response: Response, edit: (headers: Headers) => void, status = response.status): Response {
  const headers = new Headers(response.headers);
  edit(headers);
  return new Response(response.body, { status, headers });
}

const isPetPath = (request: Request) => /^\/pets(\/|$|\?)/.test(new URL(request.url).pathname);
const pets = (body: Json, edit: (pet: Json) => void) => {
  for (const pet of Array.isArray(body) ? body : [body]) if (pet && typeof pet === 'object' && 'name' in pet) edit(pet);
  return body;
};
/** Runs the mock, then edits pet bodies of successful pet responses. */
const editPets = (edit: (pet: Json) => void) => (mock: Mock): Handler => async (request) => {
  const response = await mock.app.fetch(request);
  return isPetPath(request) && response.status < 300 ? editJson(response, (body) => pets(body, edit)) : response;
};
/** Runs the mock on a request with some query parameters removed. */
const dropQuery = (names: string[]) => (mock: Mock): Handler => async (request) => {
  const url = new URL(request.url);
  if (request.method === 'GET') for (const name of names) url.searchParams.delete(name);
  return mock.app.fetch(new Request(url, request));
};
const error = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ code, message, status }), { status, headers: { 'Content-Type': 'application/json' } });

export const FAULTS: Fault[] = [
  {
    name: 'created-with-200',
    breaks: 'a create answers 200 instead of the documented 201',
    caughtBy: 'status_code_conformance',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      return response.status === 201 ? withHeaders(response, () => undefined, 200) : response;
    },
  },
  { name: 'pet-without-name', breaks: 'pets are sent without their required name', caughtBy: 'response_schema_conformance', wrap: editPets((pet) => delete pet.name) },
  { name: 'pet-id-as-string', breaks: 'pet ids are sent as strings', caughtBy: 'response_schema_conformance', wrap: editPets((pet) => (pet.id = String(pet.id))) },
  { name: 'status-outside-enum', breaks: 'pet status "lost", outside the enum', caughtBy: 'response_schema_conformance', wrap: editPets((pet) => (pet.status = 'lost')) },
  {
    name: 'error-shape-broken',
    breaks: 'errors are sent as {error: message}',
    caughtBy: 'error_shape',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      return response.status >= 400 ? editJson(response, (body) => ({ error: body.message })) : response;
    },
  },
  {
    name: 'error-status-mismatch',
    breaks: 'Error.status is always 400, whatever the HTTP status',
    caughtBy: 'error_shape',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      return response.status >= 400 ? editJson(response, (body) => ({ ...body, status: 400 })) : response;
    },
  },
  {
    name: 'auth-not-enforced',
    breaks: 'requests without a valid key are let through',
    caughtBy: 'auth_enforced',
    wrap: (mock) => async (request) => {
      const headers = new Headers(request.headers);
      headers.set('Authorization', 'Bearer petstore-demo-key');
      return mock.app.fetch(new Request(request, { headers }));
    },
  },
  {
    name: 'forbidden-for-no-credentials',
    breaks: 'missing or unknown credentials are answered 403, which the document does not declare, instead of its 401',
    caughtBy: 'auth_enforced',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      return response.status === 401 ? editJson(response, (body) => ({ ...body, status: 403 }), 403) : response;
    },
  },
  {
    name: 'invalid-input-accepted',
    breaks: 'invalid input is answered with success instead of 400',
    caughtBy: 'negative_data_rejection',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      return response.status === 400 ? new Response('{}', { status: request.method === 'POST' ? 201 : 200, headers: { 'Content-Type': 'application/json', Location: '/pets/1' } }) : response;
    },
  },
  {
    name: 'created-not-readable',
    breaks: 'a created record cannot be read back',
    caughtBy: 'create_read_back',
    wrap: (mock) => {
      const created = new Set<string>();
      return async (request) => {
        const path = new URL(request.url).pathname;
        if (request.method === 'GET' && created.has(path)) return error(404, 'NOT_FOUND', 'Not found.');
        const response = await mock.app.fetch(request);
        if (response.status === 201) created.add(response.headers.get('location') ?? '');
        return response;
      };
    },
  },
  {
    name: 'delete-does-not-delete',
    breaks: 'DELETE answers 204 and deletes nothing',
    caughtBy: 'use_after_delete',
    wrap: (mock) => async (request) => {
      if (request.method !== 'DELETE') return mock.app.fetch(request);
      const exists = (await mock.app.fetch(new Request(request.url, { headers: request.headers }))).status === 200;
      return exists ? new Response(null, { status: 204 }) : mock.app.fetch(request);
    },
  },
  {
    name: 'update-does-not-update',
    breaks: 'PUT and PATCH answer the update and store nothing',
    caughtBy: 'update_persists',
    wrap: (mock) => async (request) => {
      if (request.method !== 'PUT' && request.method !== 'PATCH') return mock.app.fetch(request);
      const body = await request.clone().text();
      const current = await mock.app.fetch(new Request(request.url, { headers: request.headers }));
      if (current.status !== 200) return mock.app.fetch(request);
      let merged: Json;
      try {
        merged = { ...((await current.json()) as Json), ...JSON.parse(body) };
      } catch {
        return mock.app.fetch(request);
      }
      return new Response(JSON.stringify(merged), { status: 200, headers: { 'Content-Type': 'application/json' } });
    },
  },
  { name: 'filter-ignored', breaks: 'list filters are ignored', caughtBy: 'filter_conformance', wrap: dropQuery(['status', 'categoryId', 'complete', 'petId']) },
  { name: 'offset-ignored', breaks: 'lists always return the first page', caughtBy: 'pagination_conformance', wrap: dropQuery(['offset']) },
  {
    name: 'deprecation-headers-missing',
    breaks: 'the deprecated operation sends no Deprecation, Sunset or Link',
    caughtBy: 'response_headers_conformance',
    wrap: (mock) => async (request) => withHeaders(await mock.app.fetch(request), (h) => ['Deprecation', 'Sunset', 'Link'].forEach((name) => h.delete(name))),
  },
  {
    name: 'location-missing',
    breaks: 'a 201 has no Location',
    caughtBy: 'response_headers_conformance',
    wrap: (mock) => async (request) => withHeaders(await mock.app.fetch(request), (h) => h.delete('Location')),
  },
  {
    name: 'wrong-content-type',
    breaks: 'JSON is sent as text/plain',
    caughtBy: 'content_type_conformance',
    wrap: (mock) => async (request) => withHeaders(await mock.app.fetch(request), (h) => h.get('content-type') && h.set('Content-Type', 'text/plain')),
  },
  {
    name: 'conflict-is-a-server-error',
    breaks: 'conflicts crash with 500',
    caughtBy: 'not_a_server_error',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      return response.status === 409 ? error(500, 'INTERNAL_ERROR', 'Something broke.') : response;
    },
  },
  {
    name: 'repeated-delete-succeeds',
    breaks: 'deleting a deleted record answers 204',
    caughtBy: 'repeated_delete',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      return request.method === 'DELETE' && response.status === 404 ? new Response(null, { status: 204 }) : response;
    },
  },
  {
    name: 'stock-not-taken',
    breaks: 'placing an order leaves the stock as it was',
    caughtBy: 'state_transitions',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      if (request.method === 'POST' && new URL(request.url).pathname === '/store/orders' && response.status === 201) {
        const order = await response.clone().json() as Json;
        const item = mock.store.collection('inventory').get(order.petId);
        if (item) mock.store.collection('inventory').update(order.petId, { quantity: Number(item.quantity) + Number(order.quantity) });
        mock.store.collection('pets').update(order.petId, { status: 'available' });
      }
      return response;
    },
  },
  {
    name: 'inventory-status-stale',
    breaks: "an inventory item keeps the status its pet had when it was created, instead of the pet's",
    caughtBy: 'state_transitions',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      const item = request.method === 'GET' && /^\/store\/inventory\/\d+$/.test(new URL(request.url).pathname) && response.status === 200;
      return item ? editJson(response, (body) => ({ ...body, status: 'available' })) : response;
    },
  },
  {
    name: 'create-ignores-body',
    breaks: 'a create stores and answers a name of its own instead of the one sent',
    caughtBy: 'create_read_back',
    wrap: (mock) => async (request) => {
      if (request.method !== 'POST' || new URL(request.url).pathname !== '/pets') return mock.app.fetch(request);
      const text = await request.text();
      let body: Json;
      try {
        body = JSON.parse(text);
      } catch {
        return mock.app.fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: text }));
      }
      const ignored = body && typeof body === 'object' && typeof body.name === 'string' ? JSON.stringify({ ...body, name: 'Ignored' }) : text;
      return mock.app.fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: ignored }));
    },
  },
  {
    name: 'location-elsewhere',
    breaks: 'the Location of a created pet points at another pet',
    caughtBy: 'create_read_back',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      return response.status === 201 && new URL(request.url).pathname === '/pets' ? withHeaders(response, (h) => h.set('Location', '/pets/1')) : response;
    },
  },
  {
    name: 'refused-delete-deletes',
    breaks: 'a DELETE of a pet that does not exist answers 404, and deletes the newest pet',
    caughtBy: 'unknown_resource',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      if (request.method === 'DELETE' && /^\/pets\/\d+$/.test(new URL(request.url).pathname) && response.status === 404) {
        const pets = mock.store.collection('pets');
        const newest = [...pets.all()].pop();
        if (newest) pets.delete(newest.id);
      }
      return response;
    },
  },
  {
    name: 'refused-update-applied',
    breaks: 'a PUT of a category refused with 400 still stores the fields that were valid',
    caughtBy: 'negative_data_rejection',
    wrap: (mock) => async (request) => {
      const match = /^\/categories\/(\d+)$/.exec(new URL(request.url).pathname);
      if (request.method !== 'PUT' || !match) return mock.app.fetch(request);
      const text = await request.text();
      const response = await mock.app.fetch(new Request(request.url, { method: 'PUT', headers: request.headers, body: text }));
      if (response.status === 400) {
        try {
          const body = JSON.parse(text ?? '');
          if (body && typeof body.description === 'string') mock.store.collection('categories').update(Number(match[1]), { description: body.description });
        } catch {
          // not JSON: nothing to apply
        }
      }
      return response;
    },
  },
  {
    name: 'page-size-crash',
    breaks: 'a page size past the largest the list allows crashes with 500',
    caughtBy: 'edge_cases',
    wrap: (mock) => async (request) => {
      const limit = Number(new URL(request.url).searchParams.get('limit'));
      return request.method === 'GET' && limit > 100 ? error(500, 'INTERNAL_ERROR', 'Something broke.') : mock.app.fetch(request);
    },
  },
  {
    name: 'category-in-use-deleted',
    breaks: 'a category that pets use can be deleted',
    caughtBy: 'referential_integrity',
    wrap: (mock) => async (request) => {
      const response = await mock.app.fetch(request);
      const inUse = request.method === 'DELETE' && /^\/categories\//.test(new URL(request.url).pathname) && response.status === 409;
      return inUse ? new Response(null, { status: 204 }) : response;
    },
  },
];
