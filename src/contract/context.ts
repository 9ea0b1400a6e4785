/**
 * What every phase of the suite works with: the document's operations and collections, a client
 * that judges each case with the document's request validator, sends it and runs the checks on
 * the exchange, valid bodies generated from the schemas, and the records the suite created
 * (deleted again at the end).
 */
import type { Faker } from '@faker-js/faker';
import type { ValidateFunction } from 'ajv';
import type { ParameterSpec, SchemaObject } from '../openapi/document/schema.js';
import type { Collection, CrudAction, CrudBinding } from '../openapi/operations/collection.js';
import type { Operation } from '../openapi/operations/operation.js';
import { serverBasePath } from '../openapi/operations/server-base-path.js';
import { compileDocument, type CompiledDocument } from '../openapi/validation/compiled-document.js';
import type { Problem } from '../core/problem.js';
import type { Case, CheckId, Exchange } from './case.js';
import { checkContext } from './checks/check.js';
import { RequestComposer, type RequestSpec } from './compose-request.js';
import { Evaluator, type CheckRegistry } from './evaluate.js';
import { Confirmation, type Claim } from './confirmation.js';
import { RunMarker } from './marker.js';
import type { RequestBodies } from './request-bodies.js';
import type { ChosenKeys } from './chosen-keys.js';
import { OwnRecords } from './own-records.js';
import { templateFinder } from '../openapi/operations/path-template.js';
import { isRead } from './safety.js';
import { fetchSender, wireSender, type Limits, type Sender } from './transport.js';
import { Results } from './results.js';
import { ExploreBudget } from './explore/budget.js';
import { Turns } from './turns.js';
import { addressable } from './addressable.js';
import { WriteGuard } from './write-guard.js';
import { keyShownFree, withChosenKey } from './choose-key.js';
import { RunValues } from './run-values.js';
import { DeadlineError, UnsafeRequestError, type ContractOptions } from './contract-options.js';

export { DeadlineError, UnsafeRequestError, type ContractOptions, type ContractSettings } from './contract-options.js';

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
  private readonly bindings: Map<string, CrudBinding>;
  /** Values the run sends: generated, drawn for parameters, keys lists showed (run-values.ts). */
  private readonly values: RunValues;
  /** Which requests may be sent without touching records of others (write-guard.ts). */
  private readonly guard: WriteGuard;
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
  /** The document compiled once (given in the options, or the run's own): the operations, collections and validators. */
  readonly compiled: CompiledDocument;
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
    this.compiled = options.compiled ?? compileDocument(document);
    this.operations = this.compiled.operations;
    this.results = new Results(
      [...checks.keys()].filter((id) => this.selected(id)),
      this.operations.filter((op) => this.inScope(op)),
    );
    ({ collections: this.collections, bindings: this.bindings } = addressable(this.compiled));
    this.own = new OwnRecords(this.collections, (op) => this.binding(op), this.marker);
    this.guard = new WriteGuard({ collections: this.collections, binding: (op) => this.binding(op), own: this.own, allowWrites: options.allowWrites ?? [], requestValidator: this.compiled.requestValidator });
    const { checkResponse } = this.compiled;
    this.requestValidator = this.compiled.requestValidator;
    this.confirmation = new Confirmation(this.compiled);
    const context = checkContext(checkResponse);
    this.values = new RunValues({ document: document.api, seed: options.seed ?? 1, operations: this.operations, collections: this.collections, binding: (op) => this.binding(op), own: this.own, marker: this.marker, requestValidator: this.requestValidator });
    ({ faker: this.faker, generate: this.generate, generateOwn: this.generateOwn, keys: this.keys, bodies: this.bodies } = this.values);
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
      const keyed = await withChosenKey(this, op, spec);
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

  /** True when a read showed no record at this key (choose-key.ts); without a read operation, never. */
  keyShownFree(collection: Collection, key: unknown, scope: Record<string, unknown>): Promise<boolean> {
    return keyShownFree(this, collection, key, scope);
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
    this.values.noteShownKeys(exchange);
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

  /** Why a request to an operation, with these path parameters, could change records the suite did not create (write-guard.ts), or undefined. */
  unsafe(op: Operation, params: Record<string, unknown>): string | undefined {
    return this.guard.unsafe(op, params);
  }

  /** Why a write's body refers to a record the suite did not create (write-guard.ts), or undefined. */
  unownedReference(op: Operation, body: unknown): string | undefined {
    return this.guard.unownedReference(op, body);
  }

  /** Requests refused because they could change records of others, by operation (the first reason each): listed under `Never sent`. */
  get refusedWrites(): Map<Operation, string> {
    return this.guard.refusedWrites;
  }

  /** Notes that a request of the operation was not sent, and why; gives the reason back. */
  neverSent(op: Operation, reason: string): string {
    return this.guard.neverSent(op, reason);
  }

  /** True when the caller vouched that the operation's writes touch nothing of others (--allow-write). */
  vouchedFor(op: Operation): boolean {
    return this.guard.vouchedFor(op);
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

  /** The value of a parameter a valid request sends (run-values.ts): a few draws until its schema accepts one. */
  parameterValue(op: Operation, parameter: ParameterSpec): unknown {
    return this.values.parameterValue(op, parameter);
  }

  /** A value its schema accepts (a few draws), or the last drawn when none is known to be. */
  validValue(schema: SchemaObject, propertyName?: string): unknown {
    return this.values.validValue(schema, propertyName);
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
