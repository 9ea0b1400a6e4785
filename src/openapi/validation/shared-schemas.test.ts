/**
 * A schema object the document uses in many places without naming it in `components.schemas` (a
 * `$ref` to `#/x-defs/L1`, a YAML alias) is compiled once, as a named one is: what Ajv is given
 * stays as large as the document, not as large as the document expanded. Ten places naming ten
 * places, six deep (3 KB of JSON), took 21 s to build a mock and 20 s more on the first request;
 * with required properties, Ajv overflowed the stack.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../document/load-document.js';
import type { SchemaObject } from '../document/schema.js';
import { refFanOut } from '../../test-support/document-bombs.js';
import { createAjv } from './ajv-instance.js';
import { schemaCompiler } from './compile-schema.js';
import { SchemaConverter } from './to-json-schema.js';

/** The objects of a converted schema, counted at each place they are used, as Ajv walks it; stops past `limit`. */
function placesOf(schema: unknown, limit = 1_000_000): number {
  let places = 0;
  const stack = [schema];
  while (stack.length > 0 && places <= limit) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    places++;
    stack.push(...Object.values(node));
  }
  return places;
}

async function fanOut(required: boolean) {
  const document = await loadDocument(JSON.parse(refFanOut({ levels: 6, fan: 10, under: 'x-defs', required, request: true })));
  const schema = document.api.paths!['/things'].post!.requestBody!.content!['application/json'].schema as SchemaObject;
  const ajv = createAjv(document.dialect);
  const converter = new SchemaConverter(document.api, ajv, document.dialect);
  return { schema, converter, compile: schemaCompiler(ajv, converter, 'request') };
}

describe('a schema object used in many places, not named', () => {
  it('is converted once and referred to: what Ajv is given holds a few places per schema, not one per expanded place', async () => {
    const { schema, converter } = await fanOut(false);
    expect(placesOf(schema)).toBeGreaterThan(100_000); // the document, expanded
    expect(placesOf(converter.convert(schema, 'request'))).toBeLessThan(100);
  });

  it('is checked as before: a wrong value deep down is found, with its path', async () => {
    const { schema, compile } = await fanOut(false);
    const validate = compile(schema)!;
    expect(validate({ p0: { p3: { p9: { p1: { p2: 'a' } } } } })).toBe(true);
    expect(validate({ p0: { p3: { p9: { p1: { p2: 5 } } } } })).toBe(false);
    expect(validate.errors?.map((e) => [e.instancePath, e.keyword])).toEqual([['/p0/p3/p9/p1/p2', 'type']]);
  });

  it('compiles with every property required, where Ajv overflowed its stack', async () => {
    const { schema, compile } = await fanOut(true);
    const validate = compile(schema)!;
    expect(validate({})).toBe(false);
    expect(validate.errors?.map((e) => [e.instancePath, e.keyword, e.params])).toEqual(Array.from({ length: 10 }, (_, i) => ['', 'required', { missingProperty: `p${i}` }]));
    const full = (level: number): unknown => (level === 5 ? 'a' : Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, full(level + 1)])));
    expect(validate(full(0))).toBe(true);
  });
});
