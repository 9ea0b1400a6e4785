/**
 * Every limit the document declares is enforced at its boundary: at the limit the request is
 * accepted by validation (it may still meet a business rule, never a 400), one past it is refused
 * with 400. The cases come from the schemas: maxLength/minLength, maximum/minimum, maxItems of
 * every body field and parameter, and the 64 KiB body limit to the byte.
 */
import { createFaker } from '../openapi/generate/create-faker.js';
import { describe, expect, it } from 'vitest';
import type { SchemaObject } from '../openapi/document/schema.js';
import { createGenerator } from '../openapi/generate/from-schema.js';
import { mergedProperties } from '../openapi/operations/schema-properties.js';
import type { Operation } from '../openapi/operations/operation.js';
import { AUTH, petstore } from '../test-support/petstore.js';

type Mock = Awaited<ReturnType<typeof petstore>>;
interface Boundary {
  label: string;
  at: unknown;
  past: unknown;
}

/** The values at and just past each bound of a schema (for arrays, built from a valid item). */
function boundaries(schema: SchemaObject, item: () => unknown): Boundary[] {
  const found: Boundary[] = [];
  if (typeof schema.maxLength === 'number') found.push({ label: `maxLength ${schema.maxLength}`, at: 'x'.repeat(schema.maxLength), past: 'x'.repeat(schema.maxLength + 1) });
  if (typeof schema.minLength === 'number' && schema.minLength > 0) found.push({ label: `minLength ${schema.minLength}`, at: 'x'.repeat(schema.minLength), past: 'x'.repeat(schema.minLength - 1) });
  if (typeof schema.maximum === 'number') found.push({ label: `maximum ${schema.maximum}`, at: schema.maximum, past: schema.maximum + 1 });
  if (typeof schema.minimum === 'number') found.push({ label: `minimum ${schema.minimum}`, at: schema.minimum, past: schema.minimum - 1 });
  if (typeof schema.maxItems === 'number') {
    const items = Array.from({ length: schema.maxItems + 1 }, item);
    found.push({ label: `maxItems ${schema.maxItems}`, at: items.slice(0, -1), past: items });
  }
  return found;
}

const faker = createFaker();
faker.seed(7);
const generate = createGenerator(faker);
const reference: Record<string, number> = { categoryId: 1, petId: 1 };

/** A valid body for an operation, with references pointing at seeded records. */
function validBody(schema: SchemaObject): Record<string, unknown> {
  const body = generate(schema) as Record<string, unknown>;
  for (const name of Object.keys(body)) if (name in reference) body[name] = reference[name];
  return body;
}

/** Pet 1 is available with plenty of stock, so an order at the quantity limit meets no business rule. */
async function prepare(mock: Mock) {
  await mock.call('PUT', '/store/inventory/1', { quantity: 100_000 });
  await mock.call('PATCH', '/pets/1', { status: 'available' });
}

async function send(mock: Mock, op: Operation, path: string, body?: unknown) {
  const init: RequestInit = { method: op.method.toUpperCase(), headers: { ...AUTH, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await mock.app.request(path, init);
  return { status: response.status, text: await response.text() };
}

const { operations } = await petstore();
const itemPath = (op: Operation) => op.path.replace(/\{[^}]+\}/g, '1');

describe('limits at their boundaries', () => {
  for (const op of operations) {
    const media = op.requestBody?.content['application/json']?.schema;
    const bodyCases = media
      ? Object.entries(mergedProperties(media)).flatMap(([name, schema]) =>
          boundaries(schema, () => (schema.items ? generate(schema.items) : 'x')).map((b) => ({ where: `body.${name}`, ...b, make: (value: unknown) => ({ ...validBody(media), [name]: value }) })),
        )
      : [];
    const paramCases = op.parameters.flatMap((p) => {
      const schema: SchemaObject = p.schema;
      return boundaries(schema, () => generate(schema.items ?? {})).map((b) => ({ where: `${p.in}.${p.name}`, ...b, param: p }));
    });

    for (const c of bodyCases) {
      it(`${op.id} ${c.where}: ${c.label} accepted, one past refused`, async () => {
        const mock = await petstore();
        await prepare(mock);
        const at = await send(mock, op, itemPath(op), c.make(c.at));
        expect([400, 413], `${c.where} at the limit: ${at.text}`).not.toContain(at.status);
        expect(at.status).toBeLessThan(500);
        const past = await send(mock, op, itemPath(op), c.make(c.past));
        expect(past.status, past.text).toBe(400);
        expect(JSON.parse(past.text).message).toContain(c.where);
      });
    }

    for (const c of paramCases) {
      it(`${op.id} ${c.where}: ${c.label} accepted, one past refused`, async () => {
        const mock = await petstore();
        const url = (value: unknown) => {
          if (c.param.in === 'path') return op.path.replace(`{${c.param.name}}`, String(value)).replace(/\{[^}]+\}/g, '1');
          const values = Array.isArray(value) ? value : [value];
          return `${itemPath(op)}?${values.map((v) => `${c.param.name}=${encodeURIComponent(String(v))}`).join('&')}`;
        };
        const body = media ? validBody(media) : undefined;
        const at = await send(mock, op, url(c.at), body);
        expect([400, 413], `${c.where} at the limit: ${at.text}`).not.toContain(at.status);
        expect(at.status).toBeLessThan(500);
        const past = await send(mock, op, url(c.past), body);
        expect(past.status, past.text).toBe(400);
        expect(JSON.parse(past.text).message).toContain(c.where);
      });
    }
  }

  it('a body of exactly 65,536 bytes is accepted, 65,537 bytes refused with 413', async () => {
    const mock = await petstore();
    const op = operations.find((o) => o.id === 'createPet')!;
    const json = JSON.stringify({ name: 'Padded', categoryId: 1 });
    const padded = (size: number) => json + ' '.repeat(size - json.length); // JSON allows trailing whitespace
    expect((await send(mock, op, '/pets', padded(65_536))).status).toBe(201);
    const past = await send(mock, op, '/pets', padded(65_537));
    expect(past.status).toBe(413);
    expect(JSON.parse(past.text)).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 65536 bytes.', status: 413 });
  });

  it('covers every bounded field and parameter of the document', () => {
    const names = new Set<string>();
    for (const op of operations) {
      for (const p of op.parameters) if (boundaries(p.schema, () => 1).length) names.add(`${p.in}.${p.name}`);
      const media = op.requestBody?.content['application/json']?.schema;
      if (media) for (const [name, s] of Object.entries(mergedProperties(media))) if (boundaries(s, () => 1).length) names.add(`body.${name}`);
    }
    expect([...names].sort()).toEqual([
      'body.categoryId', 'body.description', 'body.id', 'body.name', 'body.petId', 'body.quantity',
      'path.categoryId', 'path.orderId', 'path.petId',
      'query.categoryId', 'query.id', 'query.limit', 'query.offset', 'query.petId', 'query.status',
    ]);
  });
});
