/**
 * What every phase of the suite works with: the document's operations and collections, a client
 * that sends cases and runs the checks on each exchange, valid bodies generated from the schemas,
 * and the records the suite created (deleted again at the end).
 */
import type { Faker } from '@faker-js/faker';
import { createFaker } from '../src/generate/create-faker.js';
import type { ValidateFunction } from 'ajv';
import type { LoadedDocument } from '../src/document/load-document.js';
import type { SchemaObject } from '../src/document/schema.js';
import { createGenerator } from '../src/generate/from-schema.js';
import { buildOperations } from '../src/operations/build-operations.js';
import { inferCollections, type Collection, type CrudAction } from '../src/operations/infer-collections.js';
import type { Operation } from '../src/operations/operation.js';
import { serverBasePath } from '../src/routing/server-base-path.js';
import { createAjv } from '../src/validation/ajv-instance.js';
import { schemaCompiler } from '../src/validation/compile-schema.js';
import { SchemaConverter } from '../src/validation/to-json-schema.js';
import { createResponseChecker } from '../src/validation/validate-response.js';
import type { Case, CheckId, Exchange, Expectation, Failure } from './case.js';
import { CHECKS } from './checks/index.js';
import type { CheckContext } from './checks/check.js';

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export interface ContractOptions {
  document: LoadedDocument;
  /** Where the implementation answers, standing in for the document's server URL. */
  baseUrl: string;
  /** The API key or token to authenticate with. */
  token?: string;
  /** Only these checks (default: all). */
  only?: CheckId[];
  /** Only cases of these operations (ids). */
  operations?: string[];
  /** Send only requests that change nothing. */
  readOnly?: boolean;
  /** Seed for generated values (default 1). */
  seed?: number;
  fetch?: Fetch;
}

export interface RequestSpec {
  label: string;
  params?: Record<string, unknown>;
  query?: string;
  body?: unknown;
  /** Raw body and headers, for cases that break the rules on purpose. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Leave out the credentials the document asks for (or replace them through `headers`). */
  anonymous?: boolean;
  expect?: Expectation;
}

export class ContractContext {
  readonly operations: Operation[];
  readonly collections: Collection[];
  readonly failures: Failure[] = [];
  readonly exchanges: Exchange[] = [];
  /** Statuses received per operation id, for the coverage table. */
  readonly received = new Map<string, Set<number>>();
  readonly generate: (schema: SchemaObject, hints?: { propertyName?: string; collection?: string }) => unknown;
  readonly faker: Faker;
  private readonly bindings: ReturnType<typeof inferCollections>['bindings'];
  private readonly created: Array<{ collection: Collection; key: unknown }> = [];
  private readonly checkContext: CheckContext;
  /** The validator of a request schema (compiled once per schema), or undefined when Ajv refuses it. */
  readonly requestValidator: (schema: SchemaObject) => ValidateFunction | undefined;
  private readonly ajv;
  private readonly converter;
  private readonly fetch: Fetch;
  private readonly baseUrl: string;

  constructor(readonly options: ContractOptions) {
    const { document } = options;
    this.operations = buildOperations(document.api);
    ({ collections: this.collections, bindings: this.bindings } = inferCollections(this.operations));
    this.ajv = createAjv(document.dialect);
    this.converter = new SchemaConverter(document.api, this.ajv, document.dialect);
    const checkResponse = createResponseChecker(this.ajv, this.converter);
    this.requestValidator = schemaCompiler(this.ajv, this.converter, 'request');
    const problems = new WeakMap<Exchange, ReturnType<typeof checkResponse>>();
    this.checkContext = {
      checkResponse,
      errorShape: usesErrorShape(document.api),
      createsRecord: (op) => this.bindings.get(op.id)?.action === 'create',
      problems: (ex) => {
        if (!problems.has(ex)) problems.set(ex, checkResponse(ex.case.operation, ex));
        return problems.get(ex)!;
      },
    };
    this.faker = createFaker();
    this.faker.seed(options.seed ?? 1);
    this.generate = createGenerator(this.faker);
    this.fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  selected(check: CheckId): boolean {
    return !this.options.only || this.options.only.includes(check);
  }

  operation(collection: Collection, action: CrudAction): Operation | undefined {
    return this.operations.find((op) => this.bindings.get(op.id)?.collection === collection && this.bindings.get(op.id)?.action === action);
  }

  binding(op: Operation) {
    return this.bindings.get(op.id);
  }

  /** Sends one request of an operation and runs every selected check on the exchange. */
  async request(op: Operation, spec: RequestSpec): Promise<Exchange> {
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(spec.params?.[name] ?? '')));
    const headers: Record<string, string> = { ...(spec.anonymous ? {} : this.credentials(op)), ...spec.headers };
    let body = spec.rawBody;
    if (body === undefined && spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const c: Case = { operation: op, method: op.method.toUpperCase(), path: `${path}${spec.query ? `?${spec.query}` : ''}`, headers, body, label: spec.label, expect: spec.expect };
    return this.send(c);
  }

  private async send(c: Case): Promise<Exchange> {
    const started = performance.now();
    const response = await this.fetch(`${this.baseUrl}${c.path}`, { method: c.method, headers: c.headers, body: c.body as RequestInit['body'] });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const exchange: Exchange = { case: c, status: response.status, headers: response.headers, text, json, ms: performance.now() - started };
    this.exchanges.push(exchange);
    if (!this.received.has(c.operation.id)) this.received.set(c.operation.id, new Set());
    this.received.get(c.operation.id)!.add(response.status);
    this.remember(exchange);
    this.evaluate(exchange);
    return exchange;
  }

  private evaluate(exchange: Exchange): void {
    const op = exchange.case.operation;
    if (this.options.operations && !this.options.operations.includes(op.id)) return;
    for (const [id, check] of Object.entries(CHECKS) as Array<[CheckId, (typeof CHECKS)[CheckId]]>) {
      if (!this.selected(id)) continue;
      const verdict = check(this.checkContext, exchange);
      if (verdict) {
        this.failures.push({ check: id, operation: `${op.method.toUpperCase()} ${op.path}`, operationId: op.id, request: `${exchange.case.method} ${exchange.case.path}`, label: exchange.case.label, ...verdict });
      }
    }
  }

  /** Records a failure found across several exchanges (no single response shows it). */
  fail(op: Operation, check: CheckId, label: string, received: string, documented: string): void {
    if (!this.selected(check) || (this.options.operations && !this.options.operations.includes(op.id))) return;
    this.failures.push({ check, operation: `${op.method.toUpperCase()} ${op.path}`, operationId: op.id, request: `${op.method.toUpperCase()} ${op.path}`, label, received, documented });
  }

  /** Every record a create answered with is deleted again at the end, whatever the case was. */
  private remember(exchange: Exchange): void {
    const binding = this.bindings.get(exchange.case.operation.id);
    if (binding?.action !== 'create' || exchange.status >= 300) return;
    const key = (exchange.json as Record<string, unknown> | undefined)?.[binding.collection.keyProperty] ?? lastSegment(exchange.headers.get('location'));
    if (key !== undefined) this.created.push({ collection: binding.collection, key });
  }

  /** Deletes what the suite created, newest first (orders before the pets they point at). */
  async cleanUp(): Promise<void> {
    for (const { collection, key } of this.created.splice(0).reverse()) {
      const remove = this.operation(collection, 'delete');
      if (remove) await this.request(remove, { label: 'clean-up', params: { [collection.keyParam]: key } });
    }
  }

  /** Credentials for an operation's first security alternative, made of the token. */
  credentials(op: Operation): Record<string, string> {
    const token = this.options.token ?? '';
    const headers: Record<string, string> = {};
    for (const { scheme } of op.security[0] ?? []) {
      if (scheme.type === 'apiKey' && scheme.in === 'header') headers[scheme.name] = token;
      else if (scheme.type === 'apiKey' && scheme.in === 'cookie') headers.Cookie = `${scheme.name}=${token}`;
      else if (scheme.type === 'http' && /^basic$/i.test(scheme.scheme)) headers.Authorization = `Basic ${Buffer.from(`${token}:`).toString('base64')}`;
      else if (scheme.type !== 'apiKey') headers.Authorization = `Bearer ${token}`;
    }
    return headers;
  }

  /** A body that satisfies the operation's JSON request schema, references pointing at `refs`. */
  validBody(op: Operation, refs: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}): Record<string, unknown> | undefined {
    const media = Object.keys(op.requestBody?.content ?? {}).find((m) => /json/i.test(m));
    const schema = media ? op.requestBody!.content[media].schema : undefined;
    if (!schema) return undefined;
    const sample = this.generate(schema, { collection: this.binding(op)?.collection.name });
    // A body that is not an object (a JSON Patch array, a string) is sent as generated.
    if (!sample || typeof sample !== 'object' || Array.isArray(sample)) return sample as Record<string, unknown>;
    return this.validObject(op, schema, refs, overrides);
  }

  private validObject(op: Operation, schema: SchemaObject, refs: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
    const validate = this.requestValidator(schema);
    let body: Record<string, unknown> = {};
    for (let attempt = 0; attempt < 10; attempt++) {
      body = { ...(this.generate(schema, { collection: this.binding(op)?.collection.name }) as Record<string, unknown>) };
      for (const [property, value] of Object.entries(refs)) if (property in body || attempt > 4) body[property] = value;
      for (const [property, value] of Object.entries(refs)) if (value === undefined) delete body[property];
      Object.assign(body, overrides);
      if (!validate || validate(body)) return body;
    }
    return body;
  }


  /** The path prefix of the document's server, for `Location` headers that include it. */
  get basePath(): string {
    return serverBasePath(this.options.document.api);
  }
}

function lastSegment(location: string | null): string | undefined {
  return location ? decodeURIComponent(location.split('?')[0].split('/').pop() ?? '') || undefined : undefined;
}

/** The document's 4xx responses use an object with code, message and status. */
function usesErrorShape(api: SchemaObject): boolean {
  const error = api.components?.schemas?.Error;
  const required: unknown[] = error?.required ?? [];
  return ['code', 'message', 'status'].every((field) => required.includes(field));
}
