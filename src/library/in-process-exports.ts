/**
 * What `petstore-mock-kit` and `petstore-mock-kit/browser` both export: the in-process mock, its
 * state and its plugins, with every type their signatures name (classes with their
 * constructors, as a rule's veto is an `ApiError`).
 */
export { DEMO_API_KEY, type OperationAnswer } from '../mock/app.js';
export { DocumentLoadError } from '../openapi/document/document.js';
export { DEFAULT_PLUGINS, petstore } from '../plugins/index.js';
export type { Plugin } from '../plugins/plugin.js';
export type { ContractPlugin, SealedContractPart } from '../contract/plugin.js';
export type { InProcessMock } from './in-process-mock.js';
export type { OAuthOptions } from '../mock/oauth/oauth-options.js';
export type { SelfCheckCounts } from '../mock/respond/self-check.js';
export type { MockPlugin, MockParts, DocumentShape, SeedHook } from '../mock/registries/extension.js';
export type { ClientUrls } from '../mock/pipeline/client-base.js';
export { Registry } from '../core/registry.js';
export { RuleRegistry } from '../mock/registries/rules.js';
export { ApiError } from '../core/api-error.js';
export { QueryString } from '../core/query-string.js';
export type { StateStore, StoredRecord, RecordCollection, CollectionSnapshot } from '../state/state-store.js';
export type { StateSnapshot } from '../state/snapshot.js';
export { StateBudget, type StateLimits } from '../state/budget.js';
export type { OpenAPIDocument, OpenAPIExtensions } from '../openapi/document/openapi.js';
export type { SchemaObject as OpenAPISchema } from '../openapi/document/schema.js';
export type { OperationObject as OpenAPIOperation, SecuritySchemeObject as OpenAPISecurityScheme } from '../openapi/document/objects.js';
export { MOUNT_ENV, type MountPoint } from '../mock/pipeline/client-base.js';
