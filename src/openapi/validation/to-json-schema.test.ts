import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../document/load-document.js';
import type { DocumentObject } from '../document/objects.js';
import type { SchemaObject } from '../document/schema.js';
import { CORPUS } from '../../test-support/petstore.js';
import { createAjv } from './ajv-instance.js';
import { SchemaConverter } from './to-json-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'to-json-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A loaded document whose `POST /things` takes and returns `body`, with these named schemas. */
async function documentWith(schemas: Record<string, SchemaObject>, body: SchemaObject = { $ref: '#/components/schemas/Thing' }, openapi = '3.0.3') {
  const file = join(dir, `doc-${Math.random().toString(36).slice(2)}.json`);
  const operation = { requestBody: { content: { 'application/json': { schema: body } } }, responses: { '200': { description: 'ok', content: { 'application/json': { schema: body } } } } };
  writeFileSync(file, JSON.stringify({ openapi, info: { title: 't', version: '1' }, paths: { '/things': { post: operation } }, components: { schemas } }));
  const document = await loadDocument(file);
  const ajv = createAjv(document.dialect);
  return { api: document.api, ajv, converter: new SchemaConverter(document.api, ajv, document.dialect) };
}

const schemaOf = (api: DocumentObject) => api.paths!['/things'].post!.requestBody!.content!['application/json'].schema!;

/** `Link_0` .. `Link_{n-1}`, each with a required name and an optional `next`, the last with none. */
function chain(n: number, nextRequired = false): Record<string, SchemaObject> {
  const schemas: Record<string, SchemaObject> = {};
  for (let i = 0; i < n; i++) {
    const last = i === n - 1;
    schemas[`Link_${i}`] = {
      type: 'object',
      required: ['name', ...(nextRequired && !last ? ['next'] : [])],
      properties: { name: { type: 'string' }, ...(last ? {} : { next: { $ref: `#/components/schemas/Link_${i + 1}` } }) },
    };
  }
  return schemas;
}

/** A chain of `n` named schemas, each `next` the next schema object itself (as the loader leaves them), with a converter over them. */
function dereferencedChain(n: number) {
  const schemas = chain(n);
  for (const schema of Object.values(schemas)) {
    const next = schema.properties!.next?.$ref?.split('/').pop();
    if (next) schema.properties!.next = schemas[next];
  }
  const ajv = createAjv('3.0');
  const converter = new SchemaConverter({ openapi: '3.0.3', info: { title: 't', version: '1' }, components: { schemas } }, ajv, '3.0');
  return { schemas, ajv, converter };
}

function nested(depth: number, leaf: unknown): unknown {
  let value: unknown = { name: 'last', ...(leaf === undefined ? {} : { bad: leaf }) };
  for (let i = 0; i < depth; i++) value = { name: `n${i}`, next: value };
  return value;
}

describe('SchemaConverter', () => {
  it('converts a named schema once and refers to it wherever it is used', async () => {
    const { api, ajv, converter } = await documentWith(
      { Thing: { type: 'object', required: ['tag'], properties: { tag: { $ref: '#/components/schemas/Tag' }, also: { $ref: '#/components/schemas/Tag' } } }, Tag: { type: 'string', maxLength: 3 } },
    );
    const converted = converter.convert(schemaOf(api), 'request') as SchemaObject;
    expect(Object.keys(converted)).toEqual(['$ref']);
    expect(converter.convert(api.components!.schemas!.Thing, 'request')).toBe(converted);
    const thing = ajv.getSchema(converted.$ref!)!.schema as SchemaObject;
    expect(thing.properties!.tag).toBe(thing.properties!.also);
    // Nothing in it is readOnly or writeOnly: requests and responses share it.
    expect(converter.convert(schemaOf(api), 'response')).toBe(converted);

    const validate = ajv.compile(converted);
    expect(validate({ tag: 'abc', also: 'ab' })).toBe(true);
    expect(validate({ tag: 'abcd', also: 5 })).toBe(false);
    expect(validate.errors!.map((e) => [e.instancePath, e.keyword])).toEqual([['/tag', 'maxLength'], ['/also', 'type']]);
  });

  it('keeps 3.0 keywords, readOnly and writeOnly working through a named schema', async () => {
    const { api, ajv, converter } = await documentWith({
      Thing: { type: 'object', required: ['id', 'secret', 'note'], properties: { id: { $ref: '#/components/schemas/Id' }, secret: { type: 'string', writeOnly: true }, note: { $ref: '#/components/schemas/Note' } } },
      Id: { type: 'integer', readOnly: true, minimum: 0, exclusiveMinimum: true },
      Note: { type: 'string', nullable: true },
    });
    const [inRequests, inResponses] = [converter.convert(schemaOf(api), 'request'), converter.convert(schemaOf(api), 'response')] as SchemaObject[];
    expect(inRequests.$ref).not.toBe(inResponses.$ref); // one each: their required properties differ
    // Note only differs in neither, and is shared by both.
    expect(converter.convert(api.components!.schemas!.Note, 'request')).toBe(converter.convert(api.components!.schemas!.Note, 'response'));
    const request = ajv.compile(inRequests);
    const response = ajv.compile(inResponses);
    expect(request({ secret: 's', note: null })).toBe(true); // id is readOnly: not required in a request
    expect(response({ id: 1, note: 'n' })).toBe(true); // secret is writeOnly: not required in a response
    expect(response({ id: 0, note: 'n' })).toBe(false); // exclusiveMinimum: true
  });

  it('checks circular schemas (their ids resolve from inside one another)', async () => {
    const document = await loadDocument(`${CORPUS}/readme31-schema-types.yaml`);
    const ajv = createAjv(document.dialect);
    const converter = new SchemaConverter(document.api, ajv, document.dialect);
    // Circular: { string, children: Circular[] }. A relative id did not resolve from inside itself: it went unchecked.
    const validate = ajv.compile(converter.convert(document.api.components!.schemas!.Circular, 'request') as SchemaObject);
    expect(validate({ string: 'a', children: [{ string: 'b', children: [{ string: 'c' }] }] })).toBe(true);
    expect(validate({ children: [{ children: [{ string: 5 }] }] })).toBe(false);
    expect(validate.errors!.map((e) => e.instancePath)).toEqual(['/children/0/children/0/string']);
  });

  it('follows a circular $ref through an alias (a named schema that is only a $ref)', async () => {
    const { api, ajv, converter } = await documentWith({
      Thing: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Alias' } } } },
      Alias: { $ref: '#/components/schemas/Thing' },
    });
    const validate = ajv.compile(converter.convert(schemaOf(api), 'request') as SchemaObject);
    expect(validate({ name: 'a', children: [{ name: 'b', children: [] }] })).toBe(true);
    expect(validate({ name: 'a', children: [{ children: [] }] })).toBe(false);
    expect(validate.errors!.map((e) => [e.instancePath, e.keyword])).toEqual([['/children/0', 'required']]);
  });

  it('compiles a chain of 2,000 named schemas without exhausting the stack, and checks its far end', () => {
    // Dereferenced as the loader leaves it (swagger-parser itself recurses past the stack near 1,000).
    const { schemas, ajv, converter } = dereferencedChain(2000);
    const validate = ajv.compile(converter.convert(schemas.Link_0, 'response') as SchemaObject);
    expect(validate(nested(900, undefined))).toBe(true);
    expect(validate({ name: 'a', next: { name: 'b', next: { name: 5 } } })).toBe(false);
    expect(validate.errors![0].instancePath).toBe('/next/next/name');
  });

  it('compiles a schema used inside another when a value first reaches it, with the errors a $ref gives', () => {
    const { schemas, ajv, converter } = dereferencedChain(500);
    const compiledLinks = () => Object.entries(ajv.schemas).filter(([id, env]) => /-Link_\d+$/.test(id) && env?.validate).length;
    const validate = ajv.compile(converter.convert(schemas.Link_0, 'response') as SchemaObject);
    expect(compiledLinks()).toBe(0); // the head is copied into the validator; the 499 behind it wait for a value
    expect(validate(nested(3, undefined))).toBe(true);
    expect(compiledLinks()).toBe(3);
    expect(validate({ name: 'a', next: { name: 'b', next: { name: 5, next: { name: 'd', next: {} } } } })).toBe(false);
    expect(validate.errors!.map((e) => [e.instancePath, e.schemaPath, e.keyword])).toEqual([
      ['/next/next/name', '#/properties/name/type', 'type'],
      ['/next/next/next/next', '#/required', 'required'],
    ]);
    expect(compiledLinks()).toBe(4);
  });

  it('keeps what a named schema applied in place evaluates, for unevaluatedProperties (3.1)', async () => {
    const { api, ajv, converter } = await documentWith(
      {
        Thing: { allOf: [{ $ref: '#/components/schemas/Base' }], unevaluatedProperties: false },
        Base: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/components/schemas/Base' } } },
      },
      undefined,
      '3.1.0',
    );
    const validate = ajv.compile(converter.convert(schemaOf(api), 'request') as SchemaObject);
    expect(validate({ name: 'a', child: { name: 'b', extra: 1 } })).toBe(true); // Base alone allows more inside
    expect(validate({ name: 'a', extra: 1 })).toBe(false);
    expect(validate.errors!.map((e) => [e.instancePath, e.keyword])).toEqual([['', 'unevaluatedProperties']]);
    expect(validate({ name: 'a', child: { name: 5 } })).toBe(false);
    expect(validate.errors!.map((e) => [e.instancePath, e.keyword])).toEqual([['/child/name', 'type']]);
  });

  it('leaves a named schema Ajv refuses to fail the schemas using it, with Ajv\'s message, as when it was inline', async () => {
    // 3.1 documents may say `type: str` (the corpus has one); Ajv refuses it.
    const { api, ajv, converter } = await documentWith(
      { Thing: { type: 'object', properties: { odd: { $ref: '#/components/schemas/Odd' } } }, Odd: { type: 'object', properties: { param: { type: 'str' } } } },
      undefined,
      '3.1.0',
    );
    const converted = converter.convert(schemaOf(api), 'request') as SchemaObject;
    expect(() => ajv.compile(converted)).toThrow(/schema is invalid: data\/properties\/odd\/properties\/param\/type/);
  });

  it('lets a refused named schema that contains itself accept anything, as a refused circular one did', async () => {
    const { api, ajv, converter } = await documentWith(
      { Thing: { type: 'object', properties: { odd: { $ref: '#/components/schemas/Odd' } } }, Odd: { type: 'str', properties: { again: { $ref: '#/components/schemas/Odd' } } } },
      undefined,
      '3.1.0',
    );
    const validate = ajv.compile(converter.convert(schemaOf(api), 'request') as SchemaObject);
    expect(validate({ odd: 5 })).toBe(true);
    expect(validate({ odd: 'x' }) && !validate(5)).toBe(true);
  });
});

describe('nullable (3.0)', () => {
  /** A validator of `Thing.value` as the document writes it, in requests or responses. */
  async function valueValidator(value: SchemaObject, extra: Record<string, SchemaObject> = {}, direction: 'request' | 'response' = 'response') {
    const { api, ajv, converter } = await documentWith({ Thing: { type: 'object', required: ['value'], properties: { value } }, ...extra });
    const validate = ajv.compile(converter.convert(schemaOf(api), direction) as SchemaObject);
    return (v: unknown) => validate({ value: v });
  }
  const branches = [{ type: 'string' as const }, { type: 'integer' as const }];

  it('allows null beside a oneOf, anyOf or allOf without a type, and still checks the other values', async () => {
    for (const keyword of ['oneOf', 'anyOf']) {
      const valid = await valueValidator({ nullable: true, [keyword]: branches });
      expect([valid(null), valid('a'), valid(1), valid(true)]).toEqual([true, true, true, false]);
    }
    const all = await valueValidator({ nullable: true, allOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'string' } } }] });
    expect([all(null), all({ a: 'x' }), all({}), all(1)]).toEqual([true, true, false, false]);
  });

  it('allows null beside a $ref to a named schema (the loader merges the sibling) and beside an enum or a typed oneOf', async () => {
    const referred = await valueValidator({ nullable: true, allOf: [{ $ref: '#/components/schemas/Kind' }] }, { Kind: { oneOf: branches } });
    expect([referred(null), referred('a'), referred(false)]).toEqual([true, true, false]);
    const merged = await valueValidator({ $ref: '#/components/schemas/Kind', nullable: true } as SchemaObject, { Kind: { oneOf: branches } });
    expect([merged(null), merged('a'), merged(false)]).toEqual([true, true, false]);
    const typed = await valueValidator({ type: 'object', nullable: true, oneOf: [{ required: ['a'] }, { required: ['b'] }] });
    expect([typed(null), typed({ a: 1 }), typed({})]).toEqual([true, true, false]);
    const listed = await valueValidator({ nullable: true, enum: ['a', 'b'] });
    expect([listed(null), listed('a'), listed('c')]).toEqual([true, true, false]);
  });

  it('leaves null refused where nullable is not true, and keeps readOnly required properties out of requests inside the wrapper', async () => {
    const strict = await valueValidator({ oneOf: branches });
    expect([strict(null), strict('a')]).toEqual([false, true]);
    const inRequest = await valueValidator({ nullable: true, type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } }, allOf: [{}] }, {}, 'request');
    expect([inRequest(null), inRequest({ name: 'n' }), inRequest({})]).toEqual([true, true, false]);
  });

  it('allows null beside a circular $ref the loader leaves as it is', async () => {
    const { api, ajv, converter } = await documentWith({ Thing: { type: 'object', required: ['parent'], properties: { parent: { $ref: '#/components/schemas/Thing', nullable: true } as SchemaObject } } });
    const validate = ajv.compile(converter.convert(schemaOf(api), 'response') as SchemaObject);
    expect([validate({ parent: null }), validate({ parent: { parent: null } }), validate({ parent: { parent: 1 } })]).toEqual([true, true, false]);
  });

  it('does not apply nullable in 3.1 (where null is a type like any other)', async () => {
    const { api, ajv, converter } = await documentWith({ Thing: { nullable: true, oneOf: branches } }, undefined, '3.1.0');
    const validate = ajv.compile(converter.convert(schemaOf(api), 'response') as SchemaObject);
    expect([validate(null), validate('a')]).toEqual([false, true]);
  });
});
