/**
 * The mock serves any OpenAPI document: every document of the corpus in test/corpus (real third-party
 * APIs with known traps) boots, and every operation answers without a 5xx; success responses
 * validate against the document. With the self-check on, every answer (errors too) is declared:
 * for valid requests, and for requests made to be refused (no credentials, an unknown record, a
 * broken body, an Accept the operation cannot meet, each declared media type asked for).
 */
import { readdirSync } from 'node:fs';
import { createFaker } from './openapi/generate/create-faker.js';
import { describe, expect, it } from 'vitest';
import { buildMock, DEMO_API_KEY } from './mock/app.js';
import { loadDocument } from './openapi/document/load-document.js';
import { createGenerator } from './openapi/generate/from-schema.js';
import type { Operation } from './openapi/operations/operation.js';
import type { SchemaObject } from './openapi/document/schema.js';
import { responseCheckerFor } from './test-support/response-checker.js';
import { CORPUS } from './test-support/petstore.js';
import { serverBasePath } from './openapi/operations/server-base-path.js';

const files = readdirSync(CORPUS).filter((f) => /\.(ya?ml|json)$/.test(f));

/** Credentials for the operation, and a generated value for each required query and header parameter. */
function requiredInputs(op: Operation, generate: (schema: SchemaObject) => unknown): { headers: Record<string, string>; query: string; authQuery: string } {
  const { headers, query: authQuery } = credentials(op);
  let query = authQuery;
  for (const p of op.parameters.filter((p) => p.required && p.in !== 'path')) {
    const value = generate(p.schema);
    if (p.in === 'query') query += `&${p.name}=${encodeURIComponent(String(Array.isArray(value) ? value[0] : value))}`;
    if (p.in === 'header') headers[p.name] = String(value);
  }
  return { headers, query, authQuery };
}

/** Credentials for the first security alternative of an operation, made of the demo key. */
function credentials(op: Operation): { headers: Record<string, string>; query: string } {
  const headers: Record<string, string> = {};
  let query = '';
  for (const { scheme } of op.security[0] ?? []) {
    if (scheme.type === 'apiKey' && scheme.in === 'header') headers[scheme.name] = DEMO_API_KEY;
    else if (scheme.type === 'apiKey' && scheme.in === 'query') query += `&${scheme.name}=${DEMO_API_KEY}`;
    else if (scheme.type === 'apiKey' && scheme.in === 'cookie') headers.Cookie = `${scheme.name}=${DEMO_API_KEY}`;
    else if (scheme.type === 'http' && /basic/i.test(scheme.scheme)) headers.Authorization = `Basic ${Buffer.from(`${DEMO_API_KEY}:x`).toString('base64')}`;
    else headers.Authorization = `Bearer ${DEMO_API_KEY}`;
  }
  return { headers, query };
}

describe('the corpus of third-party documents (test/corpus)', () => {
  for (const file of files) {
    it(`serves ${file}`, async () => {
      // Every document boots, the Swagger 2.0 one (oai-swagger2-uber) converted to OpenAPI 3.0 on load.
      const document = await loadDocument(`${CORPUS}/${file}`);
      const mock = buildMock(document, { counts: { default: 3 }, selfCheck: true });
      const check = responseCheckerFor(document);
      const faker = createFaker();
      faker.seed(1);
      const generate = createGenerator(faker);
      const basePath = serverBasePath(document.api);
      const outcomes: string[] = [];

      for (const op of mock.operations) {
        const binding = mock.collections.find((c) => c.itemPath === op.path);
        const existing = binding && [...mock.store.collection(binding.name).all()][0];
        const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
          if (existing && name === binding!.keyParam) return encodeURIComponent(String(existing[binding!.keyProperty]));
          const schema = op.parameters.find((p) => p.in === 'path' && p.name === name)?.schema ?? { type: 'string' };
          return encodeURIComponent(String(generate(schema)));
        });
        const { headers, query } = requiredInputs(op, generate);
        const init: RequestInit = { method: op.method.toUpperCase(), headers };
        const media = Object.keys(op.requestBody?.content ?? {});
        const json = media.find((m) => /json/.test(m));
        if (json) {
          headers['Content-Type'] = json;
          init.body = JSON.stringify(generate(op.requestBody!.content[json].schema ?? {}));
        }
        const response = await mock.app.request(`${basePath}${path}${query ? `?${query.slice(1)}` : ''}`, init);
        const text = await response.text();
        expect(response.status, `${op.id}: ${text}`).toBeLessThan(500);
        if (response.status < 300) expect(check(op, { status: response.status, headers: response.headers, text }), op.id).toEqual([]);
        outcomes.push(`${op.method.toUpperCase()} ${op.path} ${response.status}`);
      }
      console.log(`${file}: ${outcomes.filter((o) => / 2\d\d$/.test(o)).length}/${outcomes.length} operations answered 2xx; others: ${outcomes.filter((o) => !/ 2\d\d$/.test(o)).join('; ') || 'none'}`);
      expect(mock.warnings.filter((w) => w.startsWith('Self-check'))).toEqual([]);
      expect(mock.selfCheck).toMatchObject({ checked: mock.operations.length, violations: 0 });
    });

    it(`answers only what ${file} declares, refusals and Accept included (the self-check finds nothing)`, async () => {
      const document = await loadDocument(`${CORPUS}/${file}`);
      const mock = buildMock(document, { counts: { default: 3 }, selfCheck: true });
      const faker = createFaker();
      faker.seed(2);
      const generate = createGenerator(faker);
      const basePath = serverBasePath(document.api);
      for (const op of mock.operations) {
        const binding = mock.collections.find((c) => c.itemPath === op.path);
        const path = (unknown: boolean) =>
          op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
            const schema = op.parameters.find((p) => p.in === 'path' && p.name === name)?.schema ?? { type: 'string' };
            if (unknown && binding && name === binding.keyParam) return schema.type === 'integer' || schema.type === 'number' ? '987654' : 'zz-unknown-987654';
            return encodeURIComponent(String(generate(schema)));
          });
        const { headers, query, authQuery } = requiredInputs(op, generate);
        const json = Object.keys(op.requestBody?.content ?? {}).find((m) => /json/.test(m));
        const body = json ? JSON.stringify(generate(op.requestBody!.content[json].schema ?? {})) : undefined;
        const send = (extra: Record<string, string>, options: { unknown?: boolean; anonymous?: boolean; body?: string } = {}) => {
          const sent = { ...(options.anonymous ? {} : headers), ...(json ? { 'Content-Type': json } : {}), ...extra };
          const q = options.anonymous ? query.replace(authQuery, '') : query;
          return mock.app.request(`${basePath}${path(options.unknown ?? false)}${q ? `?${q.slice(1)}` : ''}`, { method: op.method.toUpperCase(), headers: sent, body: options.body ?? body });
        };
        const media = [...new Set(op.responses.flatMap((r) => Object.keys(r.content)))];
        const requests = [
          send({ Accept: 'application/x-nothing-declared' }),
          ...media.map((type) => send({ Accept: type })),
          send({ Accept: 'text/html;q=0.9, application/json;q=0.1' }),
          ...(op.security.some((alternative) => alternative.length > 0) && !op.security.some((alternative) => alternative.length === 0) ? [send({}, { anonymous: true })] : []),
          ...(binding ? [send({}, { unknown: true })] : []),
          ...(json ? [send({}, { body: '{"truncated": ' })] : []),
        ];
        for (const response of await Promise.all(requests)) expect(response.status, `${op.id}: ${await response.text()}`).toBeLessThan(500);
        // Each declared status and named example forced by a scenario (a forced 5xx included), in each declared media type.
        const forced = [
          ...op.responses.filter((r) => /^\d{3}$/.test(r.status)).flatMap((r) => [send({ Prefer: `code=${r.status}` }), ...Object.keys(r.content).map((type) => send({ Prefer: `code=${r.status}`, Accept: type }))]),
          ...[...new Set(op.responses.flatMap((r) => Object.values(r.content).flatMap((m) => Object.keys(m.examples ?? {}))))].map((name) => send({ Prefer: `example=${name}` })),
        ];
        await Promise.all(forced);
      }
      expect(mock.warnings.filter((w) => w.startsWith('Self-check'))).toEqual([]);
      const { checked, undeclared } = mock.selfCheck!;
      console.log(`${file}: the self-check found nothing in ${checked} answers; ${undeclared} refusals sent undeclared (no declared error fits)`);
      expect(mock.selfCheck!.violations).toBe(0);
    });
  }
});
