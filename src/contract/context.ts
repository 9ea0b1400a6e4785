/**
 * What every phase of the suite works with: the document's operations and collections, a client
 * that judges each case with the document's request validator, sends it and runs the checks on
 * the exchange, valid bodies generated from the schemas, and the records the suite created
 * (deleted again at the end).
 */
import type { Faker } from '@faker-js/faker';
import { createFaker } from '../generate/create-faker.js';
import type { ValidateFunction } from 'ajv';
import type { LoadedDocument } from '../document/document.js';
import type { ParameterSpec, SchemaObject } from '../document/schema.js';
import { createGenerator } from '../generate/from-schema.js';
import { buildOperations } from '../operations/build-operations.js';
import type { Collection, CrudAction, Reference } from '../operations/collection.js';
import { inferCollections } from '../operations/infer-collections.js';
import { referencesIn } from '../operations/record-references.js';
import { mergedProperties } from '../operations/schema-properties.js';
import type { Operation } from '../operations/operation.js';
import { serverBasePath } from '../routing/server-base-path.js';
import { createAjv } from '../validation/ajv-instance.js';
import { schemaCompiler } from '../validation/compile-schema.js';
import { SchemaConverter } from '../validation/to-json-schema.js';
import { createResponseChecker } from '../validation/validate-response.js';
import type { Problem } from '../core/problem.js';
import type { Case, CheckId, Exchange } from './case.js';
import { checkContext } from './checks/check.js';
import { RequestComposer, type RequestSpec } from './compose-request.js';
import { Evaluator, type CheckRegistry } from './evaluate.js';
import { Confirmation, type Claim } from './confirmation.js';
import { RunMarker } from './marker.js';
import { RequestBodies, requestSchema } from './request-bodies.js';
import { ChosenKeys } from './chosen-keys.js';
import { OwnRecords } from './own-records.js';
import { templateFinder } from '../operations/path-template.js';
import { isCreate, isRead, unownedReference, unprovenTarget, unsafeWrite } from './safety.js';
import { fetchSender, wireSender, type Fetch, type Limits, type Sender } from './transport.js';
import { Results } from './results.js';
import { listItems } from './list-items.js';
import { parameterValue, type ValueSources } from './parameter-value.js';
import { ExploreBudget } from './explore/budget.js';
import { Turns } from './turns.js';

/** How a run reaches the implementation and treats it, whatever the document and the checks selected (the library's `runContract` takes these as they are). */
export interface ContractSettings {
  /** Where the implementation answers, standing in for the document's server URL. */
  baseUrl: string;
  /** The API key or token to authenticate with. */
  token?: string;
  /** Send only requests that change nothing. */
  readOnly?: boolean;
  /**
   * Operation ids whose writes are sent even though the suite cannot prove they touch only its own
   * records (`all`: every operation, for a disposable server): the caller vouches for them.
   */
  allowWrites?: string[];
  /** Seed for generated values and exploration (default 1): the same seed sends the same cases in the same order. */
  seed?: number;
  /** Explore past the fixed checks (default true): generated inputs and sequences, within the budget below. */
  explore?: boolean;
  /** Requests exploration may send (default DEFAULT_BUDGET.requests, explore/budget.ts); the fixed checks are not counted. */
  budgetRequests?: number;
  /** Milliseconds exploration may take (default DEFAULT_BUDGET.ms). */
  budgetMs?: number;
  /** Operations and collections explored at once, on records of their own, their requests overlapping (default EXPLORE_LANES, explore/budget.ts; 1: one after another). */
  exploreLanes?: number;
  fetch?: Fetch;
  /** How long one answer may take (default 10 s). */
  requestTimeoutMs?: number;
  /** How much of one answer is read (default 10 MB): past it, the answer is a failure, not a crash. */
  maxResponseBytes?: number;
  /** Headers sent with every request (`-H`); an unauthenticated case leaves out the credential ones. */
  headers?: Record<string, string>;
  /** Called after every exchange (the CLI's progress line). */
  onExchange?: (exchange: Exchange, sent: number) => void;
}

export interface ContractOptions extends ContractSettings {
  document: LoadedDocument;
  /** Only these checks (default: all). */
  only?: CheckId[];
  /** Only cases of these operations (ids). */
  operations?: string[];
}

/** A request that could change records the suite did not create: never sent (a phase checks `ctx.unsafe` first and skips). */
export class UnsafeRequestError extends Error {
  override readonly name = 'UnsafeRequestError';
  constructor(
    readonly operation: Operation,
    readonly reason: string,
  ) {
    super(`${operation.method.toUpperCase()} ${operation.path} not sent: ${reason}`);
  }
}

/** The run's overall time ran out (`--timeout`): the phases stop, the clean-up still runs. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}


export class ContractContext {
  readonly operations: Operation[];
  readonly collections: Collection[];
  readonly exchanges: Exchange[] = [];
  readonly results: Results;
  /** Every check id the run knows (built-in and from its plugins), selected or not. */
  readonly checkIds: CheckId[];
  /** Statuses received per operation id, for the coverage table. */
  readonly received = new Map<string, Set<number>>();
  readonly generate: (schema: SchemaObject, hints?: { propertyName?: string; collection?: string }) => unknown;
  /** Values from a schema alone, with no example of the rest of the document (parameters, keys no record has). */
  readonly generateOwn: (schema: SchemaObject, hints?: { propertyName?: string }) => unknown;
  readonly faker: Faker;
  private readonly bindings: ReturnType<typeof inferCollections>['bindings'];
  /** Every record a request of the suite created. */
  readonly own: OwnRecords;
  /** The value the suite writes into a free text field of what it creates, to find its records in lists. */
  readonly marker = new RunMarker();
  /** Records created that the clean-up could not delete (no DELETE for them, or it was refused). */
  readonly leftBehind: string[] = [];
  /** How a request spec becomes a case: credentials, extra and required parameters, the body. */
  private readonly composer: RequestComposer;
  /** How an exchange is judged by the selected checks. */
  private readonly evaluator: Evaluator;
  /** The validator of a request schema (compiled once per schema), or undefined when Ajv refuses it. */
  readonly requestValidator: (schema: SchemaObject) => ValidateFunction | undefined;
  private readonly ajv;
  private readonly converter;
  /** How a case goes out: the `fetch` given, or over sockets (transport.ts). */
  private readonly sender: Sender;
  private readonly closeSender: () => Promise<void>;
  private readonly baseUrl: string;
  /** Lanes of exploration whose requests overlap, a seed still sending the same ones (turns.ts). */
  readonly turns = new Turns();
  /** Judges every case with the document's request validator before it is sent (see Confirmation). */
  readonly confirmation: Confirmation;
  /** Valid request bodies, made safe and confirmed by the document's schemas (see request-bodies.ts). */
  readonly bodies: RequestBodies;
  /** Fresh keys for creates whose body carries a key the client must choose (see chosen-keys.ts). */
  readonly keys: ChosenKeys;

  constructor(
    readonly options: ContractOptions,
    private readonly checks: CheckRegistry,
  ) {
    this.checkIds = [...checks.keys()];
    this.budget = new ExploreBudget({ requests: options.budgetRequests, ms: options.budgetMs }, () => performance.now(), () => this.exchanges.length);
    const { document } = options;
    this.operations = buildOperations(document.api);
    this.results = new Results(
      [...checks.keys()].filter((id) => this.selected(id)),
      this.operations.filter((op) => this.inScope(op)),
    );
    ({ collections: this.collections, bindings: this.bindings } = addressable(inferCollections(this.operations)));
    this.valueSources.collections = this.collections;
    this.own = new OwnRecords(this.collections, (op) => this.binding(op), this.marker);
    this.ajv = createAjv(document.dialect);
    this.converter = new SchemaConverter(document.api, this.ajv, document.dialect);
    const checkResponse = createResponseChecker(this.ajv, this.converter);
    this.requestValidator = schemaCompiler(this.ajv, this.converter, 'request');
    this.confirmation = new Confirmation(document, this.ajv, this.converter);
    const context = checkContext(checkResponse);
    this.faker = createFaker();
    this.faker.seed(options.seed ?? 1);
    this.generate = createGenerator(this.faker, { document: document.api });
    this.generateOwn = createGenerator(this.faker);
    this.keys = new ChosenKeys({
      marker: this.marker,
      accepts: (schema, value) => this.requestValidator(schema)?.(value) !== false,
      generate: this.generate,
      keyParameter: (c) => this.operations.find((op) => op.path === c.itemPath)?.parameters.find((p) => p.in === 'path' && p.name === c.keyParam)?.schema,
    });
    this.bodies = new RequestBodies({ generate: this.generate, validator: this.requestValidator, binding: (op) => this.binding(op), marker: this.marker, keys: this.keys });
    const wire = options.fetch ? undefined : wireSender();
    this.sender = wire?.send ?? fetchSender(options.fetch!);
    this.closeSender = wire?.close ?? (async () => undefined);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.composer = new RequestComposer(options, (op, parameter) => this.parameterValue(op, parameter));
    this.evaluator = new Evaluator(checks, this.results, this, context, { baseUrl: this.baseUrl, token: options.token, history: this.exchanges, freshContext: () => checkContext(checkResponse) });
  }

  selected(check: CheckId): boolean {
    return !this.options.only || this.options.only.includes(check);
  }

  /** The operations the run judges (all, or those named with --operation). */
  inScope(op: Operation): boolean {
    return !this.options.operations || this.options.operations.includes(op.id);
  }

  /** What a check applies to (the reason it judged nothing for an operation outside its scope). */
  scopeOf(check: CheckId): string {
    return this.checks.get(check)?.scope ?? 'no request of the run fell in its scope for this operation';
  }

  /** Says why a check did not judge an operation (shown when nothing else judged it). */
  skip(checks: CheckId | CheckId[], op: Operation, reason: string): void {
    for (const check of Array.isArray(checks) ? checks : [checks]) this.results.skip(check, op.id, reason);
  }

  operation(collection: Collection, action: CrudAction): Operation | undefined {
    return this.operations.find((op) => this.bindings.get(op.id)?.collection === collection && this.bindings.get(op.id)?.action === action);
  }

  binding(op: Operation) {
    return this.bindings.get(op.id);
  }

  /**
   * Sends one request of an operation and runs every selected check on the exchange, once the
   * document's validator has confirmed the case is what it claims (see Confirmation). A case it
   * does not confirm is not sent: the answer is then an exchange with status 0 that says why.
   */
  async request(op: Operation, spec: RequestSpec): Promise<Exchange> {
    // A key the suite does not have is never written as `undefined` or an empty segment (`GET /roles/`): the request is not sent, and says why.
    // (A case that breaks that parameter on purpose, `path.provider beyond its minLength 1`, is sent empty.)
    const keyless = [...op.path.matchAll(/\{([^}]+)\}/g)]
      .map((m) => m[1])
      .find((name) => spec.params && name in spec.params && spec.breaks?.at !== `path.${name}` && (spec.params[name] === undefined || spec.params[name] === null || spec.params[name] === ''));
    if (keyless) {
      const { c } = this.composer.caseOf(op, { ...spec, params: { ...spec.params, [keyless]: 'none' } });
      const reason = `no value for its path parameter \`${keyless}\`: the record's key was not found in the answer, its Location or its path`;
      this.skip(c.purpose?.check ?? 'positive_data_acceptance', op, `not sent (${c.label}): ${reason}`);
      return this.confirmation.unsent(c, reason);
    }
    // By construction: a request that could change records the suite did not create is never sent (the clean-up deletes only its own).
    const unsafe = spec.intent === 'cleanup' ? undefined : this.unsafe(op, spec.params ?? {});
    if (unsafe) throw new UnsafeRequestError(op, this.neverSent(op, unsafe));
    if (spec.intent !== 'cleanup') {
      const keyed = await this.chosenKey(op, spec);
      if (typeof keyed === 'string') {
        const { c } = this.composer.caseOf(op, spec);
        this.skip(c.purpose?.check ?? 'positive_data_acceptance', op, `not sent (${c.label}): ${keyed}`);
        return this.confirmation.unsent(c, keyed);
      }
      spec = keyed;
    }
    const { c, plain } = this.composer.caseOf(op, spec);
    // A body that refers to a record of others is not sent either; the phase carries on without it.
    const naming = spec.intent === 'cleanup' || this.vouchedFor(op) || isRead(op) ? undefined : this.unownedReference(op, spec.body);
    if (naming) {
      this.neverSent(op, naming);
      this.skip(c.purpose?.check ?? 'positive_data_acceptance', op, `not sent (${c.label}): ${naming}`);
      return this.confirmation.unsent(c, naming);
    }
    const claim: Claim = c.intent === 'cleanup' ? { unjudged: 'a clean-up' } : spec.unjudged ? { unjudged: spec.unjudged } : spec.breaks ? { breaks: spec.breaks } : { valid: true };
    const refusal = await this.confirmation.refusal(op, plain, claim);
    if (refusal) {
      this.skip(c.purpose?.check ?? 'positive_data_acceptance', op, `not sent (${c.label}): ${refusal}`);
      return this.confirmation.unsent(c, refusal);
    }
    return this.send(c, claim, spec.params ?? {}, spec.once);
  }

  /**
   * A create whose body carries a key the client must choose is sent with a key never sent
   * before (a case built from another's body gets a fresh one), once a read showed it free:
   * the spec to send, or why it is not sent.
   */
  private async chosenKey(op: Operation, spec: RequestSpec): Promise<RequestSpec | string> {
    const binding = this.binding(op);
    const body = spec.body;
    if (binding?.action !== 'create' || !body || typeof body !== 'object' || Array.isArray(body)) return spec;
    const { collection } = binding;
    const schema = requestSchema(op);
    let key = (body as Record<string, unknown>)[collection.keyProperty];
    if (typeof key !== 'string' || !this.keys.chosenBy(op, collection, schema)) return spec;
    if (this.keys.usedBefore(key)) {
      key = this.keys.fresh(collection, mergedProperties(schema!)[collection.keyProperty]);
      spec = { ...spec, body: { ...body, [collection.keyProperty]: key } };
    }
    const scope = spec.params ?? {};
    if (!(await this.keyShownFree(collection, key, scope))) return `no read showed ${collection.keyProperty} ${JSON.stringify(key)} free, and the suite chooses only free keys`;
    this.keys.sentWith(key);
    return spec;
  }

  /**
   * True when a read showed no record at this key: 404, a refusal of the key (400, 422), or the
   * status the server answers for a key that cannot exist (403 on a CMS, learnt from a key made
   * of the run's marker or a record the suite deleted). Without a read operation, never.
   */
  async keyShownFree(collection: Collection, key: unknown, scope: Record<string, unknown>): Promise<boolean> {
    if (this.own.isFree(collection, key, scope)) return true;
    const read = this.operation(collection, 'read');
    if (!read) return false;
    const exchange = await this.request(read, { label: `check that ${collection.keyProperty} ${String(key)} is free before choosing it`, params: { ...scope, [collection.keyParam]: key }, intent: 'unknown' });
    if (this.keys.cannotExist(key) && [403, 410].includes(exchange.status) && !this.own.unknownAnswers(collection).has(exchange.status)) {
      this.own.learnUnknown(collection, exchange.status);
      this.own.markFree(collection, key, scope);
    }
    return this.own.isFree(collection, key, scope);
  }

  /** What the document's validator finds wrong with a request (nothing: it is valid), without sending it. */
  problems(op: Operation, spec: RequestSpec): Promise<Problem[]> {
    return this.confirmation.problems(op, this.composer.caseOf(op, spec).plain);
  }

  /** False for the answer to a case that was not sent (the validator did not confirm it). */
  sent(exchange: Exchange): boolean {
    return this.confirmation.wasSent(exchange);
  }

  /** When the run must stop sending (an absolute `performance.now()` time), set by runContract from --timeout. */
  deadline = Infinity;

  /** Exploration's budget, counted from the first time an explorer asks (the fixed checks never spend it). */
  readonly budget: ExploreBudget;

  /**
   * What exploration may still send before the next case or sequence (requests, milliseconds), or
   * undefined when it may send nothing more: exploration is off (`explore: false`, `--no-explore`),
   * its budget is spent, or the run's --timeout is past. Every explorer asks before each case.
   */
  exploreBudget(): { requests: number; ms: number } | undefined {
    if (this.options.explore === false) return undefined;
    const left = this.budget.remaining();
    if (!left) return undefined;
    const ms = Math.min(left.ms, this.deadline - performance.now());
    return ms > 0 ? { requests: left.requests, ms } : undefined;
  }

  /**
   * Sends a case (see transport.ts: timeouts, the size cap, no redirects), then records and judges
   * the exchange. A finding a second sending must confirm (a valid request refused, a 5xx the
   * suite's own write provoked) is confirmed here: the same request is sent once more when that is
   * safe (a read, or a write `unsafe` allows; a create sent again makes a record of the suite's),
   * and the answer decides whether it is reported or flaky. The caller gets the accepted answer
   * when the second sending was accepted.
   */
  private async send(c: Case, claim: Claim, params: Record<string, unknown>, once = false): Promise<Exchange> {
    const exchange = await this.exchange(c);
    this.confirmation.sent(claim);
    const judged = this.evaluator.evaluate(exchange);
    this.options.onExchange?.(exchange, this.exchanges.length);
    if (judged.pending.length === 0) return exchange;
    const why = once ? 'a check before the run, which stops it on a refusal' : this.mayNotRepeat(c, params);
    if (why) {
      this.evaluator.unconfirmed(judged.pending, why);
      return exchange;
    }
    const again = await this.exchange(c);
    this.confirmation.sent(claim);
    this.evaluator.confirm(judged, again);
    this.options.onExchange?.(again, this.exchanges.length);
    return again.status >= 200 && again.status < 400 ? again : exchange;
  }

  /** Why a case may not be sent a second time to confirm a finding, or undefined when it may. */
  private mayNotRepeat(c: Case, params: Record<string, unknown>): string | undefined {
    if (c.intent === 'cleanup') return 'a clean-up request';
    if (performance.now() > this.deadline) return 'the run reached its --timeout';
    if (c.method === 'GET' || c.method === 'HEAD') return undefined;
    if (this.options.readOnly) return '--read-only';
    const unsafe = this.unsafe(c.operation, params);
    return unsafe && `it could change records the suite did not create (${unsafe})`;
  }

  /** One request and its answer, recorded (the statuses per operation, the records it may have made). */
  private async exchange(c: Case): Promise<Exchange> {
    if (c.intent !== 'cleanup' && performance.now() > this.deadline) throw new DeadlineError('the run took longer than its --timeout');
    const exchange = await this.turns.send(() => this.sender(`${this.baseUrl}${c.path}`, c, this.limits()), this.writeKey(c));
    this.exchanges.push(exchange);
    this.turns.own<Exchange>()?.push(exchange);
    if (exchange.status) {
      if (!this.received.has(c.operation.id)) this.received.set(c.operation.id, new Set());
      this.received.get(c.operation.id)!.add(exchange.status);
    }
    this.own.observe(exchange);
    this.noteShownKeys(exchange);
    return exchange;
  }

  /** What a write changes, for lanes (turns.ts): its collection, else its path; undefined for a read. */
  private writeKey(c: Case): string | undefined {
    if (c.method === 'GET' || c.method === 'HEAD' || c.method === 'OPTIONS') return undefined;
    return this.binding(c.operation)?.collection.path ?? c.operation.path;
  }

  /** Writes other lanes sent to the collection (turns.ts): answered before the caller's next request, or all so far. */
  writesByOthers(collection: Collection, answered = false): number {
    return this.turns.writesByOthers(collection.path, answered);
  }

  /** The exchanges of the lane the caller runs in (all of the run's outside lanes), in order: what a step sent is the tail it added. */
  laneExchanges(): readonly Exchange[] {
    return this.turns.own<Exchange>() ?? this.exchanges;
  }

  /** Notes the keys a list answered with (a 2xx of a list the document describes). */
  private noteShownKeys(exchange: Exchange): void {
    const binding = this.binding(exchange.case.operation);
    if (binding?.action !== 'list' || exchange.status < 200 || exchange.status >= 300 || binding.collection.scopeParams.length) return;
    const keys = this.shownKeys.get(binding.collection) ?? [];
    for (const item of listItems(binding.collection, exchange.json)) {
      const key = item?.[binding.collection.keyProperty];
      if (keys.length < 20 && key !== undefined && key !== null && !keys.some((k) => String(k) === String(key))) keys.push(key);
    }
    this.shownKeys.set(binding.collection, keys);
  }

  /**
   * Sends a GET case outside the run: not recorded, not judged (the address check's path that the
   * document does not have, whose answer is compared with those of the document's paths).
   */
  peek(c: Case): Promise<Exchange> {
    return this.sender(`${this.baseUrl}${c.path}`, { ...c, method: 'GET', body: undefined }, this.limits());
  }

  /** The bounds of one answer: --request-timeout (default 10 s) and --max-response-bytes (default 10 MB). */
  private limits(): Limits {
    return { timeoutMs: this.options.requestTimeoutMs ?? 10_000, maxBytes: this.options.maxResponseBytes ?? 10 * 1024 * 1024 };
  }

  /** Ends the connections the run kept open (nothing to do for a `fetch` given). */
  close(): Promise<void> {
    return this.closeSender();
  }

  /** Records a failure found across several exchanges (no single response shows it). */
  fail(op: Operation, check: CheckId, label: string, received: string, documented: string): void {
    this.evaluator.fail(op, check, label, received, documented);
  }

  /**
   * A valid request (`label`) refused, then accepted with another valid body (`how`): its refusal
   * is reported once, as a gap of the document (a rule it does not state), not a broken promise.
   */
  unstatedRule(op: Operation, label: string, how: string, check: CheckId = 'positive_data_acceptance'): void {
    this.results.toGap(check, op.id, label, how);
  }

  /** Records a pass found across several exchanges. */
  passed(op: Operation, check: CheckId): void {
    this.evaluator.passed(op, check);
  }

  /**
   * Why a request to an operation, with these path parameters, could change records the suite did
   * not create (see safety.ts), or undefined when it is a read, a create, or aimed at the suite's own.
   */
  unsafe(op: Operation, params: Record<string, unknown>): string | undefined {
    if (this.vouchedFor(op)) return undefined;
    const { reason, proven } = this.writeShape(op);
    if (reason || proven) return reason;
    return unprovenTarget(op, params, this.collections, (c, key, scope) => this.isOwn(c, key, scope), (c, key, scope) => this.own.isFree(c, key, scope), isCreate(op, this.binding(op)));
  }

  /**
   * Why a write's body refers to a record the suite did not create (see unownedReference), or
   * undefined: each property that refers to another collection (or to the record's own, `parent`)
   * holds the key of a record of the suite's, a key a read showed free, or no key at all.
   */
  unownedReference(op: Operation, body: unknown): string | undefined {
    let references = this.bodyReferences.get(op);
    if (!references) {
      const schema = requestSchema(op);
      this.bodyReferences.set(op, (references = schema ? referencesIn(schema, this.binding(op)?.collection, this.collections) : []));
    }
    const known = (c: Collection, value: unknown) => this.own.keys(c).some((key) => String(key) === String(value)) || this.own.isFree(c, value);
    const fitsKey = (c: Collection, value: unknown) => this.requestValidator(c.keySchema)?.(value) !== false;
    return unownedReference(body, references, this.collections, known, fitsKey);
  }

  private readonly bodyReferences = new Map<Operation, Reference[]>();

  /**
   * Requests refused because they could change records of others, by operation (the first reason
   * each): an operation none of whose valid requests was sent is listed under `Never sent` with it.
   */
  readonly refusedWrites = new Map<Operation, string>();

  /** Notes that a request of the operation was not sent, and why; gives the reason back. */
  neverSent(op: Operation, reason: string): string {
    if (!this.refusedWrites.has(op)) this.refusedWrites.set(op, reason);
    return reason;
  }

  /**
   * What the document alone says of an operation's writes, worked out once per operation (every
   * request asks): why it is unsafe, or `proven` when it is safe whatever its parameters (a read,
   * a create on a collection); otherwise its path parameters decide.
   */
  private writeShape(op: Operation): { reason?: string; proven: boolean } {
    let shape = this.writeShapes.get(op);
    if (!shape) {
      const binding = this.binding(op);
      const reason = unsafeWrite(op, binding, this.collections);
      // A create under a parent (`POST /fields/{collection}`) is proven only by its path parameters, as a write to one record is.
      shape = { reason, proven: !reason && (isRead(op) || (isCreate(op, binding) && !/\{/.test(op.path))) };
      this.writeShapes.set(op, shape);
    }
    return shape;
  }

  private readonly writeShapes = new Map<Operation, { reason?: string; proven: boolean }>();

  /** True when the caller vouched that the operation's writes touch nothing of others (--allow-write). */
  vouchedFor(op: Operation): boolean {
    const allowed = this.options.allowWrites ?? [];
    return allowed.includes('all') || allowed.includes(op.id);
  }

  /** The keys of the records of a collection the suite created and has not deleted yet. */
  ownKeys(collection: Collection): unknown[] {
    return this.own.keys(collection);
  }

  /** True when the suite created this record (or the record it belongs to: the inventory item of its own pet); `scope`: its parents' keys in a nested collection. */
  isOwn(collection: Collection, key: unknown, scope?: Record<string, unknown>): boolean {
    return this.own.has(collection, key, this.collections, scope);
  }

  /** The operations of each method, ranked and compiled once for operationAt. */
  private readonly finders = new Map<string, ReturnType<typeof templateFinder<Operation>>>();

  /** The operation of a method whose path matches a URL or path (the most specific first), with its path parameters. */
  operationAt(method: string, location: string | undefined): { op: Operation; params: Record<string, unknown> } | undefined {
    if (!location) return undefined;
    let find = this.finders.get(method);
    if (!find) this.finders.set(method, (find = templateFinder(this.operations.filter((o) => o.method === method), this.basePath, (op) => op.path)));
    const found = find(new URL(location, `${this.baseUrl}/`).pathname);
    return found && { op: found.item, params: found.params };
  }

  /**
   * The value of a parameter a valid request sends: from the operation itself and what the server
   * has shown (see parameter-value.ts), a few draws until its schema accepts one.
   */
  parameterValue(op: Operation, parameter: ParameterSpec): unknown {
    const validate = this.requestValidator(parameter.schema);
    let value: unknown;
    for (let draw = 0; draw < 10; draw++) {
      value = parameterValue(this.valueSources, op, parameter);
      if (!validate || validate(value)) break;
    }
    return value;
  }

  private readonly valueSources: ValueSources = {
    collections: [],
    binding: (op) => this.binding(op),
    existingKeys: (collection) => [...this.own.keys(collection), ...(this.shownKeys.get(collection) ?? [])],
    generateOwn: (schema, propertyName) => this.generateOwn(schema, { propertyName }),
    accepts: (schema, value) => this.requestValidator(schema)?.(value) !== false,
  };

  /** Keys of records the lists the suite read showed (at most 20 per collection): records that exist, for filters that refer to them. */
  private readonly shownKeys = new Map<Collection, unknown[]>();

  /** A value its schema accepts (a few draws), or the last drawn when none is known to be. */
  validValue(schema: SchemaObject, propertyName?: string): unknown {
    const validate = this.requestValidator(schema);
    let value: unknown;
    for (let draw = 0; draw < 10; draw++) {
      value = this.generate(schema, { propertyName });
      if (!validate || validate(value)) break;
    }
    return value;
  }

  /** Credentials for one of an operation's security alternatives (the first by default), made of the token: headers, and a query string for an apiKey in the query. */
  credentials(op: Operation, token = this.options.token ?? '', alternative = 0): { headers: Record<string, string>; query: string } {
    return this.composer.credentials(op, token, alternative);
  }

  /** The path prefix of the document's server, for `Location` headers that include it. */
  get basePath(): string {
    return serverBasePath(this.options.document.api);
  }
}

/**
 * The collections whose records have an item path, and the bindings to them. Those with none (a
 * list and a create on one path, a create nothing lists) are left out: the suite could not delete
 * what it created there, so it treats their operations as before, as operations no collection explains.
 */
function addressable({ collections, bindings }: ReturnType<typeof inferCollections>): ReturnType<typeof inferCollections> {
  const kept = collections.filter((c) => c.itemPath !== '');
  const known = (name: string) => kept.some((c) => c.name === name);
  for (const collection of kept) {
    collection.children = collection.children.filter(known);
    collection.references = collection.references.filter((r) => known(r.collection));
  }
  return { collections: kept, bindings: new Map([...bindings].filter(([, binding]) => binding.collection.itemPath !== '')) };
}
