/**
 * The extension points of the mock: how anything that is not derived from the document gets into
 * it. The core knows no document in particular; the Petstore's rules are a plugin's mock part
 * (src/plugins/petstore) registered through these same parts, as anyone else's would be.
 *
 * @example
 * const audit: MockPlugin = {
 *   name: 'audit',
 *   mock(parts, document) {
 *     if (!document.operationIds.has('createNote')) return false;
 *     parts.rules.register('createNote', { before: (ctx) => void ((ctx.input.body as any).author ??= 'me') });
 *     return true;
 *   },
 * };
 * buildMock(doc, { plugins: [audit] });
 */
import type { Collection } from '../../openapi/operations/collection.js';
import type { Operation } from '../../openapi/operations/operation.js';
import type { OpenAPIDocument } from '../../openapi/document/openapi.js';
import type { StateStore } from '../../state/state-store.js';
import type { BodyEncoder } from '../respond/body-encoders.js';
import type { PreferDirective } from '../scenarios/read-scenario.js';
import type { SecuritySchemeCheck } from '../security/authenticate.js';
import type { BodyDecoder } from '../../openapi/validation/body-decoders.js';
import type { Registry } from '../../core/registry.js';
import type { RuleRegistry } from './rules.js';

/** Runs after a store is filled from the seed (fixtures and generated records), before anyone reads it. */
export type SeedHook = (store: StateStore) => void;

/** The registries a mock is assembled from: the built-ins are registered before any extension runs. */
export interface MockParts {
  /** How credentials are checked, by kind of security scheme (`apiKey`, `http:bearer`, `oauth2`...). */
  securitySchemes: Registry<SecuritySchemeCheck>;
  /** `Prefer` directives (and their `__name` query fallbacks): `code`, `example`, `dynamic`, `seed`, `delay`. */
  preferDirectives: Registry<PreferDirective>;
  /** Request body decoders by media type (`application/json`, `application/x-www-form-urlencoded`, `*\/*`). */
  bodyDecoders: Registry<BodyDecoder>;
  /** Encoders of response bodies that are not JSON, by media type (`text/*`). */
  bodyEncoders: Registry<BodyEncoder>;
  /** Business rules by operationId. */
  rules: RuleRegistry;
  /** Hooks run on every freshly seeded store (the shared one, each session's, after a reset). */
  seedHooks: SeedHook[];
}

/** What an extension may look at to decide whether the document is one it serves. */
export interface DocumentShape {
  api: OpenAPIDocument;
  operations: readonly Operation[];
  operationIds: ReadonlySet<string>;
  collections: readonly Collection[];
}

/** What the mock reads of a plugin (the whole plugin, contract part included, is one object: src/plugins/plugin.ts). */
export interface MockPlugin {
  /** Shown in the start-up banner and at /__admin/operations when the plugin applies. */
  name: string;
  /** Its part in the mock: registers its parts; returns false (registering nothing) for a document it does not serve. */
  mock?: (parts: MockParts, document: DocumentShape) => boolean;
}
