/**
 * The only Petstore-specific code: the business rules the document describes in prose (stock,
 * pet status transitions, references between records). Everything else in the mock is derived
 * from the document. These rules switch on only for a document that has every operation and
 * collection they name, so another document with a `placeOrder` operation is left alone.
 *
 * Hooked operations: createPet, replacePet, updatePet, deletePet, deleteCategory, placeOrder,
 * updateOrder, deleteOrder, updateInventoryItem.
 */
import type { Collection } from '../../openapi/operations/collection.js';
import { ApiError } from '../../core/api-error.js';
import type { StateStore, StoredRecord } from '../../state/state-store.js';
import type { OperationRule, RuleContext } from '../../mock/actions/action.js';
import { missingPetstoreOperations, PETSTORE_COLLECTIONS } from './operations.js';

const SHIP_AFTER_MS = 3 * 24 * 3600 * 1000;

type Body = Record<string, unknown>;
const bodyOf = (ctx: RuleContext) => ctx.input.body as Body;

/** The categoryId of a pet body must name an existing category (422). */
function checkCategory(ctx: RuleContext): ApiError | void {
  const categoryId = bodyOf(ctx).categoryId;
  if (categoryId !== undefined && !ctx.store.collection('categories').get(categoryId)) {
    return new ApiError(422, 'CATEGORY_NOT_FOUND', `body.categoryId: no category has id ${String(categoryId)}.`);
  }
}

function defaultStatus(ctx: RuleContext): void {
  bodyOf(ctx).status ??= 'available';
}

function stockOf(store: StateStore, petId: unknown): number {
  return Number(store.collection('inventory').get(petId)?.quantity ?? 0);
}

/** Every change goes through the store, which keeps its indexes (pet status, order pet) right. */
function setStock(store: StateStore, petId: unknown, quantity: number): void {
  const inventory = store.collection('inventory');
  if (!inventory.update(petId, { quantity })) inventory.put({ petId, quantity, status: store.collection('pets').get(petId)?.status });
}

/** A pet's status and its inventory item's move together: the item shows the status of its pet. */
function setPetStatus(store: StateStore, petId: unknown, status: unknown): void {
  store.collection('pets').update(petId, { status });
  store.collection('inventory').update(petId, { status });
}

/** The inventory item of a pet shows the pet's status (after a create, a replace or an update of the pet). */
function syncInventoryStatus(ctx: RuleContext): void {
  const pet = ctx.record!;
  ctx.store.collection('inventory').update(pet.id, { status: pet.status });
}

/** An order is open until a client completes it (`complete: true`). */
const isOpen = (order: StoredRecord) => order.complete !== true;

function openOrders(store: StateStore, petId: unknown, except?: unknown): StoredRecord[] {
  return store.collection('orders').where('petId', petId).filter((o) => isOpen(o) && o.id !== except);
}

/** Stock going up makes a pet that was pending or sold available again. */
function restock(store: StateStore, petId: unknown, quantity: number): void {
  const stock = stockOf(store, petId) + quantity;
  setStock(store, petId, stock);
  const pet = store.collection('pets').get(petId);
  if (pet && stock > 0 && (pet.status === 'pending' || pet.status === 'sold')) setPetStatus(store, petId, 'available');
}

export const petstoreRules: Record<string, OperationRule> = {
  createPet: {
    before: (ctx) => checkCategory(ctx) ?? defaultStatus(ctx),
    after: (ctx) => void ctx.store.collection('inventory').put({ petId: ctx.record!.id, quantity: 0, status: ctx.record!.status }),
  },
  replacePet: { before: (ctx) => checkCategory(ctx) ?? defaultStatus(ctx), after: syncInventoryStatus },
  updatePet: { before: checkCategory, after: syncInventoryStatus },
  deletePet: {
    before: (ctx) => {
      const open = openOrders(ctx.store, ctx.current!.id);
      if (open.length) {
        return new ApiError(409, 'PET_HAS_OPEN_ORDERS', `Pet ${String(ctx.current!.id)} has ${open.length} open order(s) (${open.map((o) => o.id).join(', ')}); complete or delete them first.`);
      }
    },
    after: (ctx) => void ctx.store.collection('inventory').delete(ctx.current!.id),
  },
  deleteCategory: {
    before: (ctx) => {
      const id = ctx.current!.id;
      const pets = ctx.store.collection('pets').where('categoryId', id);
      if (pets.length) return new ApiError(409, 'CATEGORY_IN_USE', `Category ${String(id)} still has ${pets.length} pet(s); move or delete them first.`);
    },
  },
  placeOrder: {
    before: (ctx) => {
      const body = bodyOf(ctx);
      const pet = ctx.store.collection('pets').get(body.petId);
      if (!pet) return new ApiError(422, 'PET_NOT_FOUND', `body.petId: no pet has id ${String(body.petId)}.`);
      if (pet.status !== 'available') return new ApiError(409, 'PET_NOT_AVAILABLE', `Pet ${String(pet.id)} is ${String(pet.status)}, not available.`);
      const stock = stockOf(ctx.store, pet.id);
      if (stock < Number(body.quantity)) {
        return new ApiError(409, 'INSUFFICIENT_STOCK', `Pet ${String(pet.id)} has ${stock} in stock; the order asks for ${String(body.quantity)}.`);
      }
      body.complete = false; // an order starts open, whatever the client sent
      body.shipDate ??= new Date(ctx.now() + SHIP_AFTER_MS).toISOString();
    },
    after: (ctx) => {
      const order = ctx.record!;
      const stock = stockOf(ctx.store, order.petId) - Number(order.quantity);
      setStock(ctx.store, order.petId, stock);
      if (stock === 0) setPetStatus(ctx.store, order.petId, 'pending');
    },
  },
  updateOrder: {
    before: (ctx) => {
      if (!isOpen(ctx.current!) && bodyOf(ctx).complete === false) {
        return new ApiError(409, 'ORDER_TRANSITION_NOT_ALLOWED', `Order ${String(ctx.current!.id)} is complete; a complete order cannot be reopened.`);
      }
    },
    after: (ctx) => {
      const order = ctx.record!;
      if (!isOpen(ctx.current!) || isOpen(order)) return; // nothing moved
      if (stockOf(ctx.store, order.petId) === 0 && openOrders(ctx.store, order.petId, order.id).length === 0) setPetStatus(ctx.store, order.petId, 'sold');
    },
  },
  deleteOrder: {
    after: (ctx) => {
      if (isOpen(ctx.current!)) restock(ctx.store, ctx.current!.petId, Number(ctx.current!.quantity));
    },
  },
  updateInventoryItem: {
    after: (ctx) => {
      const pet = ctx.store.collection('pets').get(ctx.current!.petId);
      ctx.store.collection('inventory').update(ctx.current!.petId, { status: pet?.status ?? ctx.current!.status }); // the body sets only the quantity
      if (pet && Number(ctx.record!.quantity) > 0 && (pet.status === 'pending' || pet.status === 'sold')) setPetStatus(ctx.store, pet.id, 'available');
    },
  },
};

/**
 * Generated records satisfy the schemas, not the prose: after seeding, each inventory item shows
 * the status of its pet.
 */
export function petstoreSeedFixup(store: StateStore): void {
  const inventory = store.collection('inventory');
  for (const pet of [...store.collection('pets').all()]) inventory.update(pet.id, { status: pet.status });
}

/** The rules apply only to a document with every collection and operation the plugin names (operations.ts). */
export function petstoreRulesApply(operationIds: ReadonlySet<string>, collections: readonly Collection[]): boolean {
  const names = new Set(collections.map((c) => c.name));
  return PETSTORE_COLLECTIONS.every((n) => names.has(n)) && missingPetstoreOperations(operationIds).length === 0;
}
