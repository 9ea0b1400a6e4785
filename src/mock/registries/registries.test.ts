import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMock } from '../app.js';
import { ApiError } from '../../core/api-error.js';
import { loadDocument } from '../../openapi/document/load-document.js';
import { ROOT } from '../../test-support/petstore.js';
import type { MockPlugin } from './extension.js';
import { Registry } from '../../core/registry.js';
import { RuleRegistry } from './rules.js';

const NOTES = `${ROOT}test/documents/notes-api.yaml`;
const KEY = { 'X-API-Key': 'k-1' };
const json = { ...KEY, 'Content-Type': 'application/json' };

const PARTS_API = `
openapi: 3.0.3
info: { title: Parts, version: 1.0.0 }
paths:
  /things:
    post:
      operationId: createThing
      security: [{ sig: [] }]
      requestBody:
        required: true
        content:
          text/csv:
            schema: { type: object, required: [name], properties: { name: { type: string }, size: { type: integer } } }
      responses:
        '201': { description: Created, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
        '400': { description: Bad input, content: { application/json: { schema: { type: object, properties: { code: { type: string }, message: { type: string } } } } } }
        '401': { description: No credentials }
  /things/{thingId}:
    get:
      operationId: getThing
      parameters: [{ name: thingId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: The thing, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
        '404': { description: Not found }
  /report:
    get:
      operationId: report
      responses:
        '200': { description: A report, content: { application/xml: { schema: { type: object, required: [count], properties: { count: { type: integer } } } } } }
components:
  securitySchemes:
    sig: { type: http, scheme: signature }
  schemas:
    Thing:
      type: object
      required: [id, name]
      properties: { id: { type: integer, readOnly: true }, name: { type: string }, size: { type: integer } }
`;

/** Source files of the core: everything under src/ but the extensions, the CLI and tests. */
/** The core: everything but the extensions and the entry points that choose them by default, as the CLI does (the command, the library's createMock, the package's entries). */
function coreSources(dir = join(ROOT, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['extensions', 'test-support', 'cli', 'library'].includes(entry.name) ? [] : coreSources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && !(dir === join(ROOT, 'src') && ['cli.ts', 'index.ts', 'browser.ts'].includes(entry.name)) ? [path] : [];
  });
}

describe('registries', () => {
  it('finds parts by name whatever the case, and lets a later registration replace one', () => {
    const registry = new Registry<number>('number').register('Delay', 1).register('code', 2);
    expect([registry.get('delay'), registry.get('CODE'), registry.has('seed')]).toEqual([1, 2, false]);
    registry.register('DELAY', 3);
    expect([registry.get('delay'), registry.names()]).toEqual([3, ['delay', 'code']]);
  });

  it('runs the before hooks of one operation in order until one vetoes, and every after hook', () => {
    const seen: string[] = [];
    const rules = new RuleRegistry()
      .register('op', { before: () => void seen.push('a'), after: () => void seen.push('a:after') })
      .register('op', { before: () => (seen.push('b'), new ApiError(409, 'NO', 'no')) })
      .register('op', { before: () => void seen.push('c'), after: () => void seen.push('c:after') });
    const rule = rules.for('op')!;
    expect(rule.before!({} as never)).toMatchObject({ status: 409 });
    rule.after!({} as never);
    expect(seen).toEqual(['a', 'b', 'a:after', 'c:after']);
    expect(rules.for('other')).toBeUndefined();
  });
});

describe('plugins', () => {
  it('register rules and seed hooks for a document they serve, through the parts anyone can use', async () => {
    const stamp: MockPlugin = {
      name: 'stamp',
      mock(parts, document) {
        if (!document.operationIds.has('createNote')) return false;
        parts.rules.register('createNote', {
          before: (ctx) => (String((ctx.input.body as { text: string }).text).includes('forbidden') ? new ApiError(422, 'FORBIDDEN_WORD', 'no') : undefined),
          after: (ctx) => void ctx.store.collection('notes').update(ctx.record!.id, { text: `${String(ctx.record!.text)} (stamped)` }),
        });
        parts.seedHooks.push((store) => {
          for (const note of [...store.collection('notes').all()]) store.collection('notes').update(note.id, { text: 'seeded' });
        });
        return true;
      },
    };
    const unused: MockPlugin = { name: 'unused', mock: () => false };
    const mock = buildMock(await loadDocument(NOTES), { apiKeys: ['k-1'], counts: { default: 2 }, plugins: [stamp, unused] });
    expect(mock.plugins).toEqual(['stamp']);
    const list = (await (await mock.app.request("/api/notes", { headers: KEY })).json()) as Array<{ text: string }>;
    expect(list.map((note: { text: string }) => note.text)).toEqual(['seeded', 'seeded']);
    const created = await mock.app.request('/api/notes', { method: 'POST', headers: json, body: JSON.stringify({ text: 'hello' }) });
    const { id } = (await created.json()) as { id: string };
    expect(((await (await mock.app.request(`/api/notes/${id}`, { headers: KEY })).json()) as { text: string }).text).toBe('hello (stamped)');
    const vetoed = await mock.app.request('/api/notes', { method: 'POST', headers: json, body: JSON.stringify({ text: 'forbidden' }) });
    // 422 is not declared: it is answered as the nearest declared error, 400, in the document's error shape (problem details).
    expect([vetoed.status, vetoed.headers.get('content-type'), await vetoed.json()]).toEqual([400, 'application/problem+json', { type: 'about:blank', title: 'Forbidden word', status: 400, detail: 'no' }]);
  });

  it('add a security scheme, a Prefer directive, a request media type and a response media type through the registries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parts-'));
    writeFileSync(join(dir, 'openapi.yaml'), PARTS_API);
    const signed: MockPlugin = {
      name: 'signed-csv',
      mock(parts) {
        parts.securitySchemes.register('http:signature', {
          check: (_scheme, credentials, keys) => {
            const sent = credentials.header('signature');
            return !sent ? 'missing' : keys.has(sent.replace(/^signed:/, '')) ? 'ok' : 'unknown';
          },
        });
        parts.preferDirectives.register('size', (value, scenario) => {
          if (!/^\d+$/.test(value)) return 'the size is a whole number';
          scenario.extra = { ...scenario.extra, size: Number(value) };
        });
        parts.bodyDecoders.register('text/csv', (bytes) => {
          const [head, row] = Buffer.from(bytes).toString('utf8').trim().split('\n');
          const values = row.split(',');
          return Object.fromEntries(head.split(',').map((name, i) => [name, /^\d+$/.test(values[i]) ? Number(values[i]) : values[i]]));
        });
        parts.bodyEncoders.register('application/xml', (value) => `<report>${Object.entries(value as object).map(([k, v]) => `<${k}>${String(v)}</${k}>`).join('')}</report>`);
        parts.rules.register('createThing', {
          before: (ctx) => {
            const size = ctx.input.scenario?.extra?.size;
            if (size !== undefined) (ctx.input.body as { size?: unknown }).size = size;
          },
        });
        return true;
      },
    };
    const document = await loadDocument(join(dir, 'openapi.yaml'));
    const plain = buildMock(document, { apiKeys: ['k-1'] });
    const csv = { 'Content-Type': 'text/csv', signature: 'signed:k-1' };
    // Without the extension: the scheme cannot be checked (anyone gets in) and CSV is kept as bytes (refused by the schema).
    expect((await plain.app.request('/things', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: 'name,size\nRex,3' })).status).toBe(400);
    const mock = buildMock(document, { apiKeys: ['k-1'], plugins: [signed], counts: { default: 0 } });
    expect((await mock.app.request('/things', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: 'name,size\nRex,3' })).status).toBe(401);
    const created = await mock.app.request('/things', { method: 'POST', headers: { ...csv, Prefer: 'size=7' }, body: 'name,size\nRex,3' });
    expect([created.status, await created.json()]).toEqual([201, { id: 1, name: 'Rex', size: 7 }]);
    const badPreference = await mock.app.request('/things', { method: 'POST', headers: { ...csv, Prefer: 'size=big' }, body: 'name,size\nRex,3' });
    expect([badPreference.status, ((await badPreference.json()) as { message: string }).message]).toEqual([400, 'Prefer size=big: the size is a whole number.']);
    const report = await mock.app.request('/report');
    expect([report.headers.get('content-type'), await report.text()]).toEqual(['application/xml', expect.stringMatching(/^<report><count>-?\d+<\/count><\/report>$/)]);
    expect(await (await plain.app.request('/report')).text()).toBe(''); // no encoder: an empty body
  });

  it('are never imported by the core: the Petstore is one extension among others', () => {
    const offenders = coreSources().filter((file) => /from '[^']*extensions\//.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(ROOT, file))).toEqual([]);
    expect(coreSources().length).toBeGreaterThan(50);
  });
});
