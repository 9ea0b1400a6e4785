/**
 * Robustness, part 1: property-based tests drawn from spec/openapi.yaml with fast-check.
 *
 * The rule every property checks: a status below 500; every 4xx carries an `Error` body
 * (`code` and `message` non-empty, `status` equal to the HTTP status); the app keeps serving; and
 * the state changes only when the request was valid. Valid input is accepted, and the store stays
 * consistent after any sequence of operations.
 *
 * Seeded and bounded for the default run. `npm run fuzz` sets FUZZ_RUNS (about that many runs per
 * property, fewer for the expensive ones); FUZZ_SEED picks another seed. A failure prints the
 * seed, the path and the shrunk counterexample, so `fc.assert(..., { seed, path })` replays it.
 */
import { createFaker } from '../openapi/generate/create-faker.js';
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SchemaObject } from '../openapi/document/schema.js';
import { createGenerator } from '../openapi/generate/from-schema.js';
import type { Collection } from '../openapi/operations/collection.js';
import { mergedProperties } from '../openapi/operations/schema-properties.js';
import type { Operation } from '../openapi/operations/operation.js';
import { AUTH, petstore, petstoreDocument } from '../test-support/petstore.js';
import { createAjv } from '../openapi/validation/ajv-instance.js';
import { SchemaConverter } from '../openapi/validation/to-json-schema.js';

// ---------------------------------------------------------------------------------------------
// Settings

const FUZZ_RUNS = Number(process.env.FUZZ_RUNS) || 0;
const SEED = Number(process.env.FUZZ_SEED) || 20_260_901;
/** fast-check options: `base` runs by default; under FUZZ_RUNS, FUZZ_RUNS divided by the run's cost. */
const runs = (base: number, cost = 1): fc.Parameters<unknown> => ({
  seed: SEED,
  numRuns: FUZZ_RUNS ? Math.max(base, Math.round(FUZZ_RUNS / cost)) : base,
});
const TIMEOUT = FUZZ_RUNS ? 60 * 60_000 : 600_000;
/** Between the deprecation (2026-09-01) and the sunset (2027-06-30) of getPet, whatever today is. */
const NOW = new Date('2026-10-01T00:00:00Z');
const KEY = AUTH.Authorization.replace(/^Bearer /, '');
const AUTH_HEADER: [string, string] = ['Authorization', AUTH.Authorization];
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];
const MISSING_ID = 9_000_000_001;

// ---------------------------------------------------------------------------------------------
// Requests and answers

type Mock = Awaited<ReturnType<typeof petstore>>;
/** A body as sent; the two large ones are built at send time so a counterexample stays readable. */
type Payload = string | Uint8Array | { large: 'long-string' | 'deep-array' };

interface Req {
  method: string;
  /** Path and query string. */
  path: string;
  headers: Array<[string, string]>;
  body?: Payload;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

function materialise(body: Payload): Uint8Array {
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return new TextEncoder().encode(body);
  // Just over the 64 KiB limit, or a nesting far deeper than any schema.
  const text = body.large === 'long-string' ? `{"name":"${'x'.repeat(66_000)}"}` : '['.repeat(60_000);
  return new TextEncoder().encode(text);
}

/** Sends through Hono in process. String bodies go as bytes, so no Content-Type is added for us. */
async function send(mock: Mock, req: Req): Promise<Answer> {
  const headers = new Headers();
  for (const [name, value] of req.headers) headers.append(name, value);
  const withBody = req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
  const response = await mock.app.request(req.path, { method: req.method, headers, body: withBody ? materialise(req.body!) : undefined });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

function show(req: Req, answer: Answer): string {
  const body =
    req.body === undefined ? '' : typeof req.body === 'string' ? ` ${req.body.slice(0, 300)}` : req.body instanceof Uint8Array ? ` <${req.body.length} bytes>` : ` <${req.body.large}>`;
  return `${req.method} ${req.path} ${JSON.stringify(req.headers)}${body}\n  -> ${answer.status} ${answer.text.slice(0, 400)}`;
}

/** The rule for every answer: below 500, and a 4xx is an `Error` whose status is the HTTP status. */
function expectWellFormed(req: Req, answer: Answer): void {
  const where = show(req, answer);
  expect(answer.status, where).toBeLessThan(500);
  if (answer.status < 400 || req.method === 'HEAD') return;
  expect(answer.headers.get('content-type'), where).toMatch(/^application\/json\b/);
  expect(answer.json, where).toEqual(
    expect.objectContaining({ code: expect.stringMatching(/\S/), message: expect.stringMatching(/\S/), status: answer.status }),
  );
}


/** Every collection's records, as JSON: equal snapshots mean an unchanged store. */
const snapshot = (mock: Mock) => JSON.stringify(mock.collections.map(({ name }) => [name, [...mock.store.collection(name).all()]]));

/** The app still answers, and no body reached Object.prototype (`__proto__` keys are sent on purpose). */
async function expectStillServing(mock: Mock): Promise<void> {
  const req: Req = { method: 'GET', path: '/pets?limit=1', headers: [AUTH_HEADER] };
  const answer = await send(mock, req);
  expect(answer.status, show(req, answer)).toBe(200);
  expect(({} as Record<string, unknown>).polluted, 'Object.prototype was polluted').toBeUndefined();
}

/** A call through the API that must succeed; returns the body. */
async function succeed(mock: Mock, method: string, path: string, body?: unknown) {
  const answer = await mock.call(method, path, body);
  expect(answer.status, `${method} ${path} ${JSON.stringify(body)} -> ${answer.status} ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

// ---------------------------------------------------------------------------------------------
// The document: operations, schemas, validators, generated values

let operations: Operation[];
let collections: Collection[];
let bodyValidator: (op: Operation) => ValidateFunction;
/** The validator of an operation's response body for a status, if it declares one. */
let responseValidator: (op: Operation, status: number) => ValidateFunction | undefined;
let maxBodyBytes: number;
const faker = createFaker();
const generate = createGenerator(faker);
const fakerSeed = fc.integer({ min: 0, max: 2 ** 31 - 1 });

const bodySchema = (op: Operation): SchemaObject | undefined => op.requestBody?.content['application/json']?.schema;
const byId = (id: string) => operations.find((op) => op.id === id)!;
const successStatus = (op: Operation) => Math.min(...op.responses.map((r) => Number(r.status)).filter((s) => s >= 200 && s < 300));
const declaredStatuses = (op: Operation) => op.responses.map((r) => Number(r.status));
const collectionOf = (op: Operation) => collections.find((c) => c.itemPath === op.path || c.path === op.path);
const keysOf = (mock: Mock, name: string): number[] => {
  const state = mock.store.collection(name);
  return [...state.all()].map((record) => record[state.collection.keyProperty] as number);
};

/** Required properties, including those of `allOf` parts. */
function requiredOf(schema: SchemaObject): string[] {
  return [...new Set([...(schema.required ?? []), ...(schema.allOf ?? []).flatMap(requiredOf)])];
}

/** Query parameters with generated values (some left out), serialised form-exploded. Uses the seeded faker. */
function validQuery(op: Operation): string {
  const parts: string[] = [];
  for (const parameter of op.parameters.filter((p) => p.in === 'query')) {
    if (faker.datatype.boolean()) continue;
    const value = generate(parameter.schema, { propertyName: parameter.name });
    for (const item of Array.isArray(value) ? value : [value]) parts.push(`${parameter.name}=${encodeURIComponent(String(item))}`);
  }
  return parts.join('&');
}

/** A category of the mock's store (the first one), for the pets the tests create. */
const someCategory = (mock: Mock): number => Math.min(...keysOf(mock, 'categories'));

/** A pet created through the API, available, with `quantity` in stock. */
async function stockedPet(mock: Mock, quantity: number): Promise<number> {
  const pet = await succeed(mock, 'POST', '/pets', { name: 'Stocked', categoryId: someCategory(mock) });
  await succeed(mock, 'PUT', `/store/inventory/${pet.id}`, { quantity });
  return pet.id;
}

/**
 * A request that both the document and the business rules accept, against the mock's current
 * state: references point at existing records, and what a rule needs (an unused category, a pet
 * with stock, an open order) is created through the API first.
 */
async function validRequest(mock: Mock, op: Operation, seed: number): Promise<Req & { sent?: Record<string, unknown> }> {
  faker.seed(seed);
  const schema = bodySchema(op);
  const body = schema ? (generate(schema) as Record<string, unknown>) : undefined;
  if (body && 'categoryId' in body) body.categoryId = faker.helpers.arrayElement(keysOf(mock, 'categories'));
  const query = validQuery(op);
  const collection = collectionOf(op);
  let key: unknown = collection && op.path === collection.itemPath ? faker.helpers.arrayElement(keysOf(mock, collection.name)) : undefined;
  switch (op.id) {
    case 'deletePet':
      key = (await succeed(mock, 'POST', '/pets', { name: 'Unordered', categoryId: someCategory(mock) })).id;
      break;
    case 'deleteCategory':
      key = (await succeed(mock, 'POST', '/categories', { name: 'Unused' })).id;
      break;
    case 'placeOrder':
      body!.petId = await stockedPet(mock, Number(body!.quantity));
      break;
    case 'updateOrder':
      key = (await succeed(mock, 'POST', '/store/orders', { petId: await stockedPet(mock, 1), quantity: 1 })).id;
      break;
  }
  const path = op.path.replace(/\{[^}]+\}/g, String(key)) + (query ? `?${query}` : '');
  return body
    ? { method: op.method.toUpperCase(), path, headers: [AUTH_HEADER, JSON_TYPE], body: JSON.stringify(body), sent: body }
    : { method: op.method.toUpperCase(), path, headers: [AUTH_HEADER] };
}

// ---------------------------------------------------------------------------------------------
// Arbitraries: junk for every part of a request

const TOKEN_CHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split('');
/** Any byte a header value may hold (no NUL, CR or LF; leading and trailing blanks are trimmed by Headers). */
const headerChar = fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c));
const headerValue = fc.oneof(
  fc.string({ unit: headerChar, maxLength: 40 }),
  fc.constantFrom('', '0', '-1', '99999999999', 'application/json', 'gzip', 'chunked', '100-continue', 'bytes=0-1', '*', 'null'),
);
const headerName = fc.oneof(
  fc.constantFrom(
    'Content-Type', 'Content-Length', 'Content-Encoding', 'Accept', 'Accept-Charset', 'Accept-Encoding', 'Cookie', 'Host',
    'Expect', 'If-None-Match', 'If-Match', 'Range', 'Origin', 'Prefer', 'Transfer-Encoding', 'X-HTTP-Method-Override',
    'X-Forwarded-For', 'X-Request-Id', 'Deprecation', 'Idempotency-Key',
  ),
  fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 16 }),
);
const randomHeaders = fc.array(fc.tuple(headerName, headerValue), { maxLength: 5 });

const GARBAGE_SEGMENTS = [
  '', '0', '-1', '+1', '01', '1.0', '1.5', '1e3', ' 1', '0x10', 'NaN', 'Infinity', 'true', 'null', 'undefined', '__proto__',
  'constructor', '9007199254740991', '9007199254740992', '99999999999999999999999', '%', '%zz', '%00', '%E2%82', '%C0%AF',
  '%FF', '..', '.', '%2F', '%2e%2e', '[]', '{}', '%7B%7D', '1;x=2', '1,2', '1%2C2',
];
/** A path parameter: mostly an id that may exist, else garbage. */
const pathParam = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 25 }).map(String) },
  { weight: 2, arbitrary: fc.constantFrom(...GARBAGE_SEGMENTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) },
);
const pathSuffix = fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('/', '/x', '/..', '//', '/%2F', '#frag') });

const queryKey = fc.oneof(
  fc.constantFrom('limit', 'offset', 'id', 'status', 'categoryId', 'complete', 'petId', 'tag', 'access_token', '__proto__', 'constructor', 'limit[]', 'status[0]', ''),
  fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent),
);
const queryValue = fc.oneof(
  fc.integer({ min: -5, max: 200 }).map(String),
  fc.constantFrom(
    '', '0', '1', '100', '101', '1000000', '1000001', '2147483648', '-1', '1.5', '1e2', '9007199254740992', 'available', 'pending',
    'sold', 'placed', 'completed', 'cancelled', 'Available', '%', '%zz', '%00', 'a,b', '1,2', 'true', 'false', 'TRUE', 'null', '[]', '%5B%5D',
  ),
  fc.string({ unit: 'grapheme', maxLength: 10 }).map(encodeURIComponent),
);
const junkQuery = fc
  .array(fc.tuple(queryKey, fc.option(queryValue, { nil: undefined })), { maxLength: 5 })
  .map((pairs) => pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&'));

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'APPLICATION/JSON', 'application/json; charset=latin1',
      'application/json; charset="utf-8"', 'application/json; charset', 'application/json;;', 'application/merge-patch+json',
      'application/problem+json', 'text/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
      '*/*', 'application/*', 'application', '/', ';', '',
    ),
  },
  { weight: 1, arbitrary: headerValue },
);

/** Any body: valid for the operation (or for another), arbitrary JSON, raw bytes, broken or hostile text. */
const anyBody = (op: Operation): fc.Arbitrary<Payload | undefined> => {
  const schema = bodySchema(op) ?? bodySchema(byId('createPet'))!;
  return fc.oneof(
    fc.constant(undefined),
    fakerSeed.map((seed) => {
      faker.seed(seed);
      return JSON.stringify(generate(schema));
    }),
    fc.json({ maxDepth: 3 }),
    fc.uint8Array({ maxLength: 64 }),
    fc.constantFrom<Payload>(
      '', ' ', '{', '{"name":', 'null', '[]', '"x"', '0', '\uFEFF{"name":"x"}', '{"name":"x"}garbage', '{"name":"x","name":7}',
      '{"__proto__":{"polluted":1},"name":"x"}', '{"constructor":{"prototype":{"polluted":1}},"name":"x"}', '{"name":"\\ud800"}',
      `${'['.repeat(70)}${']'.repeat(70)}`, new Uint8Array([0xc3, 0x28]), new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
      { large: 'long-string' }, { large: 'deep-array' },
    ),
  );
};

/** Any request to an operation: its method (or another), junk path parameters, query, headers and body. */
const anyRequest = (ops: Operation[]) =>
  fc.constantFrom(...ops.map((op) => op.id)).chain((id) => {
    const op = byId(id);
    return fc
      .record({
        method: fc.oneof(
          { weight: 6, arbitrary: fc.constant(op.method.toUpperCase()) },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'FOO') },
        ),
        params: fc.array(pathParam, { minLength: 3, maxLength: 3 }),
        suffix: pathSuffix,
        query: fc.oneof(fc.constant(''), junkQuery),
        authenticated: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        type: fc.option(contentType, { nil: undefined, freq: 8 }),
        headers: randomHeaders,
        body: anyBody(op),
      })
      .map(({ method, params, suffix, query, authenticated, type, headers, body }): Req => {
        let i = 0;
        const path = op.path.replace(/\{[^}]+\}/g, () => params[i++]) + suffix + (query ? `?${query}` : '');
        const typeHeader: Array<[string, string]> = type === undefined || body === undefined ? [] : [['Content-Type', type]];
        return { method, path, headers: [...(authenticated ? [AUTH_HEADER] : []), ...typeHeader, ...headers], body };
      });
  });

/** Authorization values that must not open the API (the key is only `Bearer petstore-demo-key`). */
const base64 = (text: string) => Buffer.from(text).toString('base64');
const wrongAuthorization = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    'Bearer', 'Bearer ', `Bearer ${KEY.slice(0, -1)}`, `Bearer ${KEY}2`, `Bearer ${KEY.toUpperCase()}`, `Bearer "${KEY}"`,
    `Bearer ${KEY} ${KEY}`, `Bearer ${KEY}, Bearer ${KEY}`, `Bearer\t${KEY}`, `Bearer=${KEY}`, `Bearer:${KEY}`, `Bearer${KEY}`,
    `Bearer ${base64(KEY)}`, `Bearer ${encodeURIComponent(KEY).replace(/-/g, '%2D')}`, `Basic ${base64(`${KEY}:`)}`,
    `Basic ${base64(`:${KEY}`)}`, `Basic ${base64(`${KEY}:${KEY}`)}`, `Token ${KEY}`, `Digest ${KEY}`, `OAuth ${KEY}`, KEY,
  ),
  headerValue.filter((v) => !v.toLowerCase().includes(KEY)),
  headerValue.filter((v) => !v.toLowerCase().includes(KEY)).map((v) => `Bearer ${v}`),
);
/** The key where the API does not read it: other headers, cookies. */
const smuggledKey = fc.subarray<[string, string]>([
  ['X-API-Key', KEY], ['Api-Key', KEY], ['Cookie', `access_token=${KEY}; token=${KEY}`], ['Proxy-Authorization', AUTH.Authorization],
  ['X-Authorization', AUTH.Authorization], ['Authentication', AUTH.Authorization],
]);

// ---------------------------------------------------------------------------------------------
// Breaking one constraint of a body schema at a time

/** One constraint broken: `value` replaces the property at `path` (the whole body for `[]`), or removes it. */
interface Breakage {
  label: string;
  path: string[];
  value?: unknown;
  remove?: true;
}

function apply(body: Record<string, unknown>, breakage: Breakage): unknown {
  if (breakage.path.length === 0) return breakage.value;
  const copy = structuredClone(body);
  let target = copy;
  for (const name of breakage.path.slice(0, -1)) target = (target[name] ??= {}) as Record<string, unknown>;
  const last = breakage.path.at(-1)!;
  if (breakage.remove) delete target[last];
  else target[last] = breakage.value;
  return copy;
}

const TYPE_SAMPLES: unknown[] = ['x', 7, 1.5, true, null, {}, []];
function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number';
    case 'array': return Array.isArray(value);
    case 'object': return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null': return value === null;
    default: return typeof value === type;
  }
}

/** Values that break one constraint of a (property) schema each. */
function violations(schema: SchemaObject): Array<{ label: string; value: unknown }> {
  const out: Array<{ label: string; value: unknown }> = [];
  if (typeof schema.type === 'string') {
    for (const sample of TYPE_SAMPLES) {
      if (!hasType(sample, schema.type)) out.push({ label: `not ${schema.type}: ${JSON.stringify(sample)}`, value: sample });
    }
  }
  if (Array.isArray(schema.enum)) out.push({ label: 'out of the enum', value: `not-${String(schema.enum[0])}` });
  if (typeof schema.maximum === 'number') out.push({ label: 'above the maximum', value: schema.maximum + 1 });
  if (typeof schema.minimum === 'number') out.push({ label: 'below the minimum', value: schema.minimum - 1 });
  if (typeof schema.maxLength === 'number') {
    const prefix = schema.format === 'uri' ? 'https://example.com/' : '';
    out.push({ label: 'over maxLength', value: prefix + 'x'.repeat(schema.maxLength + 1 - prefix.length) });
  }
  if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push({ label: 'under minLength', value: 'x'.repeat(schema.minLength - 1) });
  if (schema.format === 'uri') out.push({ label: 'not a URI', value: 'not a uri' });
  if (schema.format === 'date-time') out.push({ label: 'not a date-time', value: 'next tuesday' });
  if (schema.type === 'array' && schema.items) {
    if (typeof schema.maxItems === 'number') {
      faker.seed(schema.maxItems);
      out.push({ label: 'over maxItems', value: Array.from({ length: schema.maxItems + 1 }, () => generate(schema.items!)) });
    }
    for (const item of violations(schema.items)) out.push({ label: `an item ${item.label}`, value: [item.value] });
  }
  return out;
}

/** Every single-constraint violation of a body schema: missing required fields, wrong top-level type, each property broken. */
function breakagesOf(schema: SchemaObject): Breakage[] {
  const out: Breakage[] = requiredOf(schema).map((name) => ({ label: `without ${name}`, path: [name], remove: true as const }));
  if (typeof schema.minProperties === 'number') out.push({ label: 'fewer properties than minProperties', path: [], value: {} });
  for (const value of ['x', 7, true, null, [], [{}]]) out.push({ label: `the body is ${JSON.stringify(value)}`, path: [], value });
  for (const [name, property] of Object.entries(mergedProperties(schema))) {
    for (const { label, value } of violations(property)) out.push({ label: `${name} ${label}`, path: [name], value });
  }
  return out;
}

/** Arbitrary JSON at the top, or in one declared property. */
const arbitraryJsonBreakage = (op: Operation) =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((value): Breakage => ({ label: 'arbitrary JSON', path: [], value })),
    fc
      .tuple(fc.constantFrom(...Object.keys(mergedProperties(bodySchema(op)!))), fc.jsonValue({ maxDepth: 2 }))
      .map(([name, value]): Breakage => ({ label: `arbitrary JSON in ${name}`, path: [name], value })),
  );

// ---------------------------------------------------------------------------------------------
// Sequences of operations (model-based)

type Target = { pick: number } | { missing: true };
type Step =
  | { do: 'createPet'; category?: Target }
  | { do: 'patchPetCategory'; pet: number; category: Target }
  | { do: 'patchPetStatus'; pet: number; status: 'available' | 'pending' | 'sold' }
  | { do: 'deletePet'; pet: number }
  | { do: 'createCategory' }
  | { do: 'deleteCategory'; category: number }
  | { do: 'setStock'; pet: number; quantity: number }
  | { do: 'placeOrder'; pet: Target; quantity: number | 'all' }
  | { do: 'updateOrder'; order: number; complete: boolean }
  | { do: 'deleteOrder'; order: number };

/** Which record: an index counted from the newest (often the newest), so steps keep meeting the records they made. */
const recent = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.nat({ max: 5 }) });
const pickOrMissing: fc.Arbitrary<Target> = fc.oneof(
  { weight: 5, arbitrary: recent.map((pick) => ({ pick })) },
  { weight: 1, arbitrary: fc.constant({ missing: true as const }) },
);
/** Steps weighted towards stock and orders, where the rules interact. A createPet without a category is refused (categoryId is required). */
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ do: fc.constant('createPet' as const), category: fc.option(pickOrMissing, { nil: undefined, freq: 8 }) }, { requiredKeys: ['do'] }) },
  { weight: 1, arbitrary: fc.record({ do: fc.constant('patchPetCategory' as const), pet: recent, category: pickOrMissing }) },
  { weight: 1, arbitrary: fc.record({ do: fc.constant('patchPetStatus' as const), pet: recent, status: fc.constantFrom('available' as const, 'pending' as const, 'sold' as const) }) },
  { weight: 1, arbitrary: fc.record({ do: fc.constant('deletePet' as const), pet: recent }) },
  { weight: 1, arbitrary: fc.record({ do: fc.constant('createCategory' as const) }) },
  { weight: 1, arbitrary: fc.record({ do: fc.constant('deleteCategory' as const), category: recent }) },
  { weight: 3, arbitrary: fc.record({ do: fc.constant('setStock' as const), pet: recent, quantity: fc.integer({ min: 0, max: 5 }) }) },
  { weight: 4, arbitrary: fc.record({ do: fc.constant('placeOrder' as const), pet: pickOrMissing, quantity: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant('all' as const)) }) },
  // Completing (mostly), or sending `complete: false` (a no-op on an open order, a refused reopening on a complete one).
  { weight: 3, arbitrary: fc.record({ do: fc.constant('updateOrder' as const), order: recent, complete: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) }) },
  // Deleting: cancels an open order, or removes a complete one.
  { weight: 2, arbitrary: fc.record({ do: fc.constant('deleteOrder' as const), order: recent }) },
);

/** The key of the n-th newest record, or an id no record has when the collection is empty. */
function nth(mock: Mock, collection: string, n: number): number {
  const keys = keysOf(mock, collection).sort((a, b) => a - b);
  return keys.length ? keys[keys.length - 1 - (n % keys.length)] : MISSING_ID;
}
const resolve = (mock: Mock, collection: string, pick: Target) => ('missing' in pick ? MISSING_ID : nth(mock, collection, pick.pick));

/** The request of one step, with the operation it calls. */
function requestOf(mock: Mock, s: Step): { op: string; method: string; path: string; body?: unknown } {
  switch (s.do) {
    case 'createPet':
      return { op: 'createPet', method: 'POST', path: '/pets', body: { name: 'Seq', ...(s.category && { categoryId: resolve(mock, 'categories', s.category) }) } };
    case 'patchPetCategory':
      return { op: 'updatePet', method: 'PATCH', path: `/pets/${nth(mock, 'pets', s.pet)}`, body: { categoryId: resolve(mock, 'categories', s.category) } };
    case 'patchPetStatus':
      return { op: 'updatePet', method: 'PATCH', path: `/pets/${nth(mock, 'pets', s.pet)}`, body: { status: s.status } };
    case 'deletePet':
      return { op: 'deletePet', method: 'DELETE', path: `/pets/${nth(mock, 'pets', s.pet)}` };
    case 'createCategory':
      return { op: 'createCategory', method: 'POST', path: '/categories', body: { name: 'Seq' } };
    case 'deleteCategory':
      return { op: 'deleteCategory', method: 'DELETE', path: `/categories/${nth(mock, 'categories', s.category)}` };
    case 'setStock':
      return { op: 'updateInventoryItem', method: 'PUT', path: `/store/inventory/${nth(mock, 'pets', s.pet)}`, body: { quantity: s.quantity } };
    case 'placeOrder': {
      const petId = resolve(mock, 'pets', s.pet);
      // 'all': the whole stock (within the schema's 1..100), to sell pets out.
      const stock = Number(mock.store.collection('inventory').get(petId)?.quantity ?? 0);
      return { op: 'placeOrder', method: 'POST', path: '/store/orders', body: { petId, quantity: s.quantity === 'all' ? Math.min(Math.max(stock, 1), 100) : s.quantity } };
    }
    case 'updateOrder':
      return { op: 'updateOrder', method: 'PATCH', path: `/store/orders/${nth(mock, 'orders', s.order)}`, body: { complete: s.complete } };
    case 'deleteOrder':
      return { op: 'deleteOrder', method: 'DELETE', path: `/store/orders/${nth(mock, 'orders', s.order)}` };
  }
}

/** An order is open until a client completes it (`complete: true`, final). */
const isOpen = (order: Record<string, unknown>) => order.complete !== true;

/**
 * The stock the rules promise, kept beside the mock: set by updateInventoryItem, minus a placed
 * order, plus a deleted open order (cancelling it), 0 for a new pet, gone with the pet. Completing
 * an order, or deleting a complete one, leaves it as it is.
 */
function expectedStock(before: Map<number, number>, s: Step, answer: Answer, ordersBefore: Map<number, Record<string, unknown>>, target: number): Map<number, number> {
  const stock = new Map(before);
  if (answer.status >= 300) return stock;
  const body = answer.json;
  if (s.do === 'createPet') stock.set(body.id, 0);
  if (s.do === 'deletePet') stock.delete(target);
  if (s.do === 'setStock') stock.set(target, s.quantity);
  if (s.do === 'placeOrder') stock.set(body.petId, stock.get(body.petId)! - body.quantity);
  const order = ordersBefore.get(target);
  if (s.do === 'deleteOrder' && order && isOpen(order)) {
    const petId = order.petId as number;
    stock.set(petId, (stock.get(petId) ?? 0) + Number(order.quantity));
  }
  return stock;
}

/**
 * The orders the rules promise, as id -> `complete`: a placed order starts open (false), a
 * successful updateOrder leaves it at the value sent (reopening is refused), a deleted order is
 * gone, and nothing else touches them (a pet is deleted only without open orders; its complete
 * orders stay).
 */
function expectedOrders(before: Map<number, boolean>, s: Step, answer: Answer, target: number): Map<number, boolean> {
  const orders = new Map(before);
  if (answer.status >= 300) return orders;
  if (s.do === 'placeOrder') orders.set(answer.json.id, false);
  if (s.do === 'updateOrder') orders.set(target, s.complete);
  if (s.do === 'deleteOrder') orders.delete(target);
  return orders;
}

/**
 * The answer the rules give the steps whose outcome the model decides, as [status, code]:
 * reopening a complete order is refused (409), sending the value an order already has is a
 * no-op (200); a pet with open orders cannot be deleted (409); a pet needs a category (400).
 * Undefined for the other steps.
 */
function expectedOutcome(s: Step, before: { pets: Map<number, Record<string, unknown>>; orders: Map<number, Record<string, unknown>> }, target: number): [number, string | undefined] | undefined {
  switch (s.do) {
    case 'createPet':
      return s.category === undefined ? [400, 'VALIDATION_FAILED'] : undefined;
    case 'updateOrder': {
      const order = before.orders.get(target);
      if (!order) return [404, 'NOT_FOUND'];
      return !isOpen(order) && !s.complete ? [409, 'ORDER_TRANSITION_NOT_ALLOWED'] : [200, undefined];
    }
    case 'deleteOrder':
      return before.orders.has(target) ? [204, undefined] : [404, 'NOT_FOUND'];
    case 'deletePet': {
      if (!before.pets.has(target)) return [404, 'NOT_FOUND'];
      const open = [...before.orders.values()].some((o) => o.petId === target && isOpen(o));
      return open ? [409, 'PET_HAS_OPEN_ORDERS'] : [204, undefined];
    }
    default:
      return undefined;
  }
}

/**
 * The status the document's table gives the pet a successful step touched, as [petId, status]:
 * pending when an order takes the last unit, sold when the last open order completes at stock 0,
 * available again (from pending or sold) when stock comes back (stock set above 0, an open order
 * cancelled), the status sent when it is set directly. Undefined when no rule applies.
 */
function expectedPetStatus(
  s: Step,
  answer: Answer,
  before: { pets: Map<number, Record<string, unknown>>; orders: Map<number, Record<string, unknown>> },
  stock: Map<number, number>,
  target: number,
): [number, unknown] | undefined {
  if (answer.status >= 300) return undefined;
  const was = (petId: number) => before.pets.get(petId)?.status;
  const reopened = (petId: number) => (was(petId) === 'pending' || was(petId) === 'sold' ? 'available' : was(petId));
  switch (s.do) {
    case 'createPet':
      return [answer.json.id, 'available'];
    case 'patchPetStatus':
      return [target, s.status];
    case 'placeOrder':
      return [answer.json.petId, stock.get(answer.json.petId) === 0 ? 'pending' : 'available'];
    case 'setStock':
      return [target, s.quantity > 0 ? reopened(target) : was(target)];
    case 'updateOrder':
    case 'deleteOrder': {
      const order = before.orders.get(target)!;
      const petId = order.petId as number;
      if (!before.pets.has(petId)) return undefined;
      if (!isOpen(order)) return [petId, was(petId)]; // a complete order: completing it again or deleting it moves nothing
      if (s.do === 'deleteOrder') return [petId, reopened(petId)]; // cancelling an open order
      if (!s.complete) return [petId, was(petId)]; // it stays open
      const otherOpen = [...before.orders.values()].some((o) => o.id !== target && o.petId === petId && isOpen(o));
      return [petId, stock.get(petId) === 0 && !otherOpen ? 'sold' : was(petId)];
    }
    default:
      return undefined;
  }
}

/** What must hold in the store after any step. `fromOrder`: orders from this id on were made through the API. */
function expectConsistentStore(mock: Mock, fromOrder: number, where: string): void {
  const pets = mock.store.collection('pets');
  const categories = mock.store.collection('categories');
  const inventory = mock.store.collection('inventory');
  for (const pet of pets.all()) {
    expect(categories.get(pet.categoryId), `${where}: pet ${pet.id} is in missing category ${pet.categoryId}`).toBeDefined();
    expect(inventory.get(pet.id), `${where}: pet ${pet.id} has no inventory item`).toBeDefined();
  }
  for (const item of inventory.all()) {
    const pet = pets.get(item.petId);
    expect(pet, `${where}: inventory item ${item.petId} has no pet`).toBeDefined();
    expect(Number.isInteger(item.quantity) && (item.quantity as number) >= 0, `${where}: stock of pet ${item.petId} is ${item.quantity}`).toBe(true);
    expect(item.status, `${where}: inventory item ${item.petId} shows status ${item.status}, its pet is ${pet?.status}`).toBe(pet?.status);
  }
  for (const order of mock.store.collection('orders').all()) {
    if (isOpen(order)) expect(pets.get(order.petId), `${where}: open order ${order.id} is for missing pet ${order.petId}`).toBeDefined();
    if ((order.id as number) >= fromOrder) {
      // exactly the fields of Order (no status of its own), `complete` a boolean set by the server
      expect(Object.keys(order).sort(), `${where}: order ${order.id} is ${JSON.stringify(order)}`).toEqual(['complete', 'id', 'petId', 'quantity', 'shipDate']);
      expect(typeof order.complete, `${where}: order ${order.id} has complete=${order.complete}`).toBe('boolean');
    }
  }
}

/** X-Total-Count of every list equals the store's count. */
async function expectTotalsMatchStore(mock: Mock): Promise<void> {
  for (const [path, collection] of [['/pets', 'pets'], ['/categories', 'categories'], ['/store/orders', 'orders'], ['/store/inventory', 'inventory']]) {
    const answer = await send(mock, { method: 'GET', path: `${path}?limit=1`, headers: [AUTH_HEADER] });
    expect(answer.status).toBe(200);
    expect(Number(answer.headers.get('x-total-count')), `X-Total-Count of ${path}`).toBe(mock.store.collection(collection).size);
  }
}

// ---------------------------------------------------------------------------------------------

describe('robustness properties (fast-check, from spec/openapi.yaml)', () => {
  let mock: Mock;
  let small: Mock;
  let bodyOps: Operation[];

  beforeAll(async () => {
    const document = await petstoreDocument();
    mock = await petstore({ now: () => NOW });
    small = await petstore({ now: () => NOW, counts: { default: 3 } });
    ({ operations, collections } = mock);
    bodyOps = operations.filter((op) => bodySchema(op));
    const ajv = createAjv(document.dialect);
    const converter = new SchemaConverter(document.api, ajv, document.dialect);
    const validators = new Map(bodyOps.map((op) => [op.id, ajv.compile(converter.convert(bodySchema(op), 'request') as SchemaObject)]));
    bodyValidator = (op) => validators.get(op.id)!;
    const responses = new Map<SchemaObject, ValidateFunction>();
    responseValidator = (op, status) => {
      const schema = op.responses.find((r) => r.status === String(status))?.content['application/json']?.schema;
      if (!schema) return undefined;
      if (!responses.has(schema)) responses.set(schema, ajv.compile(converter.convert(schema, 'response') as SchemaObject));
      return responses.get(schema);
    };
    maxBodyBytes = Number(document.api['x-max-body-bytes']);
  });

  /** Sends the request: a well-formed answer, nothing changed by a refusal, and the mock still serving. */
  const expectHarmlessAnswer = async (req: Parameters<typeof send>[1]) => {
    const before = snapshot(mock);
    const answer = await send(mock, req);
    expectWellFormed(req, answer);
    if (answer.status >= 400) expect(snapshot(mock), `state changed by a refused request: ${show(req, answer)}`).toBe(before);
    await expectStillServing(mock);
  };

  it('answers any request to any operation below 500, with an Error body on 4xx, no change on 4xx, and keeps serving', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(anyRequest(operations), async (req) => {
        mock.reset();
        await expectHarmlessAnswer(req);
      }),
      runs(600),
    );
  });

  it('refuses a body that breaks one constraint of its schema with 400 VALIDATION_FAILED, and changes nothing', { timeout: TIMEOUT }, async () => {
    const broken = fc.constantFrom(...bodyOps.map((op) => op.id)).chain((id) =>
      fc.record({
        op: fc.constant(id),
        seed: fakerSeed,
        breakage: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...breakagesOf(bodySchema(byId(id))!)) }, { weight: 1, arbitrary: arbitraryJsonBreakage(byId(id)) }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(broken, async ({ op: id, seed, breakage }) => {
        const op = byId(id);
        mock.reset();
        const valid = await validRequest(mock, op, seed);
        const body = apply(valid.sent!, breakage);
        const req = { ...valid, body: JSON.stringify(body) };
        const before = snapshot(mock);
        const answer = await send(mock, req);
        expectWellFormed(req, answer);
        if (breakage.label.startsWith('arbitrary JSON') && bodyValidator(op)(body)) return; // it happened to be valid
        expect(bodyValidator(op)(body), `the breakage "${breakage.label}" should break the schema`).toBe(false);
        expect([answer.status, answer.json?.code], `${breakage.label}: ${show(req, answer)}`).toEqual([400, 'VALIDATION_FAILED']);
        expect(snapshot(mock), `state changed: ${show(req, answer)}`).toBe(before);
      }),
      runs(300),
    );
  });

  it('never lets a request through without the bearer key, whatever the other headers (401, Error, challenge, no change)', { timeout: TIMEOUT }, async () => {
    const petstoreOps = operations; // every operation of the document requires the key
    const anonymous = fc.record({
      op: fc.constantFrom(...petstoreOps.map((op) => op.id)),
      seed: fakerSeed,
      authorization: wrongAuthorization,
      smuggled: smuggledKey,
      headers: randomHeaders.map((hs) => hs.filter(([name]) => name.toLowerCase() !== 'authorization')),
      keyInQuery: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(anonymous, async ({ op, seed, authorization, smuggled, headers, keyInQuery }) => {
        mock.reset();
        const valid = await validRequest(mock, byId(op), seed);
        const query = keyInQuery ? `${valid.path.includes('?') ? '&' : '?'}access_token=${KEY}&api_key=${KEY}` : '';
        const req: Req = {
          ...valid,
          path: valid.path + query,
          headers: [
            ...valid.headers.filter(([name]) => name !== 'Authorization'),
            ...(authorization === undefined ? [] : [['Authorization', authorization] as [string, string]]),
            ...smuggled,
            ...headers,
          ],
        };
        const before = snapshot(mock);
        const answer = await send(mock, req);
        expectWellFormed(req, answer);
        expect(snapshot(mock), `state changed: ${show(req, answer)}`).toBe(before);
        expect([answer.status, answer.json?.code], show(req, answer)).toEqual([401, 'UNAUTHORIZED']);
        expect(answer.headers.get('www-authenticate'), show(req, answer)).toMatch(/^Bearer realm="Petstore"/);
      }),
      runs(200),
    );
  });

  it('answers a valid request with random extra headers below 500, with an Error body and no change on 4xx', { timeout: TIMEOUT }, async () => {
    const withHeaders = fc.record({
      op: fc.constantFrom(...operations.map((op) => op.id)),
      seed: fakerSeed,
      headers: fc.array(fc.tuple(headerName, headerValue), { minLength: 1, maxLength: 8 }).map((hs) => hs.filter(([name]) => name.toLowerCase() !== 'authorization')),
    });
    await fc.assert(
      fc.asyncProperty(withHeaders, async ({ op, seed, headers }) => {
        mock.reset();
        const valid = await validRequest(mock, byId(op), seed);
        const req = { ...valid, headers: [...valid.headers, ...headers] };
        await expectHarmlessAnswer(req);
      }),
      runs(200),
    );
  });

  it('accepts valid input for every operation (2xx) where no business rule can refuse it', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...operations.map((op) => op.id)), fakerSeed, async (id, seed) => {
        const op = byId(id);
        mock.reset();
        const req = await validRequest(mock, op, seed);
        if (req.sent) expect(bodyValidator(op)(req.sent), `generated body ${req.body} is invalid: ${JSON.stringify(bodyValidator(op).errors)}`).toBe(true);
        const answer = await send(mock, req);
        expect(answer.status, show(req, answer)).toBe(successStatus(op));
        const conforms = responseValidator(op, answer.status);
        if (conforms) expect(conforms(answer.json), `${show(req, answer)}\n  breaks the response schema: ${JSON.stringify(conforms.errors)}`).toBe(true);
        if (req.sent && op.id !== 'placeOrder' && op.id !== 'updateOrder') expect(answer.json, show(req, answer)).toMatchObject(req.sent);
        if (answer.headers.has('x-total-count')) expect(answer.json.length, show(req, answer)).toBeLessThanOrEqual(Number(answer.headers.get('x-total-count')));
      }),
      runs(300),
    );
  });

  it('keeps the store consistent after any sequence of operations (totals, references, stock, orders)', { timeout: TIMEOUT }, async () => {
    const completeFlags = (mock: Mock) => new Map([...mock.store.collection('orders').all()].map((o) => [o.id as number, o.complete as boolean]));
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30, size: 'max' }), async (steps) => {
        small.reset();
        const fromOrder = Math.max(0, ...keysOf(small, 'orders')) + 1;
        let stock = new Map([...small.store.collection('inventory').all()].map((item) => [item.petId as number, item.quantity as number]));
        let orders = completeFlags(small);
        for (const [index, s] of steps.entries()) {
          const { op, method, path, body } = requestOf(small, s);
          const req: Req = { method, path, headers: body === undefined ? [AUTH_HEADER] : [AUTH_HEADER, JSON_TYPE], body: body === undefined ? undefined : JSON.stringify(body) };
          const ordersBefore = new Map([...small.store.collection('orders').all()].map((o) => [o.id as number, { ...o }]));
          const petsBefore = new Map([...small.store.collection('pets').all()].map((p) => [p.id as number, { ...p }]));
          const before = snapshot(small);
          const answer = await send(small, req);
          const where = `step ${index} ${show(req, answer)}`;
          expectWellFormed(req, answer);
          expect(declaredStatuses(byId(op)), `${where}: status not declared for ${op}`).toContain(answer.status);
          if (answer.status >= 400) expect(snapshot(small), `state changed: ${where}`).toBe(before);
          const target = Number(path.split('/').at(-1));
          const outcome = expectedOutcome(s, { pets: petsBefore, orders: ordersBefore }, target);
          if (outcome) expect([answer.status, answer.json?.code], `answer to ${where}`).toEqual(outcome);
          stock = expectedStock(stock, s, answer, ordersBefore, target);
          orders = expectedOrders(orders, s, answer, target);
          const status = expectedPetStatus(s, answer, { pets: petsBefore, orders: ordersBefore }, stock, target);
          if (status) expect(small.store.collection('pets').get(status[0])?.status, `status of pet ${status[0]} after ${where}`).toBe(status[1]);
          expectConsistentStore(small, fromOrder, where);
          const actual = new Map([...small.store.collection('inventory').all()].map((item) => [item.petId as number, item.quantity as number]));
          expect(actual, `stock after ${where}`).toEqual(stock);
          expect(completeFlags(small), `orders (id -> complete) after ${where}`).toEqual(orders);
        }
        await expectTotalsMatchStore(small);
      }),
      runs(150, 5),
    );
  });

  // Sends, among others, the fields of the record that its body schema does not declare: for
  // updateOrder `{"complete":true,"petId":424242,"quantity":100}` must not rewrite the order's pet or
  // quantity, and for updateInventoryItem a `status` must not change the item (it follows its pet).
  it('ignores body fields the operation does not declare: the answer and the store are as without them', { timeout: TIMEOUT }, async () => {
    const withExtras = fc.constantFrom(...bodyOps.map((op) => op.id)).chain((id) => {
      const op = byId(id);
      const declared = new Set(Object.keys(mergedProperties(bodySchema(op)!)));
      const recordFields = Object.keys(mergedProperties(collectionOf(op)!.schema)).filter((name) => !declared.has(name));
      // `tag` and `photoUrls`: fields a pet had in earlier versions of the document, now unknown.
      const names = fc.oneof(...[...recordFields, 'createdAt', 'owner', 'extra', 'tag', 'photoUrls'].map((name) => fc.constant(name)));
      return fc.record({ op: fc.constant(id), seed: fakerSeed, extras: fc.dictionary(names, fc.oneof(fc.integer({ min: 1, max: 100 }), fc.jsonValue({ maxDepth: 1 })), { minKeys: 1, maxKeys: 4 }) });
    });
    const withoutShipDate = (text: string): unknown => JSON.parse(text, (k, v) => (k === 'shipDate' ? undefined : v));
    await fc.assert(
      fc.asyncProperty(withExtras, async ({ op: id, seed, extras }) => {
        const op = byId(id);
        mock.reset();
        const plain = await validRequest(mock, op, seed);
        const expected = await send(mock, plain);
        const expectedState = snapshot(mock);
        mock.reset();
        const valid = await validRequest(mock, op, seed); // the same state and request again
        const req = { ...valid, body: JSON.stringify({ ...extras, ...valid.sent }) };
        const answer = await send(mock, req);
        expect([answer.status, withoutShipDate(answer.text)], show(req, answer)).toEqual([expected.status, withoutShipDate(expected.text)]);
        expect(withoutShipDate(snapshot(mock)), `the store differs from the same request without extra fields: ${show(req, answer)}`).toEqual(
          withoutShipDate(expectedState),
        );
      }),
      runs(100),
    );
  });
});
