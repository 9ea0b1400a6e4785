/**
 * The respond stage's parts built alone, from operations of a small inline document and the
 * validators wired as src/mock/app.ts wires them (no mock around them): error bodies shaped by the
 * declared error response, static answers from examples or the schema, the deprecation headers,
 * and the encoders of bodies that are not JSON.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, errors } from '../../core/api-error.js';
import type { DocumentObject } from '../../openapi/document/objects.js';
import type { SchemaObject } from '../../openapi/document/schema.js';
import { createFaker } from '../../openapi/generate/create-faker.js';
import { createGenerator } from '../../openapi/generate/from-schema.js';
import { buildOperations } from '../../openapi/operations/build-operations.js';
import { createAjv } from '../../openapi/validation/ajv-instance.js';
import { schemaCompiler } from '../../openapi/validation/compile-schema.js';
import { SchemaConverter } from '../../openapi/validation/to-json-schema.js';
import { bodyEncoders, encoderFor } from './body-encoders.js';
import { deprecationPolicy, parseDate } from './deprecation.js';
import { compileErrorResponder, fitStatus } from './error-response.js';
import { choose, representations, takesAny } from './negotiate.js';
import { createSelfCheck } from './self-check.js';
import { compileConformer, compileStaticAction, staticAnswers, staticResponse } from './static-response.js';
import type { Operation, ResponseSpec } from '../../openapi/operations/operation.js';
import type { ActionInput, ActionResult } from '../pipeline/exchange.js';

const NATIVE: SchemaObject = { type: 'object', required: ['code', 'message', 'status'], properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } };
const PROBLEM: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'title', 'status', 'detail'],
  properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } },
};
const THING: SchemaObject = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string', minLength: 1 } } };
const json = (schema: SchemaObject, extra: Record<string, unknown> = {}) => ({ content: { 'application/json': { schema, ...extra } } });

const DOCUMENT: DocumentObject = {
  openapi: '3.0.3',
  info: { title: 'Units', version: '1' },
  paths: {
    '/native': { get: { operationId: 'native', responses: { '200': { description: 'ok' }, '404': { description: 'Gone.', ...json(NATIVE) } } } },
    '/problem': { get: { operationId: 'problem', responses: { '200': { description: 'ok' }, '400': { description: 'Bad.', content: { 'application/problem+json': { schema: PROBLEM } } } } } },
    '/numeric': { get: { operationId: 'numeric', responses: { '200': { description: 'ok' }, default: { description: 'Error.', ...json({ type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } }) } } } },
    '/bare': { put: { operationId: 'bare', responses: { '200': { description: 'ok' }, '400': { description: 'Bad, no body.' }, '403': { description: 'Bad key.' }, '415': { description: 'Not JSON.' } } } },
    '/strict': { post: { operationId: 'strict', responses: { '201': { description: 'ok' }, '422': { description: 'Invalid.' } } } },
    '/example': { get: { operationId: 'example', responses: { '200': { description: 'ok', ...json(THING, { example: { id: 7, name: 'Rex' } }) } } } },
    '/named': { get: { operationId: 'named', responses: { '200': { description: 'ok', ...json(THING, { examples: { first: { value: { id: 1, name: 'One' } }, second: { value: { id: 2, name: 'Two' } } } }) } } } },
    '/bad-example': { get: { operationId: 'badExample', responses: { '200': { description: 'ok', ...json(THING, { example: { id: 0 } }) } } } },
    '/generated': { get: { operationId: 'generated', responses: { '2XX': { description: 'ok', headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer', minimum: 1, maximum: 9 } }, 'X-Optional': { schema: { type: 'string' } } }, ...json(THING) } } } },
    '/text': { get: { operationId: 'text', responses: { '200': { description: 'ok', content: { 'text/plain': { schema: { type: 'string', enum: ['ok'] } } } } } } },
    '/both': { get: { operationId: 'both', responses: { '200': { description: 'ok', content: { 'application/json': { schema: THING, example: { id: 7, name: 'Rex' } }, 'application/xml': { schema: THING } } } } } },
    '/xml': { get: { operationId: 'xml', responses: { '200': { description: 'ok', content: { 'application/xml': { schema: THING } } } } } },
    '/impossible': { get: { operationId: 'impossible', responses: { '200': { description: 'ok', ...json({ type: 'string', minLength: 5, maxLength: 2 }) } } } },
    '/none': { delete: { operationId: 'none', responses: { '404': { description: 'Gone.' } } } },
    '/old': { get: { operationId: 'old', deprecated: true, 'x-deprecated-at': '2026-01-01', 'x-sunset': '2027-06-30', externalDocs: { url: 'https://example.com/migrate' }, responses: { '200': { description: 'ok' } } } },
    '/closed': { post: { operationId: 'closed', responses: { '201': { description: 'ok' }, '400': { description: 'Bad.', ...json({ ...NATIVE, additionalProperties: false }) } } } },
    '/old-bare': { get: { operationId: 'oldBare', deprecated: true, 'x-sunset': 'not a date', responses: { '200': { description: 'ok' } } } },
    '/reflect/{thingId}': {
      post: {
        operationId: 'reflect',
        parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { Name: { type: 'string' }, Extra: { type: 'string' } } } } } },
        responses: { '200': { description: 'ok', ...json({ type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, thing_id: { type: 'integer', minimum: 1, maximum: 9 } } }) } },
      },
    },
    '/gone': { delete: { operationId: 'gone', responses: { '200': { description: 'Nothing to say.', ...json({ type: 'object', maxProperties: 0 }) } } } },
    '/confirm': { delete: { operationId: 'confirm', responses: { '200': { description: 'Deleted.', ...json({ type: 'object', required: ['deleted', 'id'], additionalProperties: false, properties: { deleted: { type: 'boolean', enum: [true] }, id: { type: 'integer', minimum: 1 } } }) } } } },
  },
};

// As src/mock/app.ts and src/mock/assembly/operation-pipelines.ts wire them: one Ajv, its converter, the response validators, a seeded generator.
const operations = buildOperations(DOCUMENT);
const ajv = createAjv('3.0');
const responseValidator = schemaCompiler(ajv, new SchemaConverter(DOCUMENT, ajv, '3.0'), 'response');
const faker = createFaker();
faker.seed(1);
const generate = createGenerator(faker);
const op = (id: string) => operations.find((operation) => operation.id === id)!;
const valid = (schema: SchemaObject, value: unknown) => responseValidator(schema)!(value);

/** An error answered through the operation's responder: status, Content-Type, WWW-Authenticate and the text of the body. */
async function answer(id: string, error: ApiError) {
  const response = compileErrorResponder(op(id), { generate, responseValidator })(error, { 'X-Extra': 'kept' });
  expect(response.headers.get('X-Extra')).toBe('kept'); // the caller's headers are always added
  return { status: response.status, type: response.headers.get('Content-Type'), challenge: response.headers.get('WWW-Authenticate'), text: await response.text() };
}

describe('compileErrorResponder', () => {
  it('shapes each error by what it carries: a schema that refuses `details` still gets a conforming body after an error without them', async () => {
    const closed = { ...NATIVE, additionalProperties: false };
    const respond = compileErrorResponder(op('closed'), { generate, responseValidator });
    const plain = await (respond(errors.invalidJson('unexpected end')) as Response).json();
    const detailed = await (respond(errors.validation([{ location: 'body', name: 'name', message: 'must be a string' } as never])) as Response).json();
    expect([valid(closed, plain), valid(closed, detailed)]).toEqual([true, true]);
  });

  it('sends the native Error where the declared schema accepts it; an undeclared 404 takes the nearest declared error (422 here, without a body)', async () => {
    const error = errors.notFound('thing', 'id 7');
    const { status, type, text } = await answer('native', error);
    expect([status, type, JSON.parse(text)]).toEqual([404, 'application/json', error.toBody()]);
    expect(await answer('strict', error)).toEqual({ status: 422, type: null, challenge: null, text: '' });
  });

  it("follows a document's own problem+json schema and media type, for the declared status and for a rule's status answered as it", async () => {
    const bad = await answer('problem', errors.validation([{ path: 'query.limit', rule: 'type', message: 'must be integer' }]));
    expect([bad.status, bad.type]).toEqual([400, 'application/problem+json']);
    const body: unknown = JSON.parse(bad.text);
    expect(body).toEqual({ type: 'about:blank', title: 'Validation failed', status: 400, detail: 'query.limit: must be integer' });
    expect(valid(PROBLEM, body)).toBe(true);
    // A rule's 409, which the operation does not declare, is answered as its 400, in its shape.
    const conflict = await answer('problem', new ApiError(409, 'DUPLICATE', 'That name is taken.'));
    expect([conflict.status, conflict.type, JSON.parse(conflict.text)]).toEqual([400, 'application/problem+json', { type: 'about:blank', title: 'Duplicate', status: 400, detail: 'That name is taken.' }]);
  });

  it('puts the status in a numeric code field where the schema wants an integer code', async () => {
    const { status, text } = await answer('numeric', errors.notFound('thing', 'id 7'));
    expect([status, JSON.parse(text)]).toEqual([404, { code: 404, message: 'No thing has id 7.' }]);
  });

  it('sends no body where the error is declared without content, at the status the operation declares for the failure', async () => {
    expect(await answer('bare', errors.missingBody())).toEqual({ status: 400, type: null, challenge: null, text: '' });
    expect(await answer('none', errors.notFound('thing', 'id 7'))).toEqual({ status: 404, type: null, challenge: null, text: '' });
    // Bad credentials where only 403 is declared: 403, without the 401's challenge.
    expect(await answer('bare', new ApiError(401, 'UNAUTHORIZED', 'No key.', undefined, { 'WWW-Authenticate': 'Bearer' }))).toMatchObject({ status: 403, challenge: null });
    // A wrong media type where 415 is declared, even though 400 is too.
    expect((await answer('bare', errors.invalidContentType('text/plain', ['application/json']))).status).toBe(415);
    // Bad input where 422 is declared and 400 is not.
    expect((await answer('strict', errors.missingBody())).status).toBe(422);
  });
});

describe('fitStatus: the status a failure is answered with, among those the operation declares', () => {
  /** An operation declaring these statuses, each with no body. */
  const declaring = (...statuses: string[]): Operation => ({ ...op('native'), responses: statuses.map((status) => ({ status, headers: {}, content: {} })) });
  const fit = (statuses: string[], error: ApiError) => {
    const fitted = fitStatus(declaring(...statuses), error);
    return { status: fitted.to(error).status, undeclared: fitted.undeclared, said: fitted.message !== undefined };
  };
  const unauthorized = new ApiError(401, 'UNAUTHORIZED', 'No key.', undefined, { 'WWW-Authenticate': 'Bearer' });

  it('keeps a status the operation covers, exactly, by its range or by default: nothing to say', () => {
    for (const statuses of [['200', '404'], ['200', '4XX'], ['200', 'default']]) expect(fit(statuses, errors.notFound('thing', 'id 7')), statuses.join()).toEqual({ status: 404, undeclared: false, said: false });
  });

  it('takes the declared status nearest in meaning, then a generic refusal of the same class, and says so', () => {
    expect(fit(['200', '400'], errors.notFound('thing', 'id 7'))).toEqual({ status: 400, undeclared: false, said: true });
    expect(fit(['200', '410', '400'], errors.notFound('thing', 'id 7')).status).toBe(410);
    expect(fit(['201', '422'], new ApiError(409, 'TAKEN', 'Taken.')).status).toBe(422);
    expect(fit(['201', '400'], errors.payloadTooLarge(10)).status).toBe(400);
    expect(fit(['201', '503'], new ApiError(507, 'STORAGE_FULL', 'Full.')).status).toBe(503);
    expect(fit(['200', '500'], new ApiError(503, 'PERSISTENCE_FAILED', 'Down.')).status).toBe(500);
    expect(fitStatus(declaring('200', '400'), errors.notFound('thing', 'id 7')).message).toBe('404 NOT_FOUND answered 400: GET /native declares no 404, and 400 is its nearest declared status.');
  });

  it('refuses credentials with 401 or 403 only: 403 without the challenge where only 403 is declared, else 401 undeclared', () => {
    const forbidden = fitStatus(declaring('200', '403'), unauthorized);
    expect([forbidden.status, forbidden.to(unauthorized).headers]).toEqual([403, {}]);
    expect(fit(['200', '400', '404'], unauthorized)).toEqual({ status: 401, undeclared: true, said: true });
  });

  it('sends the status raised, undeclared, where the operation declares no error that means the same (never another class)', () => {
    expect(fit(['200'], errors.notFound('thing', 'id 7'))).toEqual({ status: 404, undeclared: true, said: true });
    expect(fit(['200', '500'], errors.notFound('thing', 'id 7')).status).toBe(404);
    expect(fit(['200', '404'], errors.internal())).toEqual({ status: 500, undeclared: true, said: true });
    expect(fitStatus(declaring('200'), errors.notFound('thing', 'id 7')).message).toBe('404 NOT_FOUND answered undeclared: GET /native declares 200, no error that means the same, and the request must be refused.');
  });
});

describe('choose: the media type an answer is sent as, by Accept', () => {
  const response = (...types: string[]): ResponseSpec => ({ status: '200', headers: {}, content: Object.fromEntries(types.map((type) => [type, {}])) });
  const sent = (types: string[], accept: string | undefined, canWrite = (essence: string) => essence.startsWith('text/')) => {
    const chosen = choose(representations(response(...types), canWrite), accept);
    return chosen && `${chosen.type}${chosen.fits ? '' : ' (does not fit)'}`;
  };

  it('sends application/json first, then other JSON types, then the others in the document\'s order, without Accept or with */*', () => {
    expect(sent(['text/plain', 'application/hal+json', 'application/json'], undefined)).toBe('application/json');
    expect(sent(['text/plain', 'application/hal+json'], '*/*')).toBe('application/hal+json');
    expect(sent(['*/*'], undefined)).toBe('application/json');
    expect(sent(['text/*'], undefined)).toBe('text/plain');
  });

  it('weighs q-values, the most specific range deciding, ties going to the mock\'s order', () => {
    expect(sent(['application/json', 'text/plain'], 'text/plain')).toBe('text/plain');
    expect(sent(['application/json', 'text/plain'], 'text/*;q=0.9, application/json;q=0.5')).toBe('text/plain');
    expect(sent(['application/json', 'text/plain'], 'text/*, text/plain;q=0, */*;q=0.1')).toBe('application/json');
    expect(sent(['text/plain', 'application/json'], 'text/plain, application/json')).toBe('application/json');
    expect(sent(['application/json'], 'application/json;q=0')).toBe('application/json (does not fit)');
    expect(sent(['application/json'], 'not a media range')).toBe('application/json'); // no valid range: as if none were sent
  });

  it('tells whether Accept takes any declared media type, written by the mock or not (what decides a 406)', () => {
    expect(takesAny(response('image/png').content, 'application/json')).toBe(false);
    expect(takesAny(response('image/png').content, 'image/*')).toBe(true);
    expect(takesAny(response('image/*').content, 'image/webp')).toBe(true);
    expect(takesAny(response('image/png').content, 'image/png;q=0, */*;q=0.1')).toBe(false);
    expect(takesAny(response('image/png').content, undefined)).toBe(true);
  });

  it('offers only what the mock can write: XML with an encoder, not without one; none at all gives nothing to choose', () => {
    expect(sent(['application/json', 'application/xml'], 'application/xml')).toBe('application/json (does not fit)');
    expect(sent(['application/json', 'application/xml'], 'application/xml', (essence) => essence === 'application/xml')).toBe('application/xml');
    expect(sent(['application/xml'], 'application/xml')).toBeUndefined();
  });
});

describe('createSelfCheck', () => {
  const check = createSelfCheck({ ajv, converter: new SchemaConverter(DOCUMENT, ajv, '3.0'), responseValidator, warn: () => undefined });
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  it('finds what an answer breaks with the document\'s validators, and counts apart what the pipeline knows to be undeclared', async () => {
    expect(await check.check(op('example'), json({ id: 7, name: 'Rex' }), false)).toEqual([]);
    expect(await check.check(op('example'), json({ id: 0, name: 'Rex' }), false)).toEqual([expect.objectContaining({ path: 'body.id', rule: 'minimum' })]);
    expect(await check.check(op('example'), json({ id: 7, name: 'Rex' }, 418), false)).toEqual([expect.objectContaining({ path: 'status', rule: 'declared' })]);
    expect(await check.check(op('example'), json({ code: 'NOT_FOUND' }, 404), true)).toEqual([]);
    expect(check.counts).toEqual({ checked: 4, violations: 2, undeclared: 1 });
  });
});

describe('staticResponse', () => {
  const warnings: string[] = [];
  const respond = (id: string) => staticResponse(op(id), { generate, responseValidator, warn: (message) => warnings.push(message) });

  it('answers the documented example (or the first named one) where it keeps to the schema', () => {
    expect(respond('example')).toEqual({ status: 200, headers: { 'Content-Type': 'application/json' }, body: { id: 7, name: 'Rex' } });
    expect(respond('named').body).toEqual({ id: 1, name: 'One' });
  });

  it('otherwise generates a body valid against the schema, with the required headers, a 2XX answered 200', () => {
    for (const id of ['badExample', 'generated']) {
      const result = respond(id);
      expect(result.status, id).toBe(200);
      expect(valid(THING, result.body), `${id}: ${JSON.stringify(result.body)}`).toBe(true);
    }
    const { headers } = respond('generated');
    expect(Object.keys(headers ?? {}).sort()).toEqual(['Content-Type', 'X-Rate-Limit']);
    expect(Number(headers?.['X-Rate-Limit'])).toBeGreaterThanOrEqual(1);
    expect(Number(headers?.['X-Rate-Limit'])).toBeLessThanOrEqual(9);
  });

  it('encodes a text body from its schema, answers an empty body for a media type without an encoder, and warns when nothing can satisfy the schema', () => {
    expect(respond('text')).toEqual({ status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'ok' });
    expect(respond('xml').body).toBe('');
    const xml = staticResponse(op('xml'), { generate, responseValidator, warn: () => undefined, encoders: bodyEncoders().register('application/xml', (value) => `<thing>${JSON.stringify(value)}</thing>`) });
    expect(String(xml.body)).toMatch(/^<thing>\{.*\}<\/thing>$/);
    expect(warnings).toEqual([]);
    respond('impossible');
    expect(warnings).toEqual([expect.stringMatching(/^impossible: no value generated for its 200 response satisfies the schema/)]);
  });

  it('answers 204 when the operation declares no success, default or 1xx/3xx response', () => {
    expect(respond('none')).toEqual({ status: 204 });
  });

  it('answers in the media type asked for (staticAnswers): the default made at once, another on its first request, then kept', () => {
    const made: string[] = [];
    const answerAs = staticAnswers(op('text'), { generate, responseValidator, warn: () => undefined }, () => (made.push('alternate'), { generate, responseValidator, warn: () => undefined }));
    expect(answerAs()).toBe(answerAs('text/plain'));
    expect(made).toEqual([]);
    const both = staticAnswers(op('both'), { generate, responseValidator, warn: () => undefined }, () => (made.push('alternate'), { generate, responseValidator, warn: () => undefined }));
    expect(both('application/xml')).toEqual({ status: 200, headers: { 'Content-Type': 'application/xml' }, body: '' });
    expect(both('application/xml')).toBe(both('application/xml'));
    expect(both()).toEqual({ status: 200, headers: { 'Content-Type': 'application/json' }, body: { id: 7, name: 'Rex' } });
    expect(made).toEqual(['alternate']);
  });
});

describe('compileStaticAction', () => {
  const ctx = { generate, responseValidator, warn: () => undefined };
  const input = (path: Record<string, unknown>, body: unknown) => ({ params: { path, query: {}, header: {}, cookie: {} }, body, url: '/' }) as unknown as ActionInput;

  it("carries the body's fields and the path's parameters where the answer has a property spelled like them, each only where the answer stays valid", () => {
    const canned = staticResponse(op('reflect'), ctx);
    const act = compileStaticAction(op('reflect'), () => canned, ctx);
    expect((act(input({ thingId: 5 }, { Name: 'Rex', Extra: 'x' })) as ActionResult).body).toEqual({ ...(canned.body as object), name: 'Rex', thing_id: 5 });
    // 50 is past the answer's maximum: the documented value stays, the name is still carried.
    const capped = act(input({ thingId: 50 }, { Name: 'Rex' })) as ActionResult;
    expect(capped.body).toEqual({ ...(canned.body as object), name: 'Rex' });
    expect(valid((op('reflect').responses[0].content['application/json'].schema)!, capped.body)).toBe(true);
  });

  it('answers the same result every time where nothing of the request has a place in the answer', () => {
    const canned = staticResponse(op('example'), ctx);
    expect(compileStaticAction(op('example'), () => canned, ctx)(input({}, undefined))).toBe(canned);
  });
});

describe('compileConformer', () => {
  const ctx = { generate, responseValidator, warn: () => undefined };

  it('answers what the declared schema holds when it cannot hold the record: `{}`, or a confirmation with the fields it has a place for', () => {
    expect(compileConformer(op('gone'), 200, THING, ctx)!({ id: 3, name: 'Rex' })).toEqual({});
    expect(compileConformer(op('confirm'), 200, THING, ctx)!({ id: 3, name: 'Rex' })).toEqual({ deleted: true, id: 3 });
  });

  it('leaves the record as the answer where the declared schema is the record', () => {
    expect(compileConformer(op('example'), 200, op('example').responses[0].content['application/json'].schema!, ctx)).toBeUndefined();
  });
});

describe('deprecationPolicy', () => {
  it('gives no headers to an operation that is not deprecated', () => {
    expect(deprecationPolicy(op('native'))).toBeUndefined();
  });

  it('sends Deprecation from x-deprecated-at, Sunset from x-sunset, and one Link to externalDocs with both relations', () => {
    const policy = deprecationPolicy(op('old'));
    expect(policy?.headers).toEqual({ Deprecation: '@1767225600', Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT', Link: '<https://example.com/migrate>; rel="deprecation sunset"; type="text/html"' });
    expect(policy?.sunset?.toISOString()).toBe('2027-06-30T00:00:00.000Z');
  });

  it('without dates or docs, sends Deprecation @0 alone (an unreadable x-sunset is left out)', () => {
    expect(deprecationPolicy(op('oldBare'))).toEqual({ headers: { Deprecation: '@0' }, sunset: undefined });
    expect(parseDate(new Date('2027-01-02T03:04:05Z'))?.getTime()).toBe(Date.UTC(2027, 0, 2, 3, 4, 5)); // YAML's Date, as given
    expect(parseDate(new Date(Number.NaN))).toBeUndefined();
  });
});

describe('bodyEncoders', () => {
  it('writes text/* values as text (objects as JSON, null as nothing), by the essence of the media type', () => {
    const encode = encoderFor(bodyEncoders(), 'Text/CSV; charset=utf-8');
    expect(encode).toBeDefined();
    expect([encode?.('ok', 'text/csv'), encode?.(5, 'text/csv'), encode?.(null, 'text/csv'), encode?.({ a: [1] }, 'text/csv')]).toEqual(['ok', '5', '', '{"a":[1]}']);
  });

  it("has none for other types until one is registered, and a type's own encoder wins over its family's", () => {
    const encoders = bodyEncoders();
    expect(encoderFor(encoders, 'application/xml')).toBeUndefined();
    encoders.register('application/xml', () => '<x/>').register('text/csv', () => 'a,b');
    expect(encoderFor(encoders, 'application/xml')?.({}, 'application/xml')).toBe('<x/>');
    expect(encoderFor(encoders, 'text/csv')?.('x', 'text/csv')).toBe('a,b');
    expect(encoderFor(encoders, 'text/html')?.('x', 'text/html')).toBe('x');
  });
});
