/**
 * A large OpenAPI 3.0.3 document, the same every time, for `npm run bench` and the tests: resources
 * with list, create, read, replace and delete, whose schemas reference each other in `$ref` chains
 * (`Schema_i.next` is a `Schema_{i+1}`), and optionally one long chain under a `/deep` resource.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LargeDocumentOptions {
  /** Operations in all (five per resource). Default 2,000. */
  operations?: number;
  /** Schemas per `$ref` chain. Default 50. */
  chain?: number;
  /** The length of one more chain, under the `/deep` resource; 0 or absent for none. */
  longChain?: number;
  /** Make every `next` link of the long chain required (a valid record then nests that deep). */
  requiredLinks?: boolean;
}

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json(ref('Error')) });

/** One schema of a chain: required scalars, optional ones, and the (optional) link to the next. */
function chainSchema(index: number, next: string | undefined, nextRequired: boolean): Json {
  const properties: Json = {
    id: { type: 'integer', format: 'int64', minimum: 1, readOnly: true },
    name: { type: 'string', minLength: 1, maxLength: 80 },
    status: { type: 'string', enum: ['active', 'pending', 'retired'] },
    description: { type: 'string', maxLength: 500 },
    createdAt: { type: 'string', format: 'date-time', readOnly: true },
    score: { type: 'number', minimum: 0, maximum: 100 },
    tags: { type: 'array', maxItems: 5, items: ref('Tag') },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    owner: { allOf: [ref('Owner')], nullable: true },
  };
  if (next) properties.next = ref(next);
  const required = ['id', 'name', ...(index % 3 === 0 ? ['status'] : []), ...(next && nextRequired ? ['next'] : [])];
  return { type: 'object', required, properties };
}

/**
 * @example
 * const doc = largeDocument({ operations: 2000, chain: 50, longChain: 500 });
 * Object.keys(doc.paths).length // 802
 */
export function largeDocument(options: LargeDocumentOptions = {}): Json {
  const operations = Math.max(5, options.operations ?? 2000);
  const chain = Math.max(1, options.chain ?? 50);
  const longChain = Math.max(0, options.longChain ?? 0);
  const resources = Math.floor(operations / 5) - (longChain > 0 ? 1 : 0);

  const schemas: Json = {
    Error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
    Tag: { type: 'object', required: ['label'], properties: { label: { type: 'string', maxLength: 30 } } },
    Owner: {
      type: 'object',
      required: ['email'],
      properties: { email: { type: 'string', format: 'email' }, displayName: { type: 'string' } },
    },
  };
  const name = (i: number) => `Schema_${i}`;
  for (let i = 0; i < resources; i++) {
    // Chains of `chain` schemas: the last of each chain links nowhere.
    const last = (i + 1) % chain === 0 || i + 1 === resources;
    schemas[name(i)] = chainSchema(i, last ? undefined : name(i + 1), false);
  }
  for (let i = 0; i < longChain; i++) {
    schemas[`Deep_${i}`] = chainSchema(i, i + 1 < longChain ? `Deep_${i + 1}` : undefined, options.requiredLinks === true);
  }

  const paths: Json = {};
  const unauthorized = error('Missing or wrong credentials');
  const resource = (plural: string, schema: string, tag: string) => {
    const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64', minimum: 1 } };
    const common = { '401': unauthorized, '500': error('Unexpected failure') };
    paths[`/${plural}`] = {
      get: {
        operationId: `list_${plural}`,
        tags: [tag],
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
        ],
        responses: { '200': { description: 'A page', content: json({ type: 'array', items: ref(schema) }) }, ...common },
      },
      post: {
        operationId: `create_${plural}`,
        tags: [tag],
        requestBody: { required: true, content: json(ref(schema)) },
        responses: { '201': { description: 'Created', content: json(ref(schema)) }, '400': error('Invalid'), ...common },
      },
    };
    paths[`/${plural}/{id}`] = {
      parameters: [id],
      get: {
        operationId: `read_${plural}`,
        tags: [tag],
        responses: { '200': { description: 'One', content: json(ref(schema)) }, '404': error('Not found'), ...common },
      },
      put: {
        operationId: `replace_${plural}`,
        tags: [tag],
        requestBody: { required: true, content: json(ref(schema)) },
        responses: { '200': { description: 'Replaced', content: json(ref(schema)) }, '400': error('Invalid'), '404': error('Not found'), ...common },
      },
      delete: {
        operationId: `delete_${plural}`,
        tags: [tag],
        responses: { '204': { description: 'Deleted' }, '404': error('Not found'), ...common },
      },
    };
  };
  for (let i = 0; i < resources; i++) resource(`resources${i}`, name(i), `chain${Math.floor(i / chain)}`);
  if (longChain > 0) resource('deep', 'Deep_0', 'deep');

  return {
    openapi: '3.0.3',
    info: { title: 'Large generated API', version: '1.0.0', description: `${resources + (longChain > 0 ? 1 : 0)} resources, $ref chains of ${chain}${longChain ? ` and one of ${longChain}` : ''}.` },
    servers: [{ url: 'http://localhost:4010' }],
    security: [{ bearer: [] }],
    tags: [...new Set(Object.values(paths).map((p) => (p as { get: { tags: string[] } }).get.tags[0]))].map((t) => ({ name: t })),
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas },
  };
}

/** Writes the document as JSON to a fresh temporary folder and returns the file's path. */
export function writeLargeDocument(options: LargeDocumentOptions = {}, name = 'large.json'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'large-document-')), name);
  writeFileSync(file, JSON.stringify(largeDocument(options)));
  return file;
}
