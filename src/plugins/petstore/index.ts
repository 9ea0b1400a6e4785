/**
 * The Petstore plugin: the business rules `spec/openapi.yaml` states in prose, for the mock (the
 * rules and the seed's fix-up, rules.ts) and for the contract suite (checks and a phase that show
 * them, contract.ts), registered through the same parts as anyone else's plugin. It serves only a
 * document with every collection and operation it names (operations.ts).
 */
import { sealContractPart } from '../../contract/plugin.js';
import type { Plugin } from '../plugin.js';
import { petstoreRules, petstoreRulesApply, petstoreSeedFixup } from './rules.js';

export const petstore: Plugin = {
  name: 'petstore',
  description: 'the rules the Petstore document states in prose: references, stock and pet status, Error.status, the deprecation Link',
  mock(parts, document) {
    if (!petstoreRulesApply(document.operationIds, document.collections)) return false;
    for (const [operationId, rule] of Object.entries(petstoreRules)) parts.rules.register(operationId, rule);
    parts.seedHooks.push(petstoreSeedFixup);
    return true;
  },
  // Loaded when a contract run asks for it: the mock, in a page too, never loads the suite's checks and phases (only the one-line type seal of src/contract/plugin.ts).
  contract: async () => sealContractPart((await import('./contract.js')).petstoreContract),
};
