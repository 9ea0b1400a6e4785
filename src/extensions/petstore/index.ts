/**
 * The Petstore extension: the business rules `spec/openapi.yaml` states in prose, registered
 * through the same parts as anyone else's extension. It applies only to a document with every
 * collection and operation it names, so another document with a `placeOrder` is left alone.
 */
import type { MockExtension } from '../../registries/extension.js';
import { petstoreRules, petstoreRulesApply, petstoreSeedFixup } from './rules.js';

export const petstore: MockExtension = {
  name: 'petstore',
  setup(parts, document) {
    if (!petstoreRulesApply(document.operationIds, document.collections)) return false;
    for (const [operationId, rule] of Object.entries(petstoreRules)) parts.rules.register(operationId, rule);
    parts.seedHooks.push(petstoreSeedFixup);
    return true;
  },
};
