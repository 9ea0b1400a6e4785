/**
 * The real side of a stateful sequence: each step sends its requests through `ctx.request` (so
 * every case is confirmed by the document's validator and no write can touch records of others),
 * then holds the answers against the model and throws a `Violation` when a promise is broken.
 * Every step is written down as a `Step` (records named by the step that made them) with its
 * curl lines, so the shortest failing sequence can be reported and sent again; `replay` sends
 * such steps again and judges them by the same promises (`--replay`).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Collection, CrudAction } from '../../openapi/operations/collection.js';
import { mergedProperties } from '../../openapi/operations/schema-properties.js';
import type { Operation } from '../../openapi/operations/operation.js';
import { isPaginationParam, paginationOf } from '../../openapi/operations/pagination.js';
import type { CheckId } from '../check-id.js';
import { goneStatuses } from '../checks/lifecycle-checks.js';
import type { ContractContext } from '../context.js';
import { recordOf } from '../list-items.js';
import { walkList } from '../list-reader.js';
import { createRecord, creationOf, hasKey, recordParams, type CreatePreparation } from '../phases/records.js';
import { reproOf } from '../repro.js';
import { matchesAll, readableFields, type Filter, type ModelRecord, type SequenceModel } from './model.js';
import { createOverrides, ReplayedValues } from './replayed-values.js';
import { isFromStep, type Step } from './sequence.js';

type Row = Record<string, unknown>;

/** A promise of the document the server broke at a step: what was received and what is documented. */
export class Violation extends Error {
  override readonly name = 'Violation';
  constructor(
    readonly check: CheckId,
    readonly operation: Operation,
    readonly label: string,
    readonly received: string,
    readonly documented: string,
  ) {
    super(`${check}: ${label}: received ${received}, documented ${documented}`);
  }
}

/** At most this many pages are read to walk a list; past it, completeness and totals are not judged. */
const MAX_PAGES = 50;

export class SequenceRunner {
  readonly steps: Step[] = [];
  /** The curl lines of every request the steps sent, in order. */
  readonly repro: string[] = [];
  private readonly read?: Operation;
  private readonly list?: Operation;
  private readonly del?: Operation;

  constructor(
    private readonly ctx: ContractContext,
    readonly collection: Collection,
    private readonly prepare: Record<string, CreatePreparation>,
  ) {
    this.read = ctx.operation(collection, 'read');
    this.list = ctx.operation(collection, 'list');
    this.del = ctx.operation(collection, 'delete');
  }

  /** Creates a record with a valid body: a new one, or the one `given` (a step sent again) with references of this run's. */
  async create(model: SequenceModel, given?: Row): Promise<void> {
    const create = this.ctx.operation(this.collection, 'create')!;
    const label = `create a ${this.collection.name} record`;
    const overrides = given ? createOverrides(this.collection, create, given) : {};
    const record = await this.step({ operationId: create.id, label }, () => createRecord(this.ctx, this.collection, overrides, this.prepare));
    // A refused create is reported by the lifecycle's checks; the sequence goes on without the record.
    if (!record || !hasKey(record[this.collection.keyProperty])) return;
    const creation = creationOf(record);
    this.steps.at(-1)!.body = creation?.body;
    if (creation?.params && Object.keys(creation.params).length) this.steps.at(-1)!.params = creation.params;
    // A key the server gave again after its record was deleted (the next id of a table without AUTOINCREMENT) is a new record: the deleted one leaves the model.
    const key = record[this.collection.keyProperty];
    model.records = model.records.filter((r) => !(r.deleted && String(r.key) === String(key)));
    model.records.push({
      step: this.steps.length - 1,
      key: record[this.collection.keyProperty],
      params: recordParams(this.collection, record),
      // What the client wrote, and the key: fields the server sets (`updatedAt`) may change on any write, and the document promises nothing of them.
      expected: { [this.collection.keyProperty]: record[this.collection.keyProperty], ...readableFields(this.collection, creation?.body) },
      updated: false,
      deleted: false,
    });
  }

  /** Reads a record: as last written while it lives, gone (404) once deleted. */
  async readRecord(record: ModelRecord): Promise<void> {
    const read = this.read!;
    const label = record.deleted ? `read the ${this.collection.name} record of step ${record.step} after its delete` : `read the ${this.collection.name} record of step ${record.step}`;
    const exchange = await this.step({ operationId: read.id, label, params: this.named(record) }, () => this.ctx.request(read, { label, params: record.params, intent: record.deleted ? 'unknown' : 'valid' }));
    if (!this.ctx.sent(exchange)) return;
    if (record.deleted) {
      const gone = goneStatuses(exchange);
      if (!gone.includes(exchange.status)) throw new Violation('use_after_delete', read, label, `${exchange.status}`, `${gone.join(' or ')} for a deleted record, also after later requests`);
      return;
    }
    const check: CheckId = record.updated ? 'update_persists' : 'create_read_back';
    if (exchange.status !== 200) throw new Violation(check, read, label, `${exchange.status}`, `200 with the record as last written`);
    this.compare(check, read, label, record, recordOf(this.collection, exchange.json));
  }

  /** Replaces or merges a living record with another valid body (or the one `given`, a step sent again, its references and key the record's). */
  async update(record: ModelRecord, action: 'replace' | 'merge', given?: Row): Promise<void> {
    const op = this.ctx.operation(this.collection, action)!;
    const refs = Object.fromEntries(this.collection.references.map((r) => [r.property, record.expected[r.property]]));
    if (this.ctx.binding(op)?.keyFromBody) refs[this.collection.keyProperty] = record.key;
    const body = given ? { ...given, ...Object.fromEntries(Object.entries(refs).filter(([name]) => name in given)) } : this.ctx.bodies.valid(op, refs);
    if (!body) return;
    const label = `${action} the ${this.collection.name} record of step ${record.step}`;
    const exchange = await this.step({ operationId: op.id, label, params: this.named(record), body }, () => this.ctx.request(op, { label, params: record.params, body }));
    if (!this.ctx.sent(exchange)) return;
    // A refused update is judged by the lifecycle's checks (a rule the document does not state); the model keeps the record as it was.
    if (exchange.status < 200 || exchange.status >= 300) return;
    const written = readableFields(this.collection, body);
    // A field the update sent that the record's schema does not promise to read back as sent (readOnly there) is no longer known.
    const unknown = Object.keys(body).filter((name) => !(name in written));
    const kept = Object.fromEntries(Object.entries(record.expected).filter(([name]) => !unknown.includes(name)));
    record.expected = action === 'replace' ? { [this.collection.keyProperty]: record.key, ...written } : { ...kept, ...written };
    record.updated = true;
  }

  async remove(record: ModelRecord): Promise<void> {
    const del = this.del!;
    const label = `delete the ${this.collection.name} record of step ${record.step}`;
    const exchange = await this.step({ operationId: del.id, label, params: this.named(record) }, () => this.ctx.request(del, { label, params: record.params }));
    if (!this.ctx.sent(exchange)) return;
    if (exchange.status < 200 || exchange.status >= 300) throw new Violation('use_after_delete', del, label, `${exchange.status}`, 'a 2xx for the DELETE of an existing record');
    record.deleted = true;
  }

  /**
   * Lists with filters, walking every page of a size: every record listed matches every filter;
   * no record shows on two pages; the total a list states (`X-Total-Count`, where the document
   * declares it) is the number of records its pages held; every record of the sequence that the
   * filters select is listed as last written; none it deleted is. A list under a parent
   * (`/owners/{ownerId}/pets`) is read under the subject record's parent, and holds the records of
   * the sequence made under it.
   */
  async listRecords(model: SequenceModel, filters: Filter[], pageSize: number, subject?: ModelRecord): Promise<void> {
    const list = this.list!;
    const scope = subject ? this.scopeOf(subject) : {};
    const pathNames = list.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    if (pathNames.some((name) => !hasKey(scope[name]))) return;
    const filterQuery = filters.flatMap((f) => this.written(list, f)).join('&');
    const { limit } = paginationOf(list);
    const size = limit ? Math.min(pageSize, Number(limit.schema.maximum ?? pageSize)) : undefined;
    const label = `list ${this.collection.name}${filterQuery ? ` filtered by ${filterQuery}` : ''}${size ? `, pages of ${size}` : ''}`;
    const query: Row = Object.fromEntries(filters.map((f) => [f.name, f.values]));
    const params = subject && pathNames.length ? Object.fromEntries(pathNames.map((name) => [name, subject.params[name]])) : undefined;
    const othersBefore = this.ctx.writesByOthers(this.collection, true);
    const walked = await this.step({ operationId: list.id, label, params, query: size ? { ...query, [limit!.name]: size } : query }, () =>
      walkList(this.ctx, list, this.collection, { label, scope, filterQuery, size, maxPages: MAX_PAGES }),
    );
    // Another lane wrote to the collection while its pages were read: a record may rightly move between pages, so only each record is judged, not the walk.
    const whole = this.ctx.writesByOthers(this.collection) === othersBefore;
    const seen = new Map<string, Row>();
    for (const item of walked.rows) {
      const key = String(item[this.collection.keyProperty]);
      const wrong = filters.find((f) => !matchesAll(item, [f]));
      if (wrong) throw new Violation('filter_conformance', list, label, `a record whose ${wrong.name} is ${JSON.stringify(item[wrong.name])} (${this.collection.keyProperty} ${key})`, `only records matching every filter (${filterQuery}): filters combine with AND`);
      if (seen.has(key) && whole) throw new Violation('pagination_conformance', list, label, `${this.collection.keyProperty} ${key} on two pages`, 'pages that neither repeat nor skip a record');
      seen.set(key, item);
    }
    if (!walked.complete) return;
    const total = whole && this.declaresTotal(list) ? numberOrUndefined(walked.pages[0]!.headers.get('x-total-count')) : undefined;
    if (total !== undefined && !filters.length && total !== seen.size) throw new Violation('pagination_conformance', list, label, `X-Total-Count ${total} and ${seen.size} records on its pages`, 'a total equal to the records the pages hold');
    for (const record of model.records) {
      if (!matchesAll(record.expected, filters) || !isDeepStrictEqual(this.scopeOf(record), scope)) continue;
      const item = seen.get(String(record.key));
      if (record.deleted && item) throw new Violation('use_after_delete', list, label, `${this.collection.keyProperty} ${String(record.key)}, deleted at an earlier step, in the list`, 'a deleted record in no list, filtered or not');
      if (record.deleted) continue;
      if (!item && !whole) continue;
      if (!item) throw new Violation('list_contains_created', list, label, `a list without ${this.collection.keyProperty} ${String(record.key)} (made at step ${record.step}) on any page`, `every record the filters select${filterQuery ? ` (${filterQuery})` : ''}`);
      this.compare(record.updated ? 'update_persists' : 'create_read_back', list, label, record, item, true);
    }
  }

  /**
   * Sends a sequence found before (a cassette's steps) again, each step by its operation's role in
   * the collection, and judges it as exploration does: the same promises after every step, a broken
   * one thrown as the same `Violation`. A record a step names (`{ $fromStep: i }`) is the one step
   * i made on this run; what a create got anew (the key of the category made for it, the marker)
   * stands in for what it got then in the later steps (ReplayedValues). Gives why a step could not
   * be sent (unsafe, refused by the validator, naming an operation or a record there is not), or
   * undefined when every step ran.
   */
  async replay(steps: Step[], model: SequenceModel): Promise<string | undefined> {
    const values = new ReplayedValues();
    for (const [i, step] of steps.entries()) {
      const why = await this.replayStep(step, i, model, values);
      if (why) return `step ${i + 1} ${why}`;
    }
    return undefined;
  }

  private async replayStep(step: Step, index: number, model: SequenceModel, values: ReplayedValues): Promise<string | undefined> {
    const op = this.ctx.operations.find((o) => o.id === step.operationId);
    if (!op) return `names the operation ${step.operationId}, which the document does not have`;
    const binding = this.ctx.binding(op);
    if (binding?.collection !== this.collection) return `names ${op.id}, which is not an operation on the ${this.collection.name} collection's records`;
    const from = { exchanges: this.ctx.exchanges.length, unsent: this.ctx.confirmation.unconfirmed.length };
    const why = await this.replayAction(binding.action, step, model, values);
    if (why) return why;
    const unsent = this.ctx.confirmation.unconfirmed[from.unsent];
    if (unsent) return `was not sent: ${unsent.reason}`;
    if (this.steps.length !== index + 1 || !this.ctx.exchanges.slice(from.exchanges).some((e) => e.case.operation === op)) return "was not sent: no request of it could be built that the document's validator confirms and that touches only records of the suite's";
    if (binding.action === 'create') values.learn(step, this.steps[index]);
    return undefined;
  }

  private async replayAction(action: CrudAction, step: Step, model: SequenceModel, values: ReplayedValues): Promise<string | undefined> {
    const body = values.row(step.body);
    if (action === 'create') return void (await this.create(model, isRow(body) ? body : undefined));
    if (action === 'list') return this.replayList(step, model, values);
    const key = step.params?.[this.collection.keyParam];
    if (!isFromStep(key)) return `names no record of the sequence (its ${this.collection.keyParam} is not { "$fromStep": i })`;
    const record = model.records.find((r) => r.step === key.$fromStep);
    if (!record) return `needs the record step ${key.$fromStep + 1} made, and step ${key.$fromStep + 1} made none on this run`;
    if (action === 'read') return void (await this.readRecord(record));
    if (record.deleted) return `acts on the record of step ${record.step + 1}, deleted at an earlier step`;
    if (action === 'delete') return void (await this.remove(record));
    if (!isRow(body)) return 'has no body to send';
    return void (await this.update(record, action, body));
  }

  /** A list step again: its filters (with this run's values), its page size, under the parents of the record of the sequence made under the same ones. */
  private async replayList(step: Step, model: SequenceModel, values: ReplayedValues): Promise<string | undefined> {
    const list = this.list!;
    const { limit } = paginationOf(list);
    const query = step.query ?? {};
    const filters: Filter[] = Object.entries(query)
      .filter(([name]) => name !== limit?.name)
      .map(([name, written]) => ({ name, values: (Array.isArray(written) ? written : [written]).map((value) => values.of(name, value)) }));
    const pageSize = limit && query[limit.name] !== undefined ? Number(query[limit.name]) : 100;
    const pathNames = list.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const params = values.row(step.params ?? {});
    const subject = pathNames.length ? model.records.find((r) => pathNames.every((name) => String(r.params[name]) === String(params[name]))) : undefined;
    if (pathNames.length && !subject) return `lists under ${pathNames.join(', ')} of no record the sequence made on this run`;
    await this.listRecords(model, filters, pageSize, subject);
    return undefined;
  }

  /** The record's path parameters but its own key: the parents it was made under. */
  private scopeOf(record: ModelRecord): Row {
    return Object.fromEntries(Object.entries(record.params).filter(([name]) => name !== this.collection.keyParam));
  }

  /** True when the list's success answer declares `X-Total-Count`: only then is its value a promise. */
  private declaresTotal(list: Operation): boolean {
    return list.responses.some((r) => r.status.startsWith('2') && Object.keys(r.headers).some((name) => name.toLowerCase() === 'x-total-count'));
  }

  /** Deletes the records of the sequence still alive (its end, also after a failure): the run's clean-up deletes what this could not. */
  async cleanUp(model: SequenceModel): Promise<void> {
    if (!this.del) return;
    for (const record of model.records.filter((r) => !r.deleted)) {
      const exchange = await this.ctx.request(this.del, { label: `delete the ${this.collection.name} record of step ${record.step} at the end of the sequence`, params: record.params, intent: 'cleanup' });
      if (exchange.status >= 200 && exchange.status < 300) record.deleted = true;
    }
  }

  /** The record's path parameters, its own key named by the step that made it. */
  private named(record: ModelRecord): Row {
    return { ...record.params, [this.collection.keyParam]: { $fromStep: record.step } };
  }

  /** A filter as the query writes it: a repeated parameter (form, exploded) or values joined by commas. */
  private written(list: Operation, filter: Filter): string[] {
    const parameter = list.parameters.find((p) => p.in === 'query' && p.name === filter.name);
    const enc = (v: unknown) => `${encodeURIComponent(filter.name)}=${encodeURIComponent(String(v))}`;
    const exploded = parameter?.explode ?? true;
    if (parameter?.schema?.type !== 'array' || exploded) return filter.values.map(enc);
    return [`${encodeURIComponent(filter.name)}=${filter.values.map((v) => encodeURIComponent(String(v))).join(',')}`];
  }

  /** The record as read (by its URL or in a list) holds every field as last written (a list may leave fields out). */
  private compare(check: CheckId, op: Operation, label: string, record: ModelRecord, actual: Row | undefined, partial = false): void {
    if (!actual) throw new Violation(check, op, label, 'no record in the answer', 'the record as last written');
    const field = Object.keys(record.expected).find((name) => !(partial && !(name in actual)) && !isDeepStrictEqual(record.expected[name], actual[name]));
    if (field !== undefined) throw new Violation(check, op, label, `${field} = ${JSON.stringify(actual[field]) ?? 'nothing'} instead of ${JSON.stringify(record.expected[field])}`, 'the record as last written, by its URL and in every list that selects it');
  }

  /** Runs one step, writing it down with the curl lines of the requests it sent. */
  private async step<T>(step: Step, send: () => Promise<T>): Promise<T> {
    // Its own lane's exchanges: another lane's requests may be answered meanwhile (turns.ts).
    const exchanges = this.ctx.laneExchanges();
    const from = exchanges.length;
    this.steps.push(step);
    try {
      return await send();
    } finally {
      for (const exchange of exchanges.slice(from)) this.repro.push(reproOf(exchange.case, this.ctx.options.baseUrl.replace(/\/+$/, ''), this.ctx.options.token));
    }
  }
}

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const numberOrUndefined = (text: string | null) => (text === null || text.trim() === '' || Number.isNaN(Number(text)) ? undefined : Number(text));

/** The filters a list of the collection documents: query parameters named after a property, other than the key and paging. */
export function filterParameters(collection: Collection, list: Operation | undefined): string[] {
  if (!list) return [];
  const known = new Set(Object.keys(mergedProperties(collection.schema)));
  return list.parameters.filter((p) => p.in === 'query' && !isPaginationParam(p.name) && p.name !== collection.keyProperty && p.name !== `${collection.keyProperty}s` && known.has(p.name)).map((p) => p.name);
}
