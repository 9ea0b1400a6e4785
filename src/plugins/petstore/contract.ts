/**
 * The Petstore plugin's contract part: what the bundled document states in prose, written by hand as checks and
 * a phase registered like any other. References between records (422, 409), the stock and status
 * transitions of orders, `Error.status` equal to the HTTP status, and the `Link` of the deprecated
 * operation. On for the bundled document; for another, only with --plugin petstore, and then its
 * phase runs only if the document has every operation it names.
 */
import type { Exchange } from '../../contract/case.js';
import type { CheckId } from '../../contract/check-id.js';
import { caseCheck, statusVerdicts, type Check, type Verdict } from '../../contract/checks/check.js';
import type { ContractContext } from '../../contract/context.js';
import type { PurposeOf } from '../../contract/purpose.js';
import type { Phase } from '../../contract/phases/phase.js';
import type { CreatePreparation } from '../../contract/phases/records.js';
import type { ContractPart } from '../../contract/plugin.js';
import { missingPetstoreOperations, PETSTORE_OPERATIONS } from './operations.js';

type Row = Record<string, unknown>;

/**
 * A rule the document states in prose: the status it promises and, optionally, the value of a
 * field of the body (of its first item, for a list): `422` with `code: CATEGORY_NOT_FOUND`.
 */
export interface ProseRule {
  status: number;
  /** The promise in words, for the report: `409 CATEGORY_IN_USE`, `stock 1 after an order of 1 out of 2`. */
  promise: string;
  field?: { name: string; value: unknown; inFirstItem?: boolean };
}

/** The checks this plugin adds, by id, with what each of their cases must show. */
export interface PetstorePurposes {
  referential_integrity: ProseRule;
  state_transitions: ProseRule;
}

// Published with the library's types: src/index.ts exports PetstorePurposes, which keeps these.
declare module '../../contract/check-id.js' {
  interface CheckIds extends Record<keyof PetstorePurposes, true> {}
}
declare module '../../contract/purpose.js' {
  interface Purposes extends PetstorePurposes {}
}

type RulePurpose = PurposeOf<'referential_integrity'> | PurposeOf<'state_transitions'>;

/** The answer has the promised status and, where the rule names one, the promised value of a field. */
function keepsProseRule(ex: Exchange, { status, promise, field }: ProseRule): Verdict[] {
  const wrong = statusVerdicts(ex, [status], promise);
  if (wrong.length || !field) return wrong;
  const body = field.inFirstItem ? (Array.isArray(ex.json) ? ex.json[0] : undefined) : ex.json;
  const actual = (body as Row | undefined)?.[field.name];
  return actual === field.value ? [] : [{ received: `${ex.status} with ${field.name} = ${JSON.stringify(actual)}`, documented: promise, path: `body.${field.inFirstItem ? '0.' : ''}${field.name}` }];
}

/** A rule of the Petstore's prose for one step: `rule('referential_integrity', 422, '422 CATEGORY_NOT_FOUND', 'code', 'CATEGORY_NOT_FOUND')`. */
const rule = (check: RulePurpose['check'], status: number, promise: string, name?: string, value?: unknown): RulePurpose => ({ check, status, promise, field: name === undefined ? undefined : { name, value } });

/** A scenario cannot go on without a record a step failed to create (that step's answer is judged by the response checks). */
class ScenarioBroken extends Error {}

function created(exchange: Exchange, what: string): Row {
  if (exchange.status >= 300 || !exchange.json || typeof exchange.json !== 'object') throw new ScenarioBroken(`the scenario could not create ${what} (${exchange.case.method} ${exchange.case.path} answered ${exchange.status || exchange.error})`);
  return exchange.json as Row;
}

/** A small DSL over the operations: each step sends one request and may state what it expects. */
function steps(ctx: ContractContext) {
  const op = (id: string) => ctx.operations.find((o) => o.id === id)!;
  /** One request; a rule whose status is a refusal makes it a case sent wrong on purpose, refused with that status. */
  const send = (id: string, label: string, params: Row, body?: unknown, purpose?: RulePurpose) =>
    ctx.request(op(id), { label, params, body, purpose, ...(purpose && purpose.status >= 400 ? { intent: 'invalid' as const, fits: [purpose.status] } : {}) });
  return {
    async category(): Promise<Row> {
      return created(await send('createCategory', 'a category for a scenario', {}, { name: 'Scenario' }), 'a category');
    },
    async pet(stock: number, categoryId: unknown): Promise<Row> {
      const pet = created(await send('createPet', 'create a pet for a scenario', {}, { name: 'Scenario', categoryId }), 'a pet');
      await send('updateInventoryItem', `stock the pet with ${stock}`, { petId: pet.id }, { quantity: stock });
      return pet;
    },
    order: (petId: unknown, quantity: number, purpose?: RulePurpose) => send('placeOrder', `order ${quantity} of pet ${String(petId)}`, {}, { petId, quantity }, purpose),
    complete: (orderId: unknown) => send('updateOrder', `complete order ${String(orderId)}`, { orderId }, { complete: true }, rule('state_transitions', 200, `200 for complete order ${String(orderId)}`, 'complete', true)),
    reopen: (orderId: unknown) => send('updateOrder', `reopen order ${String(orderId)}`, { orderId }, { complete: false }, rule('state_transitions', 409, '409 ORDER_TRANSITION_NOT_ALLOWED for reopening a complete order', 'code', 'ORDER_TRANSITION_NOT_ALLOWED')),
    cancel: (orderId: unknown) => send('deleteOrder', `cancel open order ${String(orderId)} by deleting it`, { orderId }, undefined, rule('state_transitions', 204, `204 for cancel open order ${String(orderId)} by deleting it`)),
    expectStock: (petId: unknown, quantity: number, why: string) =>
      send('getInventoryItem', `stock of pet ${String(petId)} ${why}`, { petId }, undefined, rule('state_transitions', 200, `stock ${quantity} ${why}`, 'quantity', quantity)),
    /** The pet's status, and its inventory item's, which the document keeps in step with it. */
    async expectStatus(petId: unknown, status: string, why: string): Promise<void> {
      await ctx.request(op('listPets'), {
        label: `status of pet ${String(petId)} ${why}`,
        query: `id=${String(petId)}`,
        purpose: { check: 'state_transitions', status: 200, promise: `pet status ${status} ${why}`, field: { name: 'status', value: status, inFirstItem: true } },
      });
      await send('getInventoryItem', `inventory status of pet ${String(petId)} ${why}`, { petId }, undefined, rule('state_transitions', 200, `inventory item status ${status} (the pet's) ${why}`, 'status', status));
    },
    send,
  };
}

/** The lifecycle of orders needs a pet with stock: prepared here. */
const preparations: Record<string, CreatePreparation> = {
  async orders(ctx) {
    const s = steps(ctx);
    try {
      const pet = await s.pet(5, (await s.category()).id);
      return { petId: pet.id, quantity: 1 };
    } catch (error) {
      if (error instanceof ScenarioBroken) return undefined; // the order is then made of generated values (the failed step is reported)
      throw error;
    }
  },
  // The generic update of an order may only complete it.
  'orders:merge': async () => ({ complete: true }),
};

const RULE_CHECKS: CheckId[] = ['referential_integrity', 'state_transitions'];

const rulesPhase: Phase = {
  name: 'petstore rules',
  checks: RULE_CHECKS,
  changesState: true,
  async run(ctx) {
    const missing = missingPetstoreOperations(new Set(ctx.operations.map((op) => op.id)));
    if (missing.length > 0) {
      for (const op of ctx.operations) ctx.skip(RULE_CHECKS, op, `the Petstore plugin needs the operations ${PETSTORE_OPERATIONS.join(', ')}; this document lacks ${missing.join(', ')}`);
      return;
    }
    try {
      await scenarios(ctx);
    } catch (error) {
      if (!(error instanceof ScenarioBroken)) throw error;
      for (const op of ctx.operations) ctx.skip(RULE_CHECKS, op, error.message);
    }
  },
};

/** The Petstore's rules, played out on records the suite creates (a broken step stops the rest). */
async function scenarios(ctx: ContractContext): Promise<void> {
  const s = steps(ctx);
  const missing = 9_007_199_254_740_000;
  // Read first: a write names only keys a read showed free (or records the suite created).
  for (const [id, param] of [['getCategory', 'categoryId'], ['getPet', 'petId']]) {
    const read = ctx.operations.find((op) => op.id === id);
    if (read) await ctx.request(read, { label: `check that ${param} ${missing} is free`, params: { [param]: missing }, intent: 'unknown' });
  }

  // References.
  await s.send('createPet', 'a pet in a category that does not exist', {}, { name: 'Ghost', categoryId: missing }, rule('referential_integrity', 422, '422 CATEGORY_NOT_FOUND', 'code', 'CATEGORY_NOT_FOUND'));
  await s.order(missing, 1, rule('referential_integrity', 422, '422 PET_NOT_FOUND for an order of a pet that does not exist'));
  const category = await s.category();
  const member = await s.pet(0, category.id);
  await s.send('deleteCategory', 'delete a category that a pet uses', { categoryId: category.id }, undefined, rule('referential_integrity', 409, '409 CATEGORY_IN_USE', 'code', 'CATEGORY_IN_USE'));
  await s.send('updatePet', 'move the pet to a category that does not exist', { petId: member.id }, { categoryId: missing }, rule('referential_integrity', 422, '422 CATEGORY_NOT_FOUND'));
  await s.send('replacePet', 'replace the pet with one in a category that does not exist', { petId: member.id }, { name: 'Scenario', categoryId: missing }, rule('referential_integrity', 422, '422 CATEGORY_NOT_FOUND'));

  // A pet's status set directly shows on its inventory item too.
  await s.send('updatePet', 'take the pet off sale', { petId: member.id }, { status: 'sold' }, rule('state_transitions', 200, '200 for a status set directly', 'status', 'sold'));
  await s.expectStatus(member.id, 'sold', 'after its status was set directly');

  // Placing orders takes stock; the last unit makes the pet pending.
  const pet = await s.pet(2, category.id);
  const first = (await s.order(pet.id, 1, rule('state_transitions', 201, '201 for an order within the stock', 'complete', false))).json as Row;
  await s.expectStock(pet.id, 1, 'after an order of 1 out of 2');
  await s.expectStatus(pet.id, 'available', 'while stock remains');
  const second = (await s.order(pet.id, 1, rule('state_transitions', 201, '201 for an order of the last unit'))).json as Row;
  await s.expectStock(pet.id, 0, 'after the last unit was ordered');
  await s.expectStatus(pet.id, 'pending', 'once its last unit is in an open order');
  await s.order(pet.id, 1, rule('state_transitions', 409, '409 PET_NOT_AVAILABLE for an order of a pending pet'));
  await s.send('deletePet', 'delete a pet with open orders', { petId: pet.id }, undefined, rule('referential_integrity', 409, '409 PET_HAS_OPEN_ORDERS'));

  // Completing the last open order sells the pet; a complete order is never reopened.
  await s.complete(first?.id);
  await s.expectStatus(pet.id, 'pending', 'while another order is open');
  await s.complete(second?.id);
  await s.expectStatus(pet.id, 'sold', 'after its last open order was completed');
  await s.reopen(first?.id);

  // Restocking makes it available again.
  await s.send('updateInventoryItem', 'restock a sold pet', { petId: pet.id }, { quantity: 3 });
  await s.expectStatus(pet.id, 'available', 'after restocking');

  // Cancelling (deleting an open order) puts the stock back; too large an order is refused and takes nothing.
  const other = await s.pet(1, category.id);
  await s.order(other.id, 2, rule('state_transitions', 409, '409 INSUFFICIENT_STOCK for an order above the stock'));
  await s.expectStock(other.id, 1, 'after a refused order');
  const third = (await s.order(other.id, 1)).json as Row;
  await s.expectStatus(other.id, 'pending', 'once its last unit is in an open order');
  await s.cancel(third?.id);
  await s.expectStock(other.id, 1, 'after its open order was deleted');
  await s.expectStatus(other.id, 'available', 'after its open order was deleted');
}

/** "`status` (always equal to the HTTP status)": the document's description of `Error`. */
const errorStatus: Check = (_ctx, ex) => {
  if (ex.status < 400) return undefined;
  const body = ex.json as Row | undefined;
  if (!body || typeof body !== 'object' || !('status' in body)) return undefined;
  return body.status === ex.status ? [] : [{ received: `${ex.status} with Error.status = ${JSON.stringify(body.status)}`, documented: `Error.status equal to the HTTP status ${ex.status}` }];
};

/** The deprecated operation's `Link` points at the migration notes with rel="deprecation sunset" (its declared header's description). */
const deprecationLink: Check = (ctx, ex) => {
  if (!ex.case.operation.deprecated || ex.status >= 300 || !ctx.declaresHeader(ex, 'Link')) return undefined;
  const link = ex.headers.get('link') ?? '';
  return /rel="?[^"]*\b(deprecation|sunset)\b/.test(link) ? [] : [{ received: `${ex.status} with Link: ${link || '(none)'}`, documented: 'a Link with rel="deprecation" or rel="sunset" (RFC 9745, RFC 8594)' }];
};

export const petstoreContract: ContractPart = {
  checks: {
    referential_integrity: { check: caseCheck('referential_integrity', keepsProseRule), scope: 'applies to the requests of the Petstore\'s reference rules (categories, pets, orders)' },
    state_transitions: { check: caseCheck('state_transitions', keepsProseRule), scope: 'applies to the requests of the Petstore\'s stock and status rules' },
    error_shape: { check: errorStatus },
    response_headers_conformance: { check: deprecationLink },
  },
  phases: [rulesPhase],
  preparations,
};
