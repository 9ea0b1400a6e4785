/**
 * One plugin shape for the mock and the contract suite: what an API states only in prose, written
 * once and registered once. Its mock part registers rules, directives, decoders and seed hooks
 * (src/mock/registries/extension.ts); its contract part adds checks, phases and preparations
 * (src/contract/plugin.ts). Either part may be left out. The Petstore's is the first plugin, built
 * through these same parts.
 *
 * @example
 * const audit: Plugin = { name: 'audit', description: 'notes carry their author', mock: (parts) => (parts.rules.register('createNote', { ... }), true) };
 * await createMock({ plugins: [audit] });
 */
import type { ContractPlugin } from '../contract/plugin.js';
import type { MockPlugin } from '../mock/registries/extension.js';

export interface Plugin extends MockPlugin, ContractPlugin {}
