/**
 * What a document must have for the Petstore plugin to serve it: the operations its prose rules
 * involve and the collections they keep. One list for its mock part (the rules switch on) and its
 * contract part (the rules' scenarios run), so another document with a `placeOrder` is left alone.
 */
export const PETSTORE_OPERATIONS = ['createPet', 'replacePet', 'updatePet', 'deletePet', 'createCategory', 'deleteCategory', 'placeOrder', 'updateOrder', 'deleteOrder', 'listPets', 'getInventoryItem', 'updateInventoryItem'] as const;

export const PETSTORE_COLLECTIONS = ['pets', 'categories', 'orders', 'inventory'] as const;

/** The operations of PETSTORE_OPERATIONS a document lacks (none: the plugin serves it). */
export function missingPetstoreOperations(operationIds: ReadonlySet<string>): string[] {
  return PETSTORE_OPERATIONS.filter((id) => !operationIds.has(id));
}
