/**
 * A request written as steps that send it again on another run: before it, the creates of the
 * suite's own records it names (in its path, or as references in its body), and the creates those
 * depend on before them, each record named by the step that makes it (`{ $fromStep: i }`) rather
 * than by the key the server gave it on this run (`--replay` fills in the key of its own run).
 *
 * @example
 * stepsTo(ctx, { op: updateInventoryItem, label, params: { petId: 24 }, body: { quantity: 99900 } })
 * // [create a category, create a pet { categoryId: { $fromStep: 0 } }, PUT { petId: { $fromStep: 1 } }]
 */
import type { Operation } from '../../openapi/operations/operation.js';
import type { Collection } from '../../openapi/operations/collection.js';
import type { ContractContext } from '../context.js';
import { pathParamsOf, type OwnRecord } from '../own-records.js';
import type { Step, StepValue } from './sequence.js';

type Row = Record<string, unknown>;

/** How deep the creates a request depends on are followed (a pet's category's parent...). */
const MAX_DEPTH = 6;

export interface StepRequest {
  op: Operation;
  label: string;
  params?: Row;
  query?: Row;
  body?: unknown;
}

export function stepsTo(ctx: ContractContext, request: StepRequest): Step[] {
  const steps: Step[] = [];
  const made = new Map<OwnRecord, number>();
  const own = (collection: Collection | undefined, key: unknown) => (collection ? ctx.own.find(collection, key) : undefined);

  /** The step that makes a record of the suite's, added (with what it depends on) the first time it is needed. */
  const stepFor = (record: OwnRecord, depth: number): number | undefined => {
    if (made.has(record)) return made.get(record);
    const exchange = record.made;
    if (!exchange || depth > MAX_DEPTH) return undefined;
    const named = name(exchange.case.operation, pathParamsOf(exchange), parsed(exchange.case.body), depth + 1);
    steps.push({ operationId: exchange.case.operation.id, label: exchange.case.label, ...named });
    made.set(record, steps.length - 1);
    return steps.length - 1;
  };

  /** A value that names a record of the suite's, as the step that makes it; any other, as it is. */
  const named = (record: OwnRecord | undefined, value: unknown, depth: number): StepValue => {
    const step = record && stepFor(record, depth);
    return step === undefined ? value : { $fromStep: step };
  };

  const name = (op: Operation, params: Row, body: unknown, depth: number): Pick<Step, 'params' | 'body'> => {
    // A path parameter names a record of each collection keyed by that name (`petId`: a pet, or the inventory item of one).
    const namedParams = Object.fromEntries(Object.entries(params).map(([parameter, value]) => [parameter, named(ctx.collections.filter((c) => c.keyParam === parameter).map((c) => own(c, value)).find(Boolean), value, depth)]));
    const collection = ctx.binding(op)?.collection;
    let namedBody = body;
    if (collection && body && typeof body === 'object' && !Array.isArray(body)) {
      namedBody = { ...body };
      for (const reference of collection.references) {
        const value = (body as Row)[reference.property];
        if (value !== undefined) (namedBody as Row)[reference.property] = named(own(ctx.collections.find((c) => c.name === reference.collection), value), value, depth);
      }
    }
    return { ...(Object.keys(namedParams).length ? { params: namedParams } : {}), ...(namedBody === undefined ? {} : { body: namedBody }) };
  };

  const last = name(request.op, request.params ?? {}, request.body, 0);
  steps.push({ operationId: request.op.id, label: request.label, ...last, ...(request.query ? { query: request.query } : {}) });
  return steps;
}

function parsed(body: string | Uint8Array | undefined): unknown {
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
